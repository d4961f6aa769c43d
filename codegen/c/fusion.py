"""Chains of elementwise ops as one loop nest: which ops to inline, and the loop that computes them.

Choosing (`inlined_ops`). In one block, an elementwise op (one with a
`ScalarRule`) whose every user is an elementwise op of the same block is
*inlined*: it gets no loop of its own, its element is computed where a user
needs it. The other elementwise ops are *roots*, each one loop nest over its
result that computes its whole tree of inlined ops as scalars.

The memory plan placed every op's result as if each were computed on its own,
so a value an inlined op reads may be dead in the plan after that op, and its
bytes reused by a later op (or by the root's result) before the root runs. A
root whose tree reads a buffer that some op after the buffer's last reader in
the tree, up to the root itself, writes over therefore has its whole tree
un-inlined, every op back to its own loop as the plan assumed; this repeats
until no root is clobbered (an un-inlined op writes, so others are checked
again). Only arena bytes can be clobbered: parameters, outputs and constants
are disjoint storage.

Printing (`emit_root`). The tree is walked once (iteratively, no recursion
limit) in post-order; each (value, index) pair becomes one `const T tN`.
Indices are per dim either a root loop counter or 0 (broadcast dims, and the
root's own 1-dims, which get no loop). When every leaf is read at the root's
own index (or at index 0 everywhere), the nest is one flat loop over
`i`; otherwise adjacent non-unit root dims that every leaf reads alike (all of
them, contiguously, or none) share one loop (`loop_groups`), offsets by strides.
A bias over NCHW's channels is then a loop over N*C around one over H*W: the
inner loop is as long as the layout allows, which is what GCC vectorizes well
(a 7x7 map is one loop of 49, not 7 loops of 7).
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from xdsl.ir import Block, Operation, SSAValue
from xrelay.codegen.c.kernel_api import leaf_types, numel, static_shape
from xrelay.codegen.c.refs import ARENA, Ref, leaves
from xrelay.codegen.c.scalar_ops import (
    Index,
    ScalarCall,
    ScalarRule,
    broadcast_index,
    element_scalar,
)
from xrelay.codegen.c.writer import CWriter, affine, strides
from xrelay.dialects.relay.structure import ConstantOp, TupleGetItemOp, TupleOp
from xrelay.passes.plan_memory import RESHAPE_LIKE

if TYPE_CHECKING:
    from xrelay.codegen.c.function import FunctionEmitter


def reads(rule: ScalarRule, op: Operation) -> Sequence[int]:
    """The operand positions an elementwise op reads."""
    return tuple(range(len(op.operands))) if rule.reads is None else rule.reads(op)


def operand_index(rule: ScalarRule, op: Operation, k: int, idx: Index) -> Index:
    """Where operand `k` of `op` is read for result index `idx`."""
    shape = _shape(op.operands[k])
    if rule.index is None:
        return broadcast_index(idx, shape)
    return rule.index(op, k, idx, shape)


def _shape(value: SSAValue) -> tuple[int, ...]:
    (type_,) = leaf_types(value.type)
    return static_shape(type_)


def _owner(value: SSAValue) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, Operation) else None


def tree_members(
    root: Operation,
    inlined: set[Operation],
    rules: Mapping[str, ScalarRule],
    position: Mapping[Operation, int],
) -> tuple[list[Operation], dict[SSAValue, Operation]]:
    """The inlined ops a root computes, and each value its tree reads from memory with the
    last (in block order) of its tree's ops that reads it."""
    members: list[Operation] = []
    readers: dict[SSAValue, Operation] = {}
    stack = [root]
    seen = {root}
    while stack:
        op = stack.pop()
        for k in reads(rules[op.name], op):
            value = op.operands[k]
            owner = _owner(value)
            if owner is not None and owner in inlined:
                if owner not in seen:
                    seen.add(owner)
                    members.append(owner)
                    stack.append(owner)
            elif value not in readers or position[readers[value]] < position[op]:
                readers[value] = op
    return members, readers


def _written(op: Operation, host: FunctionEmitter, inlined: set[Operation]) -> list[Ref]:
    """The arena bytes `op` writes (its results', and any nested op's: conservatively all).

    Aliases (tuples, projections, reshape-like ops) and constants write nothing.
    """
    if op in inlined:
        return []
    found: list[Ref] = []
    for inner in op.walk():  # nested ops count as writing, inlined or not
        if isinstance(inner, TupleOp | TupleGetItemOp | ConstantOp) or inner.name in RESHAPE_LIKE:
            continue
        for result in inner.results:
            if result in host.trees:
                found.extend(r for r in leaves(host.trees[result]) if r.kind == ARENA)
    return found


