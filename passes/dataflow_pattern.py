"""The dataflow pattern language (TVM's `relay.dataflow_pattern`) over xrelay's SSA graph.

Patterns describe subgraphs by op name, structure, attributes and types::

    data, weight, bias = wildcard(), wildcard(), wildcard()
    conv = is_op("nn.conv2d")(data, weight)
    pattern = is_op("nn.bias_add")(conv, bias).optional(lambda x: is_op("nn.relu")(x))
    pattern.match(value)            # True / False

| constructor | matches |
| --- | --- |
| `wildcard()` | any value |
| `is_op("nn.conv2d")(a, b)` | that op, operands matching `a`, `b` (add, multiply: also swapped) |
| `is_op("nn.relu")`, `is_op("add")(None)` | the result of that op, any operands |
| `wildcard()(a)`, `wildcard()(None)` | any call: a relay op (no tuple, constant...), `func.call` |
| `is_constant()` | a `relay.constant` |
| `is_var(name="")` | a function parameter (with that name, if given) |
| `is_expr(value)` | that very SSA value (a constant: any equal constant, as TVM) |
| `is_tuple([p, q])`, `is_tuple(None)` | a `relay.tuple` of those fields (any fields) |
| `is_tuple_get_item(p, i)` | `relay.tuple_get_item` of index `i` (any index if `None`) |
| `p \\| q` | `p`, else `q` |
| `p.optional(f)` | `p \\| f(p)` |
| `p.has_attr({"k": v})` | `p` on an op whose attribute `k` equals `v` |
| `p.has_type(t)`, `p.has_shape(s)`, `p.has_dtype(d)` | `p` on a value of that type, shape, dtype |
| `p + q`, `p - q`, `p * q`, `p / q` | `is_op("add")(p, q)`, ... (TVM's operators on patterns) |

A pattern object used in two places must match the same value both times: in
`(x + y) * (x - y)` with `x, y = wildcard(), wildcard()`, `x` binds once.

What a match extracts (for MergeComposite): the matched ops (from call, tuple
and tuple-get-item patterns), its inputs (values matched by leaf patterns and
operands of calls and tuples matched with any operands, in the order the
pattern's leaves come in a post-order walk of the pattern: TVM's parameter
order) and the constants matched by `is_constant()` or `is_expr(constant)`,
which a composite embeds in its body.

`is_op` with a name that is no relay op raises a `ValueError` (TVM: the op is
not registered); names with a dialect prefix (`mydialect.op`) are accepted.

On builder expressions (`relay.var(...) + ...`, op handles, functions) `match`
runs TVM's matcher (`dataflow_pattern_expr.py`): there `is_op("add")` also
matches the op handle, `is_expr(e)` what is structurally equal to `e`, and
`FunctionPattern`, `is_if`, `dominates` and the divide/multiply reassociation
of TVM's call matcher work; `rewrite` (`dataflow_rewrite.py`) and
`pattern.partition` (`dataflow_partition.py`) transform builder expressions.
`is_let` matches nothing: xrelay has no `let`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xrelay.dialects.relay.types import dtype_of, is_supported_element_type, is_tensor
from xrelay.passes.byoc_registry import (
    ByocError,
    ExprView,
    TypeView,
    attr_value,
    check_op_name,
    tvm_op_name,
)

__all__ = [
    "AltPattern",
    "AttrPattern",
    "CallPattern",
    "ConstantPattern",
    "DFPattern",
    "DataTypePattern",
    "ExprPattern",
    "MatchState",
    "OpPattern",
    "ShapePattern",
    "TupleGetItemPattern",
    "TuplePattern",
    "TypePattern",
    "VarPattern",
    "WildcardPattern",
    "has_attr",
    "has_dtype",
    "has_shape",
    "has_type",
    "is_constant",
    "is_expr",
    "is_op",
    "is_tuple",
    "is_tuple_get_item",
    "is_var",
    "match_pattern",
    "pattern_table_entries",
    "wildcard",
]

COMMUTATIVE_OPS = frozenset({"add", "multiply"})
"""Ops TVM's matcher also tries with the two operands swapped."""

