"""Convolutions of other ranks and transposed convolutions: `relay.nn.conv1d`, `conv3d`,
`conv1d_transpose`, `conv2d_transpose`, `conv3d_transpose`.

`relay.nn.conv2d` lives in `nn`; these share its attribute names and rules, over
R spatial dims (D, H, W letters in the layouts: `NCW`, `NCHW`, `NCDHW`).
`padding` is 1, R or 2R values (all; one per dim on both sides; the R
"before" values then the R "after" values), as TVM's `get_pad_tuple1d/2d/3d`.
See https://tvm.apache.org/docs/reference/api/python/relay/nn.html.

A transposed convolution is the gradient of a convolution with respect to
its data: with weight `[I, O / groups, K...]` (layout `IOW`/`IOHW`/`IODHW`) and
I the data's channels, input position `i` and tap `k` add
`x[i] * w[k]` to output position `i * stride + k * dilation - pad_before`, and
the output extent is `(size - 1) * stride + dilation * (kernel - 1) + 1 -
pad_before - pad_after + output_padding`. Output channels are
`O / groups * groups` (TVM's type relation reports the weight's O for
grouped transposes; its compute, and ONNX's ConvTranspose, give `O * groups`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

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
    expect_rank,
    expect_tensor,
    get_int,
    get_ints,
    get_opt_int,
    get_opt_ints,
    get_str,
    int_list_attr,
)
from xrelay.dialects.relay.nn import (
    expect_len,
    expect_non_negative,
    expect_positive,
    expect_same_element_type,
    known,
    layout_dims,
    result_dtype,
    window_out,
)
from xrelay.dialects.relay.types import ANY, format_shape, tensor_type

SPATIAL = {1: "W", 2: "HW", 3: "DHW"}
"""The spatial letters of a layout of each rank."""


def pad_nd(padding: Sequence[int], rank: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """TVM's `get_pad_tuple1d/2d/3d`: 1, `rank` or `2 * rank` values to (before, after)."""
    if len(padding) == 1:
        return (padding[0],) * rank, (padding[0],) * rank
    if len(padding) == rank:
        return tuple(padding), tuple(padding)
    return tuple(padding[:rank]), tuple(padding[rank:])


def pad_lengths(rank: int) -> tuple[int, ...]:
    """The allowed numbers of padding values for `rank` spatial dims."""
    return (1, 2) if rank == 1 else (1, rank, 2 * rank)


def transpose_out(
    size: int, before: int, after: int, kernel: int, stride: int, dilation: int, extra: int
) -> int:
    """Output extent of a transposed convolution; dynamic stays dynamic."""
    if ANY in (size, kernel):
        return ANY
    out = (size - 1) * stride + dilation * (kernel - 1) + 1 - before - after + extra
    if out < 0:
        raise RelayTypeError(
            f"padding {before} + {after} exceeds the transposed extent "
            f"{out + before + after} of input extent {size}"
        )
    return out


def _rank_list(props: Props, name: str, rank: int, positive: bool) -> tuple[int, ...]:
    values = get_ints(props, name)
    expect_len(values, (rank,), name)
    (expect_positive if positive else expect_non_negative)(values, name)
    return values


def _channels_and_kernel(
    props: Props, channels_of_weight: int, per_group: int, kernel: Sequence[int]
) -> tuple[int, tuple[int, ...]]:
    """Check `channels` and `kernel_size` against the weight; fill a `?` from them.

    `channels_of_weight` is the output channels the weight gives (`?` if not
    known); `per_group` divides `channels` to compare with a transposed weight's O.
    """
    out = channels_of_weight
    channels = get_opt_int(props, "channels")
    if channels is not None:
        if channels < 1:
            raise RelayTypeError(f"channels must be positive, got {channels}")
        if known(out) and channels != out:
            raise RelayTypeError(
                f"channels {channels} do not match weight output channels {out}"
                if per_group == 1
                else f"channels {channels} do not match weight output channels "
                f"{out // per_group} * groups {per_group}"
            )
        out = channels
    kernel_size = get_opt_ints(props, "kernel_size")
    if kernel_size is None:
        return out, tuple(kernel)
    expect_len(kernel_size, (len(kernel),), "kernel_size")
    expect_positive(kernel_size, "kernel_size")
    if any(known(k) and k != s for k, s in zip(kernel, kernel_size, strict=True)):
        shown = ", ".join(str(k) if known(k) else "?" for k in kernel)
        raise RelayTypeError(
            f"kernel_size {list(kernel_size)} does not match weight kernel [{shown}]"
        )
    return out, tuple(kernel_size)


