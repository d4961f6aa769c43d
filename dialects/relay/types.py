"""Types shared by the relay dialect: dtypes, numpy conversion, shapes and broadcasting.

Relay tensor types are builtin `tensor<...>` types; a dynamic dimension is `?`
(`DYNAMIC_INDEX`, -1 in Python). Relay tuples are builtin `tuple<...>` types.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar, cast

import ml_dtypes
import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    Signedness,
    TensorType,
    TupleType,
    bf16,
    f16,
    f32,
    f64,
)
from xdsl.ir import Attribute, TypeAttribute
from xrelay.dialects.resources import elided_error, is_elided

ANY = DYNAMIC_INDEX
"""A dynamic dimension (`?` in text)."""

Shape = tuple[int, ...]

_DTYPE_TO_TYPE: dict[str, TypeAttribute] = {
    "float16": f16,
    "bfloat16": bf16,
    "float32": f32,
    "float64": f64,
    "int8": IntegerType(8),
    "int16": IntegerType(16),
    "int32": IntegerType(32),
    "int64": IntegerType(64),
    "uint8": IntegerType(8, Signedness.UNSIGNED),
    "uint16": IntegerType(16, Signedness.UNSIGNED),
    "uint32": IntegerType(32, Signedness.UNSIGNED),
    "uint64": IntegerType(64, Signedness.UNSIGNED),
    "bool": IntegerType(1),
}
_TYPE_TO_DTYPE: dict[Attribute, str] = {v: k for k, v in _DTYPE_TO_TYPE.items()}

BFLOAT16: np.dtype[Any] = np.dtype(ml_dtypes.bfloat16)
"""numpy has no bfloat16: `ml_dtypes.bfloat16` (round to nearest even, NaN kept) stands in."""


def element_type_of(dtype: str | npt.DTypeLike) -> TypeAttribute:
    """The builtin element type of a Relay/numpy dtype name (`"float32"` -> `f32`)."""
    name = dtype if isinstance(dtype, str) else np.dtype(dtype).name
    if name in _DTYPE_TO_TYPE:
        return _DTYPE_TO_TYPE[name]
    try:
        name = np.dtype(name).name
    except TypeError:
        name = ""
    if name not in _DTYPE_TO_TYPE:
        raise ValueError(f"unsupported dtype '{dtype}'; expected one of {sorted(_DTYPE_TO_TYPE)}")
    return _DTYPE_TO_TYPE[name]


def dtype_of(element_type: Attribute) -> str:
    """The Relay dtype name of a builtin element type (`f32` -> `"float32"`)."""
    return _dtypes_of(element_type)[0]


R = TypeVar("R")


class ByInstance(Generic[R]):
    """A function of one attribute, memoized per attribute *instance* (`by_instance`)."""

    def __init__(self, fn: Callable[[Attribute], R], limit: int):
        self.fn = fn
        self.limit = limit
        self.cache: dict[int, tuple[Attribute, R]] = {}
        functools.update_wrapper(self, fn)

    def __call__(self, attr: Attribute) -> R:
        hit = self.cache.get(id(attr))
        if hit is not None and hit[0] is attr:
            return hit[1]
        value = self.fn(attr)
        if len(self.cache) >= self.limit:
            self.cache.clear()
        self.cache[id(attr)] = (attr, value)
        return value

    def __len__(self) -> int:
        return len(self.cache)


def by_instance(limit: int) -> Callable[[Callable[[Attribute], R]], ByInstance[R]]:
    """Memoize a function of one attribute per attribute *instance*.

    Looking an attribute up by value hashes it (a dataclass hash, recomputed, deep for a
    tensor type), which costs more than what `_dtypes_of`, `element_count` or the
    interpreter's tensor facts compute; types are shared instances (`tensor_type` builds
    each once), so keying by `id` hits. Each entry keeps its instance alive, so the id
    stays its own; the cache is cleared at `limit` entries (attributes built anew each
    time must not grow it without bound). An exception is not remembered.
    """

    def decorate(fn: Callable[[Attribute], R]) -> ByInstance[R]:
        return ByInstance(fn, limit)

    return decorate


@by_instance(1024)
def _dtypes_of(element_type: Attribute) -> tuple[str, np.dtype[np.generic]]:
    """`dtype_of` and `numpy_dtype`, called for every constant and evaluation."""
    if element_type not in _TYPE_TO_DTYPE:
        raise ValueError(f"unsupported element type {element_type}")
    name = _TYPE_TO_DTYPE[element_type]
    return name, BFLOAT16 if name == "bfloat16" else np.dtype(name)


def is_supported_element_type(element_type: Attribute) -> bool:
    """Whether a builtin type is one of the dtypes relay supports."""
    return element_type in _TYPE_TO_DTYPE


def is_float(element_type: Attribute) -> bool:
    """Whether an element type is a floating-point type."""
    return isinstance(element_type, Float16Type | BFloat16Type | Float32Type | Float64Type)


def is_float_dtype(dtype: npt.DTypeLike) -> bool:
    """Whether a numpy dtype is a float one, `bfloat16` included (numpy files it under void)."""
    dt = np.dtype(dtype)
    return dt == BFLOAT16 or bool(np.issubdtype(dt, np.floating))


_I1 = IntegerType(1)
"""`i1`, built once: `is_bool` runs per constant in the folding passes."""


def is_bool(element_type: Attribute) -> bool:
    """Whether an element type is `i1`."""
    return element_type == _I1


def numpy_dtype(element_type: Attribute) -> np.dtype[np.generic]:
    """The numpy dtype of a builtin element type (`ml_dtypes.bfloat16` for `bf16`)."""
    return _dtypes_of(element_type)[1]


def tensor_type(shape: Sequence[int], element_type: Attribute) -> TensorType[Attribute]:
    """A ranked tensor type; -1 (or ANY) in `shape` is a dynamic dimension."""
    return _tensor_type(tuple(ANY if int(d) in (-1, ANY) else int(d) for d in shape), element_type)


@functools.lru_cache(maxsize=4096)
def _tensor_type(shape: tuple[int, ...], element_type: Attribute) -> TensorType[Attribute]:
    """`TensorType(element_type, shape)`, built (and verified, about 9 µs) once per type.

    Attributes are immutable values, so sharing one instance is safe; type
    inference and constant folding build the same few types over and over.
    """
    return TensorType(element_type, list(shape))


def shape_of(t: Attribute) -> Shape:
    """The shape of a tensor type (dynamic dims as ANY)."""
    assert isinstance(t, TensorType)
    return tuple(cast(TensorType[Attribute], t).get_shape())


def tensor_element_type(t: Attribute) -> Attribute:
    """The element type of a tensor type."""
    assert isinstance(t, TensorType)
    return cast(TensorType[Attribute], t).get_element_type()


def rank_of(t: Attribute) -> int:
    """The rank of a tensor type."""
    assert isinstance(t, TensorType)
    return t.get_num_dims()


def is_tensor(t: Attribute) -> bool:
    """Whether `t` is a ranked builtin tensor type."""
    return isinstance(t, TensorType)


def is_tuple(t: Attribute) -> bool:
    """Whether `t` is a builtin tuple type."""
    return isinstance(t, TupleType)


def tuple_type(types: Sequence[Attribute]) -> TupleType:
    """A builtin tuple type of the given element types."""
    elements: list[TypeAttribute] = []
    for t in types:
        assert isinstance(t, TypeAttribute)
        elements.append(t)
    return TupleType(tuple(elements))


def tuple_elements(t: Attribute) -> tuple[Attribute, ...]:
    """The element types of a tuple type."""
    assert isinstance(t, TupleType)
    return tuple(t.types.data)


def broadcast_shapes(lhs: Shape, rhs: Shape) -> Shape | None:
    """Numpy broadcasting with dynamic dims; None when the shapes do not broadcast."""
    rank = max(len(lhs), len(rhs))
    a = (1,) * (rank - len(lhs)) + lhs
    b = (1,) * (rank - len(rhs)) + rhs
    out: list[int] = []
    for x, y in zip(a, b, strict=True):
        if x == y:
            out.append(x)
        elif x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x == ANY:
            out.append(y)
        elif y == ANY:
            out.append(x)
        else:
            return None
    return tuple(out)


def dims_compatible(actual: int, expected: int) -> bool:
    """Two dims agree when equal or when either is dynamic."""
    return actual in (expected, ANY) or expected == ANY


def types_compatible(actual: Attribute, expected: Attribute) -> bool:
    """Structural type compatibility, where a dynamic dim matches any dim."""
    if actual == expected:
        return True
    if isinstance(actual, TensorType) and isinstance(expected, TensorType):
        if actual.get_element_type() != expected.get_element_type():
            return False
        a, e = shape_of(cast(Attribute, actual)), shape_of(cast(Attribute, expected))
        return len(a) == len(e) and all(dims_compatible(x, y) for x, y in zip(a, e, strict=True))
    if isinstance(actual, TupleType) and isinstance(expected, TupleType):
        xs, ys = actual.types.data, expected.types.data
        return len(xs) == len(ys) and all(
            types_compatible(x, y) for x, y in zip(xs, ys, strict=True)
        )
    return False


def format_shape(shape: Sequence[int]) -> str:
    """`(1, 3, ?, 8)`: a shape for messages."""
    return "(" + ", ".join("?" if d == ANY else str(d) for d in shape) + ")"


def dense_from_numpy(
    array: npt.ArrayLike, element_type: Attribute | None = None
) -> DenseIntOrFPElementsAttr:
    """A dense elements attribute built from the array's bytes, with no per-element loop."""
    arr = np.asarray(array)
    et = element_type if element_type is not None else element_type_of(arr.dtype)
    np_dtype = numpy_dtype(et)
    data = np.ascontiguousarray(arr, dtype=np_dtype.newbyteorder("<"))
    if is_bool(et):
        data = data.astype(np.int8)
    ty = cast(TensorType[Any], _tensor_type(tuple(arr.shape), et))
    return _dense(ty, BytesAttr(data.tobytes()))


