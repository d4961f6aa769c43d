"""`plan-memory` (`PlanMemory`): a static arena plan for the intermediates of generated code.

Generated code runs the entry function with no allocation per run: every
intermediate tensor lives in one arena allocated when a model instance is
created. This pass decides where and records it as discardable attributes,
so emitters only print (style.md 5.6). It plans the entry function and every
function with a body it calls, transitively; each function on its own.

What takes storage. Every op result of tensor type (each field of a tuple
type: one buffer per field, as for a multi-output `func.call`) is a buffer,
except parameters (the caller's), constants (`ConstantLike` ops: stored as
data) and aliases, which take none: `relay.tuple` (its fields' buffers),
`relay.tuple_get_item` (the field's), and the ops that never move data
(`relay.reshape`, `relay.squeeze`, `relay.expand_dims`,
`relay.nn.batch_flatten`, `relay.contrib_reverse_reshape`). Block arguments of a
nested region bound one-to-one to its op's operands (`relay.composite`) alias
them. A call of a *view function* is an alias of its argument too: a function
with one parameter and one result whose body only reshapes that parameter
(reshape-like ops, e.g. FuseOps' `fused_nn_batch_flatten`), so no copy is made
between the ops before and after it (TVM's VM does the same for its
reshape-only functions). A buffer returned by the function (through aliases too, tuple fields
included) lives in the caller's output buffer `k` (flat index over the
returned leaves); the rest are intermediates, planned in the arena.

An op may offer to write its result over one of its operands: a lowering sets
`xrelay.reuse_operand = k` on it when its kernel reads operand `k` element by
element into the result's same element (oneDNN's sum post-op accumulates into
its destination). The result then takes operand `k`'s buffer, with no copy,
when that buffer is a planned intermediate of the result's size in the same
block, this op is its last use (through aliases too) and no other operand of
the op reads it; otherwise the offer is ignored and the result gets its own
buffer.

Liveness is over block order, ops numbered in pre-order: a buffer lives from
its op to its last use, where a use inside a nested region counts until the
region op ends (values defined in `relay.if` branches or composite bodies are
planned in the enclosing function's arena, live within their region). An alias
keeps its buffers alive as long as the alias is used. Offsets come from
greedy best-fit, largest buffers first (TVM's USMP greedy_by_size, MLIR's
buffer reuse): each goes into the tightest gap left by the already placed
buffers it is live with, else on top of them; and from a sweep in program
order with a coalescing best-fit free list (`arena_sweep.py`): the smaller
arena wins (best-fit on a tie). Best-fit is skipped when buffers live at once
make more than `BEST_FIT_PAIRS_PER_BUFFER` pairs per buffer (its cost grows
with those pairs), so planning stays O(n log n). Sizes are rounded up to
`alignment` bytes; an empty tensor takes `alignment` bytes too, so two buffers
live at once never share an address (kernels take them as `restrict`
pointers). The plan is checked (no two buffers live at once overlap, offsets
aligned and inside the arena) before anything is written.

Attributes (every offset is in bytes, an `i64`):

- on each op with results, `xrelay.buffers = [<entry per result>]`, an entry
  being an arena offset (relative to the function's region, below),
  `"alias"` (the result is its source's storage: a tuple aliases its fields,
  a call of a view function its argument: nothing to run),
  `"const"` (constant data), `"out:<k>"` (the function's output buffer `k`),
  or for a tuple-typed result of a non-alias op an array of field entries,
  nested like the type;
- on each `func.return`, `xrelay.outputs = [...]`, one string per flat output
  `k`: `"in_place"` (its producer wrote output `k`) or `"copy"` (copy the
  returned value, a parameter, a constant or another output, into output `k`).
  `relay.yield` always copies its operands into its op's result buffers;
- on each planned function, `xrelay.arena_size` (bytes of its region),
  `xrelay.peak_live` (bytes live at the worst point: a lower bound, <= the
  region) and `xrelay.arena_offset` (where its region starts in the instance
  arena: functions that can be active at once, on one call path, never share
  bytes; the calls of one caller share them);
- on the module, `xrelay.arena_size` (bytes of the instance arena) and
  `xrelay.alignment` (the arena's start must be aligned to it).

So an intermediate's address is `arena + function's xrelay.arena_offset +
its offset`. Run the pass last, after lowering: a pass that rewrites ops
after it leaves a stale plan. Examples: `tests/filecheck/passes/plan_memory.mlir`.

Sizes, offsets and the arena are Python ints (no overflow). A tensor, and the
instance arena, may hold at most 2^63-1 bytes (PTRDIFF_MAX, `relay/sizes.py`):
a bigger result, or a buffer that would end past that in the arena, is an error
on its op, so no attribute ever holds a wrapped i64.

Errors (located): a dynamic dimension (`cannot plan memory for a tensor of
dynamic shape ...`), a value that is not a tensor or tuple, a tensor over 2^63-1
bytes, an arena over 2^63-1 bytes (`arena of N bytes exceeds the limit ...`, on
the first op whose buffer does not fit), a recursive call (no static arena), no
entry function, an alignment not in [1, 2^62]. Time O(n log n) for n ops (best-fit's
O(P log P) for P pairs of buffers live at once runs only while P <= 16 n).
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias, cast

import numpy as np
import numpy.typing as npt
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import ConstantLike
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.sizes import (
    MAX_BYTES,
    element_bytes,
    element_count,
    format_bytes,
    type_size_problem,
)
from xrelay.dialects.relay.structure import TupleGetItemOp, TupleOp
from xrelay.passes.adapters import XdslPass
from xrelay.passes.arena_sweep import conflict_pairs, sweep_offsets
from xrelay.passes.pass_manager import Pass

RESHAPE_LIKE = frozenset(
    {
        "relay.reshape",
        "relay.squeeze",
        "relay.expand_dims",
        "relay.nn.batch_flatten",
        "relay.contrib_reverse_reshape",
        "relay.reshape_like",
    }
)
"""Ops whose result is their first operand's bytes under another shape."""

