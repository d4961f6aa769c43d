"""xrelay_myacc end to end: its references, and xrelay.build(target=["myacc", "c"]) against
the interpreter (the package is found by its entry point: nothing here registers it)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from xrelay_myacc import reference

import xrelay
from xrelay import byoc, relay, transform
from xrelay.ext import DiagnosticError, ops


def test_gelu_reference_is_the_erf_formula() -> None:
    x = np.array([-3.0, -1.0, -0.25, 0.0, 0.5, 2.0], dtype="float32")
    expected = [v * 0.5 * (1 + math.erf(v / math.sqrt(2))) for v in x.tolist()]
    got = reference.gelu(x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_matmul_relu_reference_is_dense_then_relu() -> None:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype("float32")
    w = rng.standard_normal((5, 4)).astype("float32")
    expected = [
        [max(sum(float(x[m, k]) * float(w[n, k]) for k in range(4)), 0.0) for n in range(5)]
        for m in range(3)
    ]
    got = reference.matmul_relu(x, w)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)
    assert (got == 0).any()
    assert (got > 0).any()


def gelu(x: relay.Expr, *, divided: bool = False) -> relay.Expr:
    """`x * 0.5 * (1 + erf(x * 0.7071...))` (or `x / 1.4142...` inside the erf)."""
    scaled = (
        relay.divide(x, relay.const(math.sqrt(2.0)))
        if divided
        else relay.multiply(x, relay.const(math.sqrt(0.5)))
    )
    one_plus = relay.add(relay.const(1.0), relay.erf(scaled))
    return relay.multiply(relay.multiply(x, relay.const(0.5)), one_plus)


def mlp() -> xrelay.IRModule:
    """dense -> relu -> GELU -> dense -> relu -> tanh: two kernels of each kind, host tanh."""
    x = relay.var("x", shape=(4, 16))
    w1 = relay.var("w1", shape=(32, 16))
    w2 = relay.var("w2", shape=(8, 32))
    h = gelu(relay.nn.relu(relay.nn.dense(x, w1)))
    y = gelu(relay.nn.relu(relay.nn.dense(h, w2)), divided=True)
    return xrelay.IRModule.from_expr(relay.Function([x, w1, w2], relay.tanh(y)))


def inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    return [
        rng.standard_normal(shape).astype("float32") / 2 for shape in ((4, 16), (32, 16), (8, 32))
    ]


def test_partition_for_offloads_the_kernels() -> None:
    partitioned = byoc.partition_for(mlp(), "myacc")
    composites = sorted(
        op.composite.data for op in partitioned.module.walk() if isinstance(op, ops.CompositeOp)
    )
    assert composites == ["myacc.dense_relu"] * 2 + ["myacc.gelu"] * 2


def test_build_matches_the_interpreter(tmp_path: Path) -> None:
    mod = mlp()
    lib = xrelay.build(mod, target=["myacc", "c"], options={"cache_dir": tmp_path})
    kernels = [op.name for op in lib.module.module.walk() if op.name.startswith("myacc.")]
    assert sorted(kernels) == ["myacc.gelu"] * 2 + ["myacc.matmul_relu"] * 2
    assert not any(op.name == "relay.erf" for op in lib.module.module.walk())
    args = inputs()
    expected = np.asarray(xrelay.evaluate(mod, *args))
    got = np.asarray(lib(*args))
    scale = float(np.abs(expected).max())
    assert scale > 0.1
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * scale)
    # The lowered module, interpreted with the myacc references, computes the same.
    np.testing.assert_allclose(xrelay.evaluate(lib.module, *args), expected, rtol=1e-5, atol=1e-6)


def test_a_partition_whose_lowering_is_disabled_is_an_error(tmp_path: Path) -> None:
    # The target names its dialect: a myacc function still holding relay ops never
    # silently becomes host C.
    disabled = transform.PassContext(disabled_pass=["convert-relay-to-myacc"])
    with disabled, pytest.raises(DiagnosticError, match="cannot be emitted for target 'myacc'"):
        xrelay.build(mlp(), target=["myacc", "c"], options={"cache_dir": tmp_path})
