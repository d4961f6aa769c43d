"""Tensor-manipulation relay ops: reshape, transpose, concatenate, split, squeeze, layouts, ...

Shape inference follows TVM's type relations (`src/relay/op/tensor/transform.cc`),
with dynamic `?` dims propagated; where TVM asserts at run time, the verifier
reports a type error instead. Reductions and matmul live in `reduce.py`.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeGuard

from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    TupleType,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_bool,
    get_int,
    get_ints,
    get_opt_int,
    get_opt_ints,
    get_str,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.types import (
    ANY,
    Shape,
    dtype_of,
    format_shape,
    is_supported_element_type,
    tensor_type,
    tuple_type,
)

FALSE = IntegerAttr(0, i1)
"""The default of boolean properties (`keepdims`, `allowzero`, ...)."""


def is_tensor_type(t: Attribute) -> TypeGuard[TensorType[Attribute]]:
    """Whether `t` is a tensor type (narrowing to `TensorType[Attribute]`)."""
    return isinstance(t, TensorType)


def is_integer(element_type: Attribute) -> bool:
    """Whether an element type is a (signed or unsigned) integer type other than `i1`."""
    return is_supported_element_type(element_type) and dtype_of(element_type).startswith(
        ("int", "uint")
    )


def known_product(dims: Sequence[int]) -> int | None:
    """The product of dims, or None when one is dynamic."""
    return None if ANY in dims else math.prod(dims)


def normalize_axes(axes: Sequence[int], rank: int, what: str = "axis") -> list[int]:
    """Normalize a list of axes; out-of-range and repeated axes are type errors."""
    out = [normalize_axis(a, rank, what) for a in axes]
    for position, axis in enumerate(out):
        if axis in out[:position]:
            raise RelayTypeError(f"{what} {axes[position]} is repeated in {list(axes)}")
    return out


class TensorOpBase(RelayOp):
    """Base of single-operand tensor ops: `data` in, one tensor out."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())


# --------------------------------------------------------------------------- #
# reshape
# --------------------------------------------------------------------------- #


def reshape_shape(ishape: Shape, newshape: Sequence[int], allowzero: bool = False) -> Shape:
    """The output shape of `relay.reshape`, with TVM's special values.

    `0` copies the input dim at the same position (a literal 0 if `allowzero`),
    `-1` is inferred, `-2` copies all remaining input dims, `-3` merges two
    consecutive input dims, `-4` splits one input dim into the next two values
    (one of which may be -1).
    """
    shown = list(newshape)
    out: list[int] = []
    used_in: set[int] = set()
    used_out: set[int] = set()
    src = 0
    infer_at = -1

    def need(count: int) -> None:
        if src + count > len(ishape):
            raise RelayTypeError(
                f"newshape {shown} reads more dims than input shape {format_shape(ishape)} has"
            )

    i = 0
    while i < len(newshape):
        value = newshape[i]
        if value > 0 or (value == 0 and allowzero):
            out.append(value)
            src += 1
        elif value == 0:
            need(1)
            used_in.add(src)
            used_out.add(len(out))
            out.append(ishape[src])
            src += 1
        elif value == -1:
            if infer_at >= 0:
                raise RelayTypeError(f"newshape {shown} may contain at most one -1")
            infer_at = len(out)
            out.append(1)
            src += 1
        elif value == -2:
            while src < len(ishape):
                used_in.add(src)
                used_out.add(len(out))
                out.append(ishape[src])
                src += 1
        elif value == -3:
            need(2)
            d1, d2 = ishape[src], ishape[src + 1]
            used_in.update((src, src + 1))
            used_out.add(len(out))
            out.append(ANY if ANY in (d1, d2) else d1 * d2)
            src += 2
        elif value == -4:
            if i + 2 >= len(newshape):
                raise RelayTypeError(f"-4 in newshape {shown} must be followed by two values")
            need(1)
            d0 = ishape[src]
            used_in.add(src)
            src += 1
            d1, d2 = newshape[i + 1], newshape[i + 2]
            i += 2
            used_out.update((len(out), len(out) + 1))
            out.extend(_split_dim(d0, d1, d2, shown))
        else:
            raise RelayTypeError(f"unsupported special value {value} in newshape {shown}")
        i += 1

    if infer_at >= 0:
        # As TVM: the -1 is what the input dims not copied leave for the outputs not copied,
        # so a copied `?` (newshape 0) does not make the inferred dim dynamic.
        rest_in = [d for k, d in enumerate(ishape) if k not in used_in]
        rest_out = [d for k, d in enumerate(out) if k not in used_out and k != infer_at]
        out[infer_at] = _infer_dim(rest_in, rest_out, shown, ishape)
    total_in, total_out = known_product(ishape), known_product(out)
    if total_in is not None and total_out is not None and total_in != total_out:
        raise RelayTypeError(
            f"input shape {format_shape(ishape)} and reshaped shape {format_shape(out)} "
            "are not compatible"
        )
    return tuple(out)


