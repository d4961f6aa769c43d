"""GELU in erf form as oneDNN's gelu_erf post-op of dense (`["dnnl", "c"]`), in the op orders
users and ONNX exporters write, checked against the interpreter, NaN and infinities included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Gelu = Callable[[relay.Expr], relay.Expr]


def c(value: float) -> relay.Expr:
    return relay.const(np.float32(value))


def benchmark_order(x: relay.Expr) -> relay.Expr:
    """(x * 0.5) * (erf(x * 1/sqrt2) + 1): benchmarks/inference.py's transformer."""
    return relay.multiply(
        relay.multiply(x, c(0.5)), relay.add(relay.erf(relay.multiply(x, c(2**-0.5))), c(1.0))
    )


def onnx_order(x: relay.Expr) -> relay.Expr:
    """(x * (erf(x / sqrt2) + 1)) * 0.5: PyTorch's ONNX export."""
    return relay.multiply(
        relay.multiply(x, relay.add(relay.erf(relay.divide(x, c(2**0.5))), c(1.0))), c(0.5)
    )


def swapped_order(x: relay.Expr) -> relay.Expr:
    """x * (0.5 * (1 + erf(1/sqrt2 * x))), every operand the other way round."""
    one_plus = relay.add(c(1.0), relay.erf(relay.multiply(c(2**-0.5), x)))
    return relay.multiply(x, relay.multiply(c(0.5), one_plus))


def wrong_constant(x: relay.Expr) -> relay.Expr:
    """Not GELU: 0.4 for 0.5."""
    return relay.multiply(
        relay.multiply(x, c(0.4)), relay.add(relay.erf(relay.multiply(x, c(2**-0.5))), c(1.0))
    )


def dense_gelu(gelu: Gelu, rows: int, depth: int, units: int, bias: str | None) -> IRModule:
    rng = np.random.default_rng(rows * 100 + units)
    x = relay.var("x", shape=(rows, depth))
    w = relay.const(rng.standard_normal((units, depth)).astype("float32"))
    y = relay.nn.dense(x, w)
    b = relay.const(rng.standard_normal(units).astype("float32"))
    if bias == "bias_add":
        y = relay.nn.bias_add(y, b)
    elif bias == "add":
        y = relay.add(y, b)
    return IRModule.from_expr(relay.Function([x], gelu(y)))


def built_ops(lib: Any) -> tuple[list[str], list[str]]:
    """The dnnl ops and the host's relay ops of a built library's module."""
    dnnl_ops: list[str] = []
    host: list[str] = []
    for function in lib.module.module.ops:
        for op in function.walk():
            if op.name.startswith("dnnl."):
                dnnl_ops.append(op.name)
            elif "Compiler" not in function.attributes and op.name.startswith("relay."):
                host.append(op.name)
    return dnnl_ops, [op for op in host if op not in ("relay.constant", "relay.tuple_get_item")]


def inputs(rows: int, depth: int) -> Array:
    """Values of a few units' size, a NaN, a row of +inf and one of -inf."""
    data = np.random.default_rng(depth).uniform(-3, 3, (rows, depth)).astype("float32")
    data[0, 0] = np.nan
    data[1, :] = np.inf
    data[2, :] = -np.inf
    return data


def check(lib: Any, mod: IRModule, data: Array) -> None:
    got = lib(data)
    with np.errstate(all="ignore"):
        want = np.asarray(xrelay.evaluate(mod, data))
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    scale = float(np.nanmax(np.abs(np.where(np.isinf(want), np.nan, want))))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * max(scale, 1.0))


@pytest.mark.parametrize("gelu", [benchmark_order, onnx_order, swapped_order])
@pytest.mark.parametrize(("shape", "bias"), [((5, 19, 23), "bias_add"), ((7, 33, 17), "add"),
                                             ((3, 8, 129), None)])  # fmt: skip
