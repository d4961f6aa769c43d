"""BYOC registries: op support predicates, pattern tables, per-target partition hooks.

A backend says what it takes in three ways, all through this module's public
hooks (the built-in `accel` and `dnnl` backends use them from `codegen/<target>/`
exactly as a third-party backend would):

- **Op support predicates** (TVM's `FTVMAnnotateTarget`)::

      @register_op_attr("nn.conv2d", "target.accel")
      def _conv2d(expr: ExprView) -> bool:
          return expr.attrs.groups == 1 and expr.args[0].checked_type.dtype == "float32"

  The predicate sees an `ExprView` of the typed call: `op.name`, `attrs` (the
  op's TVM attributes as Python values), `args` (each an `ExprView` with its
  `checked_type`) and `checked_type` (the result type), which TVM users asked
  for (apache/tvm#6724). The seed's two-argument form `fn(attrs, args)` is
  accepted too. `register_op_list(target, ops)` registers several ops at once
  (DNNL's `_register_external_op_helper`).
- **Pattern tables**: `@register_pattern_table("accel")` on a function returning
  `[(name, pattern[, check])]`; `get_pattern_table("accel")` reads it back.
- **Partition hooks** (TVM's `relay.ext.<target>.optimize`):
  `@register_partition_hook("accel")` on `fn(func.FuncOp) -> None`, run by
  PartitionGraph on each function it lifts for that target (in place).

A target is *known* once any of these is registered for it; naming an unknown
target in AnnotateTarget or partition_for is an error listing the known ones.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from typing import Any, TypeAlias, cast

import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.irdl import IRDLOperation
from xrelay.dialects.relay.base import properties_with_defaults
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import (
    dense_to_numpy,
    dtype_of,
    is_tensor,
    is_tuple,
    shape_of,
    tensor_element_type,
    tuple_elements,
)


class ByocError(ValueError):
    """A BYOC registry or configuration error (unknown target, table, op)."""


# --------------------------------------------------------------------------- #
# Expressions as TVM's predicates and checks see them
# --------------------------------------------------------------------------- #


def tvm_op_name(op: Operation) -> str:
    """The op's name as TVM spells it: `relay.nn.conv2d` -> `nn.conv2d`; others unchanged."""
    return tvm_op_name_of(op.name)


class AttrArray(tuple[object, ...]):
    """A list attribute's values: a tuple that prints as TVM's `Array` does (`[0, 3, 1, 2]`),
    so `str(call.attrs.axes) == str([0, 3, 1, 2])` holds as in TVM."""

    def __repr__(self) -> str:
        return repr(list(self))

    __str__ = __repr__


def attr_value(attr: Attribute) -> object:
    """An attribute as a plain Python value: ints, floats, strings, tuples (`AttrArray`),
    bools."""
    if isinstance(attr, StringAttr):
        return attr.data
    if isinstance(attr, IntegerAttr):
        return int(cast(IntegerAttr[Any], attr).value.data)
    if isinstance(attr, FloatAttr):
        return float(cast(FloatAttr[Any], attr).value.data)
    if isinstance(attr, DenseArrayBase):
        return AttrArray(cast(DenseArrayBase[Any], attr).get_values())
    if isinstance(attr, ArrayAttr):
        return AttrArray(attr_value(a) for a in cast(ArrayAttr[Attribute], attr).data)
    if isinstance(attr, UnitAttr):
        return True
    return attr


class TypeView:
    """A value's type as TVM shows `checked_type`: `.shape`, `.dtype`, `.fields`."""

    def __init__(self, type_: Attribute):
        self.type = type_
        """The xDSL type (a builtin `TensorType` or `TupleType`)."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The tensor's shape (`-1` for a dynamic dimension); `()` for a tuple."""
        return tuple(shape_of(self.type)) if is_tensor(self.type) else ()

    @property
    def dtype(self) -> str:
        """The tensor's element type as TVM spells it (`"float32"`); `""` for a tuple."""
        if is_tensor(self.type):
            return dtype_of(tensor_element_type(self.type))
        return ""

    @property
    def fields(self) -> tuple[TypeView, ...]:
        """The field types of a tuple type; `()` for a tensor."""
        if is_tuple(self.type):
            return tuple(TypeView(t) for t in tuple_elements(self.type))
        return ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TypeView):
            return self.type == other.type
        return self.type == other

    def __hash__(self) -> int:
        return hash(self.type)

    def __repr__(self) -> str:
        return str(self.type)