PARAM, CONST, TEMP = "param", "const", "temp"

MAX_ALIGNMENT = 2**62
"""The largest `alignment` option (the C ABI rounds it up to a power of two)."""

REUSE_OPERAND = "xrelay.reuse_operand"
"""The attribute (an integer k) by which an op offers to write its result over operand k."""


def is_view_function(function: func.FuncOp) -> bool:
    """One parameter, one tensor result, and a body that only reshapes the parameter."""
    if len(function.body.blocks) != 1 or len(function.function_type.outputs.data) != 1:
        return False
    block = function.body.block
    if len(block.args) != 1 or not isinstance(block.args[0].type, TensorType):
        return False
    current: SSAValue = block.args[0]
    for op in block.ops:
        if isinstance(op, func.ReturnOp):
            return len(op.operands) == 1 and op.operands[0] is current
        if op.name not in RESHAPE_LIKE or len(op.operands) < 1 or op.operands[0] is not current:
            return False
        current = op.results[0]
    return False


@dataclass(eq=False, slots=True)
class Buffer:
    """One storage leaf: a parameter's, a constant's, or a planned op result field's."""

    kind: str
    size: int = 0
    block: Block | None = None
    start: int = 0
    end: int = 0
    out: int | None = None
    offset: int = 0
    op: Operation | None = None
    """The op whose result this buffer holds (a planned one's; for errors)."""


Tree: TypeAlias = "Buffer | tuple[Tree, ...]"


def leaves(tree: Tree) -> Iterator[Buffer]:
    """The buffers of a value, in field order."""
    if isinstance(tree, Buffer):
        yield tree
    else:
        for field in tree:
            yield from leaves(field)


