"""One planned `func.func` as one C function: storage from the plan, ops in order.

The C function takes its region of the instance arena (`arena`, which is
the instance arena plus the function's `xrelay.arena_offset`), one
`const T *` per parameter leaf (`p0`, `p1`, ...; tuple parameters
flattened) and one `T *restrict` per result leaf (`o0`, ...). Where each
value lives comes from the `plan-memory` attributes: `xrelay.buffers` on each
op (offsets in the function's region, `"out:k"`, `"const"`, `"alias"`), and
`xrelay.outputs` on `func.return` (copy or in place). A call passes the
callee its region: above the caller's, so no argument equals it (GCC's
`-Wrestrict` checks calls). Parameters are not `restrict`: a value may be
passed twice.

Every op that computes is printed as its own C block whose pointers are
`restrict`: the plan never places an op's result over a buffer the op reads,
and a block-scope `restrict` promises no more than that (bytes reused by a
later op are reached through another block's pointers). Aliases (tuples,
projections, reshape-like ops, calls the plan marks `"alias"`: view functions)
and constants print nothing; calls pass
pointers; `relay.if` becomes `if`, a composite a block, and `relay.yield`
copies into the region op's results as the plan says. In a profiling build
(`CEmitter.profiler`, `profile.py`) the entry function's body and each op of the
entry and of a BYOC target's functions that prints code are wrapped in a timer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, StringAttr, TupleType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xrelay.codegen.c.call_sites import constant_passed
from xrelay.codegen.c.epilogue import Epilogue
from xrelay.codegen.c.epilogue_chains import Chain, find_chains
from xrelay.codegen.c.fusion import emit_root, inlined_ops
from xrelay.codegen.c.kernel_api import (
    Kernel,
    KernelFn,
    Unsupported,
    leaf_types,
    numel,
    scalar,
    static_shape,
)
from xrelay.codegen.c.names import source_comment
from xrelay.codegen.c.refs import ARENA, CONST, OUTPUT, PARAM, Ref, Tree, leaves
from xrelay.codegen.c.scalar_ops import ScalarRule
from xrelay.codegen.c.scalars import Scalar
from xrelay.codegen.c.writer import CWriter, copy_elements
from xrelay.dialects.relay.structure import (
    CompositeOp,
    ConstantOp,
    IfOp,
    TupleGetItemOp,
    TupleOp,
    YieldOp,
)
from xrelay.passes.plan_memory import RESHAPE_LIKE

if TYPE_CHECKING:
    from xrelay.codegen.c.emitter import CEmitter


class PlanMissing(Exception):
    """An op or function lacks the `plan-memory` attributes the emitter prints from."""


def int_attribute(op: Operation, name: str) -> int:
    """An integer attribute of the plan; `PlanMissing` if absent."""
    attr = op.attributes.get(name)
    if not isinstance(attr, IntegerAttr):
        raise PlanMissing(name)
    return cast(IntegerAttr[IntegerType], attr).value.data


def _entries(attr: Attribute | None) -> tuple[Attribute, ...] | None:
    """The items of an `ArrayAttr` plan attribute, None for anything else."""
    if not isinstance(attr, ArrayAttr):
        return None
    return cast(ArrayAttr[Attribute], attr).data


def is_view_call(op: Operation) -> bool:
    """A call the plan made an alias of its argument (a view function's: nothing to run)."""
    if not isinstance(op, func.CallOp) or len(op.results) != 1:
        return False
    entries = _entries(op.attributes.get("xrelay.buffers"))
    return entries is not None and entries == (StringAttr("alias"),)


def leaf_bytes(type_: Attribute) -> int:
    """The size in bytes of one tensor leaf."""
    (tensor,) = leaf_types(type_)
    return numel(static_shape(tensor)) * scalar(tensor).bytes


class FunctionEmitter:
    """Prints one function; `owner` (the module's emitter) supplies names and constants.

    The op tables and the target named in errors are the function's own,
    by default the owner's: a BYOC target's emitter (`codegen/<t>/emitter.py`)
    passes its `target`, its `kernels` and its scalar `rules`, so that it
    prints only its own ops and its errors read `'<op>' op cannot be emitted
    for target '<t>'`.
    """

    def __init__(
        self,
        owner: CEmitter,
        function: func.FuncOp,
        symbol: str,
        *,
        target: str | None = None,
        kernels: Mapping[str, KernelFn] | None = None,
        rules: Mapping[str, ScalarRule] | None = None,
    ) -> None:
        self.owner = owner
        self.target = owner.TARGET if target is None else target
        """The target this function is printed for (errors name it; its C goes in its units)."""
        self.kernels = owner.kernels if kernels is None else kernels
        """Op name -> printer of its loop nests."""
        self.rules = owner.scalar_rules if rules is None else rules
        """Op name -> scalar expression (elementwise ops fused into loop nests)."""
        self.function = function
        self.symbol = symbol
        self.base = int_attribute(function, "xrelay.arena_offset")
        self.w = CWriter(1)
        self.trees: dict[SSAValue, Tree] = {}
        self._used: set[str] = set()
        self._params: list[str] = []
        self._declarations: list[str] = []
        for arg in function.body.block.args:
            self.trees[arg] = self._param_tree(arg.type)
        self._chains: dict[Operation, Chain] = {}
        """Producers whose kernels apply an epilogue (`epilogue_chains.py`)."""
        self._fused: set[Operation] = set()
        """The ops of those epilogues: they print nothing."""
        self._outputs: list[Ref] = []
        for type_ in function.function_type.outputs.data:
            for tensor in leaf_types(type_):
                name = f"o{len(self._outputs)}"
                self._outputs.append(Ref(OUTPUT, name))
                self._declarations.append(f"{scalar(tensor).ctype} *restrict {name}")

    # ------------------------------------------------------------ storage

    def _param_tree(self, type_: Attribute) -> Tree:
        if isinstance(type_, TupleType):
            return tuple(self._param_tree(t) for t in type_.types.data)
        (tensor,) = leaf_types(type_)
        name = f"p{len(self._params)}"
        self._params.append(name)
        self._declarations.append(f"const {scalar(tensor).ctype} *{name}")
        return Ref(PARAM, name)

    def prototype(self) -> str:
        """`void xk_f(unsigned char *arena, const float *p0, ..., float *restrict o0)`."""
        return f"void {self.symbol}({', '.join(['unsigned char *arena', *self._declarations])})"

    def tree(self, value: SSAValue) -> Tree:
        """The storage of a value (defined earlier in the function)."""
        return self.trees[value]

    def pointer(self, ref: Ref) -> str:
        """The C pointer expression of a leaf (a constant gets its symbol now)."""
        if ref.kind == CONST:
            assert ref.constant is not None
            return self.owner.constants.symbol(ref.constant)
        if ref.kind == ARENA:
            self._used.add("arena")
        self._used.add(ref.expr)
        return ref.expr

    def result_pointer(self, value: SSAValue) -> str:
        """The pointer an op writes its (single, tensor) result through."""
        ref = self.tree(value)
        assert isinstance(ref, Ref)
        return self.pointer(ref)

    def splat_literal(self, ref: Ref, element: Scalar) -> str | None:
        """A C literal for a constant whose elements are all equal, else None."""
        if ref.kind != CONST or ref.constant is None:
            return None
        value = self.owner.constants.splat(ref.constant)
        return None if value is None else element.literal(value)

    def _assign(self, op: Operation) -> None:
        """Record where `op`'s results (and its regions' arguments) live."""
        if isinstance(op, CompositeOp):
            for arg, operand in zip(op.body.block.args, op.operands, strict=True):
                self.trees[arg] = self.trees[operand]
        for region in op.regions:
            for block in region.blocks:
                if any(arg not in self.trees for arg in block.args):
                    raise Unsupported("cannot emit a region with arguments")
        if not op.results:
            return
        if isinstance(op, TupleOp):
            self.trees[op.results[0]] = tuple(self.trees[v] for v in op.operands)
        elif isinstance(op, TupleGetItemOp):
            whole = self.trees[op.tuple]
            assert not isinstance(whole, Ref)
            self.trees[op.results[0]] = whole[op.index.value.data]
        elif (op.name in RESHAPE_LIKE and op.operands) or is_view_call(op):
            self.trees[op.results[0]] = self.trees[op.operands[0]]
        elif isinstance(op, ConstantOp):
            self.trees[op.results[0]] = Ref(CONST, constant=op)
        else:
            entries = _entries(op.attributes.get("xrelay.buffers"))
            if entries is None or len(entries) != len(op.results):
                raise PlanMissing("xrelay.buffers")
            for result, entry in zip(op.results, entries, strict=True):
                self.trees[result] = self._entry_tree(entry, result.type)

    def _entry_tree(self, entry: Attribute, type_: Attribute) -> Tree:
        if isinstance(type_, TupleType):
            fields = type_.types.data
            items = _entries(entry)
            if items is None or len(items) != len(fields):
                raise PlanMissing("xrelay.buffers")
            return tuple(self._entry_tree(e, t) for e, t in zip(items, fields, strict=True))
        if isinstance(entry, IntegerAttr):
            (tensor,) = leaf_types(type_)
            offset = cast(IntegerAttr[IntegerType], entry).value.data
            start = self.base + offset
            element = scalar(tensor)
            if start % element.bytes:
                raise Unsupported(
                    f"cannot be emitted: the plan puts a {element.ctype} buffer at byte {start}, "
                    "not aligned for it (plan with a larger alignment)"
                )
            expr = f"({element.ctype} *)(arena + {offset})"
            return Ref(ARENA, expr, start, start + leaf_bytes(type_))
        if isinstance(entry, StringAttr) and entry.data.startswith("out:"):
            return self._outputs[int(entry.data[4:])]
        raise PlanMissing("xrelay.buffers")

    # ------------------------------------------------------------ printing

    def guard(self, op: Operation, action: Callable[..., Any], *args: Any) -> Any:
        """`owner.guard` with this function's target: a located error on `op` naming it."""
        return self.owner.guard(op, action, *args, target=self.target)

    def unit_prelude(self) -> str:
        """File-scope C printed once at the top of each translation unit holding this
        function (a target's types and helpers); the host's is empty."""
        return ""

    def emit(self) -> str:
        """The C definition of the function."""
        for op in self.function.body.walk():
            self.guard(op, self._assign, op)
        self.emit_block(self.function.body.block)
        timers = self.owner.profiler
        if timers is not None and self.function.sym_name.data == timers.entry:
            timers.wrap(self.w, 0, 0)  # entry 0: the whole run
        head = CWriter(1)
        for name in ["arena", *self._params, *(r.expr for r in self._outputs)]:
            if name not in self._used:
                head.line(f"(void){name};")
        body = "".join(line + "\n" for line in head.lines + self.w.lines)
        return f"{self.prototype()} {{\n{body}}}\n"

    def emit_block(self, block: Block) -> None:
        """Print the ops of a block in order."""
        if self.kernels is self.owner.kernels:  # the host's printers apply epilogues
            chains = self.guard(block.parent_op() or self.function, find_chains, block, self)
            for chain in chains.values():
                self._fused.update(chain.members)
            self._chains.update(chains)
        inlined = inlined_ops(block, self, self._fused)
        timers = self.owner.profiler if block is self.function.body.block else None
        name = self.function.sym_name.data
        if timers is not None and not timers.times_ops(name, self.target != self.owner.TARGET):
            timers = None
        for op in block.ops:
            start = len(self.w.lines)
            self.guard(op, self.emit_op, op, inlined)
            if timers is not None and len(self.w.lines) > start:
                timers.time(self.w, start, timers.name_of(name, op))

    def emit_op(self, op: Operation, inlined: set[Operation]) -> None:
        """Print one op (nothing for aliases, constants, inlined ops and `relay.yield`)."""
        if isinstance(op, ConstantOp | TupleOp | TupleGetItemOp | YieldOp) or op in self._fused:
            return
        if op.name in RESHAPE_LIKE or is_view_call(op):
            return
        if isinstance(op, func.ReturnOp):
            self._emit_return(op)
        elif isinstance(op, func.CallOp):
            self._emit_call(op)
        elif isinstance(op, IfOp):
            self._emit_if(op)
        elif isinstance(op, CompositeOp):
            with self.w.block():
                self.w.line(f"/* {op.name} */")
                self._emit_region_block(op, op.body.block)
        elif op.name in self.rules:
            if op not in inlined:
                with self.w.block():
                    emit_root(self, op, inlined)
        else:
            kernel = self.kernels.get(op.name)
            if kernel is None:
                raise Unsupported("cannot be emitted")
            self._emit_kernel(op, kernel)

    def _emit_kernel(self, op: Operation, fn: KernelFn) -> None:
        in_types = [t for v in op.operands for t in leaf_types(v.type)]
        out_types = [t for v in op.results for t in leaf_types(v.type)]
        in_refs = [r for v in op.operands for r in leaves(self.tree(v))]
        out_refs = [r for v in op.results for r in leaves(self.tree(v))]
        constant_refs = [
            ref
            for v in op.operands
            if constant_passed(self.function, v) is not None
            for ref in leaves(self.tree(v))
        ]
        w = self.w
        with w.block():
            w.line(f"/* {op.name} */")
            ins: list[str] = []
            for ref, type_ in zip(in_refs, in_types, strict=True):
                ins.append(f"in{len(ins)}")
                w.line(f"const {scalar(type_).ctype} *restrict {ins[-1]} = {self.pointer(ref)};")
            outs: list[str] = []
            for ref, type_ in zip(out_refs, out_types, strict=True):
                outs.append(f"out{len(outs)}")
                w.line(f"{scalar(type_).ctype} *restrict {outs[-1]} = {self.pointer(ref)};")
            chain = self._chains.get(op)
            epilogue = None if chain is None else self._epilogue(chain)
            named = [] if epilogue is None else [epilogue.bias, epilogue.residual]
            start = len(w.lines)
            constant_ins = frozenset(
                k for k, ref in enumerate(in_refs) if ref.kind == CONST or ref in constant_refs
            )
            kernel = Kernel(
                op, w, ins, outs, in_types, out_types, epilogue=epilogue, constant_ins=constant_ins
            )
            fn(kernel)
            self.owner.libraries.update(kernel.libraries)
            for routine in kernel.routines:
                self.owner.routines.setdefault(routine.name, routine)
            body = "\n".join(w.lines[start:])
            for name in [
                *ins,
                *outs,
                *(n for n in named if n is not None),
            ]:  # e.g. batch_norm without scale does not read gamma
                if not re.search(rf"\b{name}\b", body):
                    w.line(f"(void){name};")

    def _epilogue(self, chain: Chain) -> Epilogue:
        """Declare the bias and residual pointers of a fused chain; its `Epilogue`."""
        names: list[str | None] = []
        for name, value in (("ep_bias", chain.bias), ("ep_res", chain.residual)):
            if value is None:
                names.append(None)
                continue
            (ref,) = leaves(self.tree(value))
            (type_,) = leaf_types(value.type)
            self.w.line(f"const {scalar(type_).ctype} *restrict {name} = {self.pointer(ref)};")
            names.append(name)
        self.w.line(f"/* fused: {', '.join(m.name for m in chain.members)} */")
        return chain.epilogue(names[0], names[1])

    def _emit_call(self, op: func.CallOp) -> None:
        name = op.callee.root_reference.data
        found = self.owner.function_symbol(name)
        if found is None:
            raise Unsupported(f"cannot be emitted: @{name} has no planned body to call")
        symbol, base = found
        region = "arena" if base == self.base else f"arena + {base - self.base}"
        args = [region] + [self.pointer(r) for v in op.operands for r in leaves(self.tree(v))]
        args += [self.pointer(r) for v in op.results for r in leaves(self.tree(v))]
        self._used.add("arena")
        self.w.line(f"{symbol}({', '.join(args)});{source_comment(op)}")

    def _emit_if(self, op: IfOp) -> None:
        cond = self.tree(op.cond)
        assert isinstance(cond, Ref)
        with self.w.block(f"if (({self.pointer(cond)})[0])"):
            self._emit_region_block(op, op.then_region.block)
        with self.w.block("else"):
            self._emit_region_block(op, op.else_region.block)

    def _emit_region_block(self, op: Operation, block: Block) -> None:
        self.emit_block(block)
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            raise Unsupported("cannot emit a region without relay.yield")
        for value, result in zip(terminator.values, op.results, strict=True):
            self._copy(self.tree(result), self.tree(value), result.type)

    def _emit_return(self, op: func.ReturnOp) -> None:
        marks = _entries(op.attributes.get("xrelay.outputs"))
        sources = [r for v in op.operands for r in leaves(self.tree(v))]
        types = [t for v in op.operands for t in leaf_types(v.type)]
        if marks is None or len(marks) != len(sources):
            raise PlanMissing("xrelay.outputs")
        for k, (mark, source, type_) in enumerate(zip(marks, sources, types, strict=True)):
            if isinstance(mark, StringAttr) and mark.data == "copy":
                self._copy(self._outputs[k], source, type_)

    def _copy(self, target: Tree, source: Tree, type_: Attribute) -> None:
        """Copy every leaf of `source` into the same leaf of `target`."""
        for dst, src, leaf in zip(leaves(target), leaves(source), leaf_types(type_), strict=True):
            count = numel(static_shape(leaf))
            if dst is not src and count > 0:  # an empty copy leaves both pointers unused
                copy_elements(self.w, self.pointer(dst), self.pointer(src), count)
