"""DefuseOps undoes FuseOps: the same graph (structurally) and the same numbers; a function
read from a fused module keeps its fused callees when it becomes a new module."""

from __future__ import annotations

import numpy as np
from testlib.numerics import run_and_check

import xrelay
from xrelay import IRModule, relay, transform


def network() -> IRModule:
    x = relay.var("x", shape=(1, 4, 6, 6))
    w = relay.const(np.random.default_rng(3).standard_normal((4, 4, 3, 3)).astype("float32"))
    y = relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1)))
    z = relay.concatenate([y, relay.exp(x)], axis=1)
    return IRModule.from_expr(relay.Function([x], relay.nn.max_pool2d(z, pool_size=(2, 2))))


def test_defuse_inverts_fuse() -> None:
    original = network()
    fused = run_and_check(original, transform.FuseOps(), opt_level=3)
    assert len(list(fused)) > 1
    defused = run_and_check(fused, transform.DefuseOps())
    assert list(defused) == ["main"]
    xrelay.ir.assert_structural_equal(defused["main"], original["main"], map_free_vars=True)


def test_from_expr_brings_the_fused_callees() -> None:
    fused = transform.FuseOps()(network())
    copy = IRModule.from_expr(fused["main"])
    assert sorted(copy) == sorted(fused)
    value = np.random.default_rng(5).standard_normal((1, 4, 6, 6)).astype("float32")
    np.testing.assert_array_equal(xrelay.evaluate(copy, value), xrelay.evaluate(fused, value))
