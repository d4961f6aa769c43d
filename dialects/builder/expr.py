"""Relay-style expressions built in Python, typed eagerly, materialized as `func.func`.

The builder mirrors `tvm.relay`: `var`, `const`, one function per op, `Tuple`,
`TupleGetItem`, `If`, `Function`, `GlobalVar`, `Call`. Every expression knows
its type as soon as it is built (`checked_type`), using the op's own
`infer_result_types`, so a shape error is raised where the expression is made,
naming the op and its operand types.

Expressions form a DAG; `Function.to_func_op` emits each node once, in
dependency order, with an explicit stack (no recursion limit on deep graphs).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Self, cast, overload

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    Signedness,
    StringAttr,
    TensorType,
    TupleType,
    f64,
    i1,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xrelay.dialects.builder.call_attrs import CallAttrs
from xrelay.dialects.builder.incomplete import incomplete, is_complete
from xrelay.dialects.builder.op_handle import Op
from xrelay.dialects.builder.span import Span
from xrelay.dialects.fused_names import fused_base
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.structure import (
    CompositeOp,
    ConstantOp,
    IfOp,
    TupleGetItemOp,
    TupleOp,
    YieldOp,
)
from xrelay.dialects.relay.types import (
    ANY,
    dense_from_numpy,
    dense_to_numpy,
    element_type_of,
    is_tuple,
    numpy_dtype,
    tensor_element_type,
    tensor_type,
    tuple_type,
    types_compatible,
)
from xrelay.dialects.walk import Nested, trampoline

# --------------------------------------------------------------------------- #
# Types
# --------------------------------------------------------------------------- #


def Any_() -> int:
    """A dynamic dimension, as TVM's `relay.Any()`."""
    return ANY


def TensorType_(shape: Sequence[int | None], dtype: str = "float32") -> TensorType[Attribute]:
    """`relay.TensorType(shape, dtype)`: a builtin tensor type; None or -1 is dynamic."""
    return tensor_type([ANY if d is None else int(d) for d in shape], element_type_of(dtype))


def TupleType_(fields: Sequence[Attribute]) -> TupleType:
    """`relay.TupleType(fields)`: a builtin tuple type."""
    return tuple_type(fields)


def FuncType(arg_types: Sequence[Attribute], ret_type: Attribute) -> FunctionType:
    """`relay.FuncType(arg_types, ret_type)`: a builtin function type."""
    return FunctionType.from_lists(list(arg_types), [ret_type])


# --------------------------------------------------------------------------- #
# Expressions
# --------------------------------------------------------------------------- #