class AttrsView:
    """An op's TVM attributes (its properties and attributes) as Python values.

    `attrs.padding`, `attrs["padding"]`, `"padding" in attrs`, `attrs.get(k, d)`,
    `dict(attrs.items())`. A TVM attribute the op leaves at its default is
    absent from the IR; read it with `get(key, default)`.
    """

    def __init__(self, op: Operation | None):
        self._op = op

    def _raw(self) -> dict[str, Attribute]:
        if self._op is None:
            return {}
        raw: dict[str, Attribute] = dict(self._op.attributes)
        if isinstance(self._op, IRDLOperation):
            raw.update(properties_with_defaults(self._op))  # TVM shows defaults too
        else:
            raw.update(self._op.properties)
        return raw

    def __getattr__(self, key: str) -> object:
        if key.startswith("_"):
            raise AttributeError(key)
        raw = self._raw()
        if key not in raw:
            name = self._op.name if self._op is not None else "a value"
            raise AttributeError(f"'{name}' has no attribute '{key}'")
        return attr_value(raw[key])

    def __getitem__(self, key: str) -> object:
        raw = self._raw()
        if key not in raw:
            raise KeyError(key)
        return attr_value(raw[key])

    def __contains__(self, key: object) -> bool:
        return key in self._raw()

    def get(self, key: str, default: object = None) -> object:
        """The attribute's value, or `default` if the op does not carry it."""
        raw = self._raw()
        return attr_value(raw[key]) if key in raw else default

    def keys(self) -> list[str]:
        """The attribute names the op carries."""
        return sorted(self._raw())

    def items(self) -> list[tuple[str, object]]:
        """(name, value) pairs, sorted by name."""
        return [(k, attr_value(v)) for k, v in sorted(self._raw().items())]

    def __repr__(self) -> str:
        return repr(dict(self.items()))


class OpName:
    """`expr.op` of a call: `.name` is TVM's op name (`"nn.conv2d"`)."""

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other: object) -> bool:
        if isinstance(other, OpName):
            return self.name == other.name
        return self.name == other

    def __hash__(self) -> int:
        return hash(self.name)

    def __repr__(self) -> str:
        return f"Op({self.name})"


class ExprView:
    """An SSA value seen as a TVM expression, for predicates and pattern checks.

    For the result of an op: `op` (its `OpName`, `None` for non-call values),
    `attrs`, `args` and `checked_type`. For a function parameter: `name_hint`
    and `checked_type`, `args == []`. For a `relay.constant`, `data` is its value
    (TVM's `Constant.data`). The xDSL objects are `value` and `operation`.
    """

    def __init__(self, value: SSAValue):
        self.value = value
        """The xDSL value."""
        self.operation: Operation | None = value.op if isinstance(value, OpResult) else None
        """The op defining the value, `None` for a block argument."""

    @property
    def op(self) -> OpName | None:
        """TVM's `call.op`: the op's name, or `None` for a parameter."""
        return OpName(tvm_op_name(self.operation)) if self.operation is not None else None

    @property
    def attrs(self) -> AttrsView:
        """The op's attributes (empty for a parameter)."""
        return AttrsView(self.operation)

    @property
    def args(self) -> list[ExprView]:
        """The op's operands (empty for a parameter)."""
        if self.operation is None:
            return []
        return [ExprView(o) for o in self.operation.operands]

    @property
    def checked_type(self) -> TypeView:
        """The value's type."""
        return TypeView(self.value.type)

    @property
    def name_hint(self) -> str | None:
        """The SSA name of a parameter or value, if it has one."""
        return self.value.name_hint

    @property
    def is_var(self) -> bool:
        """True for a function (or region) parameter."""
        return isinstance(self.value, BlockArgument)

    @property
    def data(self) -> npt.NDArray[Any] | None:
        """TVM's `Constant.data` as numpy: the value of a `relay.constant`, else None."""
        if isinstance(self.operation, ConstantOp):
            return dense_to_numpy(self.operation.value)
        return None

    def __repr__(self) -> str:
        if self.operation is None:
            return f"Var({self.name_hint or '?'}: {self.value.type})"
        return f"Call({tvm_op_name(self.operation)}: {self.value.type})"


# --------------------------------------------------------------------------- #
# Op support predicates
# --------------------------------------------------------------------------- #

Predicate: TypeAlias = Callable[..., bool]
"""`fn(expr: ExprView) -> bool`, or the seed's `fn(attrs, args) -> bool`."""

