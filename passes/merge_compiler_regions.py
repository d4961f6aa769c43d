"""`merge-compiler-regions` (TVM's `MergeCompilerRegions`): join producer/consumer regions.

What it rewrites. After AnnotateTarget every supported op is a region of its
own; this pass merges a region into its consumer when both have the same
target and merging cannot create a cycle, then drops each
`compiler_begin(compiler_end(x))` pair whose two annotations ended up in one
region (the consumer reads `x` directly; the end goes if nothing else reads
it). Everything else is left as it is: no annotation is added, no op moves.

How (TVM's `RegionMerger`, `merge_compiler_regions.cc`). The regions of the
function (`AnnotatedRegionSet`) are visited in TVM's post-order; at the first
`compiler_end` of a region R not processed yet:

1. its producers come first: for each begin of R, the region its operand is
   in is processed (by walking that operand) if it was not;
2. R inherits the restrictions of every region it reads from (transitively:
   theirs include their producers');
3. each producer region P is merged into R (R keeps its id) unless P has
   another target (then P joins R's restrictions: a path that leaves a target
   must not re-enter it) or P is in R's restrictions (merging would make a
   cycle). Only producer -> consumer pairs merge; siblings never do, and
   `"default"` is a target like any other (consecutive default regions merge;
   PartitionGraph drops them).

Restrictions are bitsets of region ids (Python ints) and each region carries
the bitset of the ids merged into it, so "P is in R's restrictions" is
`restrictions[R] & P.mask` where TVM rewrites P's id into R's in every
restriction set after each merge (O(regions) per merge). The walk uses
explicit stacks, so deep graphs do not recurse, and a DenseNet-like graph
(every layer reading all earlier ones) stays fast.

Where it differs from TVM, for correctness (cycles TVM can create):

- **Through ops outside every region.** TVM propagates restrictions only
  through `relay.if` (PR #15211): a begin reading an If inherits the
  restrictions of the regions the If's condition and branches come from.
  Here a begin reading any op that is in no region (an If, a tuple left
  unannotated with `include_non_call_ops=False`, an op annotated by hand
  only partly) looks through such ops to the regions behind them, inherits
  their restrictions *and* is restricted from them: the path leaves those
  regions through an op that stays outside, so merging them with R would
  make a cycle (TVM only inherits, and then merges `O1` with `O2` in
  `O1 -> if(...) -> O2, O1 -> O2`).
- **`relay.if` blocks.** Regions never span blocks: a region in a branch is
  not merged with one outside it (it restricts it instead), so each branch
  is partitioned on its own.

The pass is a function pass: functions with `Compiler`, `Extern` or
`SkipOptimization` are skipped. Errors (located): an end whose operand is in
no region or in a region of another target, an op mixing annotated and
unannotated operands, an op joining a region of another block.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Block, Operation, OpResult
from xdsl.rewriter import Rewriter
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp, IfOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.annotated_regions import (
    AnnotatedRegion,
    AnnotatedRegionSet,
    PostOrderWalk,
    producer,
)
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import collector_paused


def _bits(mask: int) -> Iterator[int]:
    """The positions of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _frontier_children(op: Operation) -> list[Operation]:
    """The ops whose values flow into `op`: operands, and an If's condition and branch results."""
    values = list(op.operands)
    if isinstance(op, IfOp):
        for region in op.regions:
            last = region.block.last_op
            if last is not None:
                values.extend(last.operands)
    return [v.op for v in values if isinstance(v, OpResult)]