class Expr:
    """A Relay expression with an eagerly inferred type."""

    def __init__(self, checked_type: Attribute):
        self._checked_type = checked_type
        self.name_hint: str | None = None
        """The SSA name the value had in text, kept when a module is rebuilt."""
        self.span: Span | None = None
        """TVM's `span`: where the expression came from (its op's location)."""

    @property
    def checked_type(self) -> Attribute:
        """The inferred type of the expression (an `IncompleteType` until solved, when it
        reads an untyped variable)."""
        return self._checked_type

    def set_checked_type(self, ty: Attribute) -> None:
        """Record the type InferType solved (`solve.py`)."""
        self._checked_type = ty

    def children(self) -> Sequence[Expr]:
        """The expressions this one reads, in operand order."""
        return ()

    def __getitem__(self, index: int) -> TupleGetItem:
        if is_complete(self.checked_type) and not is_tuple(self.checked_type):
            raise TypeError(f"cannot index an expression of type {self.checked_type}")
        return TupleGetItem(self, index)

    def __iter__(self) -> Iterator[TupleGetItem]:
        """Unpacks a tuple-typed expression: `a, b, c = relay.nn.batch_norm(...)`.

        Only tuple-typed expressions iterate (TVM's TupleWrapper); a tensor is a TypeError.
        An expression that reads untyped variables is solved as far as it can be first
        (`batch_norm(x, gamma, ...)` with untyped parameters: their types follow from `x`).
        """
        if not is_complete(self.checked_type):
            from xrelay.dialects.builder.solve import solve

            solve([self], partial=True)
        t = self.checked_type
        if not isinstance(t, TupleType):
            raise TypeError(f"cannot unpack an expression of type {t}")
        return iter([TupleGetItem(self, i) for i in range(len(t.types.data))])

    def astuple(self) -> Expr:
        """TVM's `TupleWrapper.astuple()`: the tuple expression itself."""
        return self

    def astext(self, show_meta_data: bool = True) -> str:
        """TVM's `expr.astext()`: Relay-style text for reading (`builder/astext.py`)."""
        from xrelay.dialects.builder.astext import astext

        del show_meta_data  # constants print as meta references
        return astext(self)

    def _binary(self, op_name: str, other: object, reverse: bool = False) -> Expr:
        from xrelay.dialects.builder import elementwise

        rhs = other if isinstance(other, Expr) else const_like(other, self)
        fn = getattr(elementwise, op_name)
        return fn(rhs, self) if reverse else fn(self, rhs)

    def __add__(self, other: object) -> Expr:
        return self._binary("add", other)

    def __radd__(self, other: object) -> Expr:
        return self._binary("add", other, reverse=True)

    def __sub__(self, other: object) -> Expr:
        return self._binary("subtract", other)

    def __rsub__(self, other: object) -> Expr:
        return self._binary("subtract", other, reverse=True)

    def __mul__(self, other: object) -> Expr:
        return self._binary("multiply", other)

    def __rmul__(self, other: object) -> Expr:
        return self._binary("multiply", other, reverse=True)

    def __truediv__(self, other: object) -> Expr:
        return self._binary("divide", other)

    def __rtruediv__(self, other: object) -> Expr:
        return self._binary("divide", other, reverse=True)

    def _compare(self, op_name: str, other: object) -> Expr:
        """TVM's comparison operators: expressions only (a number needs `relay.const`)."""
        if not isinstance(other, Expr):
            raise TypeError(f'convert "{other}" with `const` first')
        return self._binary(op_name, other)

    def __lt__(self, other: object) -> Expr:
        return self._compare("less", other)

    def __gt__(self, other: object) -> Expr:
        return self._compare("greater", other)

    def __le__(self, other: object) -> Expr:
        return self._compare("less_equal", other)

    def __ge__(self, other: object) -> Expr:
        return self._compare("greater_equal", other)

    def __neg__(self) -> Expr:
        from xrelay.dialects.builder.elementwise import negative

        return negative(self)

    def astype(self, dtype: str) -> Expr:
        """TVM's `expr.astype(dtype)`: `relay.cast(expr, dtype)`."""
        from xrelay.dialects.builder.elementwise import cast

        return cast(self, dtype)


class Var(Expr):
    """A function parameter (`relay.var`, or TVM's constructor form `relay.Var(name, type)`).

    Without a type it is untyped, as `relay.var(name)` is: InferType solves its type.
    """

    def __init__(self, name_hint: str, type_annotation: Attribute | None = None):
        super().__init__(incomplete() if type_annotation is None else type_annotation)
        self.name_hint = name_hint
        self.type_annotation = type_annotation
        """The type given when the variable was made; None: solved by InferType."""

    def __repr__(self) -> str:
        return f"Var({self.name_hint}, {self.type_annotation})"


class Constant(Expr):
    """A tensor constant (`relay.const`); the data is a numpy array."""

    def __init__(self, data: npt.NDArray[Any] | DenseIntOrFPElementsAttr):
        if isinstance(data, DenseIntOrFPElementsAttr):
            self._attr: DenseIntOrFPElementsAttr | None = data
            self._data: npt.NDArray[Any] | None = None
            super().__init__(data.type)
        else:
            self._attr = None
            self._data = data
            super().__init__(tensor_type(data.shape, element_type_of(data.dtype)))

    @property
    def data(self) -> npt.NDArray[Any]:
        """The value as a numpy array."""
        if self._data is None:
            assert self._attr is not None
            self._data = dense_to_numpy(self._attr)
        return self._data

    def dense_attr(self) -> DenseIntOrFPElementsAttr:
        """The value as a builtin dense attribute (built once)."""
        if self._attr is None:
            self._attr = dense_from_numpy(self.data)
        return self._attr


