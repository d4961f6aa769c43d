"""`rewrite_greedily(..., unsettling=...)`: the confirming sweep is skipped only when it
could not find anything (FoldConstant uses it; `passes/greedy.py`)."""

from __future__ import annotations

import pytest
from xrelay.passes import fold_constant, greedy, simplify_inference
from xrelay.passes.fold_constant import FoldConstant

from xrelay import IRModule, parse, transform

FOLDS = """
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = relay.add %a, %a : tensor<3xf32>
  %c = relay.multiply %b, %a : tensor<3xf32>
  %d = relay.add %x, %c : tensor<3xf32>
  %e = relay.negative %b : tensor<3xf32>
  %f = relay.add %d, %e : tensor<3xf32>
  func.return %f : tensor<3xf32>
}
"""

NESTED_IFS = """
func.func @main() -> tensor<3xf32> {
  %t = relay.constant dense<true> : tensor<i1>
  %x = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %r = relay.if %t : tensor<i1> -> tensor<3xf32> {
    %s = relay.add %x, %x : tensor<3xf32>
    %one = relay.constant dense<1.0> : tensor<f32>
    %two = relay.add %one, %one : tensor<f32>
    %c = relay.less %one, %two : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %inner = relay.if %c : tensor<i1> -> tensor<3xf32> {
      %m = relay.multiply %s, %x : tensor<3xf32>
      relay.yield %m : tensor<3xf32>
    } else {
      relay.yield %x : tensor<3xf32>
    }
    relay.yield %inner : tensor<3xf32>
  } else {
    relay.yield %x : tensor<3xf32>
  }
  func.return %r : tensor<3xf32>
}
"""


def sweeps(
    text: str, monkeypatch: pytest.MonkeyPatch, pass_: transform.Pass | None = None
) -> tuple[IRModule, int]:
    """FoldConstant (or `pass_`) on `text`, and how many sweeps its walker made."""
    calls: list[int] = []
    original = greedy._DispatchingWalker._populate_worklist  # pyright: ignore[reportPrivateUsage]

    def counting(self: greedy._DispatchingWalker, op: object) -> None:  # pyright: ignore[reportPrivateUsage]
        calls.append(1)
        original(self, op)  # pyright: ignore[reportArgumentType]

    monkeypatch.setattr(greedy._DispatchingWalker, "_populate_worklist", counting)  # pyright: ignore[reportPrivateUsage]
    with transform.PassContext(opt_level=3):
        mod = (pass_ or FoldConstant())(parse(text))
    return mod, len(calls)


def ops(mod: IRModule) -> list[str]:
    return [op.name for op in mod.module.walk() if op.name.startswith("relay.")]


def test_a_sweep_that_settles_is_not_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positive: every fold is found by the first sweep's worklist; no second walk."""
    mod, count = sweeps(FOLDS, monkeypatch)
    assert count == 1
    assert ops(mod) == ["relay.constant", "relay.add", "relay.constant", "relay.add"]


def test_inlined_branches_are_confirmed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative: the ops of an inlined branch are not announced to the walker, so the
    confirming sweep runs (the inner if on a condition computed in the outer branch)."""
    mod, count = sweeps(NESTED_IFS, monkeypatch)
    assert count == 2
    assert ops(mod) == ["relay.constant"]
    assert "[2.000000e+00, 8.000000e+00, 1.800000e+01]" in str(mod.module)


def test_optimize_prints_the_same_module_as_with_confirming_sweeps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The skipped sweeps would have found nothing: `optimize` prints the same module as
    when FoldConstant and SimplifyInference confirm every sweep (as xDSL's walker does)."""
    from testlib.chain import chain

    mod = chain(300)
    with transform.PassContext(opt_level=3):
        settled = transform.get_pass("optimize")(mod.clone())
    monkeypatch.setattr(fold_constant, "_unsettling", lambda op: True)  # pyright: ignore
    monkeypatch.setattr(simplify_inference, "_settled", lambda op: True)  # pyright: ignore
    with transform.PassContext(opt_level=3):
        confirmed = transform.get_pass("optimize")(mod.clone())
    assert str(settled.module) == str(confirmed.module)


NORMS = """
func.func @main(%x: tensor<1x2x3xf32>, %g: tensor<2xf32>) -> tensor<1x2x3xf32> {
  %0 = relay.nn.batch_norm %x, %g, %g, %g, %g : (tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2x3xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x3xf32>
  %2 = relay.nn.dropout %1 : (tensor<1x2x3xf32>) -> tuple<tensor<1x2x3xf32>, tensor<1x2x3xf32>>
  %3 = relay.tuple_get_item %2 {index = 0} : (tuple<tensor<1x2x3xf32>, tensor<1x2x3xf32>>) -> tensor<1x2x3xf32>
  func.return %3 : tensor<1x2x3xf32>
}
"""


def test_simplify_inference_settles_in_one_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Positive: SimplifyInference's rewrites never make a new match; one sweep expands the
    batch_norm and drops the dropout."""
    mod, count = sweeps(NORMS, monkeypatch, simplify_inference.SimplifyInference())
    assert count == 1
    names = ops(mod)
    assert "relay.nn.batch_norm" not in names
    assert "relay.nn.dropout" not in names
    assert "relay.sqrt" in names
