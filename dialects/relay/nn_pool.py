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
from typing import ClassVar

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
from xrelay.dialects.relay.layout_blocked import blocked_pool_types
from xrelay.dialects.relay.nn import (
    element_type,
    expect_len,
    expect_non_negative,
    expect_positive,
    known,
    layout_dims,
)
from xrelay.dialects.relay.nn_conv import pad_lengths, pad_nd
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


class PoolNdOp(RelayOp):
    """Base of the max and average pools over `RANK` spatial dims (the D, H, W letters of
    `layout`).

    `pool_size`, `strides` and `dilation` are `RANK` positive values; `padding`
    is 1, `RANK` or `2 * RANK` non-negative values (all; one per dim on both
    sides; the befores then the afters); the window must fit the padded input.
    """

    RANK: ClassVar[int]
    LAYOUTS: ClassVar[tuple[str, ...]]

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        rank = cls.RANK
        if rank == 2 and get_str(props, "layout") not in cls.LAYOUTS:
            return blocked_pool_types(cls.infer_result_types, operand_types, props)
        data = expect_tensor(operand_types, 0)
        expect_rank(data, rank + 2, "data")
        layout = layout_dims(get_str(props, "layout"), cls.LAYOUTS, "layout")
        pool = get_ints(props, "pool_size")
        strides, dilation = get_ints(props, "strides"), get_ints(props, "dilation")
        padding = get_ints(props, "padding")
        expect_len(pool, (rank,), "pool_size")
        expect_len(strides, (rank,), "strides")
        expect_len(dilation, (rank,), "dilation")
        expect_len(padding, pad_lengths(rank), "padding")
        expect_positive(pool, "pool_size")
        expect_positive(strides, "strides")
        expect_positive(dilation, "dilation")
        expect_non_negative(padding, "padding")
        before, after = pad_nd(padding, rank)
        ceil = get_bool(props, "ceil_mode")
        spatial = [d for d in layout if d in "DHW"]
        dims = {d: data[layout.index(d)] for d in layout}
        for axis, d in enumerate(spatial):
            dims[d] = pool_out(
                dims[d],
                before[axis] + after[axis],
                pool[axis],
                strides[axis],
                dilation[axis],
                ceil,
            )
        return [tensor_type([dims[d] for d in layout], element_type(operand_types[0]))]


class Pool2DOp(PoolNdOp):
    """Base of `max_pool2d` / `avg_pool2d`: layout NCHW or NHWC, or (as TVM) any layout of
    N, C, H, W that does not split H or W (`NCHW4c`, `layout_blocked.py`); `padding` is 1,
    2 or 4 values (all; top/bottom, left/right; top, left, bottom, right)."""

    RANK: ClassVar[int] = 2
    LAYOUTS: ClassVar[tuple[str, ...]] = POOL_LAYOUTS

    pool_size = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0]))
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    ceil_mode = prop_def(IntegerAttr, IntegerAttr(0, i1))


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
    """Base of the global pools: H and W reduce to 1 (layouts as `Pool2DOp`'s)."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    layout = prop_def(StringAttr, StringAttr("NCHW"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        if get_str(props, "layout") not in POOL_LAYOUTS:
            return blocked_pool_types(cls.infer_result_types, operand_types, props)
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


class Pool1DOp(PoolNdOp):
    """Base of `max_pool1d` / `avg_pool1d`: layout NCW or NWC; `padding` is 1 or 2 values
    (both sides; left, right)."""

    RANK: ClassVar[int] = 1
    LAYOUTS: ClassVar[tuple[str, ...]] = ("NCW", "NWC")

    pool_size = prop_def(DenseArrayBase, int_list_attr([1]))
    strides = prop_def(DenseArrayBase, int_list_attr([1]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0]))
    layout = prop_def(StringAttr, StringAttr("NCW"))
    ceil_mode = prop_def(IntegerAttr, IntegerAttr(0, i1))


class Pool3DOp(PoolNdOp):
    """Base of `max_pool3d` / `avg_pool3d`: layout NCDHW or NDHWC; `padding` is 1, 3 or 6
    values (all; front/back, top/bottom, left/right; front, top, left, back, bottom,
    right)."""

    RANK: ClassVar[int] = 3
    LAYOUTS: ClassVar[tuple[str, ...]] = ("NCDHW", "NDHWC")

    pool_size = prop_def(DenseArrayBase, int_list_attr([1, 1, 1]))
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1, 1]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0, 0, 0]))
    layout = prop_def(StringAttr, StringAttr("NCDHW"))
    ceil_mode = prop_def(IntegerAttr, IntegerAttr(0, i1))


@irdl_op_definition
class MaxPool1DOp(Pool1DOp):
    """`relay.nn.max_pool1d`: the maximum of each window; padding as max_pool2d's (the
    dtype's lowest value)."""

    name = "relay.nn.max_pool1d"


@irdl_op_definition
class AvgPool1DOp(Pool1DOp):
    """`relay.nn.avg_pool1d`: the mean of each window, counted as avg_pool2d's."""

    name = "relay.nn.avg_pool1d"

    count_include_pad = prop_def(IntegerAttr, IntegerAttr(0, i1))


@irdl_op_definition
class MaxPool3DOp(Pool3DOp):
    """`relay.nn.max_pool3d`: the maximum of each window; padding as max_pool2d's (the
    dtype's lowest value)."""

    name = "relay.nn.max_pool3d"


@irdl_op_definition
class AvgPool3DOp(Pool3DOp):
    """`relay.nn.avg_pool3d`: the mean of each window, counted as avg_pool2d's."""

    name = "relay.nn.avg_pool3d"

    count_include_pad = prop_def(IntegerAttr, IntegerAttr(0, i1))


OPS = (MaxPool2DOp, AvgPool2DOp, GlobalAvgPool2DOp, GlobalMaxPool2DOp)

OPS_ND = (MaxPool1DOp, AvgPool1DOp, MaxPool3DOp, AvgPool3DOp)
"""The pools of other ranks (registered after every other group, `relay.RELAY`)."""