def test_gelu_is_a_dense_post_op(
    cache: Path, gelu: Gelu, shape: tuple[int, int, int], bias: str | None
) -> None:
    rows, depth, units = shape
    mod = dense_gelu(gelu, rows, depth, units, bias)
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert built_ops(lib) == (["dnnl.dense"], [])
    assert "dnnl_eltwise_gelu_erf" in str(lib.sources.files["dnnl.c"])
    check(lib, mod, inputs(rows, depth))
    with np.errstate(all="ignore"):  # the dnnl op's reference agrees with relay's ops
        lowered = np.asarray(xrelay.evaluate(lib.module, inputs(rows, depth)))
        want = np.asarray(xrelay.evaluate(mod, inputs(rows, depth)))
    np.testing.assert_allclose(lowered, want, rtol=1e-6, atol=1e-6)


def test_gelu_of_infinite_pre_activations(cache: Path) -> None:
    """Positive weights: a row of +inf gives +inf, one of -inf NaN (-inf * 0), as relay."""
    x = relay.var("x", shape=(3, 4))
    w = np.abs(np.random.default_rng(2).standard_normal((6, 4))).astype("float32") + 0.1
    mod = IRModule.from_expr(relay.Function([x], onnx_order(relay.nn.dense(x, relay.const(w)))))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert built_ops(lib)[0] == ["dnnl.dense"]
    data = np.array([[np.inf] * 4, [-np.inf] * 4, [-30, -20, 1, 2]], "float32")
    check(lib, mod, data)


def test_not_gelu_stays_as_it_was(cache: Path) -> None:
    """A wrong constant: the dense alone in oneDNN, the erf on the host."""
    mod = dense_gelu(wrong_constant, 4, 9, 11, "bias_add")
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    dnnl_ops, host = built_ops(lib)
    assert "dnnl.dense" in dnnl_ops
    assert "relay.erf" in host
    check(lib, mod, inputs(4, 9))


def distributed_wrong(x: relay.Expr) -> relay.Expr:
    """Not GELU: x * (erf(x / sqrt2) * 0.5 + 1)."""
    return relay.multiply(
        x, relay.add(relay.multiply(relay.erf(relay.divide(x, c(2**0.5))), c(0.5)), c(1.0))
    )


def test_distributed_half_with_a_one_is_not_gelu(cache: Path) -> None:
    mod = dense_gelu(distributed_wrong, 4, 9, 11, None)
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert "relay.erf" in built_ops(lib)[1]
    check(lib, mod, inputs(4, 9))


def test_gelu_feeding_a_dense_keeps_its_half_in_the_next_weights(cache: Path) -> None:
    """(x * (erf(x / sqrt2) + 1)) * 0.5 into another dense: FoldScaleAxis moves the 0.5 into
    that dense's weights, leaving twice GELU, oneDNN's gelu_erf post-op scaled by 2."""
    rng = np.random.default_rng(5)
    x = relay.var("x", shape=(6, 13))
    first = relay.nn.dense(x, relay.const(rng.standard_normal((21, 13)).astype("float32")))
    first = relay.nn.bias_add(first, relay.const(rng.standard_normal(21).astype("float32")))
    second = relay.nn.dense(
        onnx_order(first), relay.const(rng.standard_normal((7, 21)).astype("float32"))
    )
    mod = IRModule.from_expr(relay.Function([x], second))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert built_ops(lib) == (["dnnl.dense", "dnnl.dense"], [])
    assert 'eltwise = "gelu_erf_x2"' in lib.module.astext()
    assert "dnnl_eltwise_gelu_erf, 2.0f," in str(lib.sources.files["dnnl.c"])
    check(lib, mod, inputs(6, 13))
    with np.errstate(all="ignore"):
        lowered = np.asarray(xrelay.evaluate(lib.module, inputs(6, 13)))
        want = np.asarray(xrelay.evaluate(mod, inputs(6, 13)))
    np.testing.assert_allclose(lowered, want, rtol=1e-5, atol=1e-5)
