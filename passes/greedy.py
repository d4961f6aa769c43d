"""A greedy pattern driver that offers each op only the patterns that can match it.

xDSL's `GreedyRewritePatternApplier` calls every pattern on every op the
walker visits; a pattern written with `op_type_rewrite_pattern` then returns
at once when the op is not of its type. On a 10k-op graph that was most of
the time of `SimplifyExpr` (7 patterns) and `FoldConstant`: four to seven
calls and `isinstance` checks per op per walk, for ops no pattern rewrites.

`DispatchingApplier` reads the op classes each pattern accepts (the type
annotation `op_type_rewrite_pattern` dispatches on, or a pattern's own
`op_types` class variable) once per pattern class, and keeps, per op class,
the patterns that accept it, in their given order: an op is tried against
exactly the patterns the plain applier would have run to an effect, so the
result is the same. `rewrite_greedily` walks a region with it and pushes
only ops that some pattern accepts onto the worklist (ops the driver is told
of while rewriting are still all offered, as in xDSL).

A pattern may also define `could_match(op) -> bool`: a cheap necessary
condition for it to change `op` in the IR as it stands when a walk starts
(FoldConstant's: all operands are constants). An op for which every pattern
accepting it has one and says False is left off the walk's initial worklist;
it is still offered when a rewrite changes it or its operands, as any op the
driver is told of. Only for patterns whose result does not depend on the order
ops are tried in (FoldConstant's replace an op by constants in its place):
a skipped op is otherwise visited at another time than in program order.

xDSL's walker, after a sweep that changed the IR, walks the region again, and
again, until a sweep changes nothing: the last sweep only confirms the fixed
point. `rewrite_greedily(..., unsettling=...)` skips that confirming sweep when
it cannot find anything. The caller vouches that its patterns are *local*: what
they match on an op depends only on the op and on the ops defining its operands
(no pattern changes an op's properties or types in place), and they change IR
only through the rewriter's notifying calls, so the walker puts back on the
worklist every op whose match may have changed (the users of a replaced op, a
modified op, an inserted one), and the sweep ends with none left that could
match. `unsettling(op)` names the exceptions: called on each op the walker is
told was modified or replaced, True means a later sweep may still find
something (FoldConstant: a `relay.tuple` whose field changed, which its users
read through; a `relay.if` whose branch was inlined unannounced), and the
confirming sweep runs as before.

Per op offered, the walker's loop does no more than it must: an op no pattern
accepts (one the driver was told of) is dropped without resetting the rewriter;
a pattern written with `op_type_rewrite_pattern` is called undecorated (the
applier already chose it by the op's type, so the decorator's `isinstance` is
redundant); `inheriting` is entered only for an op with a known location.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Iterable, Sequence
from types import UnionType
from typing import Any, Union, cast, get_args, get_origin

from xdsl.dialects.builtin import UnknownLoc
from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xrelay.dialects.locations import inheriting
from xrelay.dialects.walk import nested_ops

OpTypes = tuple[type[Operation], ...]
RewriteFn = Callable[[Operation, PatternRewriter], None]
"""A pattern's `match_and_rewrite` as the applier calls it."""


@functools.cache
def pattern_op_types(pattern_class: type[RewritePattern]) -> OpTypes | None:
    """The op classes a pattern class matches; None when it may match any op.

    A class variable `op_types` wins; otherwise the annotation of the op
    parameter of a `match_and_rewrite` decorated with `op_type_rewrite_pattern`
    (found in the decorator's closure, as xDSL 0.74 builds it).
    """
    declared = getattr(pattern_class, "op_types", None)
    if isinstance(declared, tuple):
        return tuple(t for t in declared if isinstance(t, type))  # pyright: ignore
    found = _decorated(pattern_class)
    return None if found is None else found[0]


