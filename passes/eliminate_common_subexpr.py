"""`eliminate-common-subexpr` (TVM's `EliminateCommonSubexpr`): merge ops computing the same value.

Contract, per function (a function pass: `Compiler`/`Extern`/`SkipOptimization`
functions are skipped):

- Ops are visited in program order. An op merges into an earlier op with the
  same name, equal properties, equal discardable attributes, the same result
  types and the very same operands (SSA identity): its uses are redirected to
  the earlier op's results and it is erased. The first occurrence wins.
- Equal constants count as equal: two `relay.constant` ops with the same type,
  value and attributes merge like any other op, so the ops over them merge in
  turn (TVM treats distinct *scalar* constants as equal; xrelay merges equal
  constants of any shape, which TVM leaves to pointer identity). The table is a dict:
  keys with equal hashes are compared by value before a merge, so two different
  constants whose hashes collide never merge (`tests/test_eliminate_common_subexpr_hash.py`).
- `relay.tuple_get_item` merges by (tuple, index), and two `relay.tuple` ops
  with the same fields merge (TVM instead counts such tuples as equal
  arguments; the effect on the ops over them is the same).
- Scoping follows dominance: ops inside a `relay.if` branch may reuse values
  computed before the `if` in the enclosing blocks, never values of the other
  branch, and ops after the `if` never reuse values computed inside it.
- Never merged: ops with effects or unknown effects (BYOC annotations,
  `func.call`), ops with regions (`relay.if`, `relay.composite`), ops without
  operands other than constants (TVM skips zero-argument calls too), and ops
  for which the Python-only `fskip(op)` returns True.
- Composite bodies (`relay.composite`, isolated) are left exactly as matched:
  nothing outside is reused inside, and nothing inside is merged. TVM's pass
  would also rewrite inside Composite functions; xrelay keeps the matched
  subgraph intact for the backend that claims it.

Cost: one hash-table lookup per op (keys are name, properties, attributes,
operand identities, result types), with a scoped table whose entries are
dropped when a branch ends; linear in the size of the function.

`fskip` is a Python callable, so it is not a pass option: it is not listed by
`xrelay-opt --list-passes`, not printed in the pass's spec, and a pass rebuilt
from its spec (a crash reproducer) has none.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.traits import (
    ConstantLike,
    IsolatedFromAbove,
    MemoryEffect,
    NoMemoryEffect,
    is_side_effect_free,
)
from xrelay.dialects.builder.call_view import call_of
from xrelay.dialects.builder.expr import Call
from xrelay.dialects.relay.base import RelayOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

OpKey = tuple[
    str,
    frozenset[tuple[str, Attribute]],
    frozenset[tuple[str, Attribute]],
    tuple[SSAValue, ...],
    tuple[Attribute, ...],
]
"""What makes two ops compute the same value: name, properties, attributes, operands, types."""


def op_key(op: Operation) -> OpKey:
    """The hash key of an op: equal keys mean the ops compute the same value (if mergeable)."""
    return (
        op.name,
        frozenset(op.properties.items()),
        frozenset(op.attributes.items()),
        tuple(op.operands),
        tuple(op.result_types),
    )


def is_mergeable(op: Operation) -> bool:
    """An op CSE may merge: pure, without regions, with operands (or a constant)."""
    if op.regions or op.successors or not op.results:
        return False
    if not _never_has_effects(type(op)) and not is_side_effect_free(op):
        return False
    return bool(op.operands) or op.has_trait(ConstantLike)


@functools.cache
def _never_has_effects(cls: type[Operation]) -> bool:
    """Whether ops of `cls` are side-effect free whatever their attributes (`Pure` and the
    like): decided once per class instead of asking every op's traits for its effects."""
    effects = cls.get_traits_of_type(MemoryEffect)
    plain = NoMemoryEffect.get_effects.__func__
    return bool(effects) and all(type(t).get_effects.__func__ is plain for t in effects)


def _ops(block: Block) -> Iterator[Operation]:
    """The ops of a block in order; the op just yielded may be erased."""
    op = block.first_op
    while op is not None:
        following = op.next_op
        yield op
        op = following


@dataclass(frozen=True)
class EliminateCommonSubexprPass(XdslFunctionPass):
    """Merge pure ops with the same name, attributes and operands (the first one wins)."""

    name = "eliminate-common-subexpr"
    tvm_name: ClassVar[str] = "EliminateCommonSubexpr"
    opt_level: ClassVar[int] = 3

    erased: ClassVar[Statistic] = Statistic("num-erased", "Number of operations erased")

    fskip: Callable[[Operation], bool] | None = field(default=None, init=False, compare=False)
    """Ops for which this returns True are not merged (Python only: not a pass option)."""

    def __init__(self, fskip: Callable[[Operation], bool] | None = None) -> None:
        # A non-init field keeps `fskip` out of xDSL's option machinery
        # (`from_spec`, `spec`, `--list-passes`); set it past the frozen guard.
        object.__setattr__(self, "fskip", fskip)

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        known: dict[OpKey, Operation] = {}
        # One entry per open block: its remaining ops and the keys it added to `known`.
        stack: list[tuple[Iterator[Operation], list[OpKey]]] = [
            (_ops(block), []) for block in reversed(function.body.blocks)
        ]
        while stack:
            ops, added = stack[-1]
            op = next(ops, None)
            if op is None:
                for key in added:
                    del known[key]
                stack.pop()
                continue
            if op.regions:
                if not op.has_trait(IsolatedFromAbove):
                    # Branches see what dominates the op, each other never.
                    for region in reversed(op.regions):
                        for block in reversed(region.blocks):
                            stack.append((_ops(block), []))
                continue
            if not is_mergeable(op) or (self.fskip is not None and self.fskip(op)):
                continue
            key = op_key(op)
            existing = known.get(key)
            if existing is None:
                known[key] = op
                added.append(key)
                continue
            Rewriter.replace_op(op, [], existing.results)
            self.erased.add()


def EliminateCommonSubexpr(fskip: Callable[[Call], bool] | None = None) -> Pass:
    """TVM's `relay.transform.EliminateCommonSubexpr(fskip=None)`.

    As in TVM, `fskip(expr)` receives each candidate as a `relay.Call`
    (`expr.op.name == "add"`, `expr.attrs`, `expr.checked_type`; its arguments are
    variables standing for the operands). `EliminateCommonSubexprPass(fskip)` takes a
    predicate on the xDSL op instead.
    """
    if fskip is None:
        return XdslPass(EliminateCommonSubexprPass())
    user_fskip = fskip

    def skip_op(op: Operation) -> bool:
        return isinstance(op, RelayOp) and bool(user_fskip(call_of(op)))

    return XdslPass(EliminateCommonSubexprPass(skip_op))
