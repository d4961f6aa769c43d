"""The branch grouping shared by the `combine-parallel-*` passes (TVM's `ParallelOpCombiner`).

A *branch* starts at an op of the combined kind (`nn.conv2d`, `nn.dense`,
`nn.batch_matmul`) and follows its single consumer for as long as that consumer
is elementwise or broadcast (`TOpPattern <= kBroadcast`). Branches whose roots
read the same first operand and that the pass finds compatible form a *group*;
a group of at least `min_num_branches` branches is combined:

1. one combined op replaces the roots (`make_combined`);
2. level by level, while every branch has the same op with the same
   properties there, reading the previous level at the same operand position,
   with compatible other operands, one combined op replaces that level
   (`make_following`);
3. the last combined value is cut back into one value per branch
   (`split_outputs`), which replaces that branch's last combined op.

As in TVM, only the consumers that are calls count: a `relay.tuple`,
`relay.tuple_get_item` or the function's return does not, so a dense used by a
tuple and by one add still extends through the add (and the tuple keeps reading
the old dense). Branch ops left unused are erased; new ops go after the last
op they read, and the block is re-sorted (stably) when a user of a replaced
value came earlier. Linear in the function's size plus the combined branches.
"""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod

from xdsl.dialects import func
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import ConstantOp, TupleGetItemOp, TupleOp
from xrelay.dialects.relay.tensor import ExpandDimsOp, StridedSliceOp
from xrelay.dialects.relay.types import shape_of, tensor_element_type
from xrelay.passes.op_pattern import OpPatternKind, op_pattern

Branch = list[Operation]
"""A root op and the elementwise/broadcast ops that follow it, in order."""
Group = list[Branch]
"""Branches whose roots may be combined."""


def branch_pattern(op: Operation) -> OpPatternKind:
    """`op`'s pattern kind as TVM registers it, for extending branches: as `op_pattern`, but
    `expand_dims` is Broadcast (TVM's `TOpPattern`; `op_pattern` keeps it Injective for
    FuseOps' groups)."""
    if isinstance(op, ExpandDimsOp):
        return OpPatternKind.BROADCAST
    return op_pattern(op)


def is_call(op: Operation) -> bool:
    """Whether `op` is what TVM's visitor sees as a call (tuples and returns are not)."""
    if isinstance(op, func.CallOp):
        return True
    return isinstance(op, RelayOp) and not isinstance(op, (TupleOp, TupleGetItemOp, ConstantOp))


def shape(value: SSAValue) -> tuple[int, ...]:
    """The static shape of a tensor value."""
    return tuple(shape_of(value.type))


def element(value: SSAValue) -> Attribute:
    """The element type of a tensor value."""
    return tensor_element_type(value.type)


def same_tensor_type(a: SSAValue, b: SSAValue) -> bool:
    """Same element type and shape (TVM's `IsArgCompatible` of the batch combiners)."""
    return element(a) == element(b) and shape(a) == shape(b)


def result(op: Operation) -> SSAValue:
    """The single result of `op`."""
    return op.results[0]


