"""The dispatching greedy driver (`passes/greedy.py`): same rewrites as xDSL's, fewer calls.

Each pattern must be offered exactly the ops of the types it matches (an
untyped pattern every op), in the given order, and a whole rewrite must give
the IR `GreedyRewritePatternApplier` + `PatternRewriteWalker` give.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xrelay.dialects.relay.elementwise import AddOp, MultiplyOp, TanhOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.passes import instrument, pass_manager
from xrelay.passes.fold_constant import FoldConstant
from xrelay.passes.greedy import DispatchingApplier, pattern_op_types, rewrite_greedily
from xrelay.passes.simplify_expr import (
    CollapseReshapes,
    EliminateIdentityArithmetic,
    EliminateIdentityReshape,
    SimplifyExpr,
    SimplifyTranspose,
)
from xrelay.passes.transaction import same_ir

from xrelay import IRModule, relay, transform


class _Counting(RewritePattern):
    """Records the ops it is offered; never rewrites."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        self.seen.append(op.name)


class _OnAddOrMultiply(_Counting):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp | MultiplyOp, rewriter: PatternRewriter, /) -> None:
        self.seen.append(op.name)


class _OnTanh(_Counting):
    op_types = (TanhOp,)


def _graph() -> IRModule:
    """Identity arithmetic, reshape chains and transposes for the SimplifyExpr patterns."""
    x = relay.var("x", shape=(2, 3, 4))
    rng = np.random.default_rng(0)
    y: relay.Expr = x
    for _ in range(5):
        y = relay.tanh(relay.add(relay.multiply(y, relay.const(np.float32(1.0))), relay.const(0.0)))
        y = relay.reshape(relay.reshape(y, [6, 4]), [2, 3, 4])
        y = relay.transpose(relay.transpose(y, [0, 2, 1]), [0, 2, 1])
        y = relay.add(y, relay.const(rng.uniform(-1, 1, (2, 3, 4)).astype("float32")))
    return IRModule.from_expr(relay.Function([x], y))


def test_pattern_op_types_reads_the_annotation_and_the_class_variable() -> None:
    assert pattern_op_types(_OnAddOrMultiply) == (AddOp, MultiplyOp)
    assert pattern_op_types(_OnTanh) == (TanhOp,)
    assert pattern_op_types(_Counting) is None


def test_each_pattern_is_offered_only_ops_of_its_types() -> None:
    mod = _graph()
    anything, arithmetic, tanh = _Counting(), _OnAddOrMultiply(), _OnTanh()
    rewrite_greedily(mod.module.body, [arithmetic, tanh, anything])
    names = [op.name for op in mod.module.body.walk()]
    assert sorted(arithmetic.seen) == sorted(
        n for n in names if n in ("relay.add", "relay.multiply")
    )
    assert tanh.seen == ["relay.tanh"] * names.count("relay.tanh")
    assert sorted(anything.seen) == sorted(names)  # untyped: every op


def test_patterns_for_keeps_the_given_order() -> None:
    first, second, tanh = _Counting(), _OnAddOrMultiply(), _OnTanh()
    applier = DispatchingApplier([first, tanh, second])
    assert applier.patterns_for(AddOp) == (first, second)
    assert applier.patterns_for(TanhOp) == (first, tanh)
    assert applier.patterns_for(ConstantOp) == (first,)


def test_rewrites_as_xdsls_greedy_applier() -> None:
    patterns = [
        EliminateIdentityArithmetic(),
        EliminateIdentityReshape(),
        CollapseReshapes(),
        SimplifyTranspose(),
    ]
    ours, theirs = _graph(), _graph()
    changed = rewrite_greedily(ours.module.body, patterns)
    applier = GreedyRewritePatternApplier(list(patterns), dce_enabled=False)
    PatternRewriteWalker(applier).rewrite_region(theirs.module.body)
    assert changed
    assert same_ir(ours.module, theirs.module)
    assert not any(op.name == "relay.transpose" for op in ours.module.walk())


def _count_comparisons(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    original = pass_manager.same_ir

    def counting(a: Operation, b: Operation) -> bool:
        calls[0] += 1
        return original(a, b)

    monkeypatch.setattr(pass_manager, "same_ir", counting)
    return calls


@pytest.mark.parametrize("immutable", [False, True])
def test_a_pass_reporting_its_rewrites_skips_the_comparison(
    monkeypatch: pytest.MonkeyPatch, immutable: bool
) -> None:
    """SimplifyExpr says it rewrote: no snapshot comparison (unless checking immutability);
    rerun on its own output it rewrites nothing, and the comparison decides; instruments run."""
    calls = _count_comparisons(monkeypatch)
    seen: list[str] = []

    @instrument.pass_instrument
    class Names:
        def run_after_pass(self, mod: IRModule, info: transform.PassInfo) -> None:
            seen.append(info.name)

    mod = _graph()
    config = {"testing.immutable_module": immutable}
    with transform.PassContext(config=config, instruments=[Names()]):
        if immutable:
            with pytest.raises(transform.PassError, match="Immutable module"):
                mod = SimplifyExpr()(mod)
            assert calls == [1]
            return
        out = SimplifyExpr()(mod)
        assert calls == [0]
        again = SimplifyExpr()(out)
        assert calls == [1]
    assert seen == ["SimplifyExpr", "SimplifyExpr"]
    assert same_ir(again.module, out.module)


@pytest.mark.parametrize("per_pass_snapshots", [False, True])
def test_reported_changes_keep_dependency_resolution(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, per_pass_snapshots: bool
) -> None:
    """A changed module still reruns what depends on it; an unchanged one reuses the snapshot.

    Under one Sequential snapshot (the default) nothing is compared: these passes report
    their changes. With per-pass snapshots (a crash reproducer) the passes after the first
    are compared."""
    calls = _count_comparisons(monkeypatch)
    mod = _graph()
    config = {"transform.crash_reproducer": str(tmp_path / "r.mlir")} if per_pass_snapshots else {}
    with transform.PassContext(opt_level=3, config=config):
        out = transform.Sequential([SimplifyExpr(), SimplifyExpr(), FoldConstant()])(mod)
    # Per pass: the first SimplifyExpr reports its change; the other two are compared.
    assert calls == ([2] if per_pass_snapshots else [0])
    assert not any(op.name == "relay.transpose" for op in out.module.walk())
