"""`merge-composite` (TVM's MergeComposite): wrap pattern matches in `relay.composite` ops.

For each function (TVM's function-pass rule: `Compiler` functions are skipped)
and each `(name, pattern[, check])` of the pattern table, in table order, so
that an earlier pattern wins where matches overlap:

1. Group: visit the ops of every block from the outputs towards the inputs;
   where the pattern matches an op that no earlier group of this pattern
   claimed, the matched ops form a group. A group is rejected when one of its
   ops already belongs to a group, or when a value made inside it other than
   the root's is read outside it (the composite would have to hand it out: TVM
   drops such matches since they would make a cycle). A rejected group claims
   nothing (a smaller match inside it may still form); an accepted one claims
   its ops even if its check then refuses it, as in TVM.
2. Check: `check(ExprView(root))` on the original, typed root decides whether
   the group becomes a composite (TVM's `check` callback).
3. Rewrite: the group becomes `relay.composite "<name>" (inputs) {PartitionedFromPattern
   = "<ops>"}` at the root's place, its body the matched ops in post-order from
   the root. The inputs are the distinct values the pattern's leaves matched, in
   the order the leaves come in the pattern (TVM's parameter order); constants
   matched by `is_constant()` or `is_expr(constant)` are embedded in the body
   (TVM's rule), those matched by a wildcard are inputs.
   `PartitionedFromPattern` lists the body's ops in post-order as TVM names them:
   `nn.conv2d_nn.bias_add_nn.relu_`, `TupleGetItem0_`, `Tuple_`, `Call_`.

Later patterns never look inside existing composites (their bodies are other
blocks). Composites carry no `Primitive` or `Compiler`.

Where we differ from TVM: TVM accepts an escaping value whose consumer
flows only into the root, computing that part of the graph twice; we reject
every escape.

`-p merge-composite{pattern-table=accel}` uses a registered table; in Python,
`MergeComposite(table)` takes the entries themselves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.locations import fused_location_of, inherit, locate_arguments
from xrelay.dialects.relay.structure import CompositeOp, YieldOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.byoc_registry import ExprView, attr_value, get_pattern_table, tvm_op_name
from xrelay.passes.dataflow_pattern import DFPattern, pattern_table_entries
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

Entry = tuple[str, DFPattern, Callable[[ExprView], bool]]

_OPAQUE = frozenset({"relay.composite", "relay.compiler_begin", "relay.compiler_end"})


@dataclass
class _Group:
    name: str
    root: OpResult
    ops: list[Operation]
    """The matched ops in post-order from the root (producers first)."""
    inputs: list[SSAValue]
    constants: list[OpResult]


def _blocks(function: func.FuncOp) -> list[Block]:
    """Every block of the function outside composite bodies."""
    out: list[Block] = []
    stack = list(function.body.blocks)
    while stack:
        block = stack.pop()
        out.append(block)
        for op in block.ops:
            if op.name != "relay.composite":
                for region in op.regions:
                    stack.extend(region.blocks)
    return out


def _ordered_unique(values: Sequence[SSAValue], skip: set[SSAValue]) -> list[SSAValue]:
    seen: set[SSAValue] = set()
    out: list[SSAValue] = []
    for value in values:
        if value not in seen and value not in skip:
            seen.add(value)
            out.append(value)
    return out


def _group_at(
    pattern: DFPattern, root: OpResult, block: Block, claimed: set[Operation]
) -> _Group | None:
    """The group the pattern makes at `root`, or None if it does not match or is rejected.

    A rejected group (overlap or escape) claims nothing, as in TVM (`CreateGroup`
    returns before assigning group ids), so a smaller match inside it may still form.
    """
    state = pattern.match_state(root, block)
    if state is None or not state.ops:
        return None
    members = {v.owner for v in state.ops if isinstance(v, OpResult)}
    if not claimed.isdisjoint(members):
        return None  # overlaps an earlier group of this pattern
    for op in members:
        if op is root.op:
            continue
        for result in op.results:
            for use in result.uses:
                if use.operation not in members:
                    return None  # escapes: TVM rejects the match (it would make a cycle)
    ordered = _post_order(root.op, members)
    produced: set[SSAValue] = {r for op in ordered for r in op.results}
    constants = [c for c in _ordered_unique(state.constants, produced) if isinstance(c, OpResult)]
    # TVM's parameter order: the values the pattern's leaves matched, in the order the
    # leaves come in the pattern (its post-order DFS), each distinct value once. Every
    # operand of a matched op is matched by some sub-pattern, so nothing is missing.
    inputs = _ordered_unique(state.inputs, produced | set(constants))
    name = "".join(_node_name(op) for op in ordered)
    return _Group(name, root, ordered, inputs, constants)


def _post_order(root: Operation, members: set[Operation]) -> list[Operation]:
    """The members in post-order from `root`, operands left to right, each once.

    TVM's `MatchExtractor` order: it names the group (`PartitionedFromPattern`)
    and orders the composite's body, producers first.
    """
    order: list[Operation] = []
    done: set[Operation] = set()
    stack: list[tuple[Operation, bool]] = [(root, False)]
    while stack:
        op, expanded = stack.pop()
        if op in done:
            continue
        if expanded:
            done.add(op)
            order.append(op)
            continue
        stack.append((op, True))
        for operand in reversed(op.operands):
            if isinstance(operand, OpResult) and operand.op in members and operand.op not in done:
                stack.append((operand.op, False))
    return order


def _node_name(op: Operation) -> str:
    if op.name == "relay.tuple":
        return "Tuple_"
    if op.name == "relay.tuple_get_item":
        return f"TupleGetItem{attr_value(op.properties['index'])}_"
    if isinstance(op, func.CallOp):
        return "Call_"
    return tvm_op_name(op) + "_"


def _rewrite(group: _Group, composite_name: str) -> None:
    """Replace the group by one `relay.composite` op at the root's place."""
    root_op = group.root.op
    body = Block(arg_types=[v.type for v in group.inputs])
    mapping: dict[SSAValue, SSAValue] = dict(zip(group.inputs, body.args, strict=True))
    locate_arguments(body, group.inputs)
    for arg, value in zip(body.args, group.inputs, strict=True):
        arg.name_hint = value.name_hint
    embedded = set(group.constants)
    for op in group.ops:
        for operand in op.operands:  # an embedded constant goes before its first user
            if isinstance(operand, OpResult) and operand in embedded and operand not in mapping:
                constant = operand.op.clone()
                body.add_op(constant)
                mapping[operand] = constant.results[0]
        clone = op.clone(value_mapper=mapping)
        body.add_op(clone)
    body.add_op(YieldOp(mapping[group.root]))
    composite = CompositeOp(composite_name, group.inputs, group.root.type, Region(body))
    composite.attributes["PartitionedFromPattern"] = StringAttr(group.name)
    composite.location = fused_location_of(group.ops)
    inherit(composite, composite.location)  # the yield
    Rewriter.insert_op(composite, InsertPoint.before(root_op))
    group.root.replace_all_uses_with(composite.result)
    for op in reversed(group.ops):
        Rewriter.erase_op(op)
    for constant in group.constants:
        if not constant.uses:
            Rewriter.erase_op(constant.op)