def best_fit_offsets(spans: Sequence[tuple[int, int]], sizes: Sequence[int]) -> list[int]:
    """Offsets for buffers live over inclusive `spans`: greedy best-fit, largest first.

    Conflicts (pairs live at once) come from a sweep by start: a buffer's are the
    ones started before it and still live (the sweep's active set, expired by a
    heap of ends) and the ones starting within its span (a contiguous run of the
    start order): copied as lists, no Python work per pair. Each buffer then
    takes the smallest gap between its placed conflicts that fits (the first
    such gap by address), else the top. A buffer with many
    conflicts (values live across much of the function, e.g. DenseNet's, or ops
    emitted long after their operands) does that scan with numpy, when every sum
    of offsets and sizes fits in int64; the result is the same either way.
    """
    count = len(spans)
    order = sorted(range(count), key=lambda j: spans[j][0])
    starts = [spans[j][0] for j in order]
    conflicts: list[list[int]] = [[] for _ in range(count)]
    active: dict[int, None] = {}  # started and live, in start order (copied at C speed)
    expiry: list[tuple[int, int]] = []  # (end, buffer) of the active ones
    for position, i in enumerate(order):
        first, last = spans[i]
        while expiry and expiry[0][0] < first:
            del active[heapq.heappop(expiry)[1]]
        later = bisect.bisect_right(starts, last, lo=position + 1)
        conflicts[i] = [*active, *order[position + 1 : later]]
        active[i] = None
        heapq.heappush(expiry, (last, i))
    vectorize = sum(sizes) < 2**62
    offsets = [-1] * count
    placed = np.full(count, -1, dtype=np.int64) if vectorize else None
    size_array = np.asarray(sizes, dtype=np.int64) if vectorize else None
    for i in sorted(range(count), key=lambda j: (-sizes[j], spans[j][0], j)):
        if placed is not None and size_array is not None and len(conflicts[i]) > _VECTOR_MIN:
            offsets[i] = _best_fit_vector(np.asarray(conflicts[i]), placed, size_array, sizes[i])
            placed[i] = offsets[i]
            continue
        taken = sorted((offsets[j], offsets[j] + sizes[j]) for j in conflicts[i] if offsets[j] >= 0)
        best, best_gap, top = -1, -1, 0
        for low, high in taken:
            gap = low - top
            if gap >= sizes[i] and (best < 0 or gap < best_gap):
                best, best_gap = top, gap
            top = max(top, high)
        offsets[i] = best if best >= 0 else top
        if placed is not None:
            placed[i] = offsets[i]
    return offsets


BEST_FIT_PAIRS_PER_BUFFER = 16
"""Best-fit runs when the pairs of buffers live at once are at most this many per buffer.

The light models, tinyres and the benchmark families have at most 3.1 per
buffer in any function; a chain whose early values are read late can have
hundreds (90 at 5k ops in `pass_scaling.py`'s chain, growing with its length)."""


def place_buffers(spans: Sequence[tuple[int, int]], sizes: Sequence[int]) -> list[int]:
    """Offsets for buffers live over inclusive `spans`: the smaller arena of two placements.

    The time-order sweep (`arena_sweep.py`, O(log n) per buffer) always runs;
    greedy best-fit by size, whose cost grows with the pairs of buffers live at
    once, runs too when those pairs are at most `BEST_FIT_PAIRS_PER_BUFFER` per
    buffer, and wins ties. So planning stays O(n log n), and the arena is never
    larger than best-fit's wherever best-fit is affordable.
    """
    swept = sweep_offsets(spans, sizes)
    if conflict_pairs(spans) > BEST_FIT_PAIRS_PER_BUFFER * len(spans):
        return swept
    best = best_fit_offsets(spans, sizes)
    return best if _extent(best, sizes) <= _extent(swept, sizes) else swept


def _extent(offsets: Sequence[int], sizes: Sequence[int]) -> int:
    return max((o + n for o, n in zip(offsets, sizes, strict=True)), default=0)


_VECTOR_MIN = 48
"""Conflicts above which best-fit scans them with numpy (below, its call overhead dominates)."""


