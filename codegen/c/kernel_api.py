"""What an op printer sees: its op, a writer, and the C names of its operand and result buffers.

A kernel printer is `fn(k: Kernel) -> None`. It is called inside a C block
that already declares one `restrict` pointer per operand leaf (`in0`, `in1`,
... in operand order, tuples flattened) and per result leaf (`out0`, ...);
it writes loop nests reading `in*` and writing every element of `out*`.
`Unsupported` (raised anywhere while printing an op) becomes the located
error `'<op>' op cannot be emitted for target '<t>'` (with the reason).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute, Operation
from xrelay.codegen.c.epilogue import Epilogue
from xrelay.codegen.c.scalars import Scalar, tensor_scalar
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels.routine import Routine


class Unsupported(Exception):
    """The op (or one of its types) has no C form in this target; the message says why."""


def leaf_types(type_: Attribute) -> list[TensorType[Attribute]]:
    """The tensor types of a value, tuples flattened in field order."""
    if isinstance(type_, TupleType):
        out: list[TensorType[Attribute]] = []
        for field_type in type_.types.data:
            out.extend(leaf_types(field_type))
        return out
    if not isinstance(type_, TensorType):
        raise Unsupported(f"cannot emit type '{type_}'")
    return [cast(TensorType[Attribute], type_)]


def static_shape(type_: TensorType[Attribute]) -> tuple[int, ...]:
    """The shape of a tensor type; `Unsupported` for a dynamic dim."""
    shape = tuple(type_.get_shape())
    if any(d < 0 for d in shape):
        raise Unsupported(f"cannot emit type '{type_}'")
    return shape


def scalar(type_: TensorType[Attribute]) -> Scalar:
    """The C element type of a tensor type; `Unsupported` if C cannot hold it."""
    found = tensor_scalar(type_)
    if found is None:
        raise Unsupported(f"cannot emit type '{type_}'")
    return found


def numel(shape: Sequence[int]) -> int:
    """The number of elements of a shape."""
    total = 1
    for dim in shape:
        total *= dim
    return total


@dataclass
class Kernel:
    """One op being printed: its buffers' C names, shapes and element types."""

    op: Operation
    w: CWriter
    ins: list[str]
    """Pointer names of the operand leaves, in operand order (tuples flattened)."""
    outs: list[str]
    """Pointer names of the result leaves."""
    in_types: list[TensorType[Attribute]] = field(default_factory=list[TensorType[Attribute]])
    out_types: list[TensorType[Attribute]] = field(default_factory=list[TensorType[Attribute]])
    libraries: set[str] = field(default_factory=set[str])
    """Names of the shared kernel library's units the printed code calls
    (`codegen/kernels`): the emitter adds them to the model's sources."""
    epilogue: Epilogue | None = None
    """Elementwise consumers fused into this op's store (`epilogue.py`); only for ops
    `EPILOGUE_PRODUCERS` accepts."""
    constant_ins: frozenset[int] = frozenset()
    """Positions in `ins` whose data is the same constant at every run (a kernel may
    preprocess it once, e.g. pack a GEMM's weight)."""
    routines: list[Routine] = field(default_factory=list[Routine])
    """Functions specialized to this op that the printed code calls (`codegen/kernels/routine.py`):
    the emitter prints them into the generated library units, compiled with the library's flags."""

    def in_shape(self, index: int) -> tuple[int, ...]:
        return static_shape(self.in_types[index])

    def out_shape(self, index: int = 0) -> tuple[int, ...]:
        return static_shape(self.out_types[index])

    def in_scalar(self, index: int) -> Scalar:
        return scalar(self.in_types[index])

    def out_scalar(self, index: int = 0) -> Scalar:
        return scalar(self.out_types[index])


KernelFn = Callable[[Kernel], None]
"""Prints one op's loop nests."""


def converted(element: Scalar, expr: str) -> str:
    """`expr` (an accumulator or double) converted to `element` (booleans: nonzero is 1)."""
    if element.kind == "bool":
        return f"(uint8_t)(({expr}) != 0)"
    return f"({element.ctype})({expr})"


def better(element: Scalar, value: str, best: str, symbol: str) -> str:
    """Whether `value` replaces `best` in a max (`>`) or min (`<`): numpy's NaN wins."""
    if element.is_float:
        return f"({value} {symbol} {best} || {value} != {value})"
    return f"({value} {symbol} {best})"


def extreme(element: Scalar, symbol: str) -> str:
    """The start value of a max (`>`: minus infinity or the lowest integer) or a min (`<`)."""
    if element.is_float:
        return element.literal(float("-inf") if symbol == ">" else float("inf"))
    if element.kind == "int":
        bound = "MIN" if symbol == ">" else "MAX"
        return f"INT{element.bits}_{bound}"
    if element.kind == "bool":
        return element.literal(0 if symbol == ">" else 1)
    return f"(({element.ctype})0)" if symbol == ">" else f"UINT{element.bits}_MAX"