class Call(Expr):
    """A call of a relay op: the op, operands, properties and attributes.

    `op` is TVM's handle (`call.op.name == "nn.conv2d"`); `op_class` the xDSL op class. Either
    may be given.
    """

    @overload
    def __new__(
        cls,
        op: Function,
        args: Sequence[Expr],
        props: Mapping[str, Attribute] | None = None,
        attrs: Mapping[str, Attribute] | None = None,
        checked_type: Attribute | None = None,
        span: Span | None = None,
    ) -> FunctionCall: ...
    @overload
    def __new__(
        cls,
        op: GlobalVar,
        args: Sequence[Expr],
        props: Mapping[str, Attribute] | None = None,
        attrs: Mapping[str, Attribute] | None = None,
        checked_type: Attribute | None = None,
        span: Span | None = None,
    ) -> GlobalCall: ...
    @overload
    def __new__(
        cls,
        op: type[RelayOp] | Op,
        args: Sequence[Expr],
        props: Mapping[str, Attribute] | None = None,
        attrs: Mapping[str, Attribute] | None = None,
        checked_type: Attribute | None = None,
        span: Span | None = None,
    ) -> Self: ...
    def __new__(
        cls,
        op: type[RelayOp] | Op | Function | GlobalVar,
        args: Sequence[Expr],
        props: Mapping[str, Attribute] | None = None,
        attrs: Mapping[str, Attribute] | None = None,
        checked_type: Attribute | None = None,
        span: Span | None = None,
    ) -> Call | FunctionCall | GlobalCall:
        """TVM's `relay.Call(fn, args)`: a Function callee makes a `FunctionCall`, a GlobalVar
        a `GlobalCall`. TVM's `span` (a `relay.Span`, also as the fifth argument) locates
        the op."""
        fifth: object = checked_type
        if isinstance(fifth, Span):  # TVM's fifth argument: `relay.Call(fn, args, attrs, [], span)`
            span = fifth
        if isinstance(op, Function | GlobalVar):
            call = FunctionCall(op, args) if isinstance(op, Function) else GlobalCall(op, args)
            call.span = span
            return call
        return super().__new__(cls)

    def __init__(
        self,
        op: type[RelayOp] | Op | Function | GlobalVar,
        args: Sequence[Expr],
        props: Mapping[str, Attribute] | None = None,
        attrs: Mapping[str, Attribute] | None = None,
        checked_type: Attribute | None = None,
        span: Span | None = None,
    ):
        assert not isinstance(op, Function | GlobalVar)  # `__new__` made another call
        fifth: object = checked_type
        if isinstance(fifth, Span):  # TVM's fifth argument: `relay.Call(op, args, attrs, [], span)`
            span, checked_type = fifth, None
        if isinstance(props, CallAttrs):
            # TVM's `relay.Call(call.op, args, call.attrs, call.type_args)`: a call's attrs
            # carry its op attributes, which are this call's properties here.
            given = props
            props = given.call_props()
            extra: object = attrs
            attrs = {**given, **attrs} if isinstance(extra, Mapping) and attrs else dict(given)
        elif not isinstance(cast(object, attrs), Mapping | None):
            attrs = None  # TVM's fourth argument, `type_args`: empty for relay ops
        self.op_class: type[RelayOp] = op.op_class if isinstance(op, Op) else op
        self.op = Op(self.op_class)
        op = self.op_class
        self.args = list(args)
        self.props = {k: v for k, v in (props or {}).items()}
        self.attrs: dict[str, Attribute] = CallAttrs(self, attrs or {})
        if checked_type is None:
            types = [a.checked_type for a in self.args]
            # An untyped operand: solved when the expression becomes IR (`solve.py`).
            complete = all(is_complete(t) for t in types)
            checked_type = infer_call_type(op, types, self.props) if complete else incomplete()
        super().__init__(checked_type)
        self.span = span

    @property
    def type_args(self) -> list[Attribute]:
        """TVM's `call.type_args`: always empty (relay ops here are not type-polymorphic)."""
        return []

    def children(self) -> Sequence[Expr]:
        return self.args


