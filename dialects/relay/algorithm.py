"""Sorting relay ops: `relay.topk`, `relay.argsort`, `relay.sort` (TVM's `relay.op.algorithm`).

Order along `axis` is stable: among equal values the lower index comes first,
ascending and descending alike (ONNX TopK's tie rule). NaN is above every number,
+inf included (last ascending, first descending); -0.0 equals 0.0
(docs/semantics.md, "Sorting").

See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.topk
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IntegerAttr, StringAttr, TensorType, TupleType, i1, i32, i64
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_int,
    get_str,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import TensorOpBase, is_integer
from xrelay.dialects.relay.types import ANY, Shape, is_float, tensor_type, tuple_type

TOPK_RET_TYPES = ("both", "values", "indices")


def index_dtype(props: Props) -> Attribute:
    """The `dtype` property of the index results: an integer or (as TVM allows) a float type,
    not bool."""
    dtype = props["dtype"]
    if not (is_integer(dtype) or is_float(dtype)):
        raise RelayTypeError(f"dtype must be an integer or float type, got {dtype}")
    return dtype


def sort_axis(shape: Shape, props: Props) -> int:
    """The normalized `axis` of a sorting op (rank-0 data has none)."""
    if not shape:
        raise RelayTypeError("cannot sort a rank-0 tensor")
    return normalize_axis(get_int(props, "axis"), len(shape))


def topk_count(k: int, dim: int, axis: int) -> int:
    """How many elements `relay.topk` keeps along an axis of extent `dim` (k < 1: all)."""
    if k < 1:
        return dim
    if dim != ANY and k > dim:
        raise RelayTypeError(f"k {k} is larger than dim {dim} of axis {axis}")
    return k


@irdl_op_definition
class TopKOp(RelayOp):
    """`relay.topk`: the `k` largest (or, `is_ascend`, smallest) elements along `axis`, sorted.

    `ret_type` "both" gives the tuple (values, indices), "values" or "indices"
    one tensor; `k < 1` keeps the whole axis; indices have type `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.topk
    """

    name = "relay.topk"

    data = operand_def(TensorType)
    result = result_def(TensorType | TupleType)
    k = prop_def(IntegerAttr, IntegerAttr(1, i64))
    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    ret_type = prop_def(StringAttr, StringAttr("both"))
    is_ascend = prop_def(IntegerAttr, IntegerAttr(0, i1))
    dtype = prop_def(TypeAttribute, i32)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        axis = sort_axis(shape, props)
        ret_type = get_str(props, "ret_type")
        if ret_type not in TOPK_RET_TYPES:
            raise RelayTypeError(
                f"ret_type must be one of {', '.join(TOPK_RET_TYPES)}, got '{ret_type}'"
            )
        dtype = index_dtype(props)
        count = topk_count(get_int(props, "k"), shape[axis], axis)
        out = (*shape[:axis], count, *shape[axis + 1 :])
        values = tensor_type(out, operand_element_type(operand_types, 0))
        indices = tensor_type(out, dtype)
        if ret_type == "values":
            return [values]
        if ret_type == "indices":
            return [indices]
        return [tuple_type([values, indices])]


@irdl_op_definition
class ArgsortOp(TensorOpBase):
    """`relay.argsort`: the indices that sort `data` along `axis` (stable), of type `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.argsort
    """

    name = "relay.argsort"

    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    is_ascend = prop_def(IntegerAttr, IntegerAttr(1, i1))
    dtype = prop_def(TypeAttribute, i32)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        sort_axis(shape, props)
        return [tensor_type(shape, index_dtype(props))]


@irdl_op_definition
class SortOp(TensorOpBase):
    """`relay.sort`: `data` sorted along `axis` (stable; NaN above every number).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.sort
    """

    name = "relay.sort"

    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    is_ascend = prop_def(IntegerAttr, IntegerAttr(1, i1))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        sort_axis(shape, props)
        return [tensor_type(shape, operand_element_type(operand_types, 0))]


OPS = (TopKOp, ArgsortOp, SortOp)