_PREDICATES: dict[tuple[str, str], tuple[Predicate, int]] = {}
"""(op name, target) -> (predicate, how many arguments it takes: 1 or 2)."""

_PATTERN_TABLES: dict[str, Callable[[], Sequence[tuple[Any, ...]]]] = {}
_PARTITION_HOOKS: dict[str, Callable[[func.FuncOp], None]] = {}


@functools.cache
def known_op_names() -> frozenset[str]:
    """TVM names of every relay op (`nn.conv2d`, `add`, ...)."""
    from xrelay.dialects.relay import RELAY

    return frozenset(tvm_op_name_of(op.name) for op in RELAY.operations)


def tvm_op_name_of(name: str) -> str:
    """`relay.nn.conv2d` -> `nn.conv2d`."""
    return name[len("relay.") :] if name.startswith("relay.") else name


_RELAY_NAMESPACES = frozenset({"relay", "nn", "image", "vision", "qnn", "dyn", "annotation"})


def check_op_name(op_name: str) -> str:
    """Normalize `op_name` to TVM's spelling; an unknown relay op name is an error.

    Names of ops in other dialects (`mydialect.op`) are accepted as given: the
    registry cannot know every plugin dialect.
    """
    name = tvm_op_name_of(op_name)
    known = known_op_names()
    if name in known:
        return name
    namespace = name.split(".", 1)[0]
    if "." in name and namespace not in _RELAY_NAMESPACES:
        return name  # an op of a plugin dialect
    close = difflib.get_close_matches(name, sorted(known), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise ByocError(f"unknown op '{op_name}'{hint}")


def _target_of(attr_key: str) -> str:
    if not attr_key.startswith("target.") or attr_key == "target.":
        raise ByocError(f"op attribute key must be 'target.<name>', got '{attr_key}'")
    return attr_key[len("target.") :]


def _arity(fn: Predicate) -> int:
    try:
        params = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        ]
    except (TypeError, ValueError):
        return 1
    return 2 if len(params) == 2 else 1


def register_op_attr(
    op_name: str, attr_key: str, value: Predicate | bool | None = None, level: int = 10
) -> Any:
    """Register `value` as op `op_name`'s support predicate for `target.<t>`.

    With `value=None`, returns a decorator (`@register_op_attr("nn.relu", "target.accel")`).
    `value=True/False` registers a constant answer. Re-registering replaces the
    earlier predicate (TVM's `level` is accepted and ignored).
    """
    del level
    name = check_op_name(op_name)
    target = _target_of(attr_key)

    def register(fn: Predicate | bool) -> Any:
        if isinstance(fn, bool):
            answer = fn
            _PREDICATES[(name, target)] = (lambda expr: answer, 1)  # pyright: ignore[reportUnknownLambdaType]
        else:
            _PREDICATES[(name, target)] = (fn, _arity(fn))
        return fn

    if value is None:
        return register
    return register(value)


def register_op_list(
    target: str, op_names: Sequence[str], predicate: Predicate | bool = True
) -> None:
    """Register `predicate` (default: always supported) for each op in `op_names`."""
    for op_name in op_names:
        register_op_attr(op_name, f"target.{target}", predicate)


def unregister_op_attr(op_name: str, attr_key: str) -> None:
    """Remove a registered predicate (no error if there is none)."""
    _PREDICATES.pop((tvm_op_name_of(op_name), _target_of(attr_key)), None)


@contextmanager
def temp_op_attr(op_name: str, attr_key: str, value: Predicate | bool) -> Generator[None]:
    """Register a predicate for the duration of a `with` block (tests); restores the old one."""
    key = (tvm_op_name_of(op_name), _target_of(attr_key))
    old = _PREDICATES.get(key)
    register_op_attr(op_name, attr_key, value)
    try:
        yield
    finally:
        if old is None:
            _PREDICATES.pop(key, None)
        else:
            _PREDICATES[key] = old


@contextmanager
def saved_registry() -> Generator[None]:
    """Restore every predicate, pattern table and partition hook on exit (tests, notebooks)."""
    state = (dict(_PREDICATES), dict(_PATTERN_TABLES), dict(_PARTITION_HOOKS))
    try:
        yield
    finally:
        for live, saved in zip(
            (_PREDICATES, _PATTERN_TABLES, _PARTITION_HOOKS), state, strict=True
        ):
            live.clear()
            live.update(saved)  # pyright: ignore[reportArgumentType, reportCallIssue]