def infer_call_type(
    op: type[RelayOp], arg_types: Sequence[Attribute], props: Mapping[str, Attribute]
) -> Attribute:
    """The result type of `op` on `arg_types`, or a RelayTypeError naming op and types."""
    return op.inferred_type(arg_types, props)


class Tuple(Call):
    """`relay.Tuple(fields, span=None)`; a `relay.tuple` read back from a module is one too."""

    def __new__(cls, fields: Sequence[Expr], span: Span | None = None) -> Self:
        return object.__new__(cls)  # not Call's callee dispatch

    def __init__(self, fields: Sequence[Expr], span: Span | None = None):
        super().__init__(TupleOp, fields, span=span)

    @property
    def fields(self) -> list[Expr]:
        """The tuple's fields."""
        return self.args


class TupleGetItem(Call):
    """`relay.TupleGetItem(tuple_value, index, span=None)`; a `relay.tuple_get_item` read back
    from a module is one too."""

    def __new__(cls, tuple_value: Expr, index: int, span: Span | None = None) -> Self:
        return object.__new__(cls)  # not Call's callee dispatch

    def __init__(self, tuple_value: Expr, index: int, span: Span | None = None):
        index = int(index)
        super().__init__(
            TupleGetItemOp, [tuple_value], {"index": IntegerAttr(index, 64)}, span=span
        )
        self.index = index

    @property
    def tuple_value(self) -> Expr:
        """The tuple being indexed."""
        return self.args[0]


class If(Expr):
    """`relay.If(cond, true_branch, false_branch, span=None)`."""

    def __init__(self, cond: Expr, true_branch: Expr, false_branch: Expr, span: Span | None = None):
        self.cond = cond
        self.true_branch = true_branch
        self.false_branch = false_branch
        parts = (cond.checked_type, true_branch.checked_type, false_branch.checked_type)
        if all(is_complete(t) for t in parts):
            self.check_types()
            super().__init__(true_branch.checked_type)
        else:
            super().__init__(incomplete())
        self.span = span

    def check_types(self) -> None:
        """The branches' types agree and the condition is `tensor<i1>`, or a RelayTypeError."""
        t, f = self.true_branch.checked_type, self.false_branch.checked_type
        if not types_compatible(t, f):
            raise RelayTypeError(f"'relay.if' branches have different types: {t} vs {f}")
        cond_t = self.cond.checked_type
        if (
            not (isinstance(cond_t, TensorType) and cond_t.get_num_dims() == 0)
            or cond_t.get_element_type() != i1
        ):
            raise RelayTypeError(f"'relay.if' condition must be tensor<i1>, got {cond_t}")

    def children(self) -> Sequence[Expr]:
        return (self.cond,)


class GlobalVar:
    """A reference to a module-level function (`relay.GlobalVar`)."""

    def __init__(self, name_hint: str, type_annot: FunctionType | None = None):
        self.name_hint = name_hint
        self.type_annot = type_annot

    def __call__(self, *args: Expr) -> GlobalCall:
        return GlobalCall(self, list(args))

    def __repr__(self) -> str:
        return f"GlobalVar({self.name_hint})"

    def __hash__(self) -> int:
        return hash(self.name_hint)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GlobalVar) and other.name_hint == self.name_hint


