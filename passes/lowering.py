"""Lowering a BYOC target's partitions as rewrite patterns, in MLIR's `populate...Patterns` style.

A target's lowering is the list of xDSL `RewritePattern`s registered for it
(`register_lowering_patterns`), applied by one pass (`lower_partitions`) to
the body of every `func.func` partitioned for it (`Compiler = "<target>"`):

- **Registry.** `register_lowering_patterns("accel", [MyPattern()], benefit=2)`
  adds patterns to a target's lowering, from xrelay or from an out-of-tree
  package; a callable `populate(patterns)` may stand for the list (MLIR's
  `populateXPatterns(RewritePatternSet &)`), filled each time the pass runs.
  As in MLIR, an op is offered the patterns of higher benefit first; equal
  benefits keep the order of registration (xrelay's own patterns register at
  `DEFAULT_BENEFIT` when the target's pass module is imported).
- **Helpers** for the two common shapes: `LowerComposite(name, build)`, a
  `relay.composite` with `Composite = "<name>"` to what `build(composite)`
  returns, and `LowerOp(op_type, build, predicate)`, a relay op to what
  `build(op)` returns when `predicate(op)` holds. `build` returns the new op,
  or a list of new ops whose last one's results replace the matched op's
  (each of the same type); a builder or predicate raising `Rejected(reason)`
  declines the op with that reason.
- **Driver.** Patterns see only the ops of a partition's body (never those
  of a composite's body) and run to a fixed point, so ops a pattern creates
  are offered the patterns too. Like MLIR's full dialect conversion, the pass
  fails when an op of the partition as it was (other than the structural ops
  a lowered function keeps, `KEPT`) is still there: one located
  `'<op>' op cannot be lowered to target '<target>': <reason>` per such op,
  the reason the last pattern declining it gave (`reject`), or "`<target>` has
  no kernel for ..." when no pattern gave one. The patterns rewrite a copy of
  each partition, swapped in only when every partition lowered: on failure
  the module is unchanged.
- **finish.** A step that is global to a function, not a local rewrite
  (dnnl's layout planning, `dnnl_layout.py`), runs after the patterns, on
  each lowered function.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Generic, TypeGuard, TypeVar

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.rewriter import InsertPoint
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, op_error
from xrelay.dialects.locations import inheriting
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, TupleGetItemOp, TupleOp
from xrelay.passes.byoc_registry import PredicateError, has_predicate, op_supported, tvm_op_name
from xrelay.passes.greedy import pattern_op_types

__all__ = [
    "DEFAULT_BENEFIT",
    "KEPT",
    "Built",
    "LowerComposite",
    "LowerOp",
    "Populate",
    "Rejected",
    "accepted_by",
    "body_op",
    "check_predicate",
    "is_target_function",
    "lower_partitions",
    "lowering_patterns",
    "outside",
    "register_lowering_patterns",
    "reject",
    "unregister_lowering_patterns",
]

DEFAULT_BENEFIT = 1
"""The benefit of xrelay's own lowering patterns; register above it to be tried first."""

KEPT = (ConstantOp, TupleOp, TupleGetItemOp, func.ReturnOp)
"""The structural ops a lowered function keeps as they are."""


class Rejected(Exception):
    """An op a pattern declines to lower; the message is the reason (shown if nothing lowers it)."""


Populate = Callable[[list[RewritePattern]], None]
"""A function adding a target's patterns to a list (MLIR's `populate...Patterns`)."""


@dataclass(frozen=True)
class _Entry:
    benefit: int
    order: int
    patterns: Sequence[RewritePattern] | Populate


_REGISTRY: dict[str, list[_Entry]] = {}
_ORDER = itertools.count()


def register_lowering_patterns(
    target: str,
    patterns: Sequence[RewritePattern] | Populate,
    benefit: int = DEFAULT_BENEFIT,
) -> None:
    """Add `patterns` (or a `populate(list)` function) to the lowering of `target`'s partitions.

    Patterns of a higher `benefit` are offered each op first; equal benefits keep the
    order of registration. xrelay's own patterns have `DEFAULT_BENEFIT`.
    """
    _REGISTRY.setdefault(target, []).append(_Entry(benefit, next(_ORDER), patterns))


def unregister_lowering_patterns(
    target: str, patterns: Sequence[RewritePattern] | Populate
) -> None:
    """Remove what `register_lowering_patterns(target, patterns)` added (the same object)."""
    _REGISTRY[target] = [e for e in _REGISTRY.get(target, ()) if e.patterns is not patterns]


