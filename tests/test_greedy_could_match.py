"""`could_match` in the greedy driver (`passes/greedy.py`): ops no pattern could rewrite are
left off a walk's initial worklist, yet an op that a rewrite makes matchable is rewritten."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xrelay.dialects.interpreter import Evaluator
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.passes.fold_constant import DEFAULT_MAX_ELEMENTS, FoldConstantCall
from xrelay.passes.greedy import rewrite_greedily

from xrelay import IRModule, relay


class _Recording(FoldConstantCall):
    """FoldConstant's op fold (op by op, no chains), recording the ops it is offered."""

    offered: list[str]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        self.offered.append(op.name)
        super().match_and_rewrite(op, rewriter)


def _module() -> IRModule:
    """`tanh(x) * (c1 + c2) + relu(c3)`: two foldable ops, a chain of three that is not."""
    x = relay.var("x", shape=(3,))
    c = [relay.const(np.array([1.0, -2.0, 3.0], "float32") * k) for k in (1, 2, 3)]
    body = relay.add(relay.multiply(relay.tanh(x), relay.add(c[0], c[1])), relay.nn.relu(c[2]))
    return IRModule.from_expr(relay.Function([x], body))


def test_only_ops_reading_constants_start_on_the_worklist() -> None:
    mod = _module()
    pattern = _Recording(Evaluator(ModuleOp([])), DEFAULT_MAX_ELEMENTS, chain=False)
    pattern.offered = []
    patterns: list[RewritePattern] = [pattern]
    main = next(op for op in mod.module.walk() if op.name == "func.func")
    assert rewrite_greedily(main.regions[0], patterns)
    # The walk starts with the ops reading only constants (program order: the add of
    # constants first); tanh reads a non-constant and nothing changes it, so it is never
    # offered (the plain driver offers every relay op at least once).
    assert pattern.offered[0] == "relay.add"
    assert "relay.nn.relu" in pattern.offered
    assert "relay.tanh" not in pattern.offered
    names = [op.name for op in main.walk()]
    assert names.count("relay.constant") == 2  # (c1 + c2) and relu(c3), folded
    assert not any(isinstance(op, ConstantOp) and not op.result.uses for op in main.walk())


def test_an_op_made_matchable_by_a_rewrite_is_rewritten() -> None:
    """`(c1 + c2) * c3`: the multiply reads a non-constant when the walk starts; folding the
    add makes it all-constant, and the driver (told of the change) folds it too."""
    c = [relay.const(np.array([1.0, 2.0], "float32") * k) for k in (1, 2, 3)]
    x = relay.var("x", shape=(2,))
    body = relay.add(x, relay.multiply(relay.add(c[0], c[1]), c[2]))
    mod = IRModule.from_expr(relay.Function([x], body))
    pattern = _Recording(Evaluator(ModuleOp([])), DEFAULT_MAX_ELEMENTS, chain=False)
    pattern.offered = []
    main = next(op for op in mod.module.walk() if op.name == "func.func")
    rewrite_greedily(main.regions[0], [pattern])
    ops = [op for op in main.walk() if op.name.startswith("relay.")]
    assert [op.name for op in ops] == ["relay.constant", "relay.add"]
    constant = ops[0]
    assert isinstance(constant, ConstantOp)
    np.testing.assert_array_equal(
        np.frombuffer(constant.value.data.data, "<f4"), np.array([9.0, 36.0], "float32")
    )