def inlined_ops(
    block: Block, host: FunctionEmitter, fused: Collection[Operation] = ()
) -> set[Operation]:
    """The elementwise ops of `block` computed inside their users' loops (see module doc);
    `fused` ops (a producer's epilogue, `epilogue_chains.py`) are neither inlined nor roots."""
    rules = host.rules
    ops = list(block.ops)
    position = {op: index for index, op in enumerate(ops)}
    elementwise = [
        op for op in ops if op.name in rules and len(op.results) == 1 and op not in fused
    ]
    candidates = set(elementwise)
    inlined = {
        op
        for op in elementwise
        if op.results[0].uses and all(use.operation in candidates for use in op.results[0].uses)
    }
    while True:
        writes = [_written(op, host, inlined) for op in ops]
        clobbered: set[Operation] = set()
        for root in elementwise:
            if root in inlined:
                continue
            members, readers = tree_members(root, inlined, rules, position)
            if members and _any_clobbered(host, readers, position, position[root], writes):
                clobbered.update(members)
        if not clobbered:
            return inlined
        inlined -= clobbered


def _any_clobbered(
    host: FunctionEmitter,
    readers: Mapping[SSAValue, Operation],
    position: Mapping[Operation, int],
    end: int,
    writes: Sequence[Sequence[Ref]],
) -> bool:
    """Whether an op after a value's last reader, up to the root (`end`), writes over it."""
    for value, reader in readers.items():
        tree = host.tree(value)
        if not isinstance(tree, Ref) or tree.kind != ARENA:
            continue
        for index in range(position[reader] + 1, end + 1):
            if any(tree.overlaps(w) for w in writes[index]):
                return True
    return False


def emit_root(host: FunctionEmitter, root: Operation, inlined: set[Operation]) -> None:
    """Print the loop nest computing `root` and its inlined tree into its result buffer."""
    rules = host.rules
    result = root.results[0]
    shape = _shape(result)
    root_index: Index = tuple(None if d == 1 else a for a, d in enumerate(shape))
    order, names = _post_order(root, root_index, inlined, rules)
    leaves = [(v, idx) for v, idx in order if not _computed(v, root, inlined)]
    flat = all(idx == root_index or all(i is None for i in idx) for _, idx in leaves)
    groups = loop_groups(shape, [idx for _, idx in leaves])
    counter = {a: f"i{group[0]}" for group in groups for a in group}

    w = host.w
    fused = [op.name for op in _members_in_order(order, root, inlined)]
    w.line(f"/* {root.name}" + (f" (fused: {', '.join(fused)})" if fused else "") + " */")
    pointers: dict[str, str] = {}
    loads: dict[tuple[SSAValue, Index], str] = {}
    for value, idx in leaves:
        ref = host.tree(value)
        assert isinstance(ref, Ref)
        literal = host.splat_literal(ref, element_scalar(value.type))
        if literal is not None:
            loads[(value, idx)] = literal
            continue
        expr = host.pointer(ref)
        if expr not in pointers:
            local = f"in{len(pointers)}"
            pointers[expr] = local
            w.line(f"const {element_scalar(value.type).ctype} *restrict {local} = {expr};")
        where = _offset(idx, _shape(value), root_index, flat, counter)
        loads[(value, idx)] = f"{pointers[expr]}[{where}]"
    out_scalar = element_scalar(result.type)
    w.line(f"{out_scalar.ctype} *restrict out0 = {host.result_pointer(result)};")

    heads = (
        [("i", numel(shape))]
        if flat
        else [(f"i{g[0]}", numel([shape[a] for a in g])) for g in groups]
    )
    outer, (inner, extent) = heads[:-1], heads[-1] if heads else ("i", 1)
    with w.loops([h for h, _ in outer], [e for _, e in outer]), _inner_loop(w, inner, extent):
        for value, idx in order:
            name = names[(value, idx)]
            scalar = element_scalar(value.type)
            if _computed(value, root, inlined):
                op = value.owner
                assert isinstance(op, Operation)
                expr = _expression(op, idx, names, rules, host.owner.libraries)
            else:
                expr = loads[(value, idx)]
            w.line(f"const {scalar.ctype} {name} = {expr};")
        store = "i" if flat else _offset(root_index, shape, root_index, flat, counter)
        w.line(f"out0[{store}] = {names[(result, root_index)]};")


