"""`relay.nn` ops the ONNX frontend needs besides the normalizations: batch_matmul, prelu,
adaptive_avg_pool2d, adaptive_max_pool2d.

Names, attributes and defaults are TVM's (`tvm.relay.nn`, `src/relay/op/nn/nn.h`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, i1, i64
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
    expect_float,
    expect_rank,
    expect_tensor,
    get_bool,
    get_int,
    get_ints,
    get_str,
    int_list_attr,
    normalize_axis,
)
from xrelay.dialects.relay.nn import (
    element_type,
    expect_data_rank,
    expect_len,
    expect_positive,
    expect_same_element_type,
    known,
    layout_dims,
    result_dtype,
)
from xrelay.dialects.relay.nn_pool import POOL_LAYOUTS, from_nchw, layout_shape
from xrelay.dialects.relay.types import ANY, format_shape, tensor_type


def batch_dim(x: int, y: int) -> int:
    """The result's batch of TVM's BatchMatmulRel: equal batches, or one of them 1."""
    if not known(x) or not known(y):
        return y if x == 1 else x if y == 1 else ANY
    if x != y and 1 not in (x, y):
        raise RelayTypeError(f"batch dims {x} and {y} differ and neither is 1")
    return max(x, y)


@irdl_op_definition
class BatchMatmulOp(RelayOp):
    """`relay.nn.batch_matmul`: a matrix product per batch.

    `x` is `[B, M, K]` (`[B, K, M]` with `transpose_a`), `y` is `[B, N, K]`
    with `transpose_b` (TVM's default) or `[B, K, N]` without; a batch of 1 on
    either side broadcasts. The result is `[B, M, N]` in `out_dtype` (default:
    the data's dtype); floats accumulate in float64, integers in 64 bits and
    wrap to `out_dtype`.
    """

    name = "relay.nn.batch_matmul"

    x = operand_def(TensorType)
    y = operand_def(TensorType)
    result = result_def(TensorType)
    out_dtype = opt_prop_def(TypeAttribute)
    transpose_a = prop_def(IntegerAttr, IntegerAttr(0, i1))
    transpose_b = prop_def(IntegerAttr, IntegerAttr(1, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        x = expect_tensor(operand_types, 0, "x")
        y = expect_tensor(operand_types, 1, "y")
        expect_rank(x, 3, "x")
        expect_rank(y, 3, "y")
        expect_same_element_type(operand_types, 1, "y")
        m, k_x = (x[2], x[1]) if get_bool(props, "transpose_a") else (x[1], x[2])
        n, k_y = (y[1], y[2]) if get_bool(props, "transpose_b") else (y[2], y[1])
        if known(k_x) and known(k_y) and k_x != k_y:
            raise RelayTypeError(
                f"x {format_shape(x)} and y {format_shape(y)} disagree on the reduction dim: "
                f"{k_x} vs {k_y}"
            )
        batch = batch_dim(x[0], y[0])
        return [tensor_type((batch, m, n), result_dtype(props, operand_types[0]))]


@irdl_op_definition
class PReluOp(RelayOp):
    """`relay.nn.prelu`: `x if x > 0 else x * alpha[c]`, `c` the index on `axis` (default 1).

    `alpha` is `[C]`, C the data's dim on `axis`; floats only. As `leaky_relu`,
    NaN stays NaN and `-0.0` becomes `-0.0 * alpha[c]`.
    """

    name = "relay.nn.prelu"

    data = operand_def(TensorType)
    alpha = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        alpha = expect_tensor(operand_types, 1, "alpha")
        expect_float(operand_types, 0)
        expect_data_rank(data)
        axis = normalize_axis(get_int(props, "axis"), len(data))
        expect_rank(alpha, 1, "alpha")
        expect_same_element_type(operand_types, 1, "alpha")
        if known(data[axis]) and known(alpha[0]) and data[axis] != alpha[0]:
            raise RelayTypeError(
                f"alpha of size {alpha[0]} does not match data dim {data[axis]} on axis {axis}"
            )
        return [operand_types[0]]


def adaptive_out(size: Sequence[int], h: int, w: int) -> tuple[int, int]:
    """TVM's AdaptivePool2DRel: no `output_size` keeps H and W, one value is both."""
    if not size:
        return h, w
    return (size[0], size[0]) if len(size) == 1 else (size[0], size[1])


def adaptive_window(index: int, out: int, extent: int) -> tuple[int, int]:
    """The input rows `[start, end)` of output row `index` (TOPI's adaptive_pool):
    `floor(index * extent / out)` to `ceil((index + 1) * extent / out)`."""
    return index * extent // out, -(-(index + 1) * extent // out)


class AdaptivePool2DOp(RelayOp):
    """Base of the adaptive pools: output H and W are given, each output element pools the
    window `adaptive_window` gives on each side (windows overlap when the sizes do not
    divide). `output_size` is empty (H and W unchanged), one value or two; layout
    NCHW or NHWC.
    """

    data = operand_def(TensorType)
    result = result_def(TensorType)
    output_size = prop_def(DenseArrayBase, int_list_attr([]))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_rank(data, 4, "data")
        layout = layout_dims(get_str(props, "layout"), POOL_LAYOUTS, "layout")
        size = get_ints(props, "output_size")
        expect_len(size, (0, 1, 2), "output_size")
        expect_positive(size, "output_size")
        n, c, h, w = layout_shape(data, layout)
        oh, ow = adaptive_out(size, h, w)
        return [tensor_type(from_nchw(n, c, oh, ow, layout), element_type(operand_types[0]))]


@irdl_op_definition
class AdaptiveAvgPool2DOp(AdaptivePool2DOp):
    """`relay.nn.adaptive_avg_pool2d`: the mean of each window (in float64; integers
    truncate toward zero as `avg_pool2d`'s); an empty input's windows give NaN (0 / 0)."""

    name = "relay.nn.adaptive_avg_pool2d"


@irdl_op_definition
class AdaptiveMaxPool2DOp(AdaptivePool2DOp):
    """`relay.nn.adaptive_max_pool2d`: the maximum of each window (NaN wins, as
    `max_pool2d`'s); an empty input's windows give -inf (integers: the type's lowest)."""

    name = "relay.nn.adaptive_max_pool2d"


OPS = (BatchMatmulOp, PReluOp, AdaptiveAvgPool2DOp, AdaptiveMaxPool2DOp)