def _best_fit_vector(
    conflicts: npt.NDArray[np.int64],
    placed: npt.NDArray[np.int64],
    sizes: npt.NDArray[np.int64],
    size: int,
) -> int:
    """Best-fit's scan over the placed `conflicts` (offset -1: not placed yet), with numpy."""
    lows = placed[conflicts]
    mask = lows >= 0
    lows = lows[mask]
    if not lows.size:
        return 0
    highs = lows + sizes[conflicts[mask]]
    by_address = np.lexsort((highs, lows))
    lows, highs = lows[by_address], highs[by_address]
    tops = np.maximum.accumulate(highs)
    below = np.concatenate((np.zeros(1, dtype=np.int64), np.maximum(tops[:-1], 0)))
    gaps = lows - below
    fits = np.flatnonzero(gaps >= size)
    if not fits.size:
        return max(int(tops[-1]), 0)
    best = fits[np.argmin(gaps[fits])]  # argmin: the first of equal gaps, as the scan
    return int(below[best])


def peak_live(spans: Sequence[tuple[int, int]], sizes: Sequence[int]) -> int:
    """The largest sum of sizes live at one point (ends before starts at a point)."""
    events = sorted(
        [(s, n) for (s, _), n in zip(spans, sizes, strict=True)]
        + [(e + 1, -n) for (_, e), n in zip(spans, sizes, strict=True)]
    )
    live = peak = 0
    for _, delta in events:
        live += delta
        peak = max(peak, live)
    return peak


def check_plan(buffers: Sequence[Buffer], alignment: int, arena: int) -> None:
    """Raise if two buffers live at once overlap, or one is misaligned or outside the arena."""
    active: list[tuple[int, int]] = []  # disjoint (offset, offset + size), sorted
    expiry: list[tuple[int, int, int]] = []
    for buf in sorted((b for b in buffers if b.size), key=lambda b: b.start):
        while expiry and expiry[0][0] < buf.start:
            _, low, high = heapq.heappop(expiry)
            del active[bisect.bisect_left(active, (low, high))]
        low, high = buf.offset, buf.offset + buf.size
        at = bisect.bisect_left(active, (low, high))
        if (
            low % alignment
            or high > arena
            or (at and active[at - 1][1] > low)
            or (at < len(active) and active[at][0] < high)
        ):
            raise RuntimeError(f"plan-memory: internal error: bad placement [{low}, {high})")
        active.insert(at, (low, high))
        heapq.heappush(expiry, (buf.end, low, high))