class GlobalCall(Expr):
    """A call of a module-level function: `func.call @name(args)`."""

    def __init__(
        self, callee: GlobalVar, args: Sequence[Expr], ret_types: Sequence[Attribute] | None = None
    ):
        self.callee = callee
        self.args = list(args)
        self.ret_types: list[Attribute] = []
        """The callee's result types (empty until its type is known)."""
        super().__init__(incomplete())
        if ret_types is not None:
            self.set_ret_types(ret_types)
        elif callee.type_annot is not None:
            self.resolve(callee.type_annot)
        # else TVM's untyped GlobalVar: typed from the module when the caller becomes IR

    def resolve(self, fn_type: FunctionType) -> None:
        """Check the arguments against the callee's type and take its results."""
        params = fn_type.inputs.data
        if len(params) != len(self.args) or not all(
            types_compatible(a.checked_type, p) or not is_complete(a.checked_type)
            for a, p in zip(self.args, params, strict=True)
        ):
            shown = ", ".join(str(a.checked_type) for a in self.args)
            raise RelayTypeError(f"call of @{self.callee.name_hint} ({fn_type}) with ({shown})")
        self.set_ret_types(fn_type.outputs.data)

    def set_ret_types(self, ret_types: Sequence[Attribute]) -> None:
        self.ret_types = list(ret_types)
        one = len(self.ret_types) == 1
        self.set_checked_type(self.ret_types[0] if one else tuple_type(self.ret_types))

    def children(self) -> Sequence[Expr]:
        return self.args


class OpaqueCall(Expr):
    """An op the builder has no expression for (e.g. a composite region), kept as a template."""

    def __init__(self, template: Operation, args: Sequence[Expr]):
        self.template = template
        self.args = list(args)
        super().__init__(template.results[0].type)

    def children(self) -> Sequence[Expr]:
        return self.args


class FunctionCall(Expr):
    """`relay.Call(fn, args)` with a `relay.Function` callee, as TVM writes composite and fused
    functions. It becomes what the passes make of one: a `Composite` function a
    `relay.composite` region, any other a private function and a `func.call` (a
    `Primitive` one named `fused_<ops>` as FuseOps names them). Untyped callee parameters
    take their arguments' types (`solve.py`)."""

    def __init__(self, callee: Function, args: Sequence[Expr]):
        if len(args) != len(callee.params):
            raise RelayTypeError(
                f"a function of {len(callee.params)} parameters called with {len(args)} arguments"
            )
        self.callee = callee
        self.args = list(args)
        self.attrs: dict[str, Attribute] = {}
        types = [a.checked_type for a in self.args] + [p.checked_type for p in callee.params]
        if all(is_complete(t) for t in types) and is_complete(callee.ret_type):
            for index, (arg, param) in enumerate(zip(self.args, callee.params, strict=True)):
                if not types_compatible(arg.checked_type, param.checked_type):
                    raise RelayTypeError(
                        f"argument #{index} of a function call has type {arg.checked_type}, "
                        f"the parameter '{param.name_hint}' {param.checked_type}"
                    )
            super().__init__(callee.ret_type)
        else:
            super().__init__(incomplete())

    @property
    def op(self) -> Function:
        """TVM's `call.op`: the callee."""
        return self.callee

    def children(self) -> Sequence[Expr]:
        return self.args


def const_like(value: object, like: Expr) -> Constant:
    """A scalar constant with the dtype of `like` (for `x + 1.0`); float32 when `like` is
    not typed yet."""
    if not is_complete(like.checked_type):
        return Constant(np.asarray(value, dtype=np.float32))
    return Constant(np.asarray(value, dtype=numpy_dtype(tensor_element_type(like.checked_type))))


# --------------------------------------------------------------------------- #
# Functions
# --------------------------------------------------------------------------- #


def attr_to_python(attr: Attribute) -> object:
    """A function attribute's Python value (`StringAttr` -> str, `IntegerAttr` -> int)."""
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, FloatAttr):
        return float(attr.value.data)
    return attr


def python_to_attr(value: object) -> Attribute:
    """A Python value as a function attribute (ints as `i32`, like TVM's IntImm)."""
    if isinstance(value, Attribute):
        return value
    if isinstance(value, bool):
        return IntegerAttr(int(value), i1)
    dtype = getattr(value, "dtype", None)  # tir.IntImm / tir.FloatImm keep theirs
    if isinstance(dtype, str) and isinstance(value, int | float):
        element = element_type_of(dtype)
        if isinstance(value, int) and isinstance(element, IntegerType):
            int_type = cast("IntegerType[int, Signedness]", element)
            return IntegerAttr(int(value), int_type)
        if isinstance(value, float) and isinstance(element, AnyFloat):
            return FloatAttr(float(value), element)
    if isinstance(value, int):
        return IntegerAttr(value, i32)
    if isinstance(value, float):
        return FloatAttr(value, f64)
    if isinstance(value, str):
        return StringAttr(value)
    raise TypeError(f"unsupported function attribute value {value!r}")