_NOT_CALLS = frozenset(
    {
        "relay.constant",
        "relay.tuple",
        "relay.tuple_get_item",
        "relay.if",
        "relay.composite",
        "relay.compiler_begin",
        "relay.compiler_end",
    }
)
"""Ops a wildcard callee does not match (they are not calls in TVM's sense)."""


@dataclass
class MatchState:
    """What a match bound: pattern -> value, and what the matched subgraph is made of."""

    memo: dict[int, SSAValue] = field(default_factory=lambda: {})
    """id(pattern) -> the value it matched (a reused pattern must match the same value)."""
    ops: list[SSAValue] = field(default_factory=lambda: [])
    """Values whose defining op belongs to the matched subgraph."""
    inputs: list[SSAValue] = field(default_factory=lambda: [])
    """Values the subgraph reads from outside (leaves of the pattern)."""
    constants: list[SSAValue] = field(default_factory=lambda: [])
    """Constants matched by `is_constant()` or `is_expr`: embedded in a composite's body."""
    block: Block | None = None
    """If set, matched ops must be in this block."""

    def snapshot(self) -> tuple[dict[int, SSAValue], int, int, int]:
        """The state to go back to if an alternative fails."""
        return dict(self.memo), len(self.ops), len(self.inputs), len(self.constants)

    def restore(self, saved: tuple[dict[int, SSAValue], int, int, int]) -> None:
        """Undo everything bound since `snapshot`."""
        memo, n_ops, n_inputs, n_constants = saved
        self.memo = dict(memo)  # a copy: the same snapshot may be restored twice
        del self.ops[n_ops:]
        del self.inputs[n_inputs:]
        del self.constants[n_constants:]