@contextmanager
def _inner_loop(w: CWriter, name: str, extent: int) -> Generator[None]:
    """The innermost loop, kept rolled (`#pragma GCC unroll 1`) when short: GCC unrolls a
    loop of a few iterations completely and then vectorizes none of it (11 or 13 floats
    stayed scalar at -O3); rolled, the loop vectorizer takes it (8 lanes and a tail)."""
    if extent < SHORT_LOOP:
        w.line("#pragma GCC unroll 1")
    with w.loop(name, extent):
        yield


SHORT_LOOP = 64
"""Inner loops shorter than this are kept rolled (`_inner_loop`)."""


def _computed(value: SSAValue, root: Operation, inlined: set[Operation]) -> bool:
    owner = _owner(value)
    return owner is not None and (owner is root or owner in inlined)


def _post_order(
    root: Operation,
    root_index: Index,
    inlined: set[Operation],
    rules: Mapping[str, ScalarRule],
) -> tuple[list[tuple[SSAValue, Index]], dict[tuple[SSAValue, Index], str]]:
    """Every (value, index) the root needs, operands before users, and their C names."""
    order: list[tuple[SSAValue, Index]] = []
    names: dict[tuple[SSAValue, Index], str] = {}
    stack: list[tuple[SSAValue, Index, bool]] = [(root.results[0], root_index, False)]
    while stack:
        value, idx, expanded = stack.pop()
        key = (value, idx)
        if key in names:
            continue
        op = _owner(value)
        if not expanded and _computed(value, root, inlined):
            assert op is not None
            stack.append((value, idx, True))
            rule = rules[op.name]
            for k in reversed(reads(rule, op)):
                child = (op.operands[k], operand_index(rule, op, k, idx))
                if child not in names:
                    stack.append((*child, False))
            continue
        names[key] = f"t{len(order)}"
        order.append(key)
    return order, names


def _members_in_order(
    order: Sequence[tuple[SSAValue, Index]], root: Operation, inlined: set[Operation]
) -> list[Operation]:
    seen: list[Operation] = []
    for value, _ in order:
        owner = _owner(value)
        if owner is not None and owner in inlined and owner not in seen:
            seen.append(owner)
    return seen


def _expression(
    op: Operation,
    idx: Index,
    names: Mapping[tuple[SSAValue, Index], str],
    rules: Mapping[str, ScalarRule],
    libraries: set[str],
) -> str:
    rule = rules[op.name]
    read = set(reads(rule, op))
    args = [
        names[(v, operand_index(rule, op, k, idx))] if k in read else ""
        for k, v in enumerate(op.operands)
    ]
    types = [element_scalar(v.type) for v in op.operands]
    call = ScalarCall(op, args, types, element_scalar(op.results[0].type))
    expr = rule.expr(call)
    libraries.update(call.libraries)
    return expr


def loop_groups(shape: Sequence[int], indices: Sequence[Index]) -> list[list[int]]:
    """The root's non-unit axes in runs that one loop can cover: axis `b` joins the run of
    the non-unit axis `a` before it when every index reads both (`b` next to `a` but for
    1-dims, so the pair is contiguous there too) or neither."""
    groups: list[list[int]] = []
    for b in (a for a, d in enumerate(shape) if d != 1):
        if groups and all(_adjacent(idx, groups[-1][-1], b) for idx in indices):
            groups[-1].append(b)
        else:
            groups.append([b])
    return groups


def _adjacent(idx: Index, a: int, b: int) -> bool:
    """Whether `idx` reads neither root axis, or both with only index-0 dims between."""
    if a not in idx and b not in idx:
        return True
    if a not in idx or b not in idx:
        return False
    p, q = idx.index(a), idx.index(b)
    return p < q and all(i is None for i in idx[p + 1 : q])


def _offset(
    idx: Index,
    shape: Sequence[int],
    root_index: Index,
    flat: bool,
    counter: Mapping[int, str],
) -> str:
    """The element offset of index `idx` into a value of `shape`: a loop group's counter
    times the stride of its last axis (the group is contiguous in the value)."""
    if flat:
        return "i" if idx and idx == root_index else "0"
    last: dict[str, int] = {}
    for position, axis in enumerate(idx):
        if axis is not None:
            last[counter[axis]] = position
    terms = [(name, strides(shape)[position]) for name, position in last.items()]
    return affine(terms)