def lowering_patterns(target: str) -> list[RewritePattern]:
    """The patterns lowering `target`'s partitions, in the order an op is offered them."""
    entries = sorted(_REGISTRY.get(target, ()), key=lambda e: (-e.benefit, e.order))
    patterns: list[RewritePattern] = []
    for entry in entries:
        if callable(entry.patterns):
            entry.patterns(patterns)
        else:
            patterns.extend(entry.patterns)
    return patterns


_REASONS: ContextVar[dict[Operation, str] | None] = ContextVar("lowering_reasons", default=None)


def reject(op: Operation, reason: str) -> None:
    """Record why a pattern did not lower `op` (MLIR's `notifyMatchFailure`): the reason the
    error gives if no other pattern lowers it. A no-op outside `lower_partitions`."""
    reasons = _REASONS.get()
    if reasons is not None:
        reasons[op] = reason


@contextmanager
def _recording() -> Generator[dict[Operation, str]]:
    reasons: dict[Operation, str] = {}
    token = _REASONS.set(reasons)
    try:
        yield reasons
    finally:
        _REASONS.reset(token)


Built = Operation | Sequence[Operation]
"""What a builder returns: the new op, or new ops (in order) whose last one replaces."""

OpT = TypeVar("OpT", bound=Operation)


def _replace(op: OpT, build: Callable[[OpT], Built], rewriter: PatternRewriter) -> None:
    """Insert what `build(op)` returns before `op` and replace `op` by its last op's
    results; Rejected when building fails or a result's type differs."""
    try:
        built = build(op)
    except RelayTypeError as error:
        raise Rejected(str(error.args[0])) from None
    ops = [built] if isinstance(built, Operation) else list(built)
    last = ops[-1]
    if len(last.results) != len(op.results):
        raise Rejected(f"'{last.name}' has {len(last.results)} results, not {len(op.results)}")
    for new, old in zip(last.results, op.results, strict=True):
        if new.type != old.type:
            raise Rejected(f"'{last.name}' would compute {new.type}, not {old.type}")
    rewriter.insert(ops, InsertPoint.before(op))
    for new, old in zip(last.results, op.results, strict=True):
        new.name_hint = new.name_hint or old.name_hint
        rewriter.replace_all_uses_with(old, new)
    rewriter.erase(op)


class LowerOp(RewritePattern, Generic[OpT]):
    """Lower each `op_type` op that `predicate` accepts to what `build(op)` returns.

    `predicate(op) -> bool` (default: every op); False declines with a generic reason,
    raising `Rejected(reason)` declines with that one. `build(op)` returns the new op (not
    inserted) or a list of new ops whose last one's results replace `op`'s, of the same
    types; it may raise `Rejected` too. Example: `LowerOp(nn.DenseOp, lambda op:
    accel.DenseOp.make(op.operands, dict(op.properties)))`.
    """

    def __init__(
        self,
        op_type: type[OpT],
        build: Callable[[OpT], Built],
        predicate: Callable[[OpT], bool] | None = None,
    ):
        self.op_types = (op_type,)
        self.build = build
        self.predicate = predicate

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, self.op_types[0]):
            return
        try:
            if self.predicate is not None and not self.predicate(op):
                raise Rejected(f"its predicate rejects this '{tvm_op_name(op)}'")
            _replace(op, self.build, rewriter)
        except Rejected as error:
            reject(op, str(error))


class LowerComposite(RewritePattern):
    """Lower each `relay.composite` with `Composite = "<name>"` to what `build(composite)`
    returns (as `LowerOp`: the new op, or new ops whose last one replaces the composite).

    `build` reads the composite's inputs (`composite.operands`) and its body
    (`composite.body.block`, e.g. with `body_op`); it may raise `Rejected(reason)`.
    """

    op_types = (CompositeOp,)

    def __init__(self, name: str, build: Callable[[CompositeOp], Built]):
        self.name = name
        self.build = build

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, CompositeOp) or op.composite.data != self.name:
            return
        try:
            _replace(op, self.build, rewriter)
        except Rejected as error:
            reject(op, str(error))


def check_predicate(op: Operation, target: str) -> None:
    """`op` satisfies its `target.<target>` predicate (`register_op_attr`); Rejected with the
    reason otherwise."""
    name = tvm_op_name(op)
    if not has_predicate(name, target):
        raise Rejected(f"no 'target.{target}' predicate is registered for '{name}'")
    try:
        supported = op_supported(op.results[0], target)
    except PredicateError as error:
        raise Rejected(str(error)) from None
    if not supported:
        raise Rejected(
            f"the 'target.{target}' predicate rejects this '{name}' (types or attributes)"
        )


def accepted_by(target: str) -> Callable[[Operation], bool]:
    """A `LowerOp` predicate: the op's `target.<target>` predicate accepts it (the reason
    it does not otherwise), e.g. `LowerOp(nn.DenseOp, build, accepted_by("myacc"))`."""

    def accepted(op: Operation) -> bool:
        check_predicate(op, target)
        return True

    return accepted


