"""`plan-memory`: the static arena plan, checked from its attributes alone.

The checks here read only what the pass writes (`xrelay.buffers`,
`xrelay.outputs`, `xrelay.arena_size`, `xrelay.peak_live`) and recompute the
rest their own way: sizes from the types, liveness over the op order, a
pairwise interval test, and a simulation that runs each function's ops in
order over the arena's bytes and fails when an op reads a buffer that another
op has overwritten since.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from math import prod
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from testlib.graphs import random_graph
from testlib.numerics import run_and_check
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, StringAttr, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes.partition_for import partition_for
from xrelay.passes.plan_memory import (
    Buffer,
    FunctionPlan,
    PlanMemory,
    PlanMemoryPass,
    best_fit_offsets,
    check_plan,
    peak_live,
)

import xrelay
from xrelay import IRModule, relay, transform

ROOT = Path(__file__).resolve().parent.parent
SEEDS, CHUNKS = 200, 4
ALIGN = 64
BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "ui8": 1}
BYTES |= {"i16": 2, "i32": 4, "i64": 8}
ALIASES = {"relay.tuple", "relay.tuple_get_item", "relay.reshape", "relay.squeeze"}
ALIASES |= {"relay.expand_dims", "relay.nn.batch_flatten", "relay.contrib_reverse_reshape"}


def is_alias(op: Operation) -> bool:
    """An alias op, or a call of a function of one parameter whose body only reshapes it."""
    if op.name in ALIASES:
        return True
    if not isinstance(op, func.CallOp) or len(op.operands) != 1:
        return False
    module = op.get_toplevel_object()
    callee = next(
        f
        for f in module.walk()
        if isinstance(f, func.FuncOp) and f.sym_name.data == op.callee.root_reference.data
    )
    body = list(callee.body.block.ops)
    return all(o.name in ALIASES - {"relay.tuple", "relay.tuple_get_item"} for o in body[:-1])


@dataclass(eq=False)
class Leaf:
    """Where one tensor lives: `arena` (offset), `out` (index), `param` or `const`."""

    kind: str
    where: int = 0
    size: int = 0
    block: Block | None = None
    start: int = 0
    end: int = 0


Tree = Any  # a Leaf or a tuple of trees, nested like the type


def nbytes(type_: Attribute) -> int:
    assert isinstance(type_, TensorType)
    raw = BYTES[str(type_.get_element_type())] * prod(type_.get_shape())
    return -(-raw // ALIGN) * ALIGN


def from_type(type_: Attribute, kind: str) -> Tree:
    if isinstance(type_, TupleType):
        return tuple(from_type(t, kind) for t in type_.types.data)
    return Leaf(kind)


def flat(tree: Tree) -> Iterator[Leaf]:
    if isinstance(tree, Leaf):
        yield tree
    else:
        for field in tree:
            yield from flat(field)


def from_entry(entry: Attribute, type_: Attribute, block: Block) -> Tree:
    """The storage an `xrelay.buffers` entry gives a (non-alias, non-constant) result."""
    if isinstance(entry, ArrayAttr):
        assert isinstance(type_, TupleType)
        fields = cast(ArrayAttr[Attribute], entry).data
        return tuple(from_entry(e, t, block) for e, t in zip(fields, type_.types.data, strict=True))
    if isinstance(entry, StringAttr):
        assert entry.data.startswith("out:"), entry
        return Leaf("out", int(entry.data[4:]))
    assert isinstance(entry, IntegerAttr), entry
    return Leaf("arena", cast(IntegerAttr[Any], entry).value.data, nbytes(type_), block)


class Reading:
    """A planned function as its attributes describe it: every value's storage and liveness."""

    def __init__(self, function: func.FuncOp):
        self.function = function
        self.trees: dict[SSAValue, Tree] = {a: from_type(a.type, "param") for a in function.args}
        self.ops = list(function.body.walk())
        self.index = {op: i for i, op in enumerate(self.ops)}
        self.last = {op: self.index[list(op.walk())[-1]] for op in self.ops}
        self.leaves: list[Leaf] = []
        self.outputs: list[str] = []
        for op in self.ops:
            self._read(op)
        for op in self.ops:  # liveness: a use counts until its ancestor in the def's block ends
            if is_alias(op):
                continue
            for value in op.operands:
                for leaf in flat(self.trees[value]):
                    if leaf.kind != "arena":
                        continue
                    holder = op
                    while holder.parent_block() is not leaf.block:
                        holder = cast(Operation, holder.parent_op())
                    leaf.end = max(leaf.end, self.last[holder])

    def _read(self, op: Operation) -> None:
        for region in op.regions:  # composite bodies: arguments are the operands
            for block in region.blocks:
                for arg, value in zip(block.args, op.operands, strict=False):
                    self.trees[arg] = self.trees[value]
        if isinstance(op, func.ReturnOp):
            self.outputs = [
                s.data for s in cast(ArrayAttr[StringAttr], op.attributes["xrelay.outputs"])
            ]
        if not op.results:
            return
        entries = cast(ArrayAttr[Attribute], op.attributes["xrelay.buffers"]).data
        assert len(entries) == len(op.results), op
        for result, entry in zip(op.results, entries, strict=True):
            if entry == StringAttr("alias"):
                assert is_alias(op), op.name
                self.trees[result] = self._alias(op)
            elif entry == StringAttr("const"):
                assert op.name == "relay.constant", op.name
                self.trees[result] = Leaf("const")
            else:
                tree = from_entry(entry, result.type, cast(Block, op.parent_block()))
                for leaf in flat(tree):
                    leaf.start, leaf.end = self.index[op], self.last[op]
                    self.leaves.append(leaf)
                self.trees[result] = tree

    def _alias(self, op: Operation) -> Tree:
        if op.name == "relay.tuple":
            return tuple(self.trees[v] for v in op.operands)
        if op.name == "relay.tuple_get_item":
            index = cast(IntegerAttr[Any], op.properties["index"]).value.data
            return self.trees[op.operands[0]][index]
        return self.trees[op.operands[0]]

    def arena(self) -> list[Leaf]:
        return [leaf for leaf in self.leaves if leaf.kind == "arena" and leaf.size]

    def returned(self) -> list[Leaf]:
        ret = self.function.body.block.last_op
        assert isinstance(ret, func.ReturnOp)
        return [leaf for value in ret.operands for leaf in flat(self.trees[value])]


