"""Converter registry: one function per ONNX op type and opset version, and what it sees.

A converter is registered with `@converter("Relu", 6)` (also `@converter(("Sin",
"Cos"), 7)`); for a model at opset N the importer calls the converter with the
largest version <= N, as TVM's `_impl_vN` dispatch does. It receives a `Node`
and returns one value per ONNX output (a relay `Expr`, or a numpy array when the
value is known at import), or one value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from xrelay.dialects.builder.expr import Constant, Expr
from xrelay.dialects.relay.types import (
    ANY,
    dtype_of,
    is_tuple,
    shape_of,
    tensor_element_type,
)
from xrelay.relay.frontend.onnx_errors import NeedsKnownValue, OnnxImportError, node_label

Array = npt.NDArray[Any]
Value = Expr | Array
"""A converted ONNX value: a relay expression, or a numpy array known at import."""

Result = Value | Sequence[Value | None]
Converter = Callable[["Node"], Result]

REGISTRY: dict[str, dict[int, Converter]] = {}
"""ONNX op type -> {opset version: converter}."""


def converter(op_types: str | Sequence[str], version: int) -> Callable[[Converter], Converter]:
    """Register a converter for `op_types` from opset `version` on."""
    names = (op_types,) if isinstance(op_types, str) else tuple(op_types)

    def register(fn: Converter) -> Converter:
        for name in names:
            versions = REGISTRY.setdefault(name, {})
            if version in versions:
                raise ValueError(f"two converters for {name} v{version}")
            versions[version] = fn
        return fn

    return register


def lookup(op_type: str, opset: int) -> Converter | None:
    """The converter for `op_type` at `opset`: the largest registered version <= opset."""
    versions = REGISTRY.get(op_type, {})
    usable = [v for v in versions if v <= opset]
    return versions[max(usable)] if usable else None


FOLD_LIMIT = 1 << 16
"""Known results with more elements than this stay relay expressions (no huge arrays)."""


def fold(expr: Expr) -> Value:
    """The value of an expression of constants, computed by the reference interpreter.

    Results that are tuples, dynamic or larger than `FOLD_LIMIT` stay expressions.
    """
    from xrelay.api import evaluate
    from xrelay.dialects.builder.expr import Function
    from xrelay.dialects.ir_module import IRModule

    if is_tuple(expr.checked_type):
        return expr
    shape = shape_of_value(expr)
    if any(d == ANY for d in shape) or math.prod(shape) > FOLD_LIMIT:
        return expr
    result = evaluate(IRModule.from_expr(Function([], expr)))
    assert isinstance(result, np.ndarray)
    return np.array(cast(Array, result), order="C")


def as_expr(value: Value) -> Expr:
    """A relay expression for a value; a known array becomes a constant of its exact dtype."""
    if isinstance(value, Expr):
        return value
    return Constant(np.array(value, order="C"))


class Node:
    """One ONNX node as a converter sees it: inputs, attributes, opset and helpers."""

    def __init__(
        self,
        op_type: str,
        name: str,
        opset: int,
        inputs: Sequence[Value | None],
        input_names: Sequence[str],
        attrs: dict[str, Any],
        num_outputs: int,
    ):
        self.op_type = op_type
        self.name = name
        self.opset = opset
        self.inputs = list(inputs)
        self.input_names = list(input_names)
        self.attrs = attrs
        self.num_outputs = num_outputs

    # ------------------------------------------------------------- errors

    def error(self, message: str) -> OnnxImportError:
        """An error naming this node: `node 'n' (Op): <message>`."""
        return OnnxImportError(f"{node_label(self.name, self.op_type)}: {message}")

    # ------------------------------------------------------------- inputs

    def has(self, index: int) -> bool:
        """Whether optional input `index` is given (present and not the empty name)."""
        return index < len(self.inputs) and self.inputs[index] is not None

    def value(self, index: int) -> Value:
        """Input `index` as given (expression or known array); absent raises."""
        value = self.inputs[index] if index < len(self.inputs) else None
        if value is None:
            raise self.error(f"input #{index} is required")
        return value

    def expr(self, index: int) -> Expr:
        """Input `index` as a relay expression."""
        return as_expr(self.value(index))

    def exprs(self) -> list[Expr]:
        """Every given input as a relay expression, in order."""
        return [as_expr(v) for v in self.inputs if v is not None]

    def known(self, index: int) -> Array | None:
        """Input `index` when its value is known at import, else None."""
        value = self.inputs[index] if index < len(self.inputs) else None
        if value is None or isinstance(value, Expr):
            return None if not isinstance(value, Constant) else value.data
        return value

    def const(self, index: int, what: str) -> Array:
        """Input `index`, which must be known at import (a constant or foldable shape value)."""
        data = self.known(index)
        if data is None:
            name = self.input_names[index]
            raise NeedsKnownValue(
                f"{node_label(self.name, self.op_type)}: {what} (input #{index} '{name}') "
                "must be known at import; only static values are supported",
                name,
            )
        return data

    def ints(self, index: int, what: str) -> list[int]:
        """A known integer input as a list."""
        return [int(v) for v in self.const(index, what).reshape(-1)]

    def shape(self, index: int) -> tuple[int, ...]:
        """The shape of input `index` (-1 marks a dynamic dim)."""
        return shape_of_value(self.value(index))

    def static_shape(self, index: int, what: str = "this input") -> tuple[int, ...]:
        """The shape of input `index`, which must be fully static."""
        shape = self.shape(index)
        if any(d == ANY for d in shape):
            raise self.error(f"{what} needs a static shape, got {format_shape(shape)}")
        return shape

    def rank(self, index: int) -> int:
        """The rank of input `index`."""
        return len(self.shape(index))

    def dtype(self, index: int) -> str:
        """The relay dtype of input `index`."""
        return dtype_of_value(self.value(index))

    # --------------------------------------------------------- attributes

    def attr(self, name: str, default: Any = None) -> Any:
        """Attribute `name`, or `default`."""
        return self.attrs.get(name, default)

    def int_attr(self, name: str, default: int) -> int:
        """An integer attribute."""
        return int(self.attrs.get(name, default))

    def float_attr(self, name: str, default: float) -> float:
        """A float attribute."""
        return float(self.attrs.get(name, default))

    def ints_attr(self, name: str, default: Sequence[int] | None = None) -> list[int] | None:
        """An integer-list attribute, or `default`."""
        value = self.attrs.get(name)
        if value is None:
            return None if default is None else list(default)
        return [int(v) for v in value]

    def str_attr(self, name: str, default: str) -> str:
        """A string attribute (bytes are decoded)."""
        value = self.attrs.get(name, default)
        return value.decode() if isinstance(value, bytes) else str(value)

    # ---------------------------------------------------------- subgraphs

    def graph(self, name: str) -> Any:
        """Graph attribute `name` (an `onnx.GraphProto`); absent raises."""
        value = self.attrs.get(name)
        if value is None or not hasattr(value, "node"):
            raise self.error(f"needs the graph attribute '{name}'")
        return value

    def run_graph(self, graph: Any, inputs: Sequence[Value]) -> list[Value]:
        """Convert subgraph `graph` (its inputs bound to `inputs`, outer values seen by name):
        its outputs. Only the importer's nodes can."""
        raise self.error("subgraphs are converted only by the importer")

    def refuse(self, condition: bool, message: str) -> None:
        """Raise `message` naming this node when `condition` holds."""
        if condition:
            raise self.error(message)


def shape_of_value(value: Value) -> tuple[int, ...]:
    """The shape of a value (-1 marks a dynamic dim)."""
    if isinstance(value, Expr):
        if is_tuple(value.checked_type):
            raise TypeError("a tuple has no shape")
        return tuple(shape_of(value.checked_type))
    return tuple(int(d) for d in value.shape)


def dtype_of_value(value: Value) -> str:
    """The relay dtype name of a value."""
    if isinstance(value, Expr):
        return dtype_of(tensor_element_type(value.checked_type))
    return value.dtype.name


def format_shape(shape: Sequence[int]) -> str:
    """`[1, ?, 3]`."""
    return "[" + ", ".join("?" if d == ANY else str(d) for d in shape) + "]"
