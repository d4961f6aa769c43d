"""`xrelay.build` runs its passes on a private copy: no snapshots unless the user asks."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp
from xrelay.codegen.c.pipeline import lower
from xrelay.passes import pass_manager

from xrelay import IRModule, relay, transform


def _model() -> IRModule:
    x = relay.var("x", shape=(2, 3))
    y = relay.add(relay.multiply(x, relay.const(2.0)), relay.const(1.0))
    return IRModule.from_expr(relay.Function([x], relay.tanh(y)))


def _count_snapshots(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    taken = [0]
    original = pass_manager.take_snapshot

    def counting(module: ModuleOp) -> ModuleOp:
        taken[0] += 1
        return original(module)

    monkeypatch.setattr(pass_manager, "take_snapshot", counting)
    return taken


def test_lowering_takes_no_snapshots_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = _count_snapshots(monkeypatch)
    mod = _model()
    before = str(mod)
    seen: list[str] = []

    @transform.pass_instrument
    class Names:
        def run_before_pass(self, mod: IRModule, info: transform.PassInfo) -> None:
            seen.append(info.name)

    with transform.PassContext(instruments=[Names()]) as ctx:
        lowered = lower(mod)
        assert transform.PassContext.current() is ctx
        assert "transform.transactional" not in ctx.config
    assert taken == [0]
    assert "FoldConstant" in seen  # instruments still see every pass
    assert "PlanMemory" in seen
    assert str(mod) == before  # the caller's module is untouched
    assert "xrelay.arena_size" in lowered.module.attributes


def test_an_explicit_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    taken = _count_snapshots(monkeypatch)
    with transform.PassContext(config={"transform.transactional": True}):
        lower(_model())
    assert taken[0] > 0
