"""`AnnotatedRegionSet` (TVM's `src/relay/analysis/annotated_region_set`): the regions of a body.

`compiler_begin` / `compiler_end` annotations mark the edges of regions that a
target compiles; this module finds those regions in one function body, as
TVM's `AnnotatedRegionSet::Create` does, for MergeCompilerRegions and
PartitionGraph.

**Visiting order.** TVM visits the function in post-order (a DFS from the
body, operands left to right); here that is a DFS from the terminator's
operands, then from every op of the block not reached that way, in block
order (`PostOrderWalk`, an explicit stack: graphs are deep). A `relay.if`
is reached after its condition, and its branches are walked there, each from
its `relay.yield` (TVM visits cond, true branch, false branch). Composite
bodies are not entered.

**Creation** (one walk, ops in that order):

- `relay.compiler_begin`: a new region; its id comes from a counter starting
  at 0, so every begin takes an id (merged regions leave gaps). Its target is
  the begin's `compiler`, its inputs `[begin]`, its block the begin's block.
- `relay.compiler_end`: its operand must be in a region of the same target
  (otherwise a located error, TVM's "cannot find the corresponding region for
  end annotation"); the end joins it and is appended to its outputs.
- any other op (TVM's `AddToArgRegion`): its operands that are not ends are
  open; the region of the first open operand that has one is the op's, the
  other open operands' regions merge into it, and the op joins it. Open
  operands in a region and open operands in none (a block argument, a
  constant without a begin) is a located error (TVM's ICHECK "Arg regions
  are inconsistent"), and so is an op joining a region of another block: a
  region never crosses a `relay.if` boundary (an end may: it is an edge).
- `relay.if` never joins a region (TVM adds it to its operands' region before
  visiting them, so in practice it never joins either), nor do terminators.

**Merging** (`merge(src, dest)`, TVM's `MergeRegions`): `dest` keeps its id
and takes `src`'s nodes, inputs (appended after its own) and outputs. Nodes
are found through a union-find over the begins' ids, so `region_of` is near O(1)
where TVM scans every region, and merging concatenates lazily. TVM removes,
at each merge, the begins of `dest` that read a node of `src` (and the ends
they read); here `ins` and `outs` are filtered when read: a begin whose
operand is in its own region is internal, and so is an end all of whose
users are in its region. This is the same result for the producer-into-
consumer merges of MergeCompilerRegions and for per-edge annotations, and it
is symmetric where TVM's removal depends on which side is `dest`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.traits import IsTerminator
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp, IfOp

Annotation = CompilerBeginOp | CompilerEndOp


# --------------------------------------------------------------------------- #
# TVM's post-order
# --------------------------------------------------------------------------- #


def producer(value: SSAValue) -> Operation | None:
    """The op defining `value` (None for a block argument)."""
    return value.op if isinstance(value, OpResult) else None


def block_roots(block: Block) -> list[Operation]:
    """Where a walk of `block` starts: its terminator (its operands are the body), then every op."""
    ops = list(block.ops)
    last = block.last_op
    if last is not None and last.has_trait(IsTerminator):
        return [last, *ops[:-1]]
    return ops


def dataflow_children(op: Operation) -> list[Operation]:
    """The ops a post-order visit reaches before `op`, in TVM's order.

    The producers of its operands, left to right; for a `relay.if`, then each
    branch (its `relay.yield` first, then the rest of the branch).
    """
    children = [v.op for v in op.operands if isinstance(v, OpResult)]
    if isinstance(op, IfOp):
        for region in op.regions:
            for block in region.blocks:
                children.extend(block_roots(block))
    return children


Visit = Callable[[Operation], Iterator[Operation] | None]
"""Called once per op after its children; a returned iterator yields ops to walk
(fully) before the op counts as visited (TVM's nested `VisitExpr` calls)."""


class PostOrderWalk:
    """TVM's memoized post-order (`MixedModeVisitor`) with an explicit stack.

    `visit(op)` runs when all of `op`'s children are visited. It may return an
    iterator: each op it yields is walked to completion before the iterator
    resumes (how RegionMerger visits a region's producers first). An op
    reached again while it is being visited (only through a malformed region
    cycle) is skipped.
    """

    def __init__(self, visit: Visit):
        self.visit = visit
        self.state: dict[Operation, bool] = {}
        """False while an op is on the stack, True once visited."""

    def walk_block(self, block: Block) -> None:
        """Visit every op of `block` (and of the `relay.if` branches in it)."""
        for root in block_roots(block):
            self.walk(root)

    def walk(self, root: Operation) -> None:
        """Visit `root` and everything it reads that is not visited yet."""
        if root in self.state:
            return
        state = self.state
        state[root] = False
        # A frame: [op, children iterator, visit iterator or None, visit started]
        stack: list[list[Any]] = [[root, iter(dataflow_children(root)), None, False]]
        while stack:
            frame = stack[-1]
            if not frame[3]:
                child = next((c for c in frame[1] if c not in state), None)
                if child is not None:
                    state[child] = False
                    stack.append([child, iter(dataflow_children(child)), None, False])
                    continue
                frame[3] = True
                frame[2] = self.visit(frame[0])
            pending: Iterator[Operation] | None = frame[2]
            if pending is not None:
                nxt = next((c for c in pending if c not in state), None)
                if nxt is not None:
                    state[nxt] = False
                    stack.append([nxt, iter(dataflow_children(nxt)), None, False])
                    continue
            state[frame[0]] = True
            stack.pop()


# --------------------------------------------------------------------------- #
# Regions
# --------------------------------------------------------------------------- #


def _flatten(parts: list[Any]) -> Iterator[Operation]:
    """The ops of a lazily concatenated list (nested lists are merged regions' parts)."""
    stack: list[Iterator[Any]] = [iter(parts)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, list):
                stack.append(iter(item))  # pyright: ignore[reportUnknownArgumentType]
                break
            yield item
        else:
            stack.pop()


class AnnotatedRegion:
    """One region: `id`, `target`, `func_name`, `block`, `ins`, `outs`, `nodes`."""

    def __init__(self, owner: AnnotatedRegionSet, rid: int, target: str, block: Block | None):
        self.owner = owner
        self.id = rid
        self.target = target
        self.func_name = owner.func_name
        self.block = block
        """The block its ops are in (that of its first begin)."""
        self.mask = 1 << rid
        """The ids of the regions merged into this one (a bitset; its own id included)."""
        self._ins: list[Any] = []
        self._outs: list[Any] = []
        self._nodes: list[Operation] = []

    def __repr__(self) -> str:
        return f"AnnotatedRegion(id={self.id}, target={self.target!r})"

    @property
    def ins(self) -> list[CompilerBeginOp]:
        """Its begins in order (TVM's `GetInputs`), internal ones left out."""
        owner = self.owner
        out: list[CompilerBeginOp] = []
        for op in _flatten(self._ins):
            assert isinstance(op, CompilerBeginOp)
            source = producer(op.data)
            if source is None or owner.region_of(source) is not self:
                out.append(op)
        return out

    @property
    def outs(self) -> list[CompilerEndOp]:
        """Its ends in visiting order (TVM's `GetOutputs`), internal ones left out.

        An end is internal when it has users and all of them are in this region.
        """
        owner = self.owner
        out: list[CompilerEndOp] = []
        for op in _flatten(self._outs):
            assert isinstance(op, CompilerEndOp)
            users = [use.operation for use in op.result.uses]
            if not users or any(owner.region_of(u) is not self for u in users):
                out.append(op)
        return out

    @property
    def nodes(self) -> list[Operation]:
        """Every op of the region: begins, the ops between them and ends (no order)."""
        return list(self._nodes)

    def add_input(self, op: CompilerBeginOp) -> None:
        """Append a begin to the inputs."""
        self._ins.append(op)

    def add_output(self, op: CompilerEndOp) -> None:
        """Append an end to the outputs."""
        self._outs.append(op)

    def add_member(self, op: Operation) -> None:
        """Record `op` as a node (the set maps it to this region)."""
        self._nodes.append(op)

    def absorb(self, src: AnnotatedRegion) -> None:
        """Take `src`'s nodes, inputs (after this one's) and outputs, and its mask."""
        if len(self._nodes) < len(src._nodes):
            self._nodes, src._nodes = src._nodes, self._nodes
        self._nodes.extend(src._nodes)
        src._nodes = []
        self._ins.append(src._ins)
        self._outs.append(src._outs)
        self.mask |= src.mask


class AnnotatedRegionSet:
    """The annotated regions of one body (TVM's `AnnotatedRegionSet`).

    Build it with `AnnotatedRegionSet.create(block, func_name)`; regions are
    listed by id (`regions`), looked up by op (`region_of`) and merged with
    `merge(src, dest)`.
    """

    def __init__(self, func_name: str = "default"):
        self.func_name = func_name
        self._parent: list[int] = []
        self._size: list[int] = []
        self._region: list[AnnotatedRegion | None] = []
        self._element: dict[Operation, int] = {}
        self._live: dict[int, AnnotatedRegion] = {}

    # ----------------------------------------------------------- building

    @classmethod
    def create(cls, block: Block, func_name: str = "default") -> AnnotatedRegionSet:
        """The regions of `block` and of the `relay.if` branches in it (located errors)."""
        regions = cls(func_name)
        PostOrderWalk(regions.add_op).walk_block(block)
        return regions

    def make_region(self, target: str, block: Block | None) -> AnnotatedRegion:
        """A new empty region with the next id."""
        rid = len(self._parent)
        region = AnnotatedRegion(self, rid, target, block)
        self._parent.append(rid)
        self._size.append(1)
        self._region.append(region)
        self._live[rid] = region
        return region

    def add_node(self, region: AnnotatedRegion, op: Operation) -> None:
        """Put `op` (in no region yet) into `region`."""
        self._element[op] = self._find(region.id)
        region.add_member(op)

    def add_op(self, op: Operation) -> None:
        """TVM's Creator: one op, visited after its operands."""
        if isinstance(op, CompilerBeginOp):
            region = self.make_region(op.compiler.data, op.parent_block())
            self.add_node(region, op)
            region.add_input(op)
        elif isinstance(op, CompilerEndOp):
            self._add_end(op)
        elif not isinstance(op, IfOp) and not op.has_trait(IsTerminator):
            self._add_to_arg_region(op)

    def _add_end(self, op: CompilerEndOp) -> None:
        target = op.compiler.data
        source = producer(op.data)
        region = self.region_of(source) if source is not None else None
        if region is None:
            raise DiagnosticError(
                [
                    op_error(
                        op,
                        f"cannot find the corresponding region for end annotation "
                        f"of '{target}': its operand is in no annotated region",
                    )
                ]
            )
        if region.target != target:
            raise DiagnosticError(
                [
                    op_error(
                        op,
                        f"target mismatch: end annotation of '{target}' closes "
                        f"region {region.id} of '{region.target}'",
                    )
                ]
            )
        self.add_node(region, op)
        region.add_output(op)

    def _add_to_arg_region(self, op: Operation) -> None:
        opened = [
            (index, value)
            for index, value in enumerate(op.operands)
            if not isinstance(producer(value), CompilerEndOp)
        ]
        found = [(i, self.region_of(v)) for i, v in opened]
        region = next((r for _, r in found if r is not None), None)
        if region is None:
            return
        block = op.parent_block()
        for index, arg_region in found:
            if arg_region is None:
                first = next(i for i, r in found if r is region)
                raise DiagnosticError(
                    [
                        op_error(
                            op,
                            f"operands are inconsistent: operand #{first} is in annotated "
                            f"region {region.id} ('{region.target}') but operand #{index} is "
                            "in none; every operand of an annotated op needs a compiler_begin",
                        )
                    ]
                )
            if arg_region.block is not block:
                raise DiagnosticError(
                    [
                        op_error(
                            op,
                            f"operand #{index} is in annotated region {arg_region.id} "
                            f"('{arg_region.target}') of another block; a region cannot "
                            "cross a relay.if boundary",
                        )
                    ]
                )
        for _, value in opened:
            arg_region = self.region_of(value)  # again: an earlier merge may have taken it
            if arg_region is not None and arg_region is not region:
                self.merge(arg_region, region)
        self.add_node(region, op)

    # ----------------------------------------------------------- queries

    def _find(self, element: int) -> int:
        parent = self._parent
        while parent[element] != element:
            parent[element] = parent[parent[element]]
            element = parent[element]
        return element

    def region_of(self, item: Operation | SSAValue | None) -> AnnotatedRegion | None:
        """The region an op (or the op defining a value) is in, if any (TVM's `GetRegion`)."""
        op = producer(item) if isinstance(item, SSAValue) else item
        if op is None:
            return None
        element = self._element.get(op)
        if element is None:
            return None
        return self._region[self._find(element)]

    def element_of(self, op: Operation) -> int | None:
        """The id of the region `op` joined when it was added (a member of its region's mask)."""
        return self._element.get(op)

    def region_by_element(self, element: int) -> AnnotatedRegion:
        """The region that the region created with id `element` is now part of."""
        region = self._region[self._find(element)]
        assert region is not None
        return region

    @property
    def regions(self) -> list[AnnotatedRegion]:
        """The regions, by id."""
        return list(self._live.values())

    def __iter__(self) -> Iterator[AnnotatedRegion]:
        return iter(self.regions)

    def __len__(self) -> int:
        return len(self._live)

    # ----------------------------------------------------------- merging

    def merge(self, src: AnnotatedRegion, dest: AnnotatedRegion) -> None:
        """TVM's `MergeRegions(src, dest)`: `dest` absorbs `src` and keeps its id."""
        if src is dest:
            return
        a, b = self._find(src.id), self._find(dest.id)
        if self._size[a] > self._size[b]:
            a, b = b, a
        self._parent[a] = b
        self._size[b] += self._size[a]
        self._region[a] = None
        self._region[b] = dest
        dest.absorb(src)
        del self._live[src.id]


def annotation_source(value: SSAValue) -> SSAValue:
    """`value` with begin/end annotations skipped (TVM's "parent" of a begin)."""
    while isinstance(value, OpResult) and isinstance(value.op, CompilerBeginOp | CompilerEndOp):
        value = value.op.data
    return value