def _dense(ty: TensorType[Any], data: BytesAttr) -> DenseIntOrFPElementsAttr:
    """`DenseIntOrFPElementsAttr(ty, data)` without running its verifier (about 13 of the
    15 µs it costs; FoldConstant and the folding passes build one per folded value).

    `dense_from_numpy` passes a ranked tensor type of an element type `numpy_dtype` knows
    and exactly the bytes of that many elements, which is what the verifier checks; the
    parameters are set as xDSL's `ParametrizedAttribute.new` sets them.
    `tests/test_dense_text.py` compares the result with the verified constructor's.
    """
    attr = DenseIntOrFPElementsAttr.__new__(DenseIntOrFPElementsAttr)
    object.__setattr__(attr, "type", ty)
    object.__setattr__(attr, "data", data)
    return attr


def dense_to_numpy(attr: DenseIntOrFPElementsAttr) -> npt.NDArray[np.generic]:
    """A read-only numpy view of a dense elements attribute's bytes.

    `ElidedConstantError` for an elided constant (`dense_resource<__elided__>`).
    """
    if is_elided(attr):
        raise elided_error()
    et = attr.get_element_type()
    np_dtype = numpy_dtype(et)
    shape = tuple(attr.get_shape())
    if is_bool(et):
        return np.frombuffer(attr.data.data, dtype=np.int8).astype(np.bool_).reshape(shape)
    count = math.prod(shape)  # Python ints: np.prod on int64 wraps past 2^63
    raw = np.frombuffer(attr.data.data, dtype=np_dtype.newbyteorder("<"))
    if raw.size == 1 and count != 1:
        return np.broadcast_to(raw.astype(np_dtype), shape)
    return raw.astype(np_dtype, copy=False).reshape(shape)