class Function(Expr):
    """`relay.Function(params, body, ret_type=None, type_params=None, attrs=None)`."""

    def __init__(
        self,
        params: Sequence[Var],
        body: Expr,
        ret_type: Attribute | None = None,
        type_params: Sequence[object] | None = None,
        attrs: Mapping[str, object] | None = None,
    ):
        typed = is_complete(body.checked_type)
        if ret_type is not None and typed and not types_compatible(body.checked_type, ret_type):
            raise RelayTypeError(f"function body has type {body.checked_type}, declared {ret_type}")
        self.params = list(params)
        self.body = body
        self.declared_ret_type = ret_type
        """The result type given when the function was made (None: inferred)."""
        self.ret_type = ret_type or body.checked_type
        self.type_params: list[object] = list(type_params or [])
        self.attrs: dict[str, object] = dict(attrs or {})
        self.multi_result = False
        self.op: func.FuncOp | None = None
        """The `func.func` this function was read from, if any."""
        super().__init__(FunctionType.from_lists([p.checked_type for p in params], [self.ret_type]))

    def declared_type(self) -> FunctionType | None:
        """The type this function was declared with (typed parameters and a given result
        type), which a recursive call can read before the body is typed; None otherwise."""
        params = [p.checked_type for p in self.params]
        ret = self.declared_ret_type
        if ret is None or not is_complete(ret) or not all(is_complete(t) for t in params):
            return None
        return FunctionType.from_lists(params, [ret])

    def solve_types(
        self, partial: bool = False, globals_: Mapping[str, FunctionType] | None = None
    ) -> None:
        """InferType: solve the types of untyped variables and what reads them (`solve.py`),
        then this function's own type; a RelayTypeError if one cannot be solved (`partial`:
        unsolved types stay incomplete)."""
        from xrelay.dialects.builder.solve import solve

        expected = [] if self.declared_ret_type is None else [(self.body, self.declared_ret_type)]
        solve([self.body, *self.params], expected, partial, globals_)
        typed = is_complete(self.body.checked_type)
        if (
            typed
            and self.declared_ret_type is not None
            and not types_compatible(self.body.checked_type, self.declared_ret_type)
        ):
            raise RelayTypeError(
                f"function body has type {self.body.checked_type}, "
                f"declared {self.declared_ret_type}"
            )
        self.ret_type = self.declared_ret_type or self.body.checked_type
        self.set_checked_type(
            FunctionType.from_lists([p.checked_type for p in self.params], [self.ret_type])
        )

    def __call__(self, *args: Expr) -> FunctionCall:
        """TVM's `fn(a, b)`: a call of this function (`relay.Call(fn, [a, b])`)."""
        return FunctionCall(self, args)

    def with_attr(self, key: str, value: object) -> Function:
        """A copy of the function with one more attribute (TVM's `with_attr`)."""
        out = Function(
            self.params, self.body, self.declared_ret_type, attrs={**self.attrs, key: value}
        )
        out.multi_result = self.multi_result
        return out

    def to_func_op(self, name: str, partial: bool = False) -> func.FuncOp:
        """Materialize as `func.func @name`, types solved first (`solve_types`). `partial`: a
        type that cannot be solved stays an `IncompleteType` in the IR, which then does not
        verify (pattern matching on untyped expressions needs no types)."""
        return _Emitter(self, partial).emit(name)

    def to_func_ops(
        self, name: str, globals_: Mapping[str, FunctionType] | None = None, partial: bool = False
    ) -> list[func.FuncOp]:
        """`func.func @name`, then the private functions its function callees became (named
        apart from `globals_`, the module's functions, whose types type calls of untyped
        GlobalVars)."""
        emitter = _Emitter(self, partial, set(globals_ or ()))
        emitter.globals = dict(globals_ or {})
        return [emitter.emit(name), *emitter.lifted]