class ConvNdOp(RelayOp):
    """Base of the convolutions of `RANK` spatial dims (transposed when `TRANSPOSE`).

    Operands: data (`data_layout`) and weight (`kernel_layout`); the output is
    `out_dtype` (default: the data's dtype) in the data layout. With `groups`
    = G the data's C channels split into G groups; a convolution's weight is
    `[O, C / G, K...]`, a transposed one's `[C, O / G, K...]`.
    """

    RANK: ClassVar[int]
    TRANSPOSE: ClassVar[bool] = False
    DATA_LAYOUTS: ClassVar[tuple[str, ...]]
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]]

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)
    groups = prop_def(IntegerAttr, IntegerAttr(1, i64))
    channels = opt_prop_def(IntegerAttr)
    kernel_size = opt_prop_def(DenseArrayBase)
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        rank, spatial = cls.RANK, SPATIAL[cls.RANK]
        data = expect_tensor(operand_types, 0, "data")
        weight = expect_tensor(operand_types, 1, "weight")
        expect_rank(data, rank + 2, "data")
        expect_rank(weight, rank + 2, "weight")
        expect_same_element_type(operand_types, 1, "weight")
        data_layout = layout_dims(get_str(props, "data_layout"), cls.DATA_LAYOUTS, "data_layout")
        kernel_layout = layout_dims(
            get_str(props, "kernel_layout"), cls.KERNEL_LAYOUTS, "kernel_layout"
        )
        strides = _rank_list(props, "strides", rank, True)
        dilation = _rank_list(props, "dilation", rank, True)
        padding = get_ints(props, "padding")
        expect_len(padding, pad_lengths(rank), "padding")
        expect_non_negative(padding, "padding")
        before, after = pad_nd(padding, rank)
        groups = get_int(props, "groups")
        if groups < 1:
            raise RelayTypeError(f"groups must be positive, got {groups}")
        n, c = data[data_layout.index("N")], data[data_layout.index("C")]
        sizes = [data[data_layout.index(d)] for d in spatial]
        o, i = weight[kernel_layout.index("O")], weight[kernel_layout.index("I")]
        kernel = [weight[kernel_layout.index(d)] for d in spatial]
        if known(c) and c % groups != 0:
            raise RelayTypeError(f"input channels {c} are not divisible by groups {groups}")
        shapes = (
            f"data {format_shape(data)} ({data_layout}), "
            f"weight {format_shape(weight)} ({kernel_layout})"
        )
        if cls.TRANSPOSE:
            if known(c) and known(i) and i != c:
                raise RelayTypeError(
                    f"weight input channels {i} do not match data channels {c}; {shapes}"
                )
            o, kernel = _channels_and_kernel(props, o * groups if known(o) else ANY, groups, kernel)
            if known(o) and o % groups != 0:
                raise RelayTypeError(f"output channels {o} are not divisible by groups {groups}")
            extra = _rank_list(props, "output_padding", rank, False)
            out = [
                transpose_out(d, b, a, k, s, dl, e)
                for d, b, a, k, s, dl, e in zip(
                    sizes, before, after, kernel, strides, dilation, extra, strict=True
                )
            ]
        else:
            o, kernel = _channels_and_kernel(props, o, 1, kernel)
            if known(o) and o % groups != 0:
                raise RelayTypeError(f"output channels {o} are not divisible by groups {groups}")
            if known(c) and known(i) and i != c // groups:
                raise RelayTypeError(
                    f"weight input channels {i} do not match data channels {c} / groups "
                    f"{groups}; {shapes}"
                )
            out = [
                window_out(d, b + a, k, s, dl)
                for d, b, a, k, s, dl in zip(
                    sizes, before, after, kernel, strides, dilation, strict=True
                )
            ]
        dims = {"N": n, "C": o, **dict(zip(spatial, out, strict=True))}
        return [tensor_type([dims[d] for d in data_layout], result_dtype(props, operand_types[0]))]


def _ints(rank: int, value: int) -> DenseArrayBase:
    return int_list_attr([value] * rank)


@irdl_op_definition
class Conv1DOp(ConvNdOp):
    """`relay.nn.conv1d`: grouped, dilated 1-D convolution (data NCW or NWC, weight OIW
    or WIO); `padding` is 1 or 2 values (both sides; left, right)."""

    name = "relay.nn.conv1d"
    RANK: ClassVar[int] = 1
    DATA_LAYOUTS: ClassVar[tuple[str, ...]] = ("NCW", "NWC")
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]] = ("OIW", "WIO")

    strides = prop_def(DenseArrayBase, _ints(1, 1))
    padding = prop_def(DenseArrayBase, _ints(2, 0))
    dilation = prop_def(DenseArrayBase, _ints(1, 1))
    data_layout = prop_def(StringAttr, StringAttr("NCW"))
    kernel_layout = prop_def(StringAttr, StringAttr("OIW"))


