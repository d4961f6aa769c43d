"""dnnl's log_softmax (oneDNN softmax, log algorithm), built with `xrelay.build(["dnnl", "c"])`
and checked against the interpreter, NaN and infinities included; softmax and log_softmax
on an axis that is not the last stay on the host (oneDNN 2.6 has only its reference kernel)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def dnnl_ops(lib: Any) -> list[str]:
    """The dnnl ops of the built module, in order."""
    return [
        op.name
        for function in lib.module.module.ops
        for op in function.walk()
        if op.name.startswith("dnnl.")
    ]


def with_specials(x: Array) -> Array:
    """`x` with a NaN in row 0, +inf in row 1, a row of -inf and a row of huge values."""
    rows = x.reshape(-1, x.shape[-1])
    rows[0, 1] = np.nan
    rows[1, -1] = np.inf
    rows[2, :] = -np.inf
    rows[3, ::2] = 3e38
    return x


@pytest.mark.parametrize("shape", [(5, 33), (3, 4, 17), (9,), (2, 3, 2, 31)])
def test_log_softmax_last_axis_runs_in_onednn(cache: Path, shape: tuple[int, ...]) -> None:
    x = relay.var("x", shape=shape)
    mod = IRModule.from_expr(relay.Function([x], relay.nn.log_softmax(x)))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert dnnl_ops(lib) == ["dnnl.log_softmax"]
    assert "dnnl_softmax_log" in str(lib.sources.files["dnnl.c"])
    rng = np.random.default_rng(len(shape))
    data = rng.uniform(-30, 30, shape).astype("float32")
    if len(shape) >= 2 and data.size // shape[-1] >= 4:
        data = with_specials(data)
    with np.errstate(invalid="ignore"):  # the interpreter's -inf - -inf
        want = np.asarray(xrelay.evaluate(mod, data))
    got = lib(data)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5 * np.nanmax(np.abs(want)))


def test_log_softmax_after_dense_in_one_partition(cache: Path) -> None:
    """A classifier head: dense + bias, then log_softmax, all in oneDNN."""
    rng = np.random.default_rng(7)
    x = relay.var("x", shape=(3, 20))
    w = relay.const(rng.standard_normal((11, 20)).astype("float32"))
    b = relay.const(rng.standard_normal(11).astype("float32"))
    y = relay.nn.log_softmax(relay.nn.bias_add(relay.nn.dense(x, w), b))
    mod = IRModule.from_expr(relay.Function([x], y))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert dnnl_ops(lib) == ["dnnl.dense", "dnnl.log_softmax"]
    data = rng.standard_normal((3, 20)).astype("float32")
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op", [relay.nn.softmax, relay.nn.log_softmax])
def test_other_axes_stay_on_the_host(cache: Path, op: Callable[..., relay.Expr]) -> None:
    x = relay.var("x", shape=(4, 5, 6))
    mod = IRModule.from_expr(relay.Function([x], op(x, axis=1)))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    assert dnnl_ops(lib) == []
    data = np.random.default_rng(3).standard_normal((4, 5, 6)).astype("float32")
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data), rtol=1e-5, atol=1e-6)
