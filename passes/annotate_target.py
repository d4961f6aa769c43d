"""`annotate-target` (TVM's `AnnotateTarget`): mark each op with the target that will run it.

What it rewrites. Each block of a function is visited in block order (a
topological order, TVM's post-order), and every op gets a target:

- a relay op (or a plugin dialect's op) gets the first target of `targets`
  whose support predicate accepts it (`op_supported`; the predicate sees the
  typed op as an `ExprView`), else `"default"`: first match wins;
- a `relay.composite` gets the target named by the text before the first `.`
  of its composite name if that target is in `targets`, else `"default"`;
- `func.call` and any other op: `"default"`;
- `relay.tuple` / `relay.tuple_get_item`: the target all their operands agree
  on (an input counts as `"default"`), else `"default"`; with
  `include_non_call_ops=false` they are never annotated: their annotated
  operands get a `compiler_end` and their consumers treat them as inputs.

Then its operands are annotated per edge (TVM's `AnnotateArgs`): an operand
produced by an annotated op gets a `relay.compiler_end` with the producer's
target, one per consumer edge (a value read by two ops gets two ends), and
every operand gets its own `relay.compiler_begin` with the op's target. The
new annotations are placed right before the op and keep the types (they are
identities). Values that are never annotated, and so enter regions as plain
inputs: block arguments, ops without operands (`relay.constant`,
`relay.zeros`, ...), the results of `relay.if`, and tuples when
`include_non_call_ops=false`. Every annotated value the function returns
gets a `compiler_end` (one per `func.return` operand). Ops decided
`"default"` are annotated too (with `"default"` begins and ends), as in TVM;
PartitionGraph drops those.

`relay.if` (and any other op with regions, except `relay.composite`) is not
annotated: its condition and every annotated value of the enclosing block
that its regions read get a `compiler_end` placed before it (one per value),
and each branch block is annotated as a scope of its own, where values from
outside are inputs and annotated yielded values get ends. The pass does not
step into `relay.composite` bodies.

Re-running. An op whose first operand is a `compiler_begin` of a target
other than `"default"` was annotated by an earlier run and is left as it is;
a `"default"` begin from an earlier run is re-decided (updated in place);
existing ends are kept. So running the pass twice gives the IR of one run,
and `AnnotateTarget("A")` then `AnnotateTarget("B")` re-decides only what got
`"default"`, giving what `AnnotateTarget(["A", "B"])` gives.

Errors. An empty `targets` is an error when the pass is built. A target with
no registered predicates, pattern table or partition hook takes no op, as in
TVM (its ops stay on the host); the pass warns once per run, naming the known
targets and the closest one (a typo: `acel` for `accel`). A
predicate that raises is a located error on the op, naming the op and the
target; it is reported before anything is changed (every predicate runs
before the rewrite).

Differences from TVM: TVM keeps a stale `"default"` end of an earlier run on
a value the new run re-decides (it only re-targets the function body's end),
so its runs are not additive beyond the body; here every existing end takes
the target of its producer. Calls of zero-operand ops are plain inputs also
when a tuple's target is agreed (TVM counts their recorded target there).
TVM's `Let` and `Ref*` nodes have no counterpart. Cost: linear in the number
of ops and operands times the nesting depth of `relay.if` regions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.pass_warnings import warn
from xrelay.dialects.relay.structure import (
    CompilerBeginOp,
    CompilerEndOp,
    CompositeOp,
    TupleGetItemOp,
    TupleOp,
)
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.byoc_registry import ByocError, PredicateError, check_target, op_supported
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import collector_paused

DEFAULT = "default"
"""The target of ops no given target takes (TVM's `default_target`)."""


def _begin_of(value: SSAValue) -> CompilerBeginOp | None:
    """The `compiler_begin` defining `value`, if it is one."""
    if isinstance(value, OpResult) and isinstance(value.op, CompilerBeginOp):
        return value.op
    return None


def _end_of(value: SSAValue) -> CompilerEndOp | None:
    """The `compiler_end` defining `value`, if it is one."""
    if isinstance(value, OpResult) and isinstance(value.op, CompilerEndOp):
        return value.op
    return None


def already_annotated(op: Operation) -> bool:
    """Whether an earlier run annotated `op`: its first operand is a non-default begin."""
    if not op.operands:
        return False
    begin = _begin_of(op.operands[0])
    return begin is not None and begin.compiler.data != DEFAULT


def _is_predicate_op(op: Operation) -> bool:
    """An op whose target comes from the support predicates (TVM: a call of an `Op`)."""
    return (
        bool(op.operands)
        and bool(op.results)
        and not op.regions
        and not op.has_trait(IsTerminator)
        and not isinstance(
            op, func.CallOp | TupleOp | TupleGetItemOp | CompilerBeginOp | CompilerEndOp
        )
    )


def composite_target(op: CompositeOp, targets: Sequence[str]) -> str | None:
    """The target a composite's name starts with (`accel.conv2d_relu` -> `accel`), if given."""
    name = op.composite.data
    if "." not in name:
        return None
    prefix = name.split(".", 1)[0]
    return prefix if prefix in targets else None


def predicate_target(op: Operation, targets: Sequence[str]) -> str | None:
    """The first of `targets` whose predicate accepts `op`; a located error if one raises."""
    value = op.results[0]
    for target in targets:
        try:
            if op_supported(value, target):
                return target
        except PredicateError as error:
            raise DiagnosticError([op_error(op, str(error))]) from None
    return None


def _ops_outside_composites(function: func.FuncOp) -> Iterator[Operation]:
    """The function's ops in pre-order (nested regions included), not entering composites."""
    stack: list[Iterator[Operation]] = [iter(b.ops) for b in reversed(function.body.blocks)]
    while stack:
        op = next(stack[-1], None)
        if op is None:
            stack.pop()
            continue
        yield op
        if op.regions and not isinstance(op, CompositeOp):
            for region in reversed(op.regions):
                stack.extend(iter(b.ops) for b in reversed(region.blocks))


class _Annotator:
    """The state of one function's annotation: the decided targets and each value's target."""

    def __init__(self, targets: Sequence[str], include_non_call_ops: bool):
        self.targets = tuple(targets)
        self.include_non_call_ops = include_non_call_ops
        self.decided: dict[Operation, str] = {}
        """Targets chosen by predicates or composite names, before anything changes."""
        self.target_of: dict[SSAValue, str] = {}
        """The target of each annotated value (TVM's `op_expr_to_target_`)."""
        self.kept: set[Operation] = set()
        """Ops an earlier run annotated with a target: left as they are."""

    # ----------------------------------------------------------------- decide

    def decide(self, function: func.FuncOp) -> None:
        """Ask the predicates about every op first, on the unchanged IR (TVM's `pre`)."""
        for op in _ops_outside_composites(function):
            if self._kept(op):
                self.kept.add(op)
                continue
            target: str | None = None
            if isinstance(op, CompositeOp):
                target = composite_target(op, self.targets) if op.operands else None
            elif _is_predicate_op(op):
                target = predicate_target(op, self.targets)
            if target is not None:
                self.decided[op] = target

    def _kept(self, op: Operation) -> bool:
        """Annotated by an earlier run: a non-default begin first, or inside a merged region.

        After MergeCompilerRegions, the ops inside a region read each other
        without annotations; an op whose first operand comes from a kept op
        (not an annotation) belongs to that op's region.
        """
        if already_annotated(op):
            return True
        if not op.operands or not isinstance(producer := op.operands[0], OpResult):
            return False
        return producer.op in self.kept and not isinstance(
            producer.op, CompilerBeginOp | CompilerEndOp
        )

    # --------------------------------------------------------------- annotate

    def annotate_block(self, block: Block) -> None:
        """Annotate the ops of one scope, in block order."""
        for op in list(block.ops):
            if isinstance(op, CompilerBeginOp):
                continue  # handled with its consumer
            if isinstance(op, CompilerEndOp):
                self._visit_end(op)
            elif op.has_trait(IsTerminator):
                self._end_operands(op)
            elif op.regions and not isinstance(op, CompositeOp):
                self._visit_scope_op(op)
            elif not op.operands:
                continue  # an input
            elif op in self.kept:
                continue
            elif isinstance(op, TupleOp | TupleGetItemOp):
                if self.include_non_call_ops:
                    self._annotate(op, None)
                else:
                    self._end_operands(op)
            else:
                self._annotate(op, self.decided.get(op, DEFAULT))

    def _visit_end(self, end: CompilerEndOp) -> None:
        """An end of an earlier run: it takes its producer's target, or tells it."""
        value = end.data
        target = self.target_of.get(value)
        if target is None:
            if isinstance(value, OpResult) and value.op.operands:
                self.target_of[value] = end.compiler.data  # the producer was left as it was
        elif target != end.compiler.data:
            end.compiler = StringAttr(target)

    def _end_operands(self, op: Operation) -> None:
        """A `compiler_end` on each annotated operand of `op` (one per operand)."""
        operands = list(op.operands)
        ends: list[Operation] = []
        for index, value in enumerate(operands):
            target = self.target_of.get(value)
            if target is not None:
                end = _make_end(value, target)
                ends.append(end)
                operands[index] = end.result
        if ends:
            self._insert_before(ends, op)
            op.operands = operands

    def _visit_scope_op(self, op: Operation) -> None:
        """`relay.if`: ends on its operands and on the annotated values its regions read."""
        self._end_operands(op)
        block = op.parent
        reads: dict[SSAValue, list[tuple[Operation, int]]] = {}
        for inner in op.walk():
            if inner is op:
                continue
            for index, value in enumerate(inner.operands):
                if (
                    value in self.target_of
                    and isinstance(value, OpResult)
                    and value.op.parent is block
                ):
                    reads.setdefault(value, []).append((inner, index))
        replaced: dict[Operation, dict[int, SSAValue]] = {}
        ends: list[Operation] = []
        for value, uses in reads.items():
            end = _make_end(value, self.target_of[value])
            ends.append(end)
            for user, index in uses:
                replaced.setdefault(user, {})[index] = end.result
        if ends:
            self._insert_before(ends, op)
        for user, changes in replaced.items():
            user.operands = [changes.get(i, v) for i, v in enumerate(user.operands)]
        for region in op.regions:
            for inner_block in region.blocks:
                self.annotate_block(inner_block)

    def _annotate(self, op: Operation, target: str | None) -> None:
        """TVM's AnnotateArgs: ends on annotated operands, a begin on every operand.

        `target=None` (tuples) takes the target the operands agree on.
        """
        arg_targets: list[str] = []
        for value in op.operands:
            begin = _begin_of(value)
            if begin is not None:
                end = _end_of(begin.data)
                arg_targets.append(end.compiler.data if end is not None else DEFAULT)
            else:
                arg_targets.append(self.target_of.get(value, DEFAULT))
        if target is None:
            first = arg_targets[0]
            target = first if all(t == first for t in arg_targets) else DEFAULT
        new_ops: list[Operation] = []
        operands: list[SSAValue] = []
        stale: list[CompilerBeginOp] = []
        for value in op.operands:
            begin = _begin_of(value)
            if begin is not None:
                if begin.compiler.data == DEFAULT and target != DEFAULT:
                    if begin.result.has_one_use():
                        begin.compiler = StringAttr(target)  # re-decided in place
                    else:
                        fresh = _make_begin(begin.data, target)
                        new_ops.append(fresh)
                        stale.append(begin)
                        value = fresh.result
                operands.append(value)
                continue
            producer_target = self.target_of.get(value)
            if producer_target is not None:
                end = _make_end(value, producer_target)
                new_ops.append(end)
                value = end.result
            begin = _make_begin(value, target)
            new_ops.append(begin)
            operands.append(begin.result)
        if new_ops:
            self._insert_before(new_ops, op)
        op.operands = operands
        for old in stale:
            if old.result.first_use is None and old.parent is not None:
                old.parent.erase_op(old)
        for result in op.results:
            self.target_of[result] = target

    @staticmethod
    def _insert_before(new_ops: list[Operation], op: Operation) -> None:
        block = op.parent
        assert block is not None
        block.insert_ops_before(new_ops, op)


def _make_begin(value: SSAValue, target: str) -> CompilerBeginOp:
    return CompilerBeginOp.make([value], {"compiler": StringAttr(target)})


def _make_end(value: SSAValue, target: str) -> CompilerEndOp:
    return CompilerEndOp.make([value], {"compiler": StringAttr(target)})


def annotate_function(
    function: func.FuncOp, targets: Sequence[str], include_non_call_ops: bool = True
) -> None:
    """Annotate one function in place (see the module docstring)."""
    annotator = _Annotator(targets, include_non_call_ops)
    with collector_paused():  # two or three new ops per edge, and no garbage
        annotator.decide(function)
        for block in function.body.blocks:
            annotator.annotate_block(block)


def check_targets(targets: Sequence[str]) -> tuple[str, ...]:
    """`targets` as a tuple; ByocError if there is none."""
    if not targets:
        raise ByocError("at least one target is required (e.g. targets=accel)")
    return tuple(targets)


def warn_unknown_targets(targets: Sequence[str], module: ModuleOp) -> None:
    """Warn about each target that takes no op: nothing is registered for it."""
    for target in targets:
        try:
            check_target(target)
        except ByocError as error:
            warn(f"annotate-target: {error} It takes no ops.", module)


@dataclass(frozen=True)
class AnnotateTargetPass(XdslFunctionPass):
    """Annotate ops with the first target whose predicate accepts them (compiler_begin/end)."""

    name = "annotate-target"
    tvm_name: ClassVar[str] = "AnnotateTarget"
    opt_level: ClassVar[int] = 0

    targets: tuple[str, ...] = ()
    """The targets in priority order: an op goes to the first one that takes it."""

    include_non_call_ops: bool = True
    """Annotate tuples and projections too (false: they stay outside every region)."""

    def __post_init__(self) -> None:
        check_targets(self.targets)  # ByocError (a ValueError) for a bad list

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        warn_unknown_targets(self.targets, op)
        super().apply(ctx, op)

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        annotate_function(function, self.targets, self.include_non_call_ops)


def AnnotateTarget(targets: str | Sequence[str], include_non_call_ops: bool = True) -> Pass:
    """TVM's `relay.transform.AnnotateTarget(targets, include_non_call_ops=True)`."""
    names = (targets,) if isinstance(targets, str) else tuple(targets)
    return XdslPass(AnnotateTargetPass(targets=names, include_non_call_ops=include_non_call_ops))
