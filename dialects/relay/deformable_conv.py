"""`relay.nn.deformable_conv2d`: TVM's deformable 2-D convolution (arXiv:1703.06211).

Names, attributes and defaults are TVM's (`tvm.relay.nn.deformable_conv2d`); the sampling
is TOPI's (`deformable_conv2d_nchw`): see `DeformableConv2DOp`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, i64
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
    get_int,
    get_str,
    int_list_attr,
)
from xrelay.dialects.relay.nn import (
    CONV_DATA_LAYOUTS,
    CONV_KERNEL_LAYOUTS,
    conv2d_kernel,
    conv2d_params,
    expect_same_element_type,
    known,
    layout_dims,
    result_dtype,
    window_out,
)
from xrelay.dialects.relay.types import format_shape, is_float, tensor_type


class DeformableParams(NamedTuple):
    """The static description of one deformable_conv2d, in NCHW / OIHW terms."""

    strides: tuple[int, ...]
    dilation: tuple[int, ...]
    padding: tuple[int, int, int, int]
    """top, left, bottom, right"""
    groups: int
    deformable_groups: int


def deformable_params(props: Props) -> DeformableParams:
    """Validated strides, dilation, top/left padding and the two group counts."""
    strides, dilation, padding, groups = conv2d_params(props)
    deformable_groups = get_int(props, "deformable_groups")
    if deformable_groups < 1:
        raise RelayTypeError(f"deformable_groups must be positive, got {deformable_groups}")
    return DeformableParams(strides, dilation, padding, groups, deformable_groups)


def _check_divides(c: int, count: int, what: str) -> None:
    if known(c) and c % count != 0:
        raise RelayTypeError(f"input channels {c} are not divisible by {what} {count}")


@irdl_op_definition
class DeformableConv2DOp(RelayOp):
    """`relay.nn.deformable_conv2d`: a convolution whose taps are read at offset positions.

    Operands: data and offset (`data_layout` NCHW or NHWC) and weight (`kernel_layout`
    OIHW, HWIO, OHWI or HWOI). Output position (y, x) and kernel tap (kh, kw) of input
    channel c read the data at `(y * stride_h - pad_top + kh * dilation_h + dy,
    x * stride_w - pad_left + kw * dilation_w + dx)`, where `dy`, `dx` are offset channels
    `2 * (g * KH * KW + kh * KW + kw)` and the one after, `g` the deformable group of c
    (channels split into `deformable_groups` equal groups). The read is bilinear over
    the four neighbours, a neighbour outside the data counting 0; a position with y or x
    below 0 or at least H or W (or NaN) reads 0. Products with the weight are summed over
    the channels of the output channel's group (`groups`, as conv2d), KH and KW. The
    offset is [N, 2 * KH * KW * deformable_groups, OH, OW] in the data layout; the output
    is `out_dtype` (default the data's) in the data layout (`out_layout` "" or the same).
    """

    name = "relay.nn.deformable_conv2d"

    data = operand_def(TensorType)
    offset = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    deformable_groups = prop_def(IntegerAttr, IntegerAttr(1, i64))
    groups = prop_def(IntegerAttr, IntegerAttr(1, i64))
    channels = opt_prop_def(IntegerAttr)
    kernel_size = opt_prop_def(DenseArrayBase)
    data_layout = prop_def(StringAttr, StringAttr("NCHW"))
    kernel_layout = prop_def(StringAttr, StringAttr("OIHW"))
    out_layout = prop_def(StringAttr, StringAttr(""))
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        offset = expect_tensor(operand_types, 1, "offset")
        weight = expect_tensor(operand_types, 2, "weight")
        expect_rank(data, 4, "data")
        expect_rank(offset, 4, "offset")
        expect_rank(weight, 4, "weight")
        expect_float(operand_types, 0)
        expect_same_element_type(operand_types, 1, "offset")
        expect_same_element_type(operand_types, 2, "weight")
        layout = layout_dims(get_str(props, "data_layout"), CONV_DATA_LAYOUTS, "data_layout")
        kernel_layout = layout_dims(
            get_str(props, "kernel_layout"), CONV_KERNEL_LAYOUTS, "kernel_layout"
        )
        out_layout = get_str(props, "out_layout")
        if out_layout not in ("", layout):
            raise RelayTypeError(f"out_layout '{out_layout}' must be '' or '{layout}'")
        p = deformable_params(props)
        n, c, h, w = (data[layout.index(d)] for d in "NCHW")
        o, i, kh, kw = (weight[kernel_layout.index(d)] for d in "OIHW")
        o, kh, kw = conv2d_kernel(props, o, kh, kw)
        _check_divides(c, p.groups, "groups")
        _check_divides(c, p.deformable_groups, "deformable_groups")
        if known(o) and o % p.groups != 0:
            raise RelayTypeError(f"output channels {o} are not divisible by groups {p.groups}")
        if known(c) and known(i) and i != c // p.groups:
            raise RelayTypeError(
                f"weight input channels {i} do not match data channels {c} / groups {p.groups}"
            )
        top, left, bottom, right = p.padding
        oh = window_out(h, top + bottom, kh, p.strides[0], p.dilation[0])
        ow = window_out(w, left + right, kw, p.strides[1], p.dilation[1])
        taps = 2 * kh * kw * p.deformable_groups if known(kh) and known(kw) else -1
        want = {"N": n, "C": taps, "H": oh, "W": ow}
        for d in "NCHW":
            got, expected = offset[layout.index(d)], want[d]
            if known(got) and expected >= 0 and got != expected:
                shown = format_shape(tuple(want[e] for e in layout))
                raise RelayTypeError(
                    f"offset shape {format_shape(offset)} does not match {shown} "
                    f"(N, 2 * KH * KW * deformable_groups, OH, OW in {layout})"
                )
        out_dtype = result_dtype(props, operand_types[0])
        if not is_float(out_dtype):
            raise RelayTypeError(f"out_dtype must be a float type, got {out_dtype}")
        dims = {"N": n, "C": o, "H": oh, "W": ow}
        return [tensor_type([dims[d] for d in layout], out_dtype)]


OPS = (DeformableConv2DOp,)