def int_attr(op: Operation, name: str) -> int:
    return cast(IntegerAttr[Any], op.attributes[name]).value.data


def simulate(reading: Reading) -> None:
    """Run the ops in order over the arena's slots: nothing is read after being overwritten."""
    owner: dict[int, Leaf] = {}

    def slots(leaf: Leaf) -> range:
        return range(leaf.where // ALIGN, (leaf.where + leaf.size) // ALIGN)

    for op in reading.ops:
        if is_alias(op):
            continue
        for value in op.operands:
            for leaf in flat(reading.trees[value]):
                if leaf.kind == "arena":
                    assert all(owner.get(s) is leaf for s in slots(leaf)), (
                        f"{op.name} reads clobbered bytes"
                    )
        for result in op.results:
            for leaf in flat(reading.trees[result]):
                if leaf.kind == "arena" and leaf.start == reading.index[op]:
                    owner.update(dict.fromkeys(slots(leaf), leaf))


def check_function(function: func.FuncOp) -> int:
    """Check one planned function's attributes; the bytes of its intermediates."""
    reading = Reading(function)
    arena_size = int_attr(function, "xrelay.arena_size")
    peak = int_attr(function, "xrelay.peak_live")
    buffers = reading.arena()
    for leaf in buffers:
        assert leaf.where % ALIGN == 0, leaf
        assert 0 <= leaf.where <= leaf.where + leaf.size <= arena_size, leaf
    for i, a in enumerate(buffers):  # the interval check: live at once => disjoint bytes
        for b in buffers[i + 1 :]:
            if a.start <= b.end and b.start <= a.end:
                assert a.where + a.size <= b.where or b.where + b.size <= a.where, (a, b)
    simulate(reading)
    assert peak <= arena_size
    assert peak >= max((leaf.size for leaf in buffers), default=0)
    total = sum(leaf.size for leaf in buffers)
    assert arena_size <= total
    if peak < total:  # some intermediates are never live together: their bytes are reused
        assert arena_size < total
    returned = reading.returned()
    assert len(returned) == len(reading.outputs)
    outs = [leaf.where for leaf in reading.leaves if leaf.kind == "out"]
    assert sorted(outs) == [k for k, m in enumerate(reading.outputs) if m == "in_place"]
    for k, (leaf, mark) in enumerate(zip(returned, reading.outputs, strict=True)):
        if mark == "in_place":
            assert (leaf.kind, leaf.where) == ("out", k)
        else:
            assert mark == "copy"
            assert (leaf.kind, leaf.where) != ("out", k)
    return total


def planned(mod: IRModule) -> list[func.FuncOp]:
    return [
        f
        for f in mod.module.ops
        if isinstance(f, func.FuncOp) and "xrelay.arena_size" in f.attributes
    ]


def check_module(mod: IRModule) -> tuple[int, int]:
    """Check every planned function and the module's layout; (arena bytes, intermediate bytes)."""
    functions = planned(mod)
    assert "main" in [f.sym_name.data for f in functions]
    arena = sums = 0
    for function in functions:
        sums += check_function(function)
        arena += int_attr(function, "xrelay.arena_size")
        top = int_attr(function, "xrelay.arena_offset") + int_attr(function, "xrelay.arena_size")
        assert top <= int_attr(mod.module, "xrelay.arena_size")
    return arena, sums


def without_plan(mod: IRModule) -> str:
    """The module's text with the plan's `xrelay.*` attributes dropped (on a clone)."""
    clone = mod.clone()
    for op in clone.module.walk():
        for name in [n for n in op.attributes if n.startswith("xrelay.")]:
            del op.attributes[name]
    return str(clone)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_graphs_get_valid_plans(chunk: int) -> None:
    """200 generated graphs after optimize, and after partition_for then optimize."""
    arena = total = 0
    for seed in range(chunk * SEEDS // CHUNKS, (chunk + 1) * SEEDS // CHUNKS):
        for partition in (False, True):
            mod = random_graph(seed, 30)
            with transform.PassContext(opt_level=3):
                if partition:
                    mod = partition_for(mod, "accel")
                mod = xrelay.optimize(mod, 3)
            before = str(mod)
            mod = PlanMemory()(mod)
            mod.module.verify()
            assert without_plan(mod) == before, f"seed {seed}: more than attributes changed"
            try:
                a, t = check_module(mod)
            except AssertionError as error:
                raise AssertionError(f"seed {seed}, partition {partition}: {error}") from error
            arena, total = arena + a, total + t
    assert arena < total, "no reuse anywhere"


def chain_module(length: int, shape: tuple[int, ...] = (4, 16)) -> IRModule:
    x = relay.var("x", shape=shape)
    y: relay.Expr = x
    unary = [relay.exp, relay.tanh, relay.sigmoid, relay.negative, relay.abs]
    for i in range(length):
        y = unary[i % len(unary)](y)
    return IRModule.from_expr(relay.Function([x], y))


def test_chain_reuses_two_buffers() -> None:
    mod = chain_module(50)
    mod = PlanMemory()(mod)
    arena, total = check_module(mod)
    assert (arena, total) == (2 * 256, 49 * 256)


def test_long_chain_is_linear_ish() -> None:
    """10k ops: planned in a few seconds (correctness asserted, time only printed)."""
    mod = chain_module(10_000, (16,))
    began = time.perf_counter()
    PlanMemoryPass().apply(Context(), mod.module)
    print(f"plan-memory on a 10k-op chain: {time.perf_counter() - began:.2f} s")
    main = planned(mod)[0]
    assert int_attr(main, "xrelay.arena_size") == int_attr(main, "xrelay.peak_live") == 128


def test_numerics_are_unchanged() -> None:
    mod = xrelay.parse((ROOT / "examples" / "tinyres.mlir").read_text())
    with transform.PassContext(opt_level=3):
        mod = xrelay.optimize(mod, 3)
    out = run_and_check(mod, PlanMemory())
    check_module(out)


IF_MODULE = """
func.func @main(%x: tensor<4x16xf32>, %c: tensor<i1>) -> (tensor<4x16xf32>, tensor<4x16xf32>) {
  %a = relay.exp %x : tensor<4x16xf32>
  %b = relay.tanh %x : tensor<4x16xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<4x16xf32> {
    %t = relay.tanh %a : tensor<4x16xf32>
    %u = relay.add %t, %x : tensor<4x16xf32>
    relay.yield %u : tensor<4x16xf32>
  } else {
    %i = relay.if %c : tensor<i1> -> tensor<4x16xf32> {
      %s = relay.sigmoid %b : tensor<4x16xf32>
      relay.yield %s : tensor<4x16xf32>
    } else {
      %m = relay.multiply %a, %x : tensor<4x16xf32>
      %n = relay.abs %m : tensor<4x16xf32>
      relay.yield %n : tensor<4x16xf32>
    }
    %v = relay.multiply %i, %a : tensor<4x16xf32>
    relay.yield %v : tensor<4x16xf32>
  }
  %1 = relay.negative %0 : tensor<4x16xf32>
  %2 = relay.sigmoid %x : tensor<4x16xf32>
  func.return %1, %2 : tensor<4x16xf32>, tensor<4x16xf32>
}
"""


def test_if_branches_are_planned_in_the_arena() -> None:
    """Values read in a branch stay live until the if ends; branch values get arena bytes."""
    mod = xrelay.parse(IF_MODULE)
    mod = PlanMemory()(mod)
    check_module(mod)
    main = planned(mod)[0]
    inner = [op for op in main.walk() if op.parent_op() is not main and op.results]
    assert len(inner) == 7
    assert all(isinstance(e, IntegerAttr) for op in inner for e in entries(op))
    offset = {op.results[0].name_hint: entries(op)[0] for op in main.walk() if op.results}
    assert offset["a"] != offset["n"]  # %a is read by the else branch, after %n


def entries(op: Operation) -> list[Attribute]:
    return list(cast(ArrayAttr[Attribute], op.attributes["xrelay.buffers"]).data)


def test_rerun_gives_the_same_plan() -> None:
    mod = random_graph(3, 30)
    xrelay.optimize(mod, 3)
    first = str(PlanMemory()(mod))
    assert str(PlanMemory()(mod)) == first


def test_entry_and_alignment_options() -> None:
    mod = chain_module(4, (3,))
    main = mod.module.ops.first
    assert isinstance(main, func.FuncOp)
    main.sym_name = StringAttr("run")
    PlanMemoryPass(entry="run", alignment=16).apply(Context(), mod.module)
    assert int_attr(main, "xrelay.arena_size") == 32
    assert int_attr(mod.module, "xrelay.alignment") == 16
    with pytest.raises(DiagnosticError, match="alignment must be positive, got 0"):
        PlanMemoryPass(entry="run", alignment=0).apply(Context(), mod.module)
    with pytest.raises(DiagnosticError, match="has no function @main"):
        PlanMemoryPass().apply(Context(), mod.module)


def brute_force_overlap(spans: list[tuple[int, int]], sizes: list[int], offsets: list[int]) -> bool:
    for i in range(len(spans)):
        for j in range(i):
            live = spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]
            apart = offsets[i] + sizes[i] <= offsets[j] or offsets[j] + sizes[j] <= offsets[i]
            if live and sizes[i] and sizes[j] and not apart:
                return True
    return False


def naive_best_fit(spans: list[tuple[int, int]], sizes: list[int]) -> list[int]:
    """Best-fit as documented, by brute force: every pair tested for overlap, largest first."""
    offsets = [-1] * len(spans)
    for i in sorted(range(len(spans)), key=lambda j: (-sizes[j], spans[j][0], j)):
        taken = sorted(
            (offsets[j], offsets[j] + sizes[j])
            for j in range(len(spans))
            if offsets[j] >= 0 and spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]
        )
        best, best_gap, top = -1, -1, 0
        for low, high in taken:
            if low - top >= sizes[i] and (best < 0 or low - top < best_gap):
                best, best_gap = top, low - top
            top = max(top, high)
        offsets[i] = best if best >= 0 else top
    return offsets