class FunctionPlan:
    """Buffers, liveness and offsets of one function (computed on construction)."""

    def __init__(self, function: func.FuncOp, alignment: int, views: frozenset[str] = frozenset()):
        self.function = function
        self.alignment = alignment
        self.views = views
        """Names of the module's view functions: calls of them are aliases."""
        self.trees: dict[SSAValue, Tree] = {}
        self.spans: dict[Operation, tuple[int, int]] = {}
        self.ops: list[Operation] = []
        self.temps: list[Buffer] = []
        self.outputs: dict[Operation, list[str]] = {}
        self._clock = 0
        for block in function.body.blocks:
            for arg in block.args:
                self.trees[arg] = self._fresh(arg.type, PARAM, function)
            self._number(block)
        self._extend_lifetimes()
        self._reuse_operands()
        self._claim_outputs()
        arena = [b for b in self.temps if b.out is None]
        spans = [(b.start, b.end) for b in arena]
        sizes = [b.size for b in arena]
        for buf, offset in zip(arena, place_buffers(spans, sizes), strict=True):
            buf.offset = offset
        self.arena = arena
        self.arena_size = max((b.offset + b.size for b in arena), default=0)
        self.peak_live = peak_live(spans, sizes)
        check_plan(arena, alignment, self.arena_size)

    def _fresh(
        self, type_: Attribute, kind: str, op: Operation, block: Block | None = None
    ) -> Tree:
        if isinstance(type_, TupleType):
            return tuple(self._fresh(t, kind, op, block) for t in type_.types.data)
        if kind != TEMP:
            return Buffer(kind)
        if not isinstance(type_, TensorType):
            raise DiagnosticError([op_error(op, f"cannot plan memory for a value of type {type_}")])
        tensor = cast(TensorType[Attribute], type_)
        per_element = element_bytes(tensor.get_element_type())
        if per_element is None:
            message = f"cannot plan memory for {type_}: unknown element size"
            raise DiagnosticError([op_error(op, message)])
        shape = tensor.get_shape()
        if any(d < 0 for d in shape):
            message = f"cannot plan memory for a tensor of dynamic shape {type_}"
            raise DiagnosticError([op_error(op, message)])
        problem = type_size_problem("result", tensor)
        if problem is not None:
            raise DiagnosticError([op_error(op, f"cannot plan memory: {problem}")])
        size = max(per_element * element_count(shape), 1)  # an empty tensor: one unit
        size = -(-size // self.alignment) * self.alignment
        start, end = self.spans[op]
        buf = Buffer(TEMP, size, block, start, end, op=op)
        self.temps.append(buf)
        return buf

    def _number(self, block: Block) -> None:
        """Number ops in pre-order (a region op spans its nested ops) and build value trees."""
        for op in block.ops:
            start = self._clock
            self._clock += 1
            self.ops.append(op)
            for region in op.regions:
                for inner in region.blocks:
                    bound = len(inner.args) == len(op.operands) and all(
                        a.type == v.type for a, v in zip(inner.args, op.operands, strict=True)
                    )
                    for index, arg in enumerate(inner.args):  # composite bodies: aliases
                        self.trees[arg] = (
                            self.trees[op.operands[index]]
                            if bound
                            else self._fresh(arg.type, PARAM, op)
                        )
                    self._number(inner)
            self.spans[op] = (start, self._clock - 1)
            for result in op.results:
                self.trees[result] = self._result_tree(op, result, block)

    def is_alias(self, op: Operation) -> bool:
        """Whether `op` takes no storage: its result is (part of) an operand's."""
        if isinstance(op, TupleOp | TupleGetItemOp) or op.name in RESHAPE_LIKE:
            return True
        return isinstance(op, func.CallOp) and op.callee.root_reference.data in self.views

    def _result_tree(self, op: Operation, result: SSAValue, block: Block) -> Tree:
        if isinstance(op, func.CallOp) and self.is_alias(op):
            return self.trees[op.operands[0]]
        if isinstance(op, TupleOp):
            return tuple(self.trees[v] for v in op.operands)
        if isinstance(op, TupleGetItemOp):
            whole = self.trees[op.tuple]
            assert not isinstance(whole, Buffer)
            return whole[op.index.value.data]
        if op.name in RESHAPE_LIKE and op.operands:
            return self.trees[op.operands[0]]
        if op.has_trait(ConstantLike):
            return self._fresh(result.type, CONST, op)
        return self._fresh(result.type, TEMP, op, block)

    def _extend_lifetimes(self) -> None:
        """A use (not by an alias) keeps a buffer live until the ancestor in its block ends."""
        for op in self.ops:
            if self.is_alias(op):
                continue
            for value in op.operands:
                for buf in leaves(self.trees[value]):
                    if buf.kind != TEMP:
                        continue
                    holder = op
                    while holder.parent_block() is not buf.block:
                        parent = holder.parent_op()
                        assert parent is not None
                        holder = parent
                    buf.end = max(buf.end, self.spans[holder][1])

    def _reuse_operands(self) -> None:
        """Results that take their `xrelay.reuse_operand` operand's buffer (module docstring)."""
        merged: dict[Buffer, Buffer] = {}
        for op in self.ops:
            attr = op.attributes.get(REUSE_OPERAND)
            if not isinstance(attr, IntegerAttr) or self.is_alias(op) or len(op.results) != 1:
                continue
            index = cast(IntegerAttr[IntegerType], attr).value.data
            result = self.trees[op.results[0]]
            if not 0 <= index < len(op.operands) or not isinstance(result, Buffer):
                continue
            source = self.trees[op.operands[index]]
            if not isinstance(source, Buffer):
                continue
            source = merged.get(source, source)
            others = (
                merged.get(b, b)
                for i, v in enumerate(op.operands)
                if i != index
                for b in leaves(self.trees[v])
            )
            if (
                result.kind != TEMP
                or source.kind != TEMP
                or (source.size, source.block) != (result.size, result.block)
                or source.end != self.spans[op][1]
                or any(b is source for b in others)
            ):
                continue
            source.end = max(source.end, result.end)
            merged[result] = source
        if not merged:
            return
        self.temps = [b for b in self.temps if b not in merged]

        def substitute(tree: Tree) -> Tree:
            if isinstance(tree, Buffer):
                return merged.get(tree, tree)
            return tuple(substitute(field) for field in tree)

        self.trees = {value: substitute(tree) for value, tree in self.trees.items()}

    def _claim_outputs(self) -> None:
        """Returned buffers go to output `k`; a parameter, constant or repeat is copied."""
        for block in self.function.body.blocks:
            ret = block.last_op
            if not isinstance(ret, func.ReturnOp):
                continue
            marks: list[str] = []
            for value in ret.operands:
                for buf in leaves(self.trees[value]):
                    if buf.kind == TEMP and buf.out is None:
                        buf.out = len(marks)
                        marks.append("in_place")
                    else:
                        marks.append("copy")
            self.outputs[ret] = marks

    def _entry(self, tree: Tree, memo: AttrMemo) -> Attribute:
        if not isinstance(tree, Buffer):
            return memo.array(tuple(self._entry(field, memo) for field in tree))
        if tree.kind == CONST:
            return memo.string("const")
        return memo.string(f"out:{tree.out}") if tree.out is not None else memo.i64(tree.offset)

    def check_fits(self, base: int) -> None:
        """Every buffer must end within `MAX_BYTES` of the instance arena's start (the
        function's region starting at `base`); the first one in program order that does
        not is a located error on its op."""
        if base + self.arena_size <= MAX_BYTES:
            return
        for buf in sorted(self.arena, key=lambda b: b.start):
            end = base + buf.offset + buf.size
            if end > MAX_BYTES and buf.op is not None:
                message = (
                    f"arena of {format_bytes(end)} bytes exceeds the limit of 2^63-1 bytes: "
                    f"a result buffer of {format_bytes(buf.size)} bytes does not fit at offset "
                    f"{format_bytes(base + buf.offset)}"
                )
                raise DiagnosticError([op_error(buf.op, message)])
        raise RuntimeError("plan-memory: internal error: an arena too large, no buffer past it")

    def write(self, base: int, memo: AttrMemo) -> None:
        """Record the plan as attributes on the function and its ops."""
        for op in self.ops:
            if not op.results:
                continue
            if self.is_alias(op):
                entries = (memo.string("alias"),) * len(op.results)
            else:
                entries = tuple(self._entry(self.trees[r], memo) for r in op.results)
            op.attributes["xrelay.buffers"] = memo.array(entries)
        for ret, marks in self.outputs.items():
            ret.attributes["xrelay.outputs"] = memo.array(tuple(memo.string(m) for m in marks))
        attributes = self.function.attributes
        attributes["xrelay.arena_size"] = memo.i64(self.arena_size)
        attributes["xrelay.peak_live"] = memo.i64(self.peak_live)
        attributes["xrelay.arena_offset"] = memo.i64(base)


class AttrMemo:
    """Attributes built once per pass run (building an xDSL attribute verifies it: slow)."""

    def __init__(self) -> None:
        self._ints: dict[int, Attribute] = {}
        self._strings: dict[str, Attribute] = {}
        self._arrays: dict[tuple[Attribute, ...], Attribute] = {}

    def i64(self, value: int) -> Attribute:
        """`value : i64`; a value i64 cannot hold is an internal error (never wrapped)."""
        if not -MAX_BYTES - 1 <= value <= MAX_BYTES:
            raise RuntimeError(f"plan-memory: internal error: {value} does not fit in i64")
        if (attr := self._ints.get(value)) is None:
            attr = self._ints[value] = IntegerAttr(value, i64)
        return attr

    def string(self, value: str) -> Attribute:
        """`"value"`."""
        if (attr := self._strings.get(value)) is None:
            attr = self._strings[value] = StringAttr(value)
        return attr

    def array(self, items: tuple[Attribute, ...]) -> Attribute:
        """`[items...]`."""
        if (attr := self._arrays.get(items)) is None:
            attr = self._arrays[items] = ArrayAttr(items)
        return attr


def call_order(
    module: ModuleOp, entry: func.FuncOp
) -> tuple[list[func.FuncOp], dict[func.FuncOp, list[func.FuncOp]]]:
    """The functions with a body reachable from `entry`, callers first, and their callees.

    A depth-first walk; a call back into a function being walked is recursion,
    a located error on that call.
    """
    bodies = {
        f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp) and f.body.blocks
    }
    callees: dict[func.FuncOp, list[func.FuncOp]] = {}
    on_path: set[func.FuncOp] = set()
    finished: list[func.FuncOp] = []

    def calls(caller: func.FuncOp) -> Iterator[tuple[func.CallOp, func.FuncOp]]:
        for op in caller.walk():
            if isinstance(op, func.CallOp) and op.callee.root_reference.data in bodies:
                yield op, bodies[op.callee.root_reference.data]

    callees[entry] = []
    on_path.add(entry)
    stack = [(entry, calls(entry))]
    while stack:
        caller, pending = stack[-1]
        step = next(pending, None)
        if step is None:
            on_path.discard(caller)
            finished.append(caller)
            stack.pop()
            continue
        call, callee = step
        if callee in on_path:
            message = f"cannot plan memory for a recursive call of @{callee.sym_name.data}"
            raise DiagnosticError([op_error(call, message)])
        if callee not in callees[caller]:
            callees[caller].append(callee)
        if callee not in callees:
            callees[callee] = []
            on_path.add(callee)
            stack.append((callee, calls(callee)))
    return finished[::-1], callees


