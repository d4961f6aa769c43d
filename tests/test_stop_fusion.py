"""relay.annotation.stop_fusion: identity in the interpreter and on target c (its own copy
kernel when FuseOps does not run), a barrier FuseOps does not fuse across and then
removes, and the numbers unchanged by it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import xrelay
from xrelay import IRModule, relay
from xrelay.relay import transform

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(3)


def graph(barrier: bool) -> IRModule:
    x = relay.var("x", shape=(4, 5))
    i = relay.var("i", shape=(3,), dtype="int8")
    y = relay.add(x, relay.const(1.0))
    if barrier:
        y = relay.annotation.stop_fusion(y)
    z = relay.exp(y)
    return IRModule.from_expr(
        relay.Function([x, i], relay.Tuple([z, relay.annotation.stop_fusion(i)]))
    )


def inputs() -> tuple[Array, Array]:
    return RNG.standard_normal((4, 5)).astype("float32"), np.array([-128, 0, 127], "int8")


def fused_functions(mod: IRModule) -> list[list[str]]:
    """The op names of each Primitive function FuseOps made, in module order."""
    return [
        [op.name for op in f.walk() if op.name.startswith("relay.")]
        for f in mod.module.ops
        if "Primitive" in f.attributes
    ]


def test_identity_in_the_interpreter() -> None:
    x, i = inputs()
    got = xrelay.evaluate(graph(True), x, i)
    np.testing.assert_array_equal(got[1], i)
    assert got[1].dtype == np.int8
    np.testing.assert_array_equal(got[0], xrelay.evaluate(graph(False), x, i)[0])


def test_fuse_ops_stops_at_the_barrier_and_removes_it() -> None:
    with_barrier = transform.FuseOps()(graph(True))
    without = transform.FuseOps()(graph(False))
    assert fused_functions(with_barrier) == [
        ["relay.constant", "relay.add"],
        ["relay.exp"],
    ]
    assert fused_functions(without) == [["relay.constant", "relay.add", "relay.exp"]]
    assert "stop_fusion" not in str(with_barrier)
    x, i = inputs()
    for mod in (with_barrier, without):
        got = xrelay.evaluate(mod, x, i)
        np.testing.assert_array_equal(got[0], xrelay.evaluate(graph(True), x, i)[0])
        np.testing.assert_array_equal(got[1], i)


def test_c_target_matches_the_interpreter(tmp_path: Path) -> None:
    x, i = inputs()
    mod = graph(True)
    want = xrelay.evaluate(mod, x, i)
    with transform.PassContext(disabled_pass=["FuseOps"]):
        lib = xrelay.build(mod, options={"cache_dir": tmp_path})
    assert "stop_fusion" in str(lib.module)  # the op reached the C code generator
    got = lib(x, i)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-6)
    np.testing.assert_array_equal(got[1], want[1])


def test_convert_layout_carries_the_new_layout_through() -> None:
    x = relay.var("x", shape=(1, 2, 5, 5))
    w = relay.const(RNG.standard_normal((3, 2, 3, 3)).astype("float32"))
    y = relay.nn.relu(relay.annotation.stop_fusion(relay.nn.conv2d(x, w, padding=(1, 1))))
    mod = IRModule.from_expr(relay.Function([x], y))
    data = RNG.standard_normal((1, 2, 5, 5)).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, data))
    out = transform.ConvertLayout({"nn.conv2d": ["NHWC", "default"]})(mod)
    (op,) = [op for op in out.module.walk() if op.name == "relay.annotation.stop_fusion"]
    assert op.operands[0].type.get_shape() == (1, 5, 5, 3)  # type: ignore[attr-defined]
    np.testing.assert_allclose(np.asarray(xrelay.evaluate(out, data)), want, rtol=1e-5, atol=1e-6)