def merge_composite(function: func.FuncOp, entries: Sequence[Entry]) -> None:
    """Apply the pattern table to one function, pattern after pattern."""
    for composite_name, pattern, check in entries:
        for block in _blocks(function):
            claimed: set[Operation] = set()
            groups: list[_Group] = []
            for op in reversed(list(block.ops)):
                if op in claimed or op.name in _OPAQUE or len(op.results) != 1:
                    continue
                group = _group_at(pattern, op.results[0], block, claimed)
                if group is None:
                    continue
                claimed.update(group.ops)  # also when the check refuses it, as in TVM
                try:
                    accepted = check(ExprView(group.root))
                except Exception as error:
                    raise DiagnosticError(
                        [
                            op_error(
                                op,
                                f"check of pattern '{composite_name}' raised "
                                f"{type(error).__name__}: {error}",
                            )
                        ]
                    ) from error
                if accepted:
                    groups.append(group)
            for group in groups:  # consumers first: producers' results are replaced later
                _rewrite(group, composite_name)


@dataclass(frozen=True)
class MergeCompositePass(XdslFunctionPass):
    """Wrap the matches of a pattern table's patterns in `relay.composite` ops."""

    name = "merge-composite"
    tvm_name: ClassVar[str] = "MergeComposite"
    opt_level: ClassVar[int] = 0

    pattern_table: str = ""
    """The registered table to apply (`register_pattern_table`), e.g. `accel`."""

    entries: tuple[Entry, ...] = field(default=(), init=False, compare=False, repr=False)
    """Entries given in Python (`MergeComposite(table)`); used when `pattern_table` is empty."""

    def __post_init__(self) -> None:
        if self.pattern_table:
            get_pattern_table(self.pattern_table)  # ByocError for an unknown table

    def table(self) -> list[Entry]:
        """The entries to apply, in priority order."""
        if self.pattern_table:
            return pattern_table_entries(get_pattern_table(self.pattern_table))
        return list(self.entries)

    composites: ClassVar[Statistic] = Statistic("num-composites", "Number of composites made")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        if function.body.blocks:
            before = _composites(function)
            merge_composite(function, self.table())
            self.composites.add(_composites(function) - before)


def _composites(function: func.FuncOp) -> int:
    return sum(1 for op in function.walk() if isinstance(op, CompositeOp))


def MergeComposite(
    pattern_table: Sequence[tuple[Any, ...]] | Callable[[], Sequence[tuple[Any, ...]]] | str,
) -> Pass:
    """TVM's `relay.transform.MergeComposite(pattern_table)`.

    `pattern_table` is a list of `(name, pattern)` or `(name, pattern, check)`,
    the function returning one (what `@register_pattern_table` decorates, as
    seed 004 passes it), or the name of a registered table.
    """
    if callable(pattern_table):
        pattern_table = pattern_table()
    if isinstance(pattern_table, str):
        return XdslPass(MergeCompositePass(pattern_table=pattern_table))
    xdsl_pass = MergeCompositePass()
    object.__setattr__(xdsl_pass, "entries", tuple(pattern_table_entries(pattern_table)))
    return XdslPass(xdsl_pass)
