"""`DFPatternCallback` and `rewrite`: fixed point, `rewrite_once`, node maps, sharing kept."""

from __future__ import annotations

import numpy as np
import pytest

import xrelay
from xrelay import relay
from xrelay.relay.dataflow_pattern import DFPattern, DFPatternCallback, is_op, rewrite, wildcard


def var(name: str) -> relay.Var:
    return relay.var(name, shape=(2, 3), dtype="float32")


class AddToSubtract(DFPatternCallback):
    def __init__(self, rewrite_once: bool = False):
        super().__init__(rewrite_once=rewrite_once)
        self.x, self.y = wildcard(), wildcard()
        self.pattern = self.x + self.y
        self.seen: list[dict[DFPattern, list[object]]] = []

    def callback(
        self, pre: relay.Expr, post: relay.Expr, node_map: dict[DFPattern, list[object]]
    ) -> relay.Expr:
        self.seen.append(node_map)
        return relay.subtract(node_map[self.x][0], node_map[self.y][0])


def test_rewrite_replaces_every_match_bottom_up() -> None:
    x, y, z = var("x"), var("y"), var("z")
    callback = AddToSubtract()
    out = rewrite(callback, (x + y) + z)
    xrelay.ir.assert_structural_equal(out, (x - y) - z)
    # the outer match saw its inner operand already rewritten (TVM's `post` node map)
    outer = [m for m in callback.seen if m[callback.y][0] is z]
    assert outer
    assert isinstance(outer[0][callback.x][0], relay.Call)
    assert outer[0][callback.x][0].op.name == "subtract"


def test_rewrite_keeps_unmatched_expressions() -> None:
    x, y = var("x"), var("y")
    expr = relay.multiply(x, y)
    assert rewrite(AddToSubtract(), expr) is expr


class DropLastField(DFPatternCallback):
    """`concatenate(a, b, c)` -> `concatenate(a, b)` -> ... -> `a`: always changes."""

    def __init__(self, rewrite_once: bool):
        super().__init__(rewrite_once=rewrite_once)
        self.pattern = is_op("concatenate")(None)

    def callback(
        self, pre: relay.Expr, post: relay.Expr, node_map: dict[DFPattern, list[object]]
    ) -> relay.Expr:
        assert isinstance(post, relay.Call)
        fields = post.args[:-1]
        return relay.concatenate(fields, axis=0) if len(fields) > 1 else fields[0]


def test_fixed_point_and_rewrite_once() -> None:
    x, y, z = var("x"), var("y"), var("z")
    concat = relay.concatenate([x, y, z], axis=0)
    xrelay.ir.assert_structural_equal(rewrite(DropLastField(False), concat), x)
    xrelay.ir.assert_structural_equal(
        rewrite(DropLastField(True), concat), relay.concatenate([x, y], axis=0)
    )


class Flip(DFPatternCallback):
    """add <-> subtract: never settles."""

    def __init__(self) -> None:
        super().__init__()
        self.x, self.y = wildcard(), wildcard()
        self.pattern = is_op("add")(self.x, self.y) | is_op("subtract")(self.x, self.y)

    def callback(
        self, pre: relay.Expr, post: relay.Expr, node_map: dict[DFPattern, list[object]]
    ) -> relay.Expr:
        assert isinstance(post, relay.Call)
        make = relay.subtract if post.op.name == "add" else relay.add
        return make(*post.args)


def test_conflicting_callbacks_stop_with_an_error() -> None:
    with pytest.raises(RuntimeError, match="100 rounds"):
        rewrite(Flip(), var("x") + var("y"))


def test_rewritten_graph_computes_the_same_values() -> None:
    x, y, z = var("x"), var("y"), var("z")
    out = rewrite(AddToSubtract(), (x + y) * z)
    fn = relay.Function([x, y, z], out)
    rng = np.random.default_rng(0)
    a, b, c = (rng.standard_normal((2, 3)).astype("float32") for _ in range(3))
    got = xrelay.evaluate(xrelay.IRModule.from_expr(fn), a, b, c)
    np.testing.assert_allclose(got, (a - b) * c, rtol=1e-6)


class ReluToSigmoid(DFPatternCallback):
    def __init__(self) -> None:
        super().__init__()
        self.x = wildcard()
        self.pattern = is_op("nn.relu")(self.x)

    def callback(
        self, pre: relay.Expr, post: relay.Expr, node_map: dict[DFPattern, list[object]]
    ) -> relay.Expr:
        return relay.sigmoid(node_map[self.x][0])


def test_long_chains_do_not_hit_the_recursion_limit() -> None:
    x = relay.var("x", shape=(2,), dtype="float32")
    chain: relay.Expr = x
    for _ in range(1500):
        chain = relay.nn.relu(chain)
    out = rewrite(ReluToSigmoid(), chain)
    depth = 0
    while isinstance(out, relay.Call):
        assert out.op.name == "sigmoid"
        out, depth = out.args[0], depth + 1
    assert out is x
    assert depth == 1500