@functools.cache
def _decorated(pattern_class: type[RewritePattern]) -> tuple[OpTypes, Callable[..., None]] | None:
    """The op classes and the undecorated function of a pattern class's `match_and_rewrite`
    written with `op_type_rewrite_pattern`; None if it is not."""
    method: Any = getattr(pattern_class, "match_and_rewrite", None)
    cells: tuple[Any, ...] = getattr(method, "__closure__", None) or ()
    for cell in cells:
        inner = cell.cell_contents
        if not inspect.isfunction(inner):
            continue
        params = list(inspect.signature(inner, eval_str=True).parameters.values())
        if len(params) < 2:
            continue
        annotation = params[-2].annotation
        options = get_args(annotation) if get_origin(annotation) in (Union, UnionType) else ()
        types = options or (annotation,)
        if all(isinstance(t, type) and issubclass(t, Operation) for t in types):
            return tuple(types), inner
    return None


def _rewrite_function(pattern: RewritePattern) -> RewriteFn:
    """`pattern.match_and_rewrite`, minus `op_type_rewrite_pattern`'s `isinstance` check
    when the pattern has it: the applier offers a pattern only ops of its types."""
    if isinstance(getattr(type(pattern), "op_types", None), tuple):
        return pattern.match_and_rewrite  # the declared types may be wider than the check
    found = _decorated(type(pattern))
    if found is None:
        return pattern.match_and_rewrite
    return functools.partial(found[1], pattern)


class DispatchingApplier(RewritePattern):
    """Apply the first of `patterns` (in order) that rewrites an op, trying only those of its type.

    The same as `GreedyRewritePatternApplier(patterns, dce_enabled=False)`
    without folding, minus the calls that could not match.
    """

    def __init__(self, patterns: Sequence[RewritePattern]):
        self.patterns = list(patterns)
        self._accepts = [pattern_op_types(type(p)) for p in self.patterns]
        self._by_class: dict[type[Operation], tuple[RewritePattern, ...]] = {}
        self._rewrites: dict[type[Operation], tuple[RewriteFn, ...]] = {}
        self._checks: dict[type[Operation], bool | Callable[[Operation], bool]] = {}
        """Per op class: what `check_for` says."""

    def could_match(self, op: Operation) -> bool:
        """Whether some pattern may rewrite `op` (its type, then its `could_match` if any)."""
        check = self.check_for(type(op))
        return check if isinstance(check, bool) else check(op)

    def matchable(self, ops: Iterable[Operation]) -> list[Operation]:
        """The ops of `ops` that `could_match` says yes to, in order."""
        checks, check_for = self._checks, self.check_for
        out: list[Operation] = []
        for op in ops:
            check = checks.get(type(op))
            if check is None:
                check = check_for(type(op))
            if check is True or (check is not False and check(op)):
                out.append(op)
        return out

    def check_for(self, op_class: type[Operation]) -> bool | Callable[[Operation], bool]:
        """What `could_match` says of ops of `op_class`: False (no pattern accepts them),
        True (one has no `could_match`), or the one function to ask (cached per class)."""
        found = self._checks.get(op_class)
        if found is None:
            patterns = self.patterns_for(op_class)
            checks = [getattr(p, "could_match", None) for p in patterns]
            if not patterns:
                found = False
            elif not all(checks):
                found = True
            elif len(checks) == 1:
                found = cast(Callable[[Operation], bool], checks[0])
            else:
                found = functools.partial(_any_of, tuple(cast(list[Callable[..., bool]], checks)))
            self._checks[op_class] = found
        return found

    def patterns_for(self, op_class: type[Operation]) -> tuple[RewritePattern, ...]:
        """The patterns that may match ops of `op_class`, in order (cached per class)."""
        found = self._by_class.get(op_class)
        if found is None:
            found = tuple(
                p
                for p, types in zip(self.patterns, self._accepts, strict=True)
                if types is None or issubclass(op_class, types)
            )
            self._by_class[op_class] = found
        return found

    def rewrites_for(self, op_class: type[Operation]) -> tuple[RewriteFn, ...]:
        """`patterns_for(op_class)`'s `match_and_rewrite`s, undecorated (`_rewrite_function`)."""
        found = self._rewrites.get(op_class)
        if found is None:
            found = tuple(_rewrite_function(p) for p in self.patterns_for(op_class))
            self._rewrites[op_class] = found
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        apply_first(self.rewrites_for(type(op)), op, rewriter)


def _any_of(checks: tuple[Callable[[Operation], bool], ...], op: Operation) -> bool:
    return any(check(op) for check in checks)