@irdl_op_definition
class Conv3DOp(ConvNdOp):
    """`relay.nn.conv3d`: grouped, dilated 3-D convolution (data NCDHW or NDHWC, weight
    OIDHW or DHWIO); `padding` is 1, 3 or 6 values (all; front/back, top/bottom,
    left/right; front, top, left, back, bottom, right)."""

    name = "relay.nn.conv3d"
    RANK: ClassVar[int] = 3
    DATA_LAYOUTS: ClassVar[tuple[str, ...]] = ("NCDHW", "NDHWC")
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]] = ("OIDHW", "DHWIO")

    strides = prop_def(DenseArrayBase, _ints(3, 1))
    padding = prop_def(DenseArrayBase, _ints(6, 0))
    dilation = prop_def(DenseArrayBase, _ints(3, 1))
    data_layout = prop_def(StringAttr, StringAttr("NCDHW"))
    kernel_layout = prop_def(StringAttr, StringAttr("OIDHW"))


@irdl_op_definition
class Conv1DTransposeOp(ConvNdOp):
    """`relay.nn.conv1d_transpose`: transposed 1-D convolution (data NCW or NWC, weight
    IOW or OIW); `output_padding` adds outputs at the right."""

    name = "relay.nn.conv1d_transpose"
    RANK: ClassVar[int] = 1
    TRANSPOSE: ClassVar[bool] = True
    DATA_LAYOUTS: ClassVar[tuple[str, ...]] = ("NCW", "NWC")
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]] = ("IOW", "OIW")

    strides = prop_def(DenseArrayBase, _ints(1, 1))
    padding = prop_def(DenseArrayBase, _ints(2, 0))
    output_padding = prop_def(DenseArrayBase, _ints(1, 0))
    dilation = prop_def(DenseArrayBase, _ints(1, 1))
    data_layout = prop_def(StringAttr, StringAttr("NCW"))
    kernel_layout = prop_def(StringAttr, StringAttr("IOW"))


@irdl_op_definition
class Conv2DTransposeOp(ConvNdOp):
    """`relay.nn.conv2d_transpose`: transposed 2-D convolution (ONNX ConvTranspose; data
    NCHW or NHWC, weight IOHW, OIHW, HWIO or HWOI); `padding` is 1, 2 or 4 values as
    conv2d's; `output_padding` adds outputs at the bottom and right."""

    name = "relay.nn.conv2d_transpose"
    RANK: ClassVar[int] = 2
    TRANSPOSE: ClassVar[bool] = True
    DATA_LAYOUTS: ClassVar[tuple[str, ...]] = ("NCHW", "NHWC")
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]] = ("IOHW", "OIHW", "HWIO", "HWOI")

    strides = prop_def(DenseArrayBase, _ints(2, 1))
    padding = prop_def(DenseArrayBase, _ints(4, 0))
    output_padding = prop_def(DenseArrayBase, _ints(2, 0))
    dilation = prop_def(DenseArrayBase, _ints(2, 1))
    data_layout = prop_def(StringAttr, StringAttr("NCHW"))
    kernel_layout = prop_def(StringAttr, StringAttr("IOHW"))


@irdl_op_definition
class Conv3DTransposeOp(ConvNdOp):
    """`relay.nn.conv3d_transpose`: transposed 3-D convolution (data NCDHW or NDHWC, weight
    IODHW or OIDHW); `padding` is 1, 3 or 6 values as conv3d's."""

    name = "relay.nn.conv3d_transpose"
    RANK: ClassVar[int] = 3
    TRANSPOSE: ClassVar[bool] = True
    DATA_LAYOUTS: ClassVar[tuple[str, ...]] = ("NCDHW", "NDHWC")
    KERNEL_LAYOUTS: ClassVar[tuple[str, ...]] = ("IODHW", "OIDHW")

    strides = prop_def(DenseArrayBase, _ints(3, 1))
    padding = prop_def(DenseArrayBase, _ints(6, 0))
    output_padding = prop_def(DenseArrayBase, _ints(3, 0))
    dilation = prop_def(DenseArrayBase, _ints(3, 1))
    data_layout = prop_def(StringAttr, StringAttr("NCDHW"))
    kernel_layout = prop_def(StringAttr, StringAttr("IODHW"))


OPS = (Conv1DOp, Conv3DOp, Conv1DTransposeOp, Conv2DTransposeOp, Conv3DTransposeOp)