@pytest.mark.parametrize("scale", [1, 2**61])
def test_best_fit_matches_brute_force_with_many_conflicts(scale: int) -> None:
    # Long-lived buffers give some buffers over 48 conflicts (best-fit's numpy scan); sizes
    # of 2^61 units make the sums overflow int64, so the same cases take the Python scan.
    rng = np.random.default_rng(1)
    for _ in range(40):
        count = int(rng.integers(60, 200))
        starts = rng.integers(0, 300, count)
        lengths = np.where(rng.random(count) < 0.3, 300, rng.integers(0, 20, count))
        spans = [(int(s), int(s + n)) for s, n in zip(starts, lengths, strict=True)]
        sizes = [int(rng.integers(0, 6)) * scale for _ in range(count)]
        assert best_fit_offsets(spans, sizes) == naive_best_fit(spans, sizes)


def test_plan_of_long_lived_values_matches_brute_force_best_fit() -> None:
    # A 1200-op chain whose every 10th value is also read at the end (as builders emit dead or
    # late-read values): 120 buffers live throughout, so most have over 48 conflicts.
    x = relay.var("x", shape=(4, 4))
    y: relay.Expr = x
    late: list[relay.Expr] = []
    for step in range(1200):
        y = relay.tanh(y) if step % 3 else relay.concatenate([y], 0)
        if step % 10 == 0:
            late.append(y)
    mod = IRModule.from_expr(relay.Function([x], relay.concatenate([y, *late], 0)))
    main = next(f for f in mod.module.ops if isinstance(f, func.FuncOp))
    plan = FunctionPlan(main, ALIGN)
    spans = [(b.start, b.end) for b in plan.arena]
    sizes = [b.size for b in plan.arena]
    assert sum(e - s > 100 for s, e in spans) >= 100
    assert [b.offset for b in plan.arena] == naive_best_fit(spans, sizes)