def has_predicate(op_name: str, target: str) -> bool:
    """Whether `target` registered a predicate for `op_name` (TVM name)."""
    key = (tvm_op_name_of(op_name), target)
    return key in _PREDICATES or (_discover() and key in _PREDICATES)


def _discover() -> bool:
    """Load the installed plugins on a registry miss, once per process (`xrelay.plugins`)."""
    from xrelay.plugins import discover

    return discover()


class PredicateError(ByocError):
    """A support predicate raised: names the op and the target."""

    def __init__(self, op_name: str, target: str, error: BaseException):
        super().__init__(
            f"support predicate of '{op_name}' for target '{target}' raised "
            f"{type(error).__name__}: {error}"
        )
        self.op_name = op_name
        self.target = target


def op_supported(value: SSAValue, target: str) -> bool:
    """Whether `target`'s predicate accepts the op defining `value` (False if none is registered).

    Raises `PredicateError` if the predicate raises.
    """
    if not isinstance(value, OpResult):
        return False
    name = tvm_op_name(value.op)
    entry = _PREDICATES.get((name, target))
    if entry is None and _discover():
        entry = _PREDICATES.get((name, target))
    if entry is None:
        return False
    fn, arity = entry
    view = ExprView(value)
    try:
        answer = fn(view.attrs, view.args) if arity == 2 else fn(view)
    except Exception as error:
        raise PredicateError(name, target, error) from error
    return bool(answer)


# --------------------------------------------------------------------------- #
# Pattern tables
# --------------------------------------------------------------------------- #


def register_pattern_table(
    target: str, table: Callable[[], Sequence[tuple[Any, ...]]] | None = None
) -> Any:
    """Register `target`'s pattern table: a function returning `[(name, pattern[, check])]`.

    A decorator when `table` is omitted, as TVM's `@register_pattern_table("dnnl")`.
    """

    def register(fn: Callable[[], Sequence[tuple[Any, ...]]]) -> Any:
        _PATTERN_TABLES[target] = fn
        return fn

    if table is None:
        return register
    return register(table)


def unregister_pattern_table(target: str) -> None:
    """Remove a registered pattern table (no error if there is none)."""
    _PATTERN_TABLES.pop(target, None)


def has_pattern_table(target: str) -> bool:
    """Whether a pattern table is registered under `target`."""
    return target in _PATTERN_TABLES or (_discover() and target in _PATTERN_TABLES)


def get_pattern_table(target: str) -> list[tuple[Any, ...]]:
    """The entries of `target`'s pattern table; a `ByocError` naming the known tables if none."""
    fn = _PATTERN_TABLES.get(target)
    if fn is None and _discover():
        fn = _PATTERN_TABLES.get(target)
    if fn is None:
        known = ", ".join(sorted(_PATTERN_TABLES)) or "none"
        raise ByocError(f"no pattern table is registered for '{target}' (registered: {known})")
    return list(fn())


# --------------------------------------------------------------------------- #
# Partition hooks and known targets
# --------------------------------------------------------------------------- #


def register_partition_hook(target: str, hook: Callable[[func.FuncOp], None] | None = None) -> Any:
    """Register `fn(function)` run by PartitionGraph on each function lifted for `target`."""

    def register(fn: Callable[[func.FuncOp], None]) -> Any:
        _PARTITION_HOOKS[target] = fn
        return fn

    if hook is None:
        return register
    return register(hook)


def unregister_partition_hook(target: str) -> None:
    """Remove a partition hook (no error if there is none)."""
    _PARTITION_HOOKS.pop(target, None)


def partition_hook(target: str) -> Callable[[func.FuncOp], None] | None:
    """The hook PartitionGraph runs on `target`'s lifted functions, if any."""
    return _PARTITION_HOOKS.get(target)


def registered_targets() -> list[str]:
    """Every target with a predicate, a pattern table or a partition hook, sorted."""
    targets = {t for _, t in _PREDICATES} | set(_PATTERN_TABLES) | set(_PARTITION_HOOKS)
    return sorted(targets)


def check_target(target: str) -> str:
    """`target` if it is known; otherwise a `ByocError` listing the known targets."""
    if target in registered_targets() or (_discover() and target in registered_targets()):
        return target
    known = ", ".join(registered_targets()) or "none"
    close = difflib.get_close_matches(target, registered_targets(), n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise ByocError(
        f"unknown target '{target}': no op predicates or pattern table are registered "
        f"for it (known targets: {known}){hint}"
    )