class RegionMerger:
    """TVM's `RegionMerger` over one region set, with bitset restrictions."""

    def __init__(self, regions: AnnotatedRegionSet):
        self.regions = regions
        self.processed: set[int] = set()
        self.restrictions: dict[int, int] = {}
        """Region id -> bitset of the region ids it must not merge with."""
        self.behind: dict[Operation, int] = {}
        """Op in no region -> bitset of the regions whose values reach it through such ops."""

    def run(self, block: Block) -> None:
        """Merge the regions of `block` (and of the `relay.if` branches in it)."""
        PostOrderWalk(self.visit).walk_block(block)

    def visit(self, op: Operation) -> Iterator[Operation] | None:
        """At the first end of an unprocessed region, process that region."""
        if not isinstance(op, CompilerEndOp):
            return None
        region = self.regions.region_of(op)
        if region is None or region.id in self.processed:
            return None
        return self.process(region)

    def process(self, region: AnnotatedRegion) -> Iterator[Operation]:
        """Steps 1-3 of the module docstring; yields the producers to visit first."""
        regions = self.regions
        ins = region.ins
        for begin in ins:
            source = producer(begin.data)
            if source is None:
                continue
            parent = regions.region_of(source)
            # TVM visits the unprocessed producer regions; an op outside every region is
            # walked too, so the regions behind it are processed before R reads them.
            if parent is None or parent.id not in self.processed:
                yield source
        mergeable: list[AnnotatedRegion] = []
        seen: set[int] = set()
        restriction = self.restrictions.get(region.id, 0)
        barrier = 0
        for begin in ins:
            source = producer(begin.data)
            if source is None:
                continue
            parent = regions.region_of(source)
            if parent is None:
                barrier |= self.regions_behind(source)
            elif parent.id not in seen:
                seen.add(parent.id)
                mergeable.append(parent)
                restriction |= self.restrictions.get(parent.id, 0)
        inherited: set[int] = set()
        for element in _bits(barrier):
            behind = regions.region_by_element(element)
            if behind.id not in inherited:
                inherited.add(behind.id)
                restriction |= self.restrictions.get(behind.id, 0)
        restriction |= barrier
        for parent in mergeable:
            if parent is region:
                continue
            if parent.target != region.target or parent.block is not region.block:
                restriction |= 1 << parent.id
            elif not restriction & parent.mask:
                regions.merge(parent, region)
        self.restrictions[region.id] = restriction
        self.processed.add(region.id)

    def regions_behind(self, op: Operation) -> int:
        """The regions whose values reach `op` (in no region) through ops in no region."""
        memo, regions = self.behind, self.regions
        if op in memo:
            return memo[op]
        stack: list[tuple[Operation, bool]] = [(op, False)]
        while stack:
            node, expanded = stack.pop()
            if node in memo:
                continue
            children = _frontier_children(node)
            if not expanded:
                stack.append((node, True))
                stack.extend(
                    (c, False) for c in children if c not in memo and regions.element_of(c) is None
                )
                continue
            bits = 0
            for child in children:
                element = regions.element_of(child)
                bits |= (1 << element) if element is not None else memo.get(child, 0)
            memo[node] = bits
        return memo[op]


def merge_annotations(regions: AnnotatedRegionSet) -> None:
    """TVM's `MergeAnnotations`: drop `begin(end(x))` when both are in one region."""
    begins = [op for r in regions for op in r.nodes if isinstance(op, CompilerBeginOp)]
    for begin in begins:
        end = producer(begin.data)
        if not isinstance(end, CompilerEndOp):
            continue
        if regions.region_of(end) is not regions.region_of(begin):
            continue
        begin.result.replace_all_uses_with(end.data)
        Rewriter.erase_op(begin)
        if end.result.first_use is None:
            Rewriter.erase_op(end)


def merge_compiler_regions(function: func.FuncOp) -> None:
    """Merge the annotated regions of one function in place."""
    if not function.body.blocks:
        return
    block = function.body.block
    with collector_paused():
        regions = AnnotatedRegionSet.create(block, function.sym_name.data)
        RegionMerger(regions).run(block)
        merge_annotations(regions)


@dataclass(frozen=True)
class MergeCompilerRegionsPass(XdslFunctionPass):
    """Merge producer/consumer annotated regions of one target without making cycles."""

    name = "merge-compiler-regions"
    tvm_name: ClassVar[str] = "MergeCompilerRegions"
    opt_level: ClassVar[int] = 0

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        merge_compiler_regions(function)


def MergeCompilerRegions() -> Pass:
    """TVM's `relay.transform.MergeCompilerRegions()`: the `merge-compiler-regions` pass."""
    return XdslPass(MergeCompilerRegionsPass())