class DFPattern:
    """Base of all patterns: combinators and `match`."""

    def __call__(self, *args: DFPattern | None) -> CallPattern:
        """`p(a, b)`: a call of `p` on operands matching `a`, `b`; `p(None)`: any operands."""
        return CallPattern(self, _call_args(args))

    def __or__(self, other: DFPattern) -> AltPattern:
        return AltPattern(self, other)

    def __add__(self, other: DFPattern) -> CallPattern:
        return is_op("add")(self, other)

    def __sub__(self, other: DFPattern) -> CallPattern:
        return is_op("subtract")(self, other)

    def __mul__(self, other: DFPattern) -> CallPattern:
        return is_op("multiply")(self, other)

    def __truediv__(self, other: DFPattern) -> CallPattern:
        return is_op("divide")(self, other)

    def has_attr(self, attrs: Mapping[str, object]) -> AttrPattern:
        """Also require the op's attributes `attrs` (TVM names, Python values)."""
        return AttrPattern(self, dict(attrs))

    def has_type(self, ttype: Attribute | TypeView) -> TypePattern:
        """Also require the value's type."""
        return TypePattern(self, ttype.type if isinstance(ttype, TypeView) else ttype)

    def has_shape(self, shape: Sequence[int]) -> ShapePattern:
        """Also require the value's shape."""
        return ShapePattern(self, tuple(int(d) for d in shape))

    def has_dtype(self, dtype: str) -> DataTypePattern:
        """Also require the value's element type (TVM's dtype string, e.g. `"float32"`)."""
        return DataTypePattern(self, str(np.dtype(dtype)) if dtype != "bool" else "bool")

    def optional(self, option_constructor: Callable[[DFPattern], DFPattern]) -> AltPattern:
        """`self | option_constructor(self)`: e.g. an optional trailing relu."""
        return self | option_constructor(self)

    def match(self, expr: object) -> bool:
        """Whether the pattern matches `expr`: a builder expression or op handle (matched as
        TVM does, `dataflow_pattern_expr.py`), an SSA value, op or `ExprView`."""
        from xrelay.dialects.builder.expr import Expr, GlobalVar
        from xrelay.dialects.builder.op_handle import Op

        if isinstance(expr, Expr | Op | GlobalVar):
            from xrelay.passes.dataflow_pattern_expr import ExprGraph, ExprMatcher

            return ExprMatcher(ExprGraph(expr)).match(self, expr)
        return self.match_state(as_value(expr)) is not None

    def dominates(self, parent: DFPattern, path: DFPattern | None = None) -> DFPattern:
        """This pattern dominating `parent` through nodes matching `path` (any, if None)."""
        from xrelay.passes.dataflow_pattern_structural import DominatorPattern

        return DominatorPattern(parent, path or wildcard(), self)

    def partition(
        self,
        expr: object,
        attrs: Mapping[str, object] | None = None,
        check: Callable[[object], bool] | None = None,
    ) -> object:
        """`expr` with each match outlined into a function called in its place (TVM's
        `partition`, `dataflow_partition.py`)."""
        from xrelay.passes.dataflow_partition import partition

        return partition(self, expr, attrs, check)

    def match_state(self, value: SSAValue, block: Block | None = None) -> MatchState | None:
        """Match at `value`; the bindings and extracted subgraph, or None."""
        state = MatchState(block=block)
        return state if match_pattern(self, value, state) else None

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        """Match at `value` without the memo (`match_pattern` adds it); subclasses implement."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__


class WildcardPattern(DFPattern):
    """Any value; after `redirect_to(p)`, what `p` matches (TVM's recursive patterns)."""

    def __init__(self) -> None:
        self.pattern: DFPattern | None = None

    def redirect_to(self, pattern: DFPattern) -> None:
        """Match as `pattern` from now on (`pattern` may contain this wildcard)."""
        self.pattern = pattern

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if self.pattern is not None:
            return match_pattern(self.pattern, value, state)
        state.inputs.append(value)
        return True


def _is_constant(value: SSAValue) -> bool:
    return isinstance(value, OpResult) and value.op.name == "relay.constant"


class ExprPattern(DFPattern):
    """One specific expression (`expr`, as given: a builder expression, op handle or SSA
    value); a constant also matches any constant of equal type and value.

    TVM compares with structural equality: there, variables match only
    themselves and constants match by value. A matched constant is embedded in
    a composite, as TVM does. In the SSA IR a builder expression other than a
    constant matches nothing (it is no value there).
    """

    def __init__(self, expr: object):
        self.expr = expr
        self.value: SSAValue | None = _ir_value(expr)
        """What `expr` is in the SSA IR, if anything."""

    def _same(self, value: SSAValue) -> bool:
        if value is self.value:
            return True
        if self.value is None or not (_is_constant(value) and _is_constant(self.value)):
            return False
        assert isinstance(value, OpResult)
        assert isinstance(self.value, OpResult)
        return value.type == self.value.type and value.op.properties == self.value.op.properties

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not self._same(value):
            return False
        if _is_constant(value):
            state.constants.append(value)
        else:
            state.inputs.append(value)
        return True


class VarPattern(DFPattern):
    """A function (or region) parameter, optionally by name."""

    def __init__(self, name_hint: str = ""):
        self.name_hint = name_hint

    @property
    def name(self) -> str:
        """TVM's `VarPattern.name`: the name to match (`""`: any)."""
        return self.name_hint

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not isinstance(value, BlockArgument):
            return False
        if self.name_hint and value.name_hint != self.name_hint:
            return False
        state.inputs.append(value)
        return True


class ConstantPattern(DFPattern):
    """A `relay.constant` (embedded in a composite's body)."""

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not _is_constant(value):
            return False
        state.constants.append(value)
        return True


class OpPattern(DFPattern):
    """`is_op(name)`: the result of that op, any operands; call it to constrain operands."""

    def __init__(self, op_name: str):
        self.op_name = _check_op_name(op_name)

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        return CallPattern(self, None).match_value(value, state)

    def __repr__(self) -> str:
        return f"is_op({self.op_name!r})"


def _check_op_name(op_name: str) -> str:
    """TVM's spelling of `op_name`; a `ValueError` if it names no relay op."""
    try:
        return check_op_name(op_name)
    except ByocError as error:
        raise ValueError(f"is_op: {error}") from None


def _call_args(args: Sequence[DFPattern | None]) -> list[DFPattern] | None:
    """TVM's rule: a single `None` means any operands."""
    if len(args) == 1 and args[0] is None:
        return None
    out: list[DFPattern] = []
    for arg in args:
        if not isinstance(arg, DFPattern):
            raise TypeError(f"call pattern operand must be a pattern, got {type(arg).__name__}")
        out.append(arg)
    return out


def _callee_matches(pattern: DFPattern, op: Operation) -> bool:
    if isinstance(pattern, OpPattern):
        return tvm_op_name(op) == pattern.op_name
    if isinstance(pattern, WildcardPattern):
        return op.name not in _NOT_CALLS and (
            op.name.startswith("relay.") or isinstance(op, func.CallOp)
        )
    if isinstance(pattern, AltPattern):
        return _callee_matches(pattern.left, op) or _callee_matches(pattern.right, op)
    if isinstance(pattern, AttrPattern):
        return _callee_matches(pattern.pattern, op) and _attrs_match(op, pattern.attrs)
    return False


class CallPattern(DFPattern):
    """An op applied to operands matching `args` (any operands if `args` is None)."""

    def __init__(self, op: DFPattern, args: list[DFPattern] | None):
        self.op = op
        self.args = args

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not isinstance(value, OpResult) or len(value.op.results) != 1:
            return False
        op = value.op
        if state.block is not None and op.parent_block() is not state.block:
            return False
        if not _callee_matches(self.op, op):
            return False
        operands = list(op.operands)
        if self.args is None:
            state.ops.append(value)
            state.inputs.extend(operands)
            return True
        if len(operands) != len(self.args):
            return False
        saved = state.snapshot()
        if _match_all(self.args, operands, state):
            state.ops.append(value)
            return True
        state.restore(saved)
        if len(operands) == 2 and tvm_op_name(op) in COMMUTATIVE_OPS:
            if _match_all(self.args, operands[::-1], state):
                state.ops.append(value)
                return True
            state.restore(saved)
        return False

    def __repr__(self) -> str:
        args = "..." if self.args is None else ", ".join(map(repr, self.args))
        return f"{self.op!r}({args})"


class TuplePattern(DFPattern):
    """A `relay.tuple` whose fields match `fields` (any fields if None)."""

    def __init__(self, fields: Sequence[DFPattern] | None):
        self.fields = None if fields is None else list(fields)

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not (isinstance(value, OpResult) and value.op.name == "relay.tuple"):
            return False
        if state.block is not None and value.op.parent_block() is not state.block:
            return False
        operands = list(value.op.operands)
        if self.fields is None:
            state.ops.append(value)
            state.inputs.extend(operands)
            return True
        if len(operands) != len(self.fields) or not _match_all(self.fields, operands, state):
            return False
        state.ops.append(value)
        return True


class TupleGetItemPattern(DFPattern):
    """A `relay.tuple_get_item` of `index` (any index if None) on a value matching `tuple`."""

    def __init__(self, tuple_pattern: DFPattern, index: int | None = None):
        self.tuple = tuple_pattern
        self.index = index

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not (isinstance(value, OpResult) and value.op.name == "relay.tuple_get_item"):
            return False
        op = value.op
        if state.block is not None and op.parent_block() is not state.block:
            return False
        if self.index is not None and attr_value(op.properties["index"]) != self.index:
            return False
        if not match_pattern(self.tuple, op.operands[0], state):
            return False
        state.ops.append(value)
        return True


class AltPattern(DFPattern):
    """`left | right`: the left pattern if it matches, else the right one."""

    def __init__(self, left: DFPattern, right: DFPattern):
        self.left = left
        self.right = right

    def __call__(self, *args: DFPattern | None) -> CallPattern:
        return CallPattern(self, _call_args(args))  # `(is_op("add") | is_op("subtract"))(x, y)`

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        saved = state.snapshot()
        if match_pattern(self.left, value, state):
            return True
        state.restore(saved)
        if match_pattern(self.right, value, state):
            return True
        state.restore(saved)
        return False


def _ir_value(expr: object) -> SSAValue | None:
    from xrelay.dialects.builder.expr import Constant, Expr

    if isinstance(expr, Constant):
        return as_value(expr)
    if isinstance(expr, Expr) or not isinstance(expr, SSAValue | Operation | ExprView):
        return None
    return as_value(cast(object, expr))


def normalize_attr(value: object) -> object:
    """An attribute value as TVM compares it: lists as tuples, dtypes as their names."""
    if isinstance(value, list | tuple):
        return tuple(normalize_attr(v) for v in value)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if isinstance(value, np.integer | np.floating):
        return value.item()
    if isinstance(value, Attribute) and is_supported_element_type(value):
        return dtype_of(value)  # `cast`'s dtype: f32 -> "float32"
    return value


def _attrs_match(op: Operation, attrs: Mapping[str, object]) -> bool:
    view = ExprView(op.results[0]).attrs if op.results else None
    if view is None:
        return False
    for key, expected in attrs.items():
        if key not in view:
            return False
        if normalize_attr(view[key]) != normalize_attr(expected):
            return False
    return True


class AttrPattern(DFPattern):
    """`pattern.has_attr(attrs)`: also the op's attributes."""

    def __init__(self, pattern: DFPattern, attrs: dict[str, object]):
        self.pattern = pattern
        self.attrs = attrs

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not isinstance(value, OpResult) or not _attrs_match(value.op, self.attrs):
            return False
        return match_pattern(self.pattern, value, state)


class TypePattern(DFPattern):
    """`pattern.has_type(t)`: also the value's type."""

    def __init__(self, pattern: DFPattern, ttype: Attribute):
        self.pattern = pattern
        self.type = ttype

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        return value.type == self.type and match_pattern(self.pattern, value, state)


class ShapePattern(DFPattern):
    """`pattern.has_shape(s)`: also the value's shape."""

    def __init__(self, pattern: DFPattern, shape: tuple[int, ...]):
        self.pattern = pattern
        self.shape = shape

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not is_tensor(value.type):
            return False
        return TypeView(value.type).shape == self.shape and match_pattern(
            self.pattern, value, state
        )


class DataTypePattern(DFPattern):
    """`pattern.has_dtype(d)`: also the value's element type."""

    def __init__(self, pattern: DFPattern, dtype: str):
        self.pattern = pattern
        self.dtype = dtype

    def match_value(self, value: SSAValue, state: MatchState) -> bool:
        if not is_tensor(value.type):
            return False
        return TypeView(value.type).dtype == self.dtype and match_pattern(
            self.pattern, value, state
        )


def match_pattern(pattern: DFPattern, value: SSAValue, state: MatchState) -> bool:
    """Match `pattern` at `value`, honouring earlier bindings of the same pattern object."""
    bound = state.memo.get(id(pattern))
    if bound is not None:
        return bound is value
    if not pattern.match_value(value, state):
        return False
    state.memo[id(pattern)] = value  # patterns outlive the match: their ids stay unique
    return True


def _match_all(
    patterns: Sequence[DFPattern], values: Sequence[SSAValue], state: MatchState
) -> bool:
    return all(match_pattern(p, v, state) for p, v in zip(patterns, values, strict=True))


# --------------------------------------------------------------------------- #
# TVM's constructors
# --------------------------------------------------------------------------- #


def wildcard() -> WildcardPattern:
    """A pattern matching any value."""
    return WildcardPattern()


def is_op(op_name: str) -> OpPattern:
    """The op named `op_name` (TVM's name, `"nn.conv2d"`; `"relay.nn.conv2d"` also works)."""
    return OpPattern(op_name)


def is_constant() -> ConstantPattern:
    """A `relay.constant`."""
    return ConstantPattern()


def is_var(name: str = "") -> VarPattern:
    """A function parameter (named `name`, if given)."""
    return VarPattern(name)


def is_expr(expr: object) -> ExprPattern:
    """Exactly `expr` (a builder expression, an SSA value or an op's single result)."""
    return ExprPattern(expr)


def is_tuple(fields: Iterable[DFPattern] | None) -> TuplePattern:
    """A `relay.tuple` with fields matching `fields` (any fields if None)."""
    return TuplePattern(None if fields is None else list(fields))


def is_tuple_get_item(tuple_value: DFPattern, index: int | None = None) -> TupleGetItemPattern:
    """Field `index` (any, if None) of a tuple matching `tuple_value`."""
    return TupleGetItemPattern(tuple_value, index)


def has_attr(attrs: Mapping[str, object], pattern: DFPattern | None = None) -> AttrPattern:
    """`pattern.has_attr(attrs)`; a wildcard if `pattern` is None."""
    return (pattern or wildcard()).has_attr(attrs)


def has_type(ttype: Attribute | TypeView, pattern: DFPattern | None = None) -> TypePattern:
    """`pattern.has_type(ttype)`; a wildcard if `pattern` is None."""
    return (pattern or wildcard()).has_type(ttype)


def has_shape(shape: Sequence[int], pattern: DFPattern | None = None) -> ShapePattern:
    """`pattern.has_shape(shape)`; a wildcard if `pattern` is None."""
    return (pattern or wildcard()).has_shape(shape)


def has_dtype(dtype: str, pattern: DFPattern | None = None) -> DataTypePattern:
    """`pattern.has_dtype(dtype)`; a wildcard if `pattern` is None."""
    return (pattern or wildcard()).has_dtype(dtype)


def as_value(expr: object) -> SSAValue:
    """The SSA value to match for an SSA value, a single-result op, an `ExprView` or a builder expr.

    A builder expression is emitted into a function of its free variables first.
    """
    if isinstance(expr, SSAValue):
        return cast(SSAValue[Attribute], expr)
    if isinstance(expr, ExprView):
        return expr.value
    if isinstance(expr, Operation):
        if len(expr.results) != 1:
            raise ValueError(f"cannot match '{expr.name}': it has {len(expr.results)} results")
        return expr.results[0]
    from xrelay.dialects.builder.expr import Expr, Function, free_vars

    if isinstance(expr, Expr):
        # TVM matches untyped expressions: what cannot be solved stays an IncompleteType.
        function = Function(free_vars(expr), expr).to_func_op("match", partial=True)
        terminator = function.body.block.last_op
        assert terminator is not None
        return terminator.operands[0]
    raise TypeError(f"cannot match a {type(expr).__name__}: expected an IR value or expression")


def pattern_table_entries(
    table: Sequence[tuple[Any, ...]],
) -> list[tuple[str, DFPattern, Callable[[ExprView], bool]]]:
    """Normalize `[(name, pattern[, check])]`; a `ValueError` names a malformed entry."""
    out: list[tuple[str, DFPattern, Callable[[ExprView], bool]]] = []
    for index, entry in enumerate(table):
        if not isinstance(entry, tuple | list) or len(entry) not in (2, 3):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise ValueError(f"pattern table entry {index} is not (name, pattern[, check])")
        name, pattern = entry[0], entry[1]
        if not isinstance(name, str) or not isinstance(pattern, DFPattern):
            raise ValueError(
                f"pattern table entry {index}: expected (str, pattern), got "
                f"({type(name).__name__}, {type(pattern).__name__})"
            )
        check: Callable[[ExprView], bool] = entry[2] if len(entry) == 3 else (lambda _: True)
        out.append((name, pattern, check))
    return out