def free_vars(expr: Expr) -> list[Var]:
    """The variables `expr` reads, in order of first use (like `relay.analysis.free_vars`)."""
    seen: set[int] = set()
    out: list[Var] = []
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, Var):
            out.append(node)
        children: list[Expr] = list(node.children())
        if isinstance(node, If):
            children += [node.true_branch, node.false_branch]
        stack.extend(reversed(children))
    return out


class _Emitter:
    """Emits a Function's expression DAG into a func.func, each node once."""

    def __init__(self, function: Function, partial: bool = False, taken: set[str] | None = None):
        self.function = function
        self.partial = partial
        self.taken: set[str] = set() if taken is None else taken
        """Function names in use (the module's, and every function lifted so far)."""
        self.lifted: list[func.FuncOp] = []
        """The private functions that function callees became, in the order made."""
        self.lifted_names: dict[int, str] = {}
        """The lifted function of each callee already emitted, by the callee's id."""
        self.globals: dict[str, FunctionType] = {}
        """The module's function types, for calls of untyped GlobalVars."""
        self.scopes: list[dict[int, SSAValue]] = [{}]
        self.names = itertools.count()

    def lookup(self, node: Expr) -> SSAValue | None:
        key = id(node)
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        return None

    def emit(self, name: str) -> func.FuncOp:
        self.function.solve_types(self.partial, self.globals)
        self.taken.add(name)
        return self.emit_solved(name)

    def emit_solved(self, name: str) -> func.FuncOp:
        fn = self.function
        block = Block(arg_types=[p.checked_type for p in fn.params])
        for param, arg in zip(fn.params, block.args, strict=True):
            if id(param) in self.scopes[0]:
                raise ValueError(f"parameter '%{param.name_hint}' appears twice")
            self.scopes[0][id(param)] = arg
            arg.name_hint = _valid_name(param.name_hint or "")
        roots = fn.body.fields if fn.multi_result and isinstance(fn.body, Tuple) else [fn.body]
        # Nested ifs emit their branches as nested procedures: run on a stack, not Python's.
        results = [trampoline(self.emit_tree(root, block)) for root in roots]
        block.add_op(func.ReturnOp(*results))
        op = func.FuncOp(name, ([p.checked_type for p in fn.params], [r.type for r in results]))
        op.body.detach_block(op.body.block)
        op.body.add_block(block)
        for key, value in fn.attrs.items():
            op.attributes[key] = python_to_attr(value)
        return op

    def emit_tree(self, root: Expr, block: Block) -> Nested[SSAValue]:
        stack: list[tuple[Expr, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if self.lookup(node) is not None:
                continue
            if not expanded:
                stack.append((node, True))
                for child in reversed(node.children()):
                    if self.lookup(child) is None:
                        stack.append((child, False))
                continue
            if isinstance(node, If):
                value = yield self.emit_if(node, block)
            else:
                value = self.emit_node(node, block)
            self.scopes[-1][id(node)] = value
        value = self.lookup(root)
        assert value is not None
        return value

    def operands(self, node: Expr) -> list[SSAValue]:
        values = [self.lookup(c) for c in node.children()]
        assert all(v is not None for v in values)
        return [v for v in values if v is not None]

    def emit_node(self, node: Expr, block: Block) -> SSAValue:
        if isinstance(node, Var):
            raise ValueError(
                f"free variable '%{node.name_hint}' is not a parameter of the function"
            )
        op: Operation
        if isinstance(node, Constant):
            op = ConstantOp(node.dense_attr())
        elif isinstance(node, Call):
            op = node.op_class.build(
                operands=node.op_class.group_operands(self.operands(node)),
                result_types=[node.checked_type],
                properties=node.props,
                attributes=node.attrs,
            )
        elif isinstance(node, GlobalCall):
            op = func.CallOp(node.callee.name_hint, self.operands(node), node.ret_types)
            if len(node.ret_types) != 1:
                if node.span is not None:
                    op.location = node.span.location()
                block.add_op(op)
                op = TupleOp.build(operands=[list(op.results)], result_types=[node.checked_type])
        elif isinstance(node, OpaqueCall):
            op = node.template.clone()
            op.operands = self.operands(node)
        elif isinstance(node, FunctionCall):
            op = self.emit_function_call(node)
        else:
            raise TypeError(f"cannot emit {type(node).__name__}")
        return self.add(node, op, block)

    def emit_function_call(self, node: FunctionCall) -> Operation:
        """A `Composite` callee as a `relay.composite` region, any other as a private function
        (lifted, named like FuseOps' for a `Primitive` one) and its call."""
        callee = node.callee
        composite = callee.attrs.get("Composite")
        inner = _Emitter(callee, self.partial, self.taken)
        inner.lifted_names = self.lifted_names
        if isinstance(composite, str):
            body = inner.emit_solved(composite).body.detach_block(0)
            terminator = body.last_op
            assert isinstance(terminator, func.ReturnOp)
            body.insert_op_before(YieldOp(*terminator.operands), terminator)
            body.erase_op(terminator)
            op = CompositeOp(composite, self.operands(node), node.checked_type, Region(body))
            for key, value in callee.attrs.items():
                if key != "Composite":
                    op.attributes[key] = python_to_attr(value)
            self.lifted.extend(inner.lifted)
            return op
        name = self.lifted_names.get(id(callee))
        if name is None:  # one function per callee, however often it is called
            name = self.lifted_names[id(callee)] = _lifted_name(callee, self.taken)
            lifted = inner.emit_solved(name)
            lifted.sym_visibility = StringAttr("private")
            self.lifted.append(lifted)
            self.lifted.extend(inner.lifted)
        return func.CallOp(name, self.operands(node), [node.checked_type])

    def add(self, node: Expr, op: Operation, block: Block) -> SSAValue:
        if node.span is not None:  # TVM's span: the op's location
            op.location = node.span.location()
        block.add_op(op)
        if node.name_hint is not None:
            op.results[0].name_hint = node.name_hint
        return op.results[0]

    def emit_if(self, node: If, block: Block) -> Nested[SSAValue]:
        then_region = yield self.emit_branch(node.true_branch)
        else_region = yield self.emit_branch(node.false_branch)
        op = IfOp(self.operands(node)[0], node.checked_type, then_region, else_region)
        return self.add(node, op, block)

    def emit_branch(self, root: Expr) -> Nested[Region]:
        block = Block()
        self.scopes.append({})
        try:
            value = yield self.emit_tree(root, block)
        finally:
            self.scopes.pop()
        block.add_op(YieldOp(value))
        return Region(block)


def _lifted_name(callee: Function, taken: set[str]) -> str:
    """`fused_<ops>` for a `Primitive` callee (FuseOps' names: op names without `relay.`, as
    many as fit in 80 characters), `lifted` for any other; `_1`, `_2`, ... if taken."""
    base = "lifted"
    if callee.attrs.get("Primitive"):
        calls = postorder([callee.body], lambda e: e.children())
        base = fused_base(
            n.op_class.name
            for n in calls
            if isinstance(n, Call) and not isinstance(n, Tuple | TupleGetItem)
        )
    name, suffix = base, 0
    while name in taken:
        suffix += 1
        name = f"{base}_{suffix}"
    taken.add(name)
    return name


def postorder(roots: Sequence[Expr], parts: Callable[[Expr], Sequence[Expr]]) -> list[Expr]:
    """Every expression `roots` reach through `parts`, each once and after its parts (an
    explicit stack: no recursion limit on deep graphs)."""
    seen: set[int] = set()
    out: list[Expr] = []
    stack: list[tuple[Expr, bool]] = [(r, False) for r in reversed(roots)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            out.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(parts(node)) if id(c) not in seen)
    return out


def _valid_name(name: str) -> str | None:
    cleaned = re.sub(r"[^A-Za-z0-9_$.-]", "_", name)
    if not cleaned or cleaned[0].isdigit():
        cleaned = "v" + cleaned if cleaned else ""
    return cleaned or None
