"""`IRModule`: TVM's module API over an xDSL `builtin.module` of `func.func`s.

The xDSL module (`mod.module`) is the source of truth; `mod["main"]` gives a
`Function` expression rebuilt from its `func.func` (with `.op` pointing at it),
so TVM-style code can read params, body and attrs and build new functions.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping, Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    FunctionCall,
    GlobalCall,
    GlobalVar,
    If,
    OpaqueCall,
    Tuple,
    TupleGetItem,
    Var,
    attr_to_python,
    free_vars,
)
from xrelay.dialects.builder.span import span_of
from xrelay.dialects.deep_clone import deep_clone
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.depth import nesting_guard
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import ConstantOp, IfOp, TupleGetItemOp, TupleOp, YieldOp
from xrelay.dialects.walk import Nested, trampoline


class IRModule:
    """A set of global functions, backed by an xDSL `ModuleOp`."""

    def __init__(
        self,
        functions: Mapping[str | GlobalVar, Function] | None = None,
        module: ModuleOp | None = None,
    ):
        self.module = module if module is not None else ModuleOp([])
        self.param_vars: dict[str, list[Var]] = {}
        """The parameter Vars each function was set with: reading the function back gives
        the same Var objects while its parameters keep their names and types, so an
        expression's free variables stay the caller's (TVM's passes keep Var nodes)."""
        # A function calling another by an untyped GlobalVar is added after it (TVM's
        # InferType sees the whole module; here each function is typed as it is added).
        pending = list((functions or {}).items())
        while pending:
            waiting: list[tuple[str | GlobalVar, Function]] = []
            for key, function in pending:
                if _calls_unknown(function, self, {_name(k) for k, _ in pending}):
                    waiting.append((key, function))
                else:
                    self[key] = function
            if len(waiting) == len(pending):  # a cycle of untyped calls: report the first
                key, function = waiting[0]
                self[key] = function
                waiting = waiting[1:]
            pending = waiting

    @staticmethod
    def from_expr(
        expr: Expr, functions: Mapping[str | GlobalVar, Function] | None = None
    ) -> IRModule:
        """A module whose `main` is `expr` (free variables become its parameters)."""
        mod = IRModule(functions)
        main = expr if isinstance(expr, Function) else Function(free_vars(expr), expr)
        _bring_callees(main, mod)
        mod["main"] = main
        return mod

    # --------------------------------------------------------------- access

    def _func_ops(self) -> dict[str, func.FuncOp]:
        return {op.sym_name.data: op for op in self.module.ops if isinstance(op, func.FuncOp)}

    def __contains__(self, key: str | GlobalVar) -> bool:
        return _name(key) in self._func_ops()

    def __getitem__(self, key: str | GlobalVar) -> Function:
        ops = self._func_ops()
        name = _name(key)
        if name not in ops:
            raise KeyError(f"module has no function '{name}'; it has {sorted(ops)}")
        return function_from_op(ops[name], self.param_vars.get(name))

    def __setitem__(self, key: str | GlobalVar, function: Function) -> None:
        name = _name(key)
        existing = self._func_ops()
        types = {key: op.function_type for key, op in existing.items()}
        declared = function.declared_type()
        if declared is not None:  # a recursive call reads the function's declared type
            types[name] = declared
        new_op, *lifted = function.to_func_ops(name, types)
        self.param_vars[name] = list(function.params)
        old = existing.get(name)
        block = self.module.body.block
        if old is not None:
            block.insert_op_before(new_op, old)
            block.erase_op(old)
        else:
            block.add_op(new_op)
        # The private functions its function callees became follow it (as FuseOps places them).
        after = new_op
        for op in lifted:
            block.insert_op_after(op, after)
            after = op

    def __iter__(self) -> Iterator[str]:
        return iter(self._func_ops())

    @property
    def functions(self) -> dict[str, Function]:
        """Every function by name."""
        return {
            name: function_from_op(op, self.param_vars.get(name))
            for name, op in self._func_ops().items()
        }

    def get_global_var(self, name: str) -> GlobalVar:
        """The GlobalVar of a function, typed, for calls."""
        ops = self._func_ops()
        if name not in ops:
            raise KeyError(f"module has no function '{name}'; it has {sorted(ops)}")
        return GlobalVar(name, ops[name].function_type)

    def get_global_vars(self) -> list[GlobalVar]:
        """GlobalVars of every function, in module order."""
        return [GlobalVar(name, op.function_type) for name, op in self._func_ops().items()]

    def update(self, other: IRModule) -> None:
        """Add or replace functions from another module (copies them)."""
        for name, op in other._func_ops().items():
            clone = op.clone()
            old = self._func_ops().get(name)
            if old is not None:
                self.module.body.block.insert_op_before(clone, old)
                self.module.body.block.erase_op(old)
            else:
                self.module.body.block.add_op(clone)

    def update_func(self, var: str | GlobalVar, function: Function) -> None:
        """Add or replace one function."""
        self[var] = function

    def clone(self) -> IRModule:
        """A deep copy (its functions read back with the same parameter Vars)."""
        copy = IRModule(module=deep_clone(self.module))
        copy.param_vars = dict(self.param_vars)
        return copy

    def same_as(self, other: object) -> bool:
        """TVM's `same_as`: the same module object (not merely equal IR)."""
        return isinstance(other, IRModule) and other.module is self.module

    # ------------------------------------------------------------- printing

    def astext(
        self,
        generic: bool = False,
        resources_if_larger: int | None = None,
        elide_if_larger: int | None = None,
    ) -> str:
        """The module as text (custom syntax, or MLIR's generic form).

        Constants of more than `resources_if_larger` elements print as
        `dense_resource<name>` blobs in a trailing `{-# dialect_resources #-}`
        section; of more than `elide_if_larger`, as `dense_resource<__elided__>`
        (text that verifies but does not run). `NestingTooDeepError` for IR
        nested deeper than xDSL's (recursive) printer can follow.
        """
        stream = io.StringIO()
        with nesting_guard("printing", self.module):
            ExactPrinter(
                stream=stream,
                print_generic_format=generic,
                resources_if_larger=resources_if_larger,
                elide_if_larger=elide_if_larger,
            ).print_op(self.module)
        stream.write("\n")
        return stream.getvalue()

    def __str__(self) -> str:
        return self.astext()

    def __repr__(self) -> str:
        return f"IRModule({sorted(self._func_ops())})"


def _calls_unknown(function: Function, mod: IRModule, names: set[str]) -> bool:
    """Whether `function` calls, by an untyped GlobalVar, one of `names` not in `mod` yet."""
    from xrelay.dialects.builder.solve import postorder

    return any(
        isinstance(node, GlobalCall)
        and node.callee.type_annot is None
        and node.callee.name_hint in names
        and node.callee.name_hint not in mod
        for node in postorder([function.body])
    )


def _bring_callees(function: Function, mod: IRModule) -> None:
    """Copy into `mod` the functions that `function`, read from another module
    (`other["main"]`), calls there by name and `mod` lacks, transitively: in TVM a fused
    function travels inside its caller, so `IRModule.from_expr(fused["main"])` keeps it."""
    from xrelay.dialects.builder.solve import postorder

    source_op = function.op
    source = source_op.parent_op() if source_op is not None else None
    if not isinstance(source, ModuleOp):
        return
    available = {op.sym_name.data: op for op in source.ops if isinstance(op, func.FuncOp)}
    present = set(mod) | {"main"}
    wanted = [n.callee.name_hint for n in postorder([function.body]) if isinstance(n, GlobalCall)]
    while wanted:
        name = wanted.pop()
        if name in present or name not in available:
            continue
        present.add(name)
        copy = available[name].clone()
        mod.module.body.block.add_op(copy)
        wanted += [c.callee.root_reference.data for c in copy.walk() if isinstance(c, func.CallOp)]


def _name(key: str | GlobalVar) -> str:
    return key.name_hint if isinstance(key, GlobalVar) else key


class _Primitives:
    """The private `Primitive` functions of a module, each read as a Function once."""

    def __init__(self, module: Operation | None):
        self.ops: dict[str, func.FuncOp] = {}
        if isinstance(module, ModuleOp):
            for fn in module.ops:
                if isinstance(fn, func.FuncOp) and _is_primitive_value(fn):
                    self.ops[fn.sym_name.data] = fn
        self.read: dict[str, Function] = {}
        self.reading: set[str] = set()

    def value(self, name: str) -> Function | None:
        """The function `name` as a value, or None (not Primitive, or being read: a cycle)."""
        if name in self.read:
            return self.read[name]
        op = self.ops.get(name)
        if op is None or name in self.reading:
            return None
        self.reading.add(name)
        self.read[name] = _read_function(op, None, self)
        self.reading.discard(name)
        return self.read[name]


def function_from_op(op: func.FuncOp, params: Sequence[Var] | None = None) -> Function:
    """Rebuild a Function expression from a `func.func` (linear in its size and its module's).

    A call of a private `Primitive` function of the same module (what FuseOps makes)
    becomes a call of that function as a value, as TVM's FuseOps result reads
    (`%0 = fn (...) { ... }; %0(%x)`); other calls stay calls of a GlobalVar."""
    primitives = _Primitives(op.parent_op())
    primitives.reading.add(op.sym_name.data)
    return _read_function(op, params, primitives)


def _read_function(
    op: func.FuncOp, params: Sequence[Var] | None, primitives: _Primitives
) -> Function:
    block = op.body.block
    fresh = [Var(arg.name_hint or f"p{i}", arg.type) for i, arg in enumerate(block.args)]
    if params is not None and _same_params(params, fresh):
        fresh = list(params)  # `params`: the Vars the function was made with, still valid
    env: dict[SSAValue, Expr] = dict(zip(block.args, fresh, strict=True))
    results = trampoline(_convert_block(block, env, primitives))  # nested ifs: on a stack
    body = results[0] if len(results) == 1 else Tuple(results)
    out = Function(
        fresh,
        body,
        attrs={k: attr_to_python(v) for k, v in op.attributes.items()},
    )
    out.multi_result = len(results) != 1
    out.op = op
    return out


def _tuple_node(op: TupleOp | TupleGetItemOp, args: list[Expr]) -> Tuple | TupleGetItem:
    """TVM's node for a tuple op: `relay.Tuple` (`.fields`) or `relay.TupleGetItem`
    (`.tuple_value`, `.index`), typed as the op's result, with its discardable attributes."""
    node = Tuple(args) if isinstance(op, TupleOp) else TupleGetItem(args[0], op.index.value.data)
    node.attrs.update(op.attributes)
    node.set_checked_type(op.results[0].type)
    return node


def _same_params(given: Sequence[Var], read: Sequence[Var]) -> bool:
    """Whether Vars a function was made with still describe its parameters (names, types)."""
    return len(given) == len(read) and all(
        a.name_hint == b.name_hint and a.checked_type == b.checked_type
        for a, b in zip(given, read, strict=True)
    )


def _is_primitive_value(fn: func.FuncOp) -> bool:
    """A private single-result `Primitive` function: FuseOps' output, a value in TVM."""
    primitive = fn.attributes.get("Primitive")
    return (
        fn.sym_visibility is not None
        and fn.sym_visibility.data == "private"
        and isinstance(primitive, IntegerAttr)
        and primitive.value.data != 0
        and len(fn.function_type.outputs.data) == 1
        and bool(fn.body.blocks)
    )


def _convert_block(
    block: Block, env: dict[SSAValue, Expr], primitives: _Primitives
) -> Nested[list[Expr]]:
    for inner in block.ops:
        args = [env[o] for o in inner.operands]
        if isinstance(inner, func.ReturnOp | YieldOp):
            return args
        expr: Expr
        if isinstance(inner, ConstantOp):
            expr = Constant(inner.value)
        elif isinstance(inner, IfOp):
            then_expr = (yield _convert_block(inner.then_region.block, env, primitives))[0]
            else_expr = (yield _convert_block(inner.else_region.block, env, primitives))[0]
            expr = If(args[0], then_expr, else_expr)
        elif (
            isinstance(inner, func.CallOp)
            and (callee_fn := primitives.value(inner.callee.root_reference.data)) is not None
        ):
            expr = FunctionCall(callee_fn, args)
        elif isinstance(inner, func.CallOp):
            callee = GlobalVar(inner.callee.root_reference.data)
            call = GlobalCall(callee, args, [r.type for r in inner.results])
            if len(inner.results) != 1:
                for index, result in enumerate(inner.results):
                    env[result] = call[index]
                continue
            expr = call
        elif isinstance(inner, TupleOp | TupleGetItemOp):
            expr = _tuple_node(inner, args)
        elif isinstance(inner, RelayOp) and not inner.regions:
            expr = Call(
                type(inner),
                args,
                dict(inner.properties),
                dict(inner.attributes),
                checked_type=inner.results[0].type,
            )
        else:
            expr = OpaqueCall(inner, args)
        expr.name_hint = inner.results[0].name_hint
        expr.span = span_of(inner.location)
        env[inner.results[0]] = expr
    raise ValueError("block has no terminator")