def apply_first(rewrites: Sequence[RewriteFn], op: Operation, rewriter: PatternRewriter) -> None:
    """Try `rewrites` on `op` in order until one acts; what one inserts takes `op`'s location
    (`inheriting`, entered only when there is one to take)."""
    if isinstance(op.location, UnknownLoc):
        for rewrite in rewrites:
            rewrite(op, rewriter)
            if rewriter.has_done_action:
                return
        return
    with inheriting(rewriter, op):
        for rewrite in rewrites:
            rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


class _DispatchingWalker(PatternRewriteWalker):
    """xDSL's walker, seeding its worklist only with ops some pattern accepts, and skipping
    the confirming sweep when `unsettling` vouches for it (module doc)."""

    unsettling: Callable[[Operation], bool] | None = None
    unsettled: bool = False

    def rewrite_region(self, region: Region) -> bool:
        if self.unsettling is None or not self.apply_recursively:
            return super().rewrite_region(region)
        listener = self._get_rewriter_listener()
        result = False
        while True:
            self.unsettled = False
            self._populate_worklist(region)
            changed = self._process_worklist(listener)
            result |= changed
            if not changed or not self.unsettled:
                return result

    def note(self, op: Operation, *_: object) -> None:
        """Listener: whether the change to `op` calls for a confirming sweep."""
        if not self.unsettled and self.unsettling is not None and self.unsettling(op):
            self.unsettled = True

    def _process_worklist(self, listener: PatternRewriterListener) -> bool:
        """xDSL's loop, minus its per-op costs for ops no pattern accepts (ops the walker
        was told of): they are popped and dropped, not given a rewriter state."""
        applier = self.pattern
        assert isinstance(applier, DispatchingApplier)
        worklist = self._worklist
        rewrites_for = applier.rewrites_for
        rewriter: PatternRewriter | None = None
        changed = False
        while worklist:
            op = worklist.pop()
            rewrites = rewrites_for(type(op))
            if not rewrites:
                continue
            if rewriter is None:
                rewriter = PatternRewriter(op)
                rewriter.extend_from_listener(listener)
            rewriter.has_done_action = False
            rewriter.current_operation = op
            rewriter.insertion_point = InsertPoint.before(op)
            rewriter.name_hint = None
            try:
                apply_first(rewrites, op, rewriter)
            except Exception as err:
                op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
            changed |= rewriter.has_done_action
        return changed

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        applier = self.pattern
        assert isinstance(applier, DispatchingApplier)
        reverse, region_first = not self.walk_reverse, not self.walk_regions_first
        push = self._worklist.push
        for sub_op in applier.matchable(nested_ops(op, reverse=reverse, region_first=region_first)):
            push(sub_op)


class _Changes(threading.local):
    def __init__(self) -> None:
        self.count = 0


_CHANGES = _Changes()


def changing_rewrites() -> int:
    """How many `rewrite_greedily` calls in this thread have changed IR so far.

    A pass whose every change goes through `rewrite_greedily` (it says so with
    a `REPORTS_CHANGES = True` class variable) lets the pass manager read from
    this count that it changed the module, instead of comparing snapshots.
    """
    return _CHANGES.count


def record_change() -> None:
    """Count a change made outside `rewrite_greedily` by a pass that reports its changes
    (one whose changes snapshot comparison cannot see: locations)."""
    _CHANGES.count += 1


def rewrite_greedily(
    region: Region,
    patterns: Sequence[RewritePattern],
    apply_recursively: bool = True,
    unsettling: Callable[[Operation], bool] | None = None,
) -> bool:
    """Rewrite `region` with `patterns` to a fixed point (as `PatternRewriteWalker`); changed?

    With `unsettling`, the patterns are local and the sweep that would only confirm the
    fixed point is skipped unless `unsettling` said True of a changed op (module doc).
    """
    walker = _DispatchingWalker(DispatchingApplier(patterns), apply_recursively=apply_recursively)
    if unsettling is not None:
        walker.unsettling = unsettling
        walker.listener = PatternRewriterListener(
            operation_modification_handler=[walker.note],
            operation_replacement_handler=[walker.note],
        )
    changed = walker.rewrite_region(region)
    _CHANGES.count += changed
    return changed
