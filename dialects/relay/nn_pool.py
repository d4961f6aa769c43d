"""Pooling relay ops: `relay.nn.max_pool2d`, `avg_pool2d` and the global pools.

Output extents follow TVM's `Pool2DRel`: with `window = dilation * (pool - 1) + 1`
and `pad` the sum of both sides' padding, `(H + pad - window) // stride + 1`, or
with `ceil_mode` the ceiling division, `(H + pad - window + stride - 1) // stride + 1`;
TVM computes the extra windows by padding the bottom/right by `stride - 1` more,
so a window may start, or lie entirely, in the padding. A dynamic H or W stays
dynamic. See https://tvm.apache.org/docs/reference/api/python/relay/nn.html.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, i1
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_bool,
    get_ints,
    get_str,
    int_list_attr,
)
from xrelay.dialects.relay.nn import (
    element_type,
    expect_len,
    expect_non_negative,
    expect_positive,
    known,
    layout_dims,
    pad_2d,
)
from xrelay.dialects.relay.types import ANY, tensor_type


def pool_out(size: int, pad: int, kernel: int, stride: int, dilation: int, ceil: bool) -> int:
    """One output extent of a pool (TVM's Pool2DRel), dynamic stays dynamic."""
    if not known(size):
        return ANY
    window = dilation * (kernel - 1) + 1
    if size + pad < window:
        raise RelayTypeError(
            f"pool window of size {window} does not fit input extent {size} with padding {pad}"
        )
    span = size + pad - window
    return (span + stride - 1) // stride + 1 if ceil else span // stride + 1


def layout_shape(shape: Sequence[int], layout: str) -> tuple[int, int, int, int]:
    """(N, C, H, W) of a 4-D shape in `layout`."""
    n, c, h, w = (shape[layout.index(d)] for d in "NCHW")
    return n, c, h, w


def from_nchw(n: int, c: int, h: int, w: int, layout: str) -> tuple[int, ...]:
    """A shape given as N, C, H, W, in `layout`."""
    dims = {"N": n, "C": c, "H": h, "W": w}
    return tuple(dims[d] for d in layout)


POOL_LAYOUTS = ("NCHW", "NHWC")


class Pool2DOp(RelayOp):
    """Base of `max_pool2d` / `avg_pool2d`.

    `pool_size`, `strides` and `dilation` are 2 positive values (H, W);
    `padding` is 1, 2 or 4 non-negative values (all; top/bottom, left/right;
    top, left, bottom, right); `layout` is NCHW or NHWC; the window must fit
    the padded input.
    """

    data = operand_def(TensorType)
    result = result_def(TensorType)
    pool_size = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0]))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    ceil_mode = prop_def(IntegerAttr, IntegerAttr(0, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_rank(data, 4, "data")
        layout = layout_dims(get_str(props, "layout"), POOL_LAYOUTS, "layout")
        pool = get_ints(props, "pool_size")
        strides, dilation = get_ints(props, "strides"), get_ints(props, "dilation")
        padding = get_ints(props, "padding")
        expect_len(pool, (2,), "pool_size")
        expect_len(strides, (2,), "strides")
        expect_len(dilation, (2,), "dilation")
        expect_len(padding, (1, 2, 4), "padding")
        expect_positive(pool, "pool_size")
        expect_positive(strides, "strides")
        expect_positive(dilation, "dilation")
        expect_non_negative(padding, "padding")
        top, left, bottom, right = pad_2d(padding)
        ceil = get_bool(props, "ceil_mode")
        n, c, h, w = layout_shape(data, layout)
        oh = pool_out(h, top + bottom, pool[0], strides[0], dilation[0], ceil)
        ow = pool_out(w, left + right, pool[1], strides[1], dilation[1], ceil)
        return [tensor_type(from_nchw(n, c, oh, ow, layout), element_type(operand_types[0]))]


@irdl_op_definition
class MaxPool2DOp(Pool2DOp):
    """`relay.nn.max_pool2d`: the maximum of each window.

    Padding holds the dtype's lowest value, as in TVM: it never wins against
    data, and a window lying entirely in the padding gives that lowest value
    (e.g. -3.4028235e38 for f32).
    """

    name = "relay.nn.max_pool2d"


@irdl_op_definition
class AvgPool2DOp(Pool2DOp):
    """`relay.nn.avg_pool2d`: the mean of each window.

    As in TVM, the divisor counts the window's elements inside the input, or,
    with `count_include_pad`, inside the input plus its declared padding (the
    extra `ceil_mode` padding never counts). A window with nothing to count
    gives 0 (where TVM divides 0 by 0 with `count_include_pad`).
    """

    name = "relay.nn.avg_pool2d"

    count_include_pad = prop_def(IntegerAttr, IntegerAttr(0, i1))


class GlobalPool2DOp(RelayOp):
    """Base of the global pools: H and W reduce to 1."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_rank(data, 4, "data")
        layout = layout_dims(get_str(props, "layout"), POOL_LAYOUTS, "layout")
        n, c, _, _ = layout_shape(data, layout)
        return [tensor_type(from_nchw(n, c, 1, 1, layout), element_type(operand_types[0]))]


@irdl_op_definition
class GlobalAvgPool2DOp(GlobalPool2DOp):
    """`relay.nn.global_avg_pool2d`: the mean over H and W."""

    name = "relay.nn.global_avg_pool2d"


@irdl_op_definition
class GlobalMaxPool2DOp(GlobalPool2DOp):
    """`relay.nn.global_max_pool2d`: the maximum over H and W."""

    name = "relay.nn.global_max_pool2d"


OPS = (MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp, GlobalMaxPool2DOp)