@dataclass(frozen=True)
class PlanMemoryPass(ModulePass):
    """Plan a static arena for the intermediates of the entry function and its callees."""

    name = "plan-memory"
    tvm_name: ClassVar[str] = "PlanMemory"
    opt_level: ClassVar[int] = 0

    entry: str = "main"
    """The function the generated code runs; it and the functions it calls are planned."""

    alignment: int = 64
    """Every buffer size (and so every offset) is a multiple of this many bytes."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.alignment <= 0:
            message = f"alignment must be positive, got {self.alignment}"
            raise DiagnosticError([op_error(op, message)])
        if self.alignment > MAX_ALIGNMENT:
            message = f"alignment must be at most 2^62 bytes, got {self.alignment}"
            raise DiagnosticError([op_error(op, message)])
        entry = next(
            (f for f in op.ops if isinstance(f, func.FuncOp) and f.sym_name.data == self.entry),
            None,
        )
        if entry is None or not entry.body.blocks:
            message = f"has no function @{self.entry} with a body to plan memory for"
            raise DiagnosticError([op_error(op, message)])
        order, callees = call_order(op, entry)
        views = frozenset(f.sym_name.data for f in order if is_view_function(f))
        plans = [FunctionPlan(f, self.alignment, views) for f in order]
        bases = {entry: 0}
        for plan in plans:  # callers first: a callee's region starts above every caller's
            top = bases[plan.function] + plan.arena_size
            for callee in callees[plan.function]:
                bases[callee] = max(bases.get(callee, 0), top)
        for plan in plans:
            plan.check_fits(bases[plan.function])
        memo = AttrMemo()
        for plan in plans:
            plan.write(bases[plan.function], memo)
        total = max(bases[p.function] + p.arena_size for p in plans)
        op.attributes["xrelay.arena_size"] = memo.i64(total)
        op.attributes["xrelay.alignment"] = memo.i64(self.alignment)


def PlanMemory(entry: str = "main", alignment: int = 64) -> Pass:
    """The `plan-memory` pass (xrelay's; TVM plans memory inside its graph executor codegen)."""
    return XdslPass(PlanMemoryPass(entry=entry, alignment=alignment))
