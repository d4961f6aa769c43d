"""Reduction relay ops (`relay.sum`, `relay.mean`, `relay.max`, ..., `relay.argmax`) and matmul.

Reductions take TVM's `ReduceAttrs`: `axis` (absent or empty: every axis),
`keepdims`, `exclude` (reduce every axis *not* listed).

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, TensorType, i32
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    check_dtype,
    common_element_type,
    expect_not_bool,
    expect_tensor,
    get_bool,
    get_opt_ints,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import FALSE, normalize_axes
from xrelay.dialects.relay.types import (
    ANY,
    Shape,
    broadcast_shapes,
    format_shape,
    tensor_type,
)


def reduce_axes(rank: int, axis: Sequence[int] | None, exclude: bool) -> list[int]:
    """The sorted axes a reduction reduces (TVM's `GetReduceAxes`)."""
    if not axis:
        return list(range(rank))
    axes = normalize_axes(axis, rank)
    if exclude:
        return [a for a in range(rank) if a not in axes]
    return sorted(axes)


def reduce_shape(shape: Shape, axes: Sequence[int], keepdims: bool) -> Shape:
    """The shape left after reducing `axes` (kept as 1-dims with `keepdims`)."""
    if keepdims:
        return tuple(1 if k in axes else d for k, d in enumerate(shape))
    return tuple(d for k, d in enumerate(shape) if k not in axes)


def reduce_params(props: Props, rank: int) -> tuple[list[int], bool]:
    """The reduced axes and `keepdims` of a reduction's properties."""
    axes = reduce_axes(rank, get_opt_ints(props, "axis"), get_bool(props, "exclude"))
    return axes, get_bool(props, "keepdims")


class ReduceOp(RelayOp):
    """Base of reductions: the result keeps the element type of `data`."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    axis = opt_prop_def(DenseArrayBase)
    keepdims = prop_def(IntegerAttr, FALSE)
    exclude = prop_def(IntegerAttr, FALSE)
    traits = traits_def(Pure())

    @classmethod
    def result_element_type(cls, data_type: Attribute) -> Attribute:
        """The element type of the result."""
        return data_type

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        shape = expect_tensor(operand_types, 0, "data")
        axes, keepdims = reduce_params(props, len(shape))
        out = reduce_shape(shape, axes, keepdims)
        return [tensor_type(out, cls.result_element_type(operand_element_type(operand_types, 0)))]


@irdl_op_definition
class SumOp(ReduceOp):
    """`relay.sum`: the sum over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.sum
    """

    name = "relay.sum"


@irdl_op_definition
class MeanOp(ReduceOp):
    """`relay.mean`: the mean over `axis` (truncating for integers, as TVM).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.mean
    """

    name = "relay.mean"

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        result = super().infer_result_types(operand_types, props)
        expect_not_bool(operand_types, 0)  # a mean of booleans is no boolean
        return result


@irdl_op_definition
class MaxOp(ReduceOp):
    """`relay.max`: the maximum over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.max
    """

    name = "relay.max"


@irdl_op_definition
class MinOp(ReduceOp):
    """`relay.min`: the minimum over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.min
    """

    name = "relay.min"


@irdl_op_definition
class ProdOp(ReduceOp):
    """`relay.prod`: the product over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.prod
    """

    name = "relay.prod"


class ArgReduceOp(ReduceOp):
    """Base of `relay.argmax` / `relay.argmin`: `int32` indices into the reduced axes.

    Over several axes the index counts through the reduced axes in row-major
    order; `select_last_index` picks the last of equal extrema.
    """

    select_last_index = prop_def(IntegerAttr, FALSE)

    @classmethod
    def result_element_type(cls, data_type: Attribute) -> Attribute:
        return i32


@irdl_op_definition
class ArgmaxOp(ArgReduceOp):
    """`relay.argmax`: the index of the maximum over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.argmax
    """

    name = "relay.argmax"


@irdl_op_definition
class ArgminOp(ArgReduceOp):
    """`relay.argmin`: the index of the minimum over `axis`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.argmin
    """

    name = "relay.argmin"


def matmul_shape(a: Shape, b: Shape, transpose_a: bool, transpose_b: bool) -> Shape:
    """numpy's matmul shape for operands of rank >= 2, batch dims broadcast."""
    for what, shape in (("tensor_a", a), ("tensor_b", b)):
        if len(shape) < 2:
            raise RelayTypeError(
                f"expected {what} of rank at least 2, got rank {len(shape)} {format_shape(shape)}"
            )
    m, k_a = (a[-1], a[-2]) if transpose_a else (a[-2], a[-1])
    k_b, n = (b[-1], b[-2]) if transpose_b else (b[-2], b[-1])
    if ANY not in (k_a, k_b) and k_a != k_b:
        raise RelayTypeError(
            f"contraction dims differ: tensor_a {format_shape(a)} has {k_a}, "
            f"tensor_b {format_shape(b)} has {k_b}"
        )
    batch = broadcast_shapes(a[:-2], b[:-2])
    if batch is None:
        raise RelayTypeError(
            f"batch dims {format_shape(a[:-2])} and {format_shape(b[:-2])} do not broadcast"
        )
    return (*batch, m, n)


@irdl_op_definition
class MatmulOp(RelayOp):
    """`relay.matmul`: numpy-style matrix product with broadcast batch dims.

    `tensor_a` is `(..., M, K)` (`(..., K, M)` with `transpose_a`), `tensor_b`
    is `(..., K, N)` (`(..., N, K)` with `transpose_b`); the result is
    `(batch..., M, N)` in `out_dtype` (default: the operands' dtype).

    See https://tvm.apache.org/docs/reference/api/python/relay/nn.html#tvm.relay.nn.matmul
    """

    name = "relay.matmul"

    tensor_a = operand_def(TensorType)
    tensor_b = operand_def(TensorType)
    result = result_def(TensorType)
    transpose_a = prop_def(IntegerAttr, FALSE)
    transpose_b = prop_def(IntegerAttr, FALSE)
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        a = expect_tensor(operand_types, 0, "tensor_a")
        b = expect_tensor(operand_types, 1, "tensor_b")
        a_type = common_element_type(operand_types, 0, 1)
        out = matmul_shape(a, b, get_bool(props, "transpose_a"), get_bool(props, "transpose_b"))
        return [tensor_type(out, check_dtype(props.get("out_dtype") or a_type))]


OPS = (SumOp, MeanOp, MaxOp, MinOp, ProdOp, ArgmaxOp, ArgminOp, MatmulOp)