def test_best_fit_on_random_intervals() -> None:
    rng = np.random.default_rng(0)
    for _ in range(300):
        count = int(rng.integers(1, 40))
        starts = rng.integers(0, 60, count)
        spans = [(int(s), int(s + rng.integers(0, 15))) for s in starts]
        sizes = [int(rng.integers(0, 5)) * ALIGN for _ in range(count)]
        offsets = best_fit_offsets(spans, sizes)
        assert not brute_force_overlap(spans, sizes, offsets)
        assert all(o % ALIGN == 0 for o in offsets)
        points = range(min(s for s, _ in spans), max(e for _, e in spans) + 1)
        want = max(
            sum(n for (s, e), n in zip(spans, sizes, strict=True) if s <= p <= e) for p in points
        )
        assert peak_live(spans, sizes) == want
        assert max(o + n for o, n in zip(offsets, sizes, strict=True)) >= want


def test_the_debug_check_catches_overlaps() -> None:
    good = [Buffer("temp", 64, None, 0, 1, None, 0), Buffer("temp", 64, None, 1, 2, None, 64)]
    check_plan(good, ALIGN, 128)
    bad = [Buffer("temp", 64, None, 0, 1, None, 0), Buffer("temp", 128, None, 1, 2, None, 0)]
    with pytest.raises(RuntimeError, match="bad placement"):
        check_plan(bad, ALIGN, 128)
    with pytest.raises(RuntimeError, match="bad placement"):
        check_plan([Buffer("temp", 64, None, 0, 0, None, 32)], ALIGN, 128)