def _infer_dim(rest_in: list[int], rest_out: list[int], shown: list[int], ishape: Shape) -> int:
    """The dim a -1 in newshape stands for."""
    num, den = known_product(rest_in), known_product(rest_out)
    if num is None or den is None:
        return ANY
    if den == 0 or num % den != 0:
        raise RelayTypeError(
            f"cannot infer the -1 in newshape {shown} from input shape {format_shape(ishape)}"
        )
    return num // den


def _split_dim(d0: int, d1: int, d2: int, shown: list[int]) -> tuple[int, int]:
    """The two dims `-4, d1, d2` split input dim `d0` into."""
    if d1 == -1 and d2 == -1:
        raise RelayTypeError(f"-4 in newshape {shown} cannot split into two -1 dims")
    if min(d1, d2) < -1 or 0 in (d1, d2):
        raise RelayTypeError(f"-4 in newshape {shown} must be followed by positive sizes or -1")
    if d0 == ANY:
        return (ANY if d1 == -1 else d1, ANY if d2 == -1 else d2)
    if d1 == -1 or d2 == -1:
        known = d2 if d1 == -1 else d1
        if d0 % known != 0:
            raise RelayTypeError(f"-4 in newshape {shown} cannot split input dim {d0} by {known}")
        return (d0 // known, d2) if d1 == -1 else (d1, d0 // known)
    if d1 * d2 != d0:
        raise RelayTypeError(f"-4 in newshape {shown} splits input dim {d0} into {d1} x {d2}")
    return (d1, d2)


@irdl_op_definition
class ReshapeOp(TensorOpBase):
    """`relay.reshape`: the same elements in a new shape (`newshape`, TVM special values).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.reshape
    """

    name = "relay.reshape"

    newshape = prop_def(DenseArrayBase)
    allowzero = prop_def(IntegerAttr, FALSE)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = reshape_shape(shape, get_ints(props, "newshape"), get_bool(props, "allowzero"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


# --------------------------------------------------------------------------- #
# transpose, squeeze, expand_dims
# --------------------------------------------------------------------------- #


def transpose_axes(rank: int, axes: Sequence[int] | None) -> list[int]:
    """The permutation of `relay.transpose`: `axes`, or reversed when absent or empty."""
    if not axes:
        return list(range(rank))[::-1]
    if len(axes) != rank:
        raise RelayTypeError(f"axes {list(axes)} must have one entry per dim of rank {rank}")
    return normalize_axes(axes, rank)


@irdl_op_definition
class TransposeOp(TensorOpBase):
    """`relay.transpose`: permute the dims by `axes` (reverse them when absent).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.transpose
    """

    name = "relay.transpose"

    axes = opt_prop_def(DenseArrayBase)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        perm = transpose_axes(len(shape), get_opt_ints(props, "axes"))
        return [tensor_type([shape[a] for a in perm], operand_element_type(operand_types, 0))]


def squeeze_axes(shape: Shape, axis: Sequence[int] | None) -> list[int]:
    """The dims `relay.squeeze` removes: `axis`, or every static 1 when absent."""
    if axis is None:
        return [k for k, d in enumerate(shape) if d == 1]
    axes = normalize_axes(axis, len(shape))
    for a in axes:
        if shape[a] not in (1, ANY):
            raise RelayTypeError(
                f"cannot squeeze axis {a} of size {shape[a]} in input shape {format_shape(shape)}"
            )
    return axes


@irdl_op_definition
class SqueezeOp(TensorOpBase):
    """`relay.squeeze`: remove the size-1 dims `axis` (all static 1-dims when absent).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.squeeze
    """

    name = "relay.squeeze"

    axis = opt_prop_def(DenseArrayBase)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        removed = squeeze_axes(shape, get_opt_ints(props, "axis"))
        out = [d for k, d in enumerate(shape) if k not in removed]
        return [tensor_type(out, operand_element_type(operand_types, 0))]


MAX_RANK = 64
"""The most dims `expand_dims` makes: numpy's (and so the reference interpreter's) limit."""


def expand_dims_shape(shape: Shape, axis: int, num_newaxis: int) -> Shape:
    """`num_newaxis` 1-dims inserted at `axis` (in `[-rank-1, rank]`)."""
    rank = len(shape)
    if not -rank - 1 <= axis <= rank:
        raise RelayTypeError(
            f"axis {axis} is out of range [{-rank - 1}, {rank}] for input rank {rank}"
        )
    if num_newaxis < 0:
        raise RelayTypeError(f"num_newaxis must be non-negative, got {num_newaxis}")
    if rank + num_newaxis > MAX_RANK:
        raise RelayTypeError(
            f"num_newaxis {num_newaxis} makes a rank-{rank + num_newaxis} result; "
            f"at most {MAX_RANK} dims (numpy's limit, which the interpreter has)"
        )
    at = axis + rank + 1 if axis < 0 else axis
    return (*shape[:at], *([1] * num_newaxis), *shape[at:])


@irdl_op_definition
class ExpandDimsOp(TensorOpBase):
    """`relay.expand_dims`: insert `num_newaxis` size-1 dims at `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.expand_dims
    """

    name = "relay.expand_dims"

    axis = prop_def(IntegerAttr)
    num_newaxis = prop_def(IntegerAttr, IntegerAttr(1, i64))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = expand_dims_shape(shape, get_int(props, "axis"), get_int(props, "num_newaxis"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


# --------------------------------------------------------------------------- #
# concatenate, split
# --------------------------------------------------------------------------- #


def merge_dim(a: int, b: int) -> int:
    """The common value of two compatible dims (a static one wins over `?`)."""
    return b if a == ANY else a


@irdl_op_definition
class ConcatenateOp(RelayOp):
    """`relay.concatenate`: join tensors along `axis` (variadic operands, not a tuple).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.concatenate
    """

    name = "relay.concatenate"

    data = var_operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(0, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        if not operand_types:
            raise RelayTypeError("expected at least one operand")
        shapes = [expect_tensor(operand_types, k) for k in range(len(operand_types))]
        first, dtype = shapes[0], operand_element_type(operand_types, 0)
        if not first:
            raise RelayTypeError("cannot concatenate rank-0 tensors")
        axis = normalize_axis(get_int(props, "axis"), len(first))
        out = list(first)
        for k, shape in enumerate(shapes[1:], start=1):
            if operand_element_type(operand_types, k) != dtype:
                raise RelayTypeError(
                    f"operand #{k} element type {operand_element_type(operand_types, k)} does not "
                    f"match {dtype} of operand #0"
                )
            if len(shape) != len(first):
                raise RelayTypeError(
                    f"operand #{k} has rank {len(shape)}, expected {len(first)} like operand #0"
                )
            for d, (x, y) in enumerate(zip(out, shape, strict=True)):
                if d == axis:
                    out[d] = ANY if ANY in (x, y) else x + y
                elif ANY not in (x, y) and x != y:
                    raise RelayTypeError(
                        f"operand #{k} shape {format_shape(shape)} does not match "
                        f"{format_shape(first)} of operand #0 outside axis {axis}"
                    )
                else:
                    out[d] = merge_dim(x, y)
        return [tensor_type(out, dtype)]


def split_sizes(dim: int, indices_or_sections: int | Sequence[int], axis: int) -> list[int]:
    """The extents along `axis` of the pieces `relay.split` makes (`?` when unknown)."""
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections < 1:
            raise RelayTypeError(f"sections must be positive, got {sections}")
        if dim == ANY:
            return [ANY] * sections
        if dim % sections != 0:
            raise RelayTypeError(
                f"input dim {dim} on axis {axis} is not divisible into {sections} sections"
            )
        return [dim // sections] * sections
    indices = list(indices_or_sections)
    begin = 0
    sizes: list[int] = []
    for index in indices:
        if index <= begin:
            raise RelayTypeError(
                f"indices {indices} must be a strictly ascending list of positive integers"
            )
        sizes.append(index - begin)
        begin = index
    if dim == ANY:
        return [*sizes, ANY]
    if begin >= dim:
        raise RelayTypeError(f"index {begin} is out of range for input dim {dim} on axis {axis}")
    return [*sizes, dim - begin]


def get_indices_or_sections(props: Props) -> int | tuple[int, ...]:
    """`indices_or_sections`: an int (sections) or a list of indices."""
    attr = props["indices_or_sections"]
    if isinstance(attr, IntegerAttr):
        return get_int(props, "indices_or_sections")
    return get_ints(props, "indices_or_sections")


@irdl_op_definition
class SplitOp(RelayOp):
    """`relay.split`: cut a tensor along `axis` into a tuple of pieces.

    `indices_or_sections` is an int (that many equal sections, which must
    divide the dim) or a list of ascending split points.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.split
    """

    name = "relay.split"

    data = operand_def(TensorType)
    result = result_def(TupleType)
    indices_or_sections = prop_def(IntegerAttr | DenseArrayBase)
    axis = prop_def(IntegerAttr, IntegerAttr(0, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        if not shape:
            raise RelayTypeError("cannot split a rank-0 tensor")
        axis = normalize_axis(get_int(props, "axis"), len(shape))
        sizes = split_sizes(shape[axis], get_indices_or_sections(props), axis)
        dtype = operand_element_type(operand_types, 0)
        pieces = [tensor_type((*shape[:axis], s, *shape[axis + 1 :]), dtype) for s in sizes]
        return [tuple_type(pieces)]


# --------------------------------------------------------------------------- #
# layout_transform
# --------------------------------------------------------------------------- #

Layout = list[tuple[str, int]]
"""A parsed layout: (axis, factor) per dim; factor 0 for a primal (uppercase) axis."""


def parse_layout(layout: str, what: str = "layout") -> Layout:
    """Parse a TVM layout string such as `NCHW`, `NHWC`, `OIHW4i4o` or `NCHW16c`."""
    if not layout:
        raise RelayTypeError(f"{what} must not be empty")
    axes: Layout = []
    digits = ""
    for ch in layout:
        if ch.isascii() and ch.isdigit():
            digits += ch
        elif ch.isascii() and ch.isupper():
            if digits:
                raise RelayTypeError(
                    f"invalid {what} '{layout}': factor {digits} must precede a sub-axis, "
                    f"not '{ch}'"
                )
            axes.append((ch, 0))
        elif ch.isascii() and ch.islower():
            if not digits or int(digits) < 1:
                raise RelayTypeError(
                    f"invalid {what} '{layout}': sub-axis '{ch}' needs a positive factor"
                )
            axes.append((ch, int(digits)))
            digits = ""
        else:
            raise RelayTypeError(f"invalid {what} '{layout}': unexpected character '{ch}'")
    if digits:
        raise RelayTypeError(f"invalid {what} '{layout}': trailing factor {digits}")
    names = [name for name, _ in axes]
    for position, name in enumerate(names):
        if name in names[:position]:
            raise RelayTypeError(f"invalid {what} '{layout}': axis '{name}' appears twice")
        if name.islower() and name.upper() not in names:
            raise RelayTypeError(
                f"invalid {what} '{layout}': sub-axis '{name}' has no primal axis '{name.upper()}'"
            )
    return axes


def layout_factor(layout: Layout, primal: str) -> int:
    """The factor of `primal`'s sub-axis in `layout`, or 1 when it has none."""
    for name, factor in layout:
        if name == primal.lower():
            return factor
    return 1


def layout_transform_shape(shape: Shape, src_layout: str, dst_layout: str) -> Shape:
    """The shape of `shape` (laid out as `src_layout`) in `dst_layout`."""
    src = parse_layout(src_layout, "src_layout")
    dst = parse_layout(dst_layout, "dst_layout")
    if {n for n, f in src if not f} != {n for n, f in dst if not f}:
        raise RelayTypeError(
            f"cannot transform layout '{src_layout}' to '{dst_layout}': their primal axes differ"
        )
    if len(shape) != len(src):
        raise RelayTypeError(
            f"src_layout '{src_layout}' has {len(src)} axes but the input has rank {len(shape)}"
        )
    primal: dict[str, int] = {}
    for (name, factor), dim in zip(src, shape, strict=True):
        if factor and dim not in (factor, ANY):
            raise RelayTypeError(
                f"input dim {dim} of sub-axis '{name}' does not match its factor {factor} "
                f"in src_layout '{src_layout}'"
            )
        if not factor:
            primal[name] = ANY if dim == ANY else dim * layout_factor(src, name)
    out: list[int] = []
    for name, factor in dst:
        if factor:
            out.append(factor)
            continue
        size, split = primal[name], layout_factor(dst, name)
        if size != ANY and size % split != 0:
            raise RelayTypeError(
                f"axis '{name}' of size {size} is not divisible by factor {split} "
                f"in dst_layout '{dst_layout}'"
            )
        out.append(ANY if size == ANY else size // split)
    return tuple(out)


@irdl_op_definition
class LayoutTransformOp(TensorOpBase):
    """`relay.layout_transform`: re-lay data from `src_layout` to `dst_layout`.

    Layouts are TVM's: primal axes in uppercase, blocked sub-axes as a factor
    and a lowercase letter (`NCHW` -> `NCHW16c` needs C divisible by 16).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.layout_transform
    """

    name = "relay.layout_transform"

    src_layout = prop_def(StringAttr)
    dst_layout = prop_def(StringAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = layout_transform_shape(
            shape, get_str(props, "src_layout"), get_str(props, "dst_layout")
        )
        return [tensor_type(out, operand_element_type(operand_types, 0))]


# --------------------------------------------------------------------------- #
# strided_slice, take
# --------------------------------------------------------------------------- #

Slice = tuple[int, int, int]
"""(begin, end, stride) of one axis, before clamping to the dim."""


def slice_params(props: Props, rank: int) -> dict[int, Slice]:
    """The per-axis (begin, end, stride) of `relay.strided_slice`, as TVM fills them in."""
    begin, end = get_ints(props, "begin"), get_ints(props, "end")
    strides = get_opt_ints(props, "strides") or ()
    axes = get_opt_ints(props, "axes")
    mode = get_str(props, "slice_mode")
    if mode not in ("end", "size"):
        raise RelayTypeError(f"slice_mode must be 'end' or 'size', got '{mode}'")
    if axes is not None:
        lists = [("axes", axes), ("begin", begin), ("end", end)]
        lists += [("strides", strides)] if strides else []
        if len({len(values) for _, values in lists}) != 1:
            shown = ", ".join(f"{what} {list(values)}" for what, values in lists)
            raise RelayTypeError(f"{shown} must have the same length")
        targets = normalize_axes(axes, rank, "axis")
    else:
        for what, values in (("begin", begin), ("end", end), ("strides", strides)):
            if len(values) > rank:
                raise RelayTypeError(
                    f"{what} has {len(values)} values but the input has rank {rank}"
                )
        targets = list(range(rank))
    if 0 in strides:
        raise RelayTypeError(f"strides must be non-zero, got {list(strides)}")
    out: dict[int, Slice] = {}
    big = 2**63 - 1
    for k, axis in enumerate(targets):
        stride = strides[k] if k < len(strides) and mode == "end" else 1
        b = begin[k] if k < len(begin) else (0 if stride > 0 else big)
        if k >= len(end):
            e = big if stride > 0 else 0  # TVM's fill-in for a missing end
        elif mode == "size":
            e = big if end[k] < 0 else b + end[k]
        else:
            e = end[k]
        out[axis] = (b, e, stride)
    return out


def slice_extent(dim: int, piece: Slice, axis: int) -> int:
    """The number of elements a (begin, end, stride) slice takes from a dim of size `dim`."""
    begin, end, stride = piece
    if dim == ANY:
        return ANY
    lo, hi = (-1, dim - 1) if stride < 0 else (0, dim)
    b = min(max(begin + dim if begin < 0 else begin, lo), hi)
    e = min(max(end + dim if end < 0 else end, lo), hi)
    if (e > b) if stride < 0 else (e < b):
        raise RelayTypeError(
            f"begin {begin} and end {end} are invalid for axis {axis} with stride {stride}"
        )
    return (abs(e - b) + abs(stride) - 1) // abs(stride)


@irdl_op_definition
class StridedSliceOp(TensorOpBase):
    """`relay.strided_slice`: `data[begin:end:strides]` per axis (numpy semantics).

    Without `axes`, `begin`/`end`/`strides` cover the leading dims (missing
    ones take the whole dim); `slice_mode = "size"` reads `end` as sizes.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.strided_slice
    """

    name = "relay.strided_slice"

    begin = prop_def(DenseArrayBase)
    end = prop_def(DenseArrayBase)
    strides = opt_prop_def(DenseArrayBase)
    axes = opt_prop_def(DenseArrayBase)
    slice_mode = prop_def(StringAttr, StringAttr("end"))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        out = list(shape)
        for axis, piece in slice_params(props, len(shape)).items():
            out[axis] = slice_extent(shape[axis], piece, axis)
        return [tensor_type(out, operand_element_type(operand_types, 0))]


TAKE_MODES = ("clip", "wrap", "fast")


def _static_numel(shape: Shape) -> int | None:
    """The element count of a shape, None if a dim is dynamic."""
    return None if ANY in shape else math.prod(shape)


def take_shape(data: Shape, indices: Shape, axis: int | None, batch_dims: int) -> Shape:
    """The output shape of `relay.take` (`axis` None: index the flattened data)."""
    if axis is None:
        return indices
    axis = normalize_axis(axis, len(data))
    b = batch_dims + len(indices) if batch_dims < 0 else batch_dims
    if not 0 <= b <= min(axis, len(indices)):
        raise RelayTypeError(
            f"batch_dims {batch_dims} is out of range for axis {axis} and indices of "
            f"rank {len(indices)}"
        )
    for k in range(b):
        if ANY not in (data[k], indices[k]) and data[k] != indices[k]:
            raise RelayTypeError(
                f"batch dims of data {format_shape(data)} and indices {format_shape(indices)} "
                f"differ at dim {k}"
            )
    return (*data[:axis], *indices[b:], *data[axis + 1 :])


@irdl_op_definition
class TakeOp(RelayOp):
    """`relay.take`: gather elements of `data` at integer `indices` along `axis`.

    Without `axis` the data is flattened. `mode` handles out-of-range indices:
    `clip` clamps, `wrap` wraps around, `fast` assumes they are in range.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.take
    """

    name = "relay.take"

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    axis = opt_prop_def(IntegerAttr)
    batch_dims = prop_def(IntegerAttr, IntegerAttr(0, i64))
    mode = prop_def(StringAttr, StringAttr("clip"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        indices = expect_tensor(operand_types, 1, "indices")
        index_type = operand_element_type(operand_types, 1)
        if not is_integer(index_type):
            raise RelayTypeError(f"indices must be integers, got {index_type}")
        mode = get_str(props, "mode")
        if mode not in TAKE_MODES:
            raise RelayTypeError(f"mode must be one of {', '.join(TAKE_MODES)}, got '{mode}'")
        axis = get_opt_int(props, "axis")
        out = take_shape(data, indices, axis, get_int(props, "batch_dims"))
        extent = data[normalize_axis(axis, len(data))] if axis is not None else _static_numel(data)
        if extent == 0 and ANY not in out and 0 not in out:
            # No index is valid in any mode, yet the result has elements to fill.
            where = "flattened data" if axis is None else f"axis {axis} of data"
            raise RelayTypeError(
                f"cannot take indices {format_shape(indices)} from the empty {where} "
                f"{format_shape(data)}"
            )
        return [tensor_type(out, operand_element_type(operand_types, 0))]


OPS = (
    ReshapeOp,
    TransposeOp,
    SqueezeOp,
    ExpandDimsOp,
    ConcatenateOp,
    SplitOp,
    LayoutTransformOp,
    StridedSliceOp,
    TakeOp,
)
