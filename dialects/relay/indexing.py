"""Index-driven relay ops added for the ONNX frontend: `gather`, `gather_nd`,
`scatter_elements`, `scatter_nd`, `one_hot`.

Shapes follow TVM's type relations (`src/relay/op/tensor/transform.cc`): `gather_nd`
and `scatter_nd` take the index tuple on the FIRST axis of `indices` (M, Y_0, ...,
Y_{K-1}), where ONNX puts it on the last. Index rules (docs/semantics.md, "Indices
out of range"): a negative index counts from the end once; a gather clamps what is
still out of range, a scatter drops the update.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, StringAttr, TensorType, i64
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    check_dtype,
    expect_tensor,
    get_int,
    get_str,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import is_integer
from xrelay.dialects.relay.types import ANY, Shape, format_shape, tensor_type

SCATTER_REDUCTIONS = ("update", "add", "mul", "min", "max")


def _indices(operand_types: Sequence[Attribute], index: int = 1) -> Shape:
    shape = expect_tensor(operand_types, index, "indices")
    element = operand_element_type(operand_types, index)
    if not is_integer(element):
        raise RelayTypeError(f"indices must be integers, got {element}")
    return shape


def _fits(small: int, big: int) -> bool:
    return ANY in (small, big) or small <= big


def _same(a: int, b: int) -> bool:
    return ANY in (a, b) or a == b


def elements_shape(data: Shape, indices: Shape, axis: int, what: str, gathers: bool = True) -> int:
    """Check `gather` / `scatter_elements` indices against data; the normalized axis.

    A gather from an empty axis has nothing to read (a scatter into one drops every update).
    """
    if not data:
        raise RelayTypeError("data must have at least one dim")
    if len(indices) != len(data):
        raise RelayTypeError(
            f"{what} {format_shape(indices)} must have the rank of data {format_shape(data)}"
        )
    axis = normalize_axis(axis, len(data))
    for k, (i, d) in enumerate(zip(indices, data, strict=True)):
        if k != axis and not _fits(i, d):
            raise RelayTypeError(
                f"{what} {format_shape(indices)} exceed data {format_shape(data)} at dim {k}"
            )
    if gathers and data[axis] == 0 and ANY not in indices and 0 not in indices:
        raise RelayTypeError(f"cannot index the empty axis {axis} of data {format_shape(data)}")
    return axis


def nd_shape(data: Shape, indices: Shape, batch_dims: int) -> Shape:
    """The output shape of `relay.gather_nd`: indices[1:] + data[batch_dims + M:]."""
    if not indices:
        raise RelayTypeError("indices must have at least one dim (the index tuple)")
    depth = indices[0]
    if depth == ANY:
        raise RelayTypeError("the index tuple length (indices dim 0) must be static")
    if batch_dims < 0 or batch_dims > len(indices) - 1:
        raise RelayTypeError(
            f"batch_dims {batch_dims} is out of range for indices {format_shape(indices)}"
        )
    if batch_dims + depth > len(data):
        raise RelayTypeError(
            f"index tuples of {depth} plus {batch_dims} batch dims exceed data {format_shape(data)}"
        )
    for b in range(batch_dims):
        if not _same(indices[1 + b], data[b]):
            raise RelayTypeError(
                f"batch dim {b} of indices {format_shape(indices)} and data "
                f"{format_shape(data)} differ"
            )
    out = (*indices[1:], *data[batch_dims + depth :])
    picked = data[batch_dims : batch_dims + depth]
    if 0 in picked and ANY not in out and 0 not in out:
        raise RelayTypeError(f"cannot index the empty dims of data {format_shape(data)}")
    return out


@irdl_op_definition
class GatherOp(RelayOp):
    """`relay.gather`: `out[..., j_axis, ...] = data[..., indices[..., j_axis, ...], ...]`
    (ONNX's GatherElements); the output has the shape of `indices`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.gather
    """

    name = "relay.gather"

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        indices = _indices(operand_types)
        elements_shape(data, indices, get_int(props, "axis"), "indices")
        return [tensor_type(indices, operand_element_type(operand_types, 0))]


@irdl_op_definition
class GatherNDOp(RelayOp):
    """`relay.gather_nd`: `out[y, x] = data[b(y), indices[:, y], x]`, the index tuple on the
    first axis of `indices` (TVM's layout; ONNX's GatherND has it on the last).

    With `batch_dims` B, the first B dims of `y` also index the first B dims of data.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.gather_nd
    """

    name = "relay.gather_nd"

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    result = result_def(TensorType)
    batch_dims = prop_def(IntegerAttr, IntegerAttr(0, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        indices = _indices(operand_types)
        out = nd_shape(data, indices, get_int(props, "batch_dims"))
        return [tensor_type(out, operand_element_type(operand_types, 0))]


def _reduction(props: Props, name: str) -> str:
    value = get_str(props, name)
    if value not in SCATTER_REDUCTIONS:
        raise RelayTypeError(
            f"{name} must be one of {', '.join(SCATTER_REDUCTIONS)}, got '{value}'"
        )
    return value


def _updates_type(operand_types: Sequence[Attribute]) -> Shape:
    updates = expect_tensor(operand_types, 2, "updates")
    a, b = operand_element_type(operand_types, 0), operand_element_type(operand_types, 2)
    if a != b:
        raise RelayTypeError(f"updates must have the element type of data {a}, got {b}")
    return updates


@irdl_op_definition
class ScatterElementsOp(RelayOp):
    """`relay.scatter_elements`: a copy of `data` where `updates[j]` is combined
    (`reduction`: update, add, mul, min, max) into the element `j` with `j_axis` replaced by
    `indices[j]`, in row-major order of `j` (ONNX's ScatterElements).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.scatter_elements
    """

    name = "relay.scatter_elements"

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(0, i64))
    reduction = prop_def(StringAttr, StringAttr("update"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        indices = _indices(operand_types)
        updates = _updates_type(operand_types)
        _reduction(props, "reduction")
        if len(updates) != len(indices) or not all(map(_same, updates, indices)):
            raise RelayTypeError(
                f"updates {format_shape(updates)} must have the shape of indices "
                f"{format_shape(indices)}"
            )
        elements_shape(data, indices, get_int(props, "axis"), "indices", gathers=False)
        return [operand_types[0]]


@irdl_op_definition
class ScatterNDOp(RelayOp):
    """`relay.scatter_nd`: a copy of `data` where `updates[y, ...]` is combined (`mode`:
    update, add, mul, min, max) into `data[indices[:, y], ...]`, in row-major order of `y`;
    the index tuple is on the first axis of `indices` (TVM's layout).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.scatter_nd
    """

    name = "relay.scatter_nd"

    data = operand_def(TensorType)
    indices = operand_def(TensorType)
    updates = operand_def(TensorType)
    result = result_def(TensorType)
    mode = prop_def(StringAttr, StringAttr("update"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        indices = _indices(operand_types)
        updates = _updates_type(operand_types)
        _reduction(props, "mode")
        if not indices or indices[0] == ANY:
            raise RelayTypeError("indices need a static first dim (the index tuple length)")
        depth = indices[0]
        if depth > len(data):
            raise RelayTypeError(
                f"index tuples of {depth} exceed the rank of data {format_shape(data)}"
            )
        want = (*indices[1:], *data[depth:])
        if len(updates) != len(want) or not all(map(_same, updates, want)):
            raise RelayTypeError(
                f"updates {format_shape(updates)} must have shape {format_shape(want)} "
                f"(indices[1:] + data[{depth}:])"
            )
        return [operand_types[0]]


# --------------------------------------------------------------------------- #
# one_hot
# --------------------------------------------------------------------------- #


@irdl_op_definition
class OneHotOp(RelayOp):
    """`relay.one_hot`: `on_value` where `indices[i] == k` along a new `axis` of size `depth`,
    `off_value` elsewhere (an index outside [0, depth) gives a row of `off_value`).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.one_hot
    """

    name = "relay.one_hot"

    indices = operand_def(TensorType)
    on_value = operand_def(TensorType)
    off_value = operand_def(TensorType)
    result = result_def(TensorType)
    depth = prop_def(IntegerAttr)
    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    dtype = prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        indices = _indices(operand_types, 0)
        dtype = check_dtype(props["dtype"])
        for index, what in ((1, "on_value"), (2, "off_value")):
            if expect_tensor(operand_types, index, what):
                raise RelayTypeError(f"{what} must be a scalar, got {operand_types[index]}")
            if operand_element_type(operand_types, index) != dtype:
                raise RelayTypeError(f"{what} must have the element type dtype {dtype}")
        depth = get_int(props, "depth")
        if depth < 0:
            raise RelayTypeError(f"depth must be non-negative, got {depth}")
        axis = get_int(props, "axis")
        rank = len(indices) + 1
        if not -rank <= axis < rank:
            raise RelayTypeError(f"axis {axis} is out of range for rank {rank}")
        axis = axis + rank if axis < 0 else axis
        return [tensor_type((*indices[:axis], depth, *indices[axis:]), dtype)]


OPS = (GatherOp, GatherNDOp, ScatterElementsOp, ScatterNDOp, OneHotOp)
