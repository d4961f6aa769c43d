"""DynamicToStatic: dynamic ops whose shapes fold become static ops, the values are the same
on the interpreter before and after, a function without them is left as it was, and a
build on target c compiles what the pass made static (optimize runs it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay, transform

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(21)


def op_names(mod: IRModule) -> list[str]:
    return [op.name for op in mod.module.walk() if op.name.startswith("relay.")]


def graph(seed: int) -> tuple[IRModule, list[Array]]:
    """A chain of dynamic ops whose shapes come from shape_of of static values and constant
    arithmetic on them; each link reads the previous one's (dynamic) result."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(d) for d in rng.integers(1, 4, size=3))
    x = relay.var("x", shape=shape)
    like = relay.var("like", shape=(int(np.prod(shape)),))
    out = relay.reshape(x, relay.shape_of(like))  # flat
    out = relay.reshape(out, relay.shape_of(x, "int64"))  # back
    reps = relay.multiply(relay.shape_of(x), relay.const(np.zeros(3, "int32"))) + relay.const(
        np.array([1, 2, 1], "int32")
    )
    out = relay.tile(relay.exp(out), reps)
    ones = relay.ones(relay.shape_of(out), "float32")
    widths = relay.const(np.array([[0, 1], [1, 0], [0, 0]])) + relay.const(
        np.zeros((3, 2), "int32")
    )
    out = relay.nn.pad(out + ones, widths, 0.5)  # widths computed: relay.dyn.nn.pad
    grown = relay.broadcast_to(relay.const(np.float32(2.0)), relay.shape_of(out))
    out = relay.multiply(out, grown)
    mod = IRModule.from_expr(relay.Function([x, like], out))
    inputs = [rng.standard_normal(shape).astype("float32"), np.zeros(like_shape(shape), "float32")]
    return mod, inputs


def like_shape(shape: tuple[int, ...]) -> tuple[int]:
    return (int(np.prod(shape)),)


@pytest.mark.parametrize("seed", range(3))
def test_same_values_before_and_after(seed: int) -> None:
    mod, inputs = graph(seed)
    assert {"relay.dyn.reshape", "relay.dyn.tile", "relay.dyn.nn.pad"} <= set(op_names(mod))
    before_text = str(mod)
    out = transform.DynamicToStatic()(mod)
    assert str(mod) == before_text  # the API leaves its input as it was
    assert not any(name.startswith("relay.dyn.") for name in op_names(out))
    assert "relay.shape_of" not in op_names(out)  # the folded shape computations are gone
    out.module.verify()
    got, want = xrelay.evaluate(out, *inputs), xrelay.evaluate(mod, *inputs)
    assert got.shape == want.shape
    assert "?" not in str(out["main"].ret_type)
    np.testing.assert_array_equal(got, want)


def test_function_without_dynamic_ops_is_unchanged() -> None:
    x = relay.var("x", shape=(2, 3))
    mod = IRModule.from_expr(relay.Function([x], relay.reshape(relay.exp(x), (3, 2))))
    assert str(transform.DynamicToStatic()(mod)) == str(mod)


def test_unknown_shape_stays_dynamic() -> None:
    x, s = relay.var("x", shape=(2, 3)), relay.var("s", shape=(2,), dtype="int64")
    mod = IRModule.from_expr(relay.Function([x, s], relay.reshape(x, s)))
    out = transform.DynamicToStatic()(mod)
    assert "relay.dyn.reshape" in op_names(out)
    data = RNG.standard_normal((2, 3)).astype("float32")
    np.testing.assert_array_equal(xrelay.evaluate(out, data, np.array([3, 2])), data.reshape(3, 2))


def test_build_on_target_c_matches_the_interpreter(tmp_path: Path) -> None:
    mod, inputs = graph(7)
    lib = xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    assert not any(name.startswith("relay.dyn.") for name in op_names(lib.module))
    np.testing.assert_allclose(lib(*inputs), xrelay.evaluate(mod, *inputs), rtol=1e-5, atol=1e-6)