def body_op(composite: CompositeOp, op_type: type[OpT]) -> OpT:
    """The one op of `op_type` in the composite's body; Rejected when there is none or more."""
    found = [o for o in composite.body.block.ops if isinstance(o, op_type)]
    if len(found) != 1:
        raise Rejected(f"its body has {len(found)} '{op_type.name}' ops, not one")
    return found[0]


def outside(value: SSAValue, composite: CompositeOp, copies: list[Operation]) -> SSAValue:
    """What a value of the composite's body is outside it, for a builder's new op: the
    composite's operand for a block argument, a copy of a body constant (appended to
    `copies`, which the builder returns before its op); Rejected for a value computed in
    the body."""
    block = composite.body.block
    if value.owner is block:
        return composite.operands[block.args.index(value)]
    if isinstance(value.owner, ConstantOp) and value.owner.parent is block:
        copy = value.owner.clone()
        copies.append(copy)
        return copy.results[0]
    raise Rejected("an operand is computed inside the composite, not one of its inputs")


class _Dispatch(RewritePattern):
    """Offer each op of `block` the patterns that may match its class, in order, until one
    rewrites it; ops nested in other ops (a composite's body) are left alone."""

    def __init__(self, patterns: Sequence[RewritePattern], block: Block):
        self.patterns = list(patterns)
        self.block = block
        self._accepts = [
            getattr(p, "op_types", None) or pattern_op_types(type(p)) for p in self.patterns
        ]
        self._by_class: dict[type[Operation], list[RewritePattern]] = {}

    def patterns_for(self, op_class: type[Operation]) -> list[RewritePattern]:
        found = self._by_class.get(op_class)
        if found is None:
            found = [
                p
                for p, types in zip(self.patterns, self._accepts, strict=True)
                if types is None or issubclass(op_class, types)
            ]
            self._by_class[op_class] = found
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if op.parent is not self.block:
            return
        with inheriting(rewriter, op):  # what a pattern inserts takes op's location
            for pattern in self.patterns_for(type(op)):
                pattern.match_and_rewrite(op, rewriter)
                if rewriter.has_done_action:
                    return


class _BlockWalker(PatternRewriteWalker):
    """xDSL's walker, seeded with the ops of the block only (not of nested regions)."""

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        dispatch = self.pattern
        assert isinstance(dispatch, _Dispatch)
        for sub_op in reversed(list(dispatch.block.ops)):  # a stack: first op popped first
            if dispatch.patterns_for(type(sub_op)):
                self._worklist.push(sub_op)


def is_target_function(op: Operation, target: str) -> TypeGuard[func.FuncOp]:
    """A function with a body partitioned for `target` (`Compiler = "<target>"`)."""
    return (
        isinstance(op, func.FuncOp)
        and op.attributes.get("Compiler") == StringAttr(target)
        and bool(op.body.blocks)
    )


def _default_reason(op: Operation, target: str, noun: str) -> str:
    if isinstance(op, CompositeOp):
        return f"{target} has no {noun} for composite '{op.composite.data}'"
    return f"{target} has no {noun} for '{tvm_op_name(op)}'"


def lower_partitions(
    module: ModuleOp,
    target: str,
    *,
    noun: str = "kernel",
    finish: Callable[[func.FuncOp], None] | None = None,
    patterns: Sequence[RewritePattern] | None = None,
) -> None:
    """Lower every function of `module` partitioned for `target` with its patterns (default:
    `lowering_patterns(target)`), then `finish` each; DiagnosticError, the module unchanged,
    when an op was not lowered (see the module docstring). `noun` names what the target has
    for an op in the default reason ("kernel", "primitive")."""
    chosen = lowering_patterns(target) if patterns is None else list(patterns)
    functions = [op for op in module.ops if is_target_function(op, target)]
    lowered: list[tuple[func.FuncOp, func.FuncOp]] = []
    errors: list[Diagnostic] = []
    with _recording() as reasons:
        for function in functions:
            copy = function.clone()
            block = copy.body.block
            before = [op for op in block.ops if not isinstance(op, KEPT)]
            _BlockWalker(_Dispatch(chosen, block)).rewrite_region(copy.body)
            for op in before:
                if op.parent is block:
                    reason = reasons.get(op) or _default_reason(op, target, noun)
                    errors.append(op_error(op, f"cannot be lowered to target '{target}': {reason}"))
            lowered.append((function, copy))
    if errors:
        raise DiagnosticError(errors)
    for function, copy in lowered:
        new_block = copy.body.detach_block(0)
        function.body.detach_block(0)
        function.body.add_block(new_block)
        if finish is not None:
            finish(function)