class ParallelOpCombiner(ABC):
    """Find groups of parallel branches of one op kind in a function and combine them."""

    op_name: str
    """The root op's name (`relay.nn.dense`, ...)."""

    def __init__(self, min_num_branches: int) -> None:
        self.min_num_branches = min_num_branches
        self.emitted: list[Operation] = []
        """New ops of the group being combined, in dependency order."""

    # Hooks, TVM's.
    def is_supported(self, op: Operation) -> bool:
        """Whether `op` (of the root kind) may root a branch."""
        del op
        return True

    @abstractmethod
    def can_combine(self, a: Operation, b: Operation) -> bool:
        """Whether two roots reading the same first operand may be combined."""

    @abstractmethod
    def make_combined(self, group: Group) -> SSAValue:
        """The combined root (ops added with `emit`)."""

    @abstractmethod
    def is_arg_compatible(self, a: Operation, b: Operation, index: int) -> bool:
        """Whether operand `index` of two following ops at one level may be combined."""

    @abstractmethod
    def make_following(
        self, data: SSAValue, group: Group, depth: int, parent_index: int
    ) -> SSAValue:
        """The combined following op at `depth`, reading `data` at `parent_index`."""

    @abstractmethod
    def split_outputs(self, data: SSAValue, group: Group, depth: int) -> list[SSAValue]:
        """One value per branch, cut from the combined `data` (replaces `branch[depth]`)."""

    def emit(self, op: Operation) -> SSAValue:
        """Record a new op; its single result."""
        self.emitted.append(op)
        return result(op)

    # The driver.

    def emit_slice(self, data: SSAValue, begin: list[int], end: list[int]) -> SSAValue:
        """`strided_slice(data, begin, end)` in `size` mode (an end of -1: to the end): one
        branch's part of the combined result."""
        props = {
            "begin": attrs.ints(begin),
            "end": attrs.ints(end),
            "strides": attrs.ints([1] * len(begin)),
            "slice_mode": attrs.str_("size"),
        }
        return self.emit(StridedSliceOp.make([data], props))

    def find_groups(self, block: Block) -> list[Group]:
        """The groups of the block, roots in block order (TVM's `BranchGroupFinder`)."""
        roots: dict[SSAValue, None] = {}
        children: dict[SSAValue, list[Operation]] = {}
        for op in block.ops:
            if not is_call(op):
                continue
            if op.name == self.op_name and self.is_supported(op):
                roots.setdefault(op.operands[0], None)
                children.setdefault(op.operands[0], []).append(op)
            else:
                for operand in op.operands:
                    children.setdefault(operand, []).append(op)
        groups: list[Group] = []
        for root in roots:
            first = len(groups)
            for child in children[root]:
                if child.name != self.op_name or not self.is_supported(child):
                    continue  # TVM would group unsupported roots too (depthwise convs)
                branch = self._branch(child, children)
                for group in groups[first:]:
                    if self.can_combine(child, group[0][0]):
                        group.append(branch)
                        break
                else:
                    groups.append([branch])
        return groups

    def _branch(self, op: Operation, children: dict[SSAValue, list[Operation]]) -> Branch:
        branch: Branch = [op]
        users = children.get(result(branch[-1]), [])
        while len(users) == 1:
            user = users[0]
            if branch_pattern(user) > OpPatternKind.BROADCAST:
                break
            branch.append(user)
            users = children.get(result(user), [])
        return branch

    def combine(self, function: func.FuncOp) -> int:
        """Combine every large enough group of `function`; how many groups were combined."""
        block = function.body.block
        combined = 0
        for group in self.find_groups(block):
            if len(group) >= self.min_num_branches:
                self._combine_group(block, group)
                combined += 1
        if combined:
            stable_topological_sort(block)
        return combined

    def _combine_group(self, block: Block, group: Group) -> None:
        self.emitted = []
        data = self.make_combined(group)
        depth = min(len(branch) for branch in group)
        level = 1
        while level < depth:
            first = group[0][level]
            parent = result(group[0][level - 1])
            parent_index = next(i for i, v in enumerate(first.operands) if v == parent)
            if not self._check_level(group, level, parent_index):
                break
            data = self.make_following(data, group, level, parent_index)
            level += 1
        last = level - 1
        outputs = self.split_outputs(data, group, last)
        anchor = max((op for branch in group for op in branch[: last + 1]), key=_index)
        anchor_block = anchor.parent_block()
        assert anchor_block is block
        block.insert_ops_after(self.emitted, anchor)
        for branch, value in zip(group, outputs, strict=True):
            result(branch[last]).replace_all_uses_with(value)
        for branch in group:
            for op in reversed(branch[: last + 1]):
                if all(not r.uses for r in op.results):
                    op.detach()
                    op.erase()

    def _check_level(self, group: Group, level: int, parent_index: int) -> bool:
        call = group[0][level]
        for branch in group[1:]:
            other = branch[level]
            if (
                other.name != call.name
                or dict(other.properties) != dict(call.properties)
                or len(other.operands) != len(call.operands)
            ):
                return False
            if other.operands[parent_index] != result(branch[level - 1]):
                return False
            for i in range(len(call.operands)):
                if i != parent_index and not self.is_arg_compatible(call, other, i):
                    return False
        return True


def _index(op: Operation) -> int:
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)


def _dependencies(op: Operation, block: Block) -> list[Operation]:
    """The ops of `block` whose results `op` (or an op nested in it) reads."""
    deps: list[Operation] = []
    for inner in op.walk():
        for operand in inner.operands:
            owner = operand.owner
            if isinstance(owner, Operation) and owner.parent_block() is block:
                deps.append(owner)
    return deps


def stable_topological_sort(block: Block) -> None:
    """Reorder `block` so every op follows what it reads, keeping the order otherwise."""
    ops = list(block.ops)
    position = {op: i for i, op in enumerate(ops)}
    if all(position[d] < position[op] for op in ops for d in _dependencies(op, block)):
        return
    waiting = {op: 0 for op in ops}
    users: dict[Operation, list[Operation]] = {op: [] for op in ops}
    for op in ops:
        for dep in _dependencies(op, block):
            if dep is not op:
                waiting[op] += 1
                users[dep].append(op)
    ready = [position[op] for op in ops if waiting[op] == 0]
    heapq.heapify(ready)
    order: list[Operation] = []
    while ready:
        op = ops[heapq.heappop(ready)]
        order.append(op)
        for user in users[op]:
            waiting[user] -= 1
            if waiting[user] == 0:
                heapq.heappush(ready, position[user])
    for op in order:
        op.detach()
    block.add_ops(order)


def props_of(op: Operation) -> dict[str, Attribute]:
    """`op`'s properties with its class's defaults filled in (for comparisons)."""
    defaults = op.default_properties() if isinstance(op, RelayOp) else {}
    return defaults | dict(op.properties)


def remade(call: Operation, operands: list[SSAValue]) -> Operation:
    """A new op like `call` (same class and properties) on other operands, its type inferred."""
    assert isinstance(call, RelayOp)
    return type(call).make(operands, dict(call.properties))
