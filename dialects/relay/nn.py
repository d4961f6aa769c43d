"""Neural-network relay ops (`relay.nn.*`): convolution, dense, activations, norms, pad.

The pools live in `nn_pool`. Names, attributes and defaults are TVM's; see
https://tvm.apache.org/docs/reference/api/python/relay/nn.html (tvm.relay.nn).
A dynamic dim (`?`) propagates wherever the output does not depend on its value.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    TupleType,
    f64,
    i1,
    i64,
)
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
    expect_float,
    expect_rank,
    expect_tensor,
    get_float,
    get_int,
    get_ints,
    get_opt_int,
    get_opt_ints,
    get_str,
    int_list_attr,
    normalize_axis,
)
from xrelay.dialects.relay.elementwise import FloatUnaryOp, UnaryElementwiseOp
from xrelay.dialects.relay.nn_conv_blocked import blocked_conv2d_types
from xrelay.dialects.relay.types import (
    ANY,
    format_shape,
    tensor_element_type,
    tensor_type,
    tuple_type,
)

element_type = tensor_element_type
"""The element type of a tensor type (shared with `nn_pool`)."""


def expect_same_element_type(types: Sequence[Attribute], index: int, what: str) -> None:
    """Operand `index` (named `what`) must have the element type of operand 0 (the data)."""
    actual, data = element_type(types[index]), element_type(types[0])
    if actual != data:
        raise RelayTypeError(f"{what} element type {actual} does not match data {data}")


def result_dtype(props: Props, data_type: Attribute) -> Attribute:
    """`out_dtype` when given (it must be a supported dtype), else the data's element type."""
    out_dtype = props.get("out_dtype")
    if out_dtype is None:
        return element_type(data_type)
    return check_dtype(out_dtype, "out_dtype")


def expect_data_rank(shape: Sequence[int]) -> None:
    """The data must have rank at least 1 (an axis or a batch dim to work on)."""
    if not shape:
        raise RelayTypeError("expected data of rank at least 1, got rank 0")


def expect_positive(values: Sequence[int], what: str) -> None:
    """Every value must be >= 1."""
    if any(v < 1 for v in values):
        raise RelayTypeError(f"{what} must be positive, got {list(values)}")


def expect_non_negative(values: Sequence[int], what: str) -> None:
    """Every value must be >= 0."""
    if any(v < 0 for v in values):
        raise RelayTypeError(f"{what} must be non-negative, got {list(values)}")


def expect_len(values: Sequence[int], lengths: Sequence[int], what: str) -> None:
    """A list attribute must have one of the allowed lengths."""
    if len(values) not in lengths:
        options = [str(n) for n in lengths]
        allowed = (
            options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
        )
        raise RelayTypeError(f"{what} must have {allowed} values, got {len(values)}")


def pad_2d(padding: Sequence[int]) -> tuple[int, int, int, int]:
    """TVM's `get_pad_tuple2d`: 1, 2 or 4 ints to (top, left, bottom, right)."""
    if len(padding) == 1:
        return (padding[0], padding[0], padding[0], padding[0])
    if len(padding) == 2:
        return (padding[0], padding[1], padding[0], padding[1])
    top, left, bottom, right = padding
    return (top, left, bottom, right)


def window_out(size: int, pad: int, kernel: int, stride: int, dilation: int = 1) -> int:
    """Output extent of a sliding window; a dynamic size or kernel gives a dynamic extent."""
    if ANY in (size, kernel):
        return ANY
    window = dilation * (kernel - 1) + 1
    if size + pad < window:
        raise RelayTypeError(
            f"window of size {window} does not fit input extent {size} with padding {pad}"
        )
    return (size + pad - window) // stride + 1


def layout_dims(layout: str, allowed: Sequence[str], what: str) -> str:
    """Check a layout string against the supported ones."""
    if layout not in allowed:
        raise RelayTypeError(f"unknown {what} '{layout}'; expected one of {', '.join(allowed)}")
    return layout


def known(dim: int) -> bool:
    """Whether a dim is static (not `?`)."""
    return dim != ANY


CONV_DATA_LAYOUTS = ("NCHW", "NHWC")
CONV_KERNEL_LAYOUTS = ("OIHW", "HWIO", "OHWI", "HWOI")


def conv2d_params(
    props: Props,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, int, int, int], int]:
    """Validated (strides, dilation, padding as 4 values, groups) of a conv2d."""
    strides, dilation = get_ints(props, "strides"), get_ints(props, "dilation")
    padding = get_ints(props, "padding")
    expect_len(strides, (2,), "strides")
    expect_len(dilation, (2,), "dilation")
    expect_len(padding, (1, 2, 4), "padding")
    expect_positive(strides, "strides")
    expect_positive(dilation, "dilation")
    expect_non_negative(padding, "padding")
    groups = get_int(props, "groups")
    if groups < 1:
        raise RelayTypeError(f"groups must be positive, got {groups}")
    return strides, dilation, pad_2d(padding), groups


def conv2d_kernel(props: Props, o: int, kh: int, kw: int) -> tuple[int, int, int]:
    """Output channels and kernel extents, checked against `channels` / `kernel_size`.

    A `?` in the weight is filled in from the attribute when it is given.
    """
    channels = get_opt_int(props, "channels")
    if channels is not None:
        if channels < 1:
            raise RelayTypeError(f"channels must be positive, got {channels}")
        if known(o) and channels != o:
            raise RelayTypeError(f"channels {channels} do not match weight output channels {o}")
        o = channels
    kernel_size = get_opt_ints(props, "kernel_size")
    if kernel_size is not None:
        expect_len(kernel_size, (2,), "kernel_size")
        expect_positive(kernel_size, "kernel_size")
        if any(known(k) and k != s for k, s in zip((kh, kw), kernel_size, strict=True)):
            shown = ", ".join("?" if not known(k) else str(k) for k in (kh, kw))
            raise RelayTypeError(
                f"kernel_size {list(kernel_size)} does not match weight kernel [{shown}]"
            )
        kh, kw = kernel_size
    return o, kh, kw


@irdl_op_definition
class Conv2DOp(RelayOp):
    """`relay.nn.conv2d`: grouped, dilated 2-D convolution.

    Operands: data (`data_layout` NCHW or NHWC) and weight (`kernel_layout`
    OIHW, HWIO, OHWI or HWOI), or, as TVM, any other layout of the primal axes
    N, C, H, W and O, I, H, W, blocked ones included (`NCHW4c` data, `OIHW4i4o`
    or `OIHW4o` kernels, `HWNC`): checked in NCHW / OIHW (`nn_conv_blocked.py`).
    With `groups` = G the data's C channels split into G groups of C / G, and
    the weight's I must be C / G (depthwise: G = C, I = 1). `padding` is 1, 2
    or 4 values (all; top/bottom, left/right; top, left, bottom, right). The
    output is `out_dtype` (default: the data's dtype) in the data layout.
    """

    name = "relay.nn.conv2d"

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    groups = prop_def(IntegerAttr, IntegerAttr(1, i64))
    channels = opt_prop_def(IntegerAttr)
    kernel_size = opt_prop_def(DenseArrayBase)
    data_layout = prop_def(StringAttr, StringAttr("NCHW"))
    kernel_layout = prop_def(StringAttr, StringAttr("OIHW"))
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        weight = expect_tensor(operand_types, 1, "weight")
        layouts = get_str(props, "data_layout"), get_str(props, "kernel_layout")
        if layouts[0] not in CONV_DATA_LAYOUTS or layouts[1] not in CONV_KERNEL_LAYOUTS:
            return blocked_conv2d_types(cls.infer_result_types, operand_types, props)
        expect_rank(data, 4, "data")
        expect_rank(weight, 4, "weight")
        expect_same_element_type(operand_types, 1, "weight")
        data_layout = layout_dims(get_str(props, "data_layout"), CONV_DATA_LAYOUTS, "data_layout")
        kernel_layout = layout_dims(
            get_str(props, "kernel_layout"), CONV_KERNEL_LAYOUTS, "kernel_layout"
        )
        strides, dilation, (top, left, bottom, right), groups = conv2d_params(props)
        n, c, h, w = (data[data_layout.index(d)] for d in "NCHW")
        o, i, kh, kw = (weight[kernel_layout.index(d)] for d in "OIHW")
        o, kh, kw = conv2d_kernel(props, o, kh, kw)
        if known(c) and c % groups != 0:
            raise RelayTypeError(f"input channels {c} are not divisible by groups {groups}")
        if known(o) and o % groups != 0:
            raise RelayTypeError(f"output channels {o} are not divisible by groups {groups}")
        if known(c) and known(i) and i != c // groups:
            raise RelayTypeError(
                f"weight input channels {i} do not match data channels {c} / groups {groups}; "
                f"data {format_shape(data)} ({data_layout}), weight {format_shape(weight)} "
                f"({kernel_layout})"
            )
        oh = window_out(h, top + bottom, kh, strides[0], dilation[0])
        ow = window_out(w, left + right, kw, strides[1], dilation[1])
        out_dtype = result_dtype(props, operand_types[0])
        if data_layout == "NCHW":
            return [tensor_type((n, o, oh, ow), out_dtype)]
        return [tensor_type((n, oh, ow, o), out_dtype)]


@irdl_op_definition
class BiasAddOp(RelayOp):
    """`relay.nn.bias_add`: add a 1-D bias along `axis`."""

    name = "relay.nn.bias_add"

    data = operand_def(TensorType)
    bias = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        bias = expect_tensor(operand_types, 1, "bias")
        expect_data_rank(data)
        expect_rank(bias, 1, "bias")
        axis = normalize_axis(get_int(props, "axis"), len(data))
        expect_same_element_type(operand_types, 1, "bias")
        if known(data[axis]) and known(bias[0]) and data[axis] != bias[0]:
            raise RelayTypeError(
                f"bias of size {bias[0]} does not match data dim {data[axis]} on axis {axis}"
            )
        return [operand_types[0]]


@irdl_op_definition
class ReluOp(UnaryElementwiseOp):
    """`relay.nn.relu`: `max(x, 0)`."""

    name = "relay.nn.relu"


@irdl_op_definition
class LeakyReluOp(FloatUnaryOp):
    """`relay.nn.leaky_relu`: `x if x > 0 else alpha * x`."""

    name = "relay.nn.leaky_relu"

    alpha = prop_def(FloatAttr, FloatAttr(0.01, f64))


@irdl_op_definition
class DenseOp(RelayOp):
    """`relay.nn.dense`: `data @ weight.T`; data `[..., K]`, weight `[units, K]`.

    The result is `[..., units]` of `out_dtype` (default: the data's dtype).
    """

    name = "relay.nn.dense"

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)
    units = opt_prop_def(IntegerAttr)
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        weight = expect_tensor(operand_types, 1, "weight")
        expect_data_rank(data)
        expect_rank(weight, 2, "weight")
        expect_same_element_type(operand_types, 1, "weight")
        units, k = weight
        if known(data[-1]) and known(k) and data[-1] != k:
            raise RelayTypeError(
                f"data {format_shape(data)} and weight {format_shape(weight)} disagree on the "
                f"reduction dim: {data[-1]} vs {k}"
            )
        declared = get_opt_int(props, "units")
        if declared is not None:
            if declared < 1:
                raise RelayTypeError(f"units must be positive, got {declared}")
            if known(units) and units != declared:
                raise RelayTypeError(f"units {declared} do not match weight rows {units}")
            units = declared
        out_dtype = result_dtype(props, operand_types[0])
        return [tensor_type((*data[:-1], units), out_dtype)]


BATCH_NORM_PARAMS = ("gamma", "beta", "moving_mean", "moving_var")


@irdl_op_definition
class BatchNormOp(RelayOp):
    """`relay.nn.batch_norm`: normalize along `axis`; a tuple (out, mean, var) as in TVM.

    Operands: data, gamma, beta, moving_mean, moving_var (each `[C]`, C the
    data's dim on `axis`). The reference semantics are the inference form,
    `(x - moving_mean) / sqrt(moving_var + epsilon) * gamma + beta` (without
    `gamma` when `scale` is false, without `beta` when `center` is false); the
    other two fields are `moving_mean` and `moving_var`.
    """

    name = "relay.nn.batch_norm"

    data = operand_def(TensorType)
    gamma = operand_def(TensorType)
    beta = operand_def(TensorType)
    moving_mean = operand_def(TensorType)
    moving_var = operand_def(TensorType)
    result = result_def(TupleType)
    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))
    epsilon = prop_def(FloatAttr, FloatAttr(1e-5, f64))
    center = prop_def(IntegerAttr, IntegerAttr(1, i1))
    scale = prop_def(IntegerAttr, IntegerAttr(1, i1))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        expect_float(operand_types, 0)
        expect_data_rank(data)
        axis = normalize_axis(get_int(props, "axis"), len(data))
        epsilon = get_float(props, "epsilon")
        if not epsilon >= 0:
            raise RelayTypeError(f"epsilon must be non-negative, got {epsilon}")
        channels, reference = data[axis], f"data dim {data[axis]} on axis {axis}"
        for index, what in enumerate(BATCH_NORM_PARAMS, start=1):
            shape = expect_tensor(operand_types, index, what)
            expect_rank(shape, 1, what)
            expect_same_element_type(operand_types, index, what)
            if not known(channels):
                channels, reference = shape[0], f"{what} size {shape[0]}"
            elif known(shape[0]) and shape[0] != channels:
                raise RelayTypeError(f"{what} of size {shape[0]} does not match {reference}")
        vector = tensor_type((channels,), element_type(operand_types[0]))
        return [tuple_type([operand_types[0], vector, vector])]


@irdl_op_definition
class DropoutOp(RelayOp):
    """`relay.nn.dropout`: a tuple (out, mask) as in TVM; `rate` in [0, 1).

    The reference semantics are inference's: `out` is the input and `mask` is
    all ones. (The builder's `relay.nn.dropout` returns field 0, as TVM's does;
    `relay.nn.dropout_raw` returns the tuple.)
    """

    name = "relay.nn.dropout"

    data = operand_def(TensorType)
    result = result_def(TupleType)
    rate = prop_def(FloatAttr, FloatAttr(0.5, f64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_float(operand_types, 0)
        rate = get_float(props, "rate")
        if not 0.0 <= rate < 1.0:
            raise RelayTypeError(f"rate must be in [0, 1), got {rate}")
        return [tuple_type([operand_types[0], operand_types[0]])]


class _SoftmaxOp(RelayOp):
    """Base of softmax and log_softmax along `axis`."""

    data = operand_def(TensorType)
    result = result_def(TensorType)
    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_float(operand_types, 0)
        expect_data_rank(data)
        normalize_axis(get_int(props, "axis"), len(data))
        return [operand_types[0]]


@irdl_op_definition
class SoftmaxOp(_SoftmaxOp):
    """`relay.nn.softmax`: `exp(x) / sum(exp(x))` along `axis`."""

    name = "relay.nn.softmax"


@irdl_op_definition
class LogSoftmaxOp(_SoftmaxOp):
    """`relay.nn.log_softmax`: `x - log(sum(exp(x)))` along `axis`."""

    name = "relay.nn.log_softmax"


@irdl_op_definition
class BatchFlattenOp(RelayOp):
    """`relay.nn.batch_flatten`: `[N, d1, d2, ...]` to `[N, d1 * d2 * ...]`.

    A `?` among `d1, d2, ...` makes the second dim `?`; a `?` batch stays `?`.
    """

    name = "relay.nn.batch_flatten"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        expect_data_rank(data)
        rest = 1
        for d in data[1:]:
            rest = rest * d if known(d) and known(rest) else ANY
        return [tensor_type((data[0], rest), element_type(operand_types[0]))]


PAD_MODES = ("constant", "edge", "reflect", "wrap")


@irdl_op_definition
class PadOp(RelayOp):
    """`relay.nn.pad`: pad each axis before and after.

    `pad_width` is stored flat, two non-negative ints per axis:
    `[before0, after0, before1, after1, ...]`; it is TVM's nested
    `((before0, after0), (before1, after1), ...)`, which the builder takes.
    `pad_value` is a number (TVM passes an expression; the builder accepts a
    number or a scalar `relay.const`), used by `pad_mode = "constant"`.
    `"edge"` repeats the border element; `"reflect"` mirrors the data without
    repeating the border (each width must be smaller than its dim), e.g.
    `[1, 2, 3]` padded `(2, 2)` is `[3, 2, 1, 2, 3, 2, 1]`. `"wrap"` (ONNX's Pad mode,
    not TVM's) continues periodically: `[1, 2, 3]` padded `(2, 4)` is
    `[2, 3, 1, 2, 3, 1, 2, 3, 1]`.
    """

    name = "relay.nn.pad"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    pad_width = prop_def(DenseArrayBase)
    pad_value = prop_def(FloatAttr, FloatAttr(0.0, f64))
    pad_mode = prop_def(StringAttr, StringAttr("constant"))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        widths = get_ints(props, "pad_width")
        if len(widths) != 2 * len(data):
            raise RelayTypeError(
                f"pad_width must have 2 values per axis ({2 * len(data)}), got {len(widths)}"
            )
        expect_non_negative(widths, "pad_width")
        mode = get_str(props, "pad_mode")
        if mode not in PAD_MODES:
            raise RelayTypeError(
                f"unknown pad_mode '{mode}'; expected one of {', '.join(PAD_MODES)}"
            )
        out: list[int] = []
        for axis, d in enumerate(data):
            before, after = widths[2 * axis], widths[2 * axis + 1]
            widest = max(before, after)
            if mode == "reflect" and known(d) and widest >= d:
                raise RelayTypeError(
                    f"reflect padding {widest} must be smaller than dim {d} on axis {axis}"
                )
            if mode in ("edge", "wrap") and d == 0 and widest > 0:
                raise RelayTypeError(f"{mode} padding needs a non-empty dim, got 0 on axis {axis}")
            out.append(d + before + after if known(d) else ANY)
        return [tensor_type(out, element_type(operand_types[0]))]


OPS = (
    Conv2DOp,
    BiasAddOp,
    ReluOp,
    LeakyReluOp,
    DenseOp,
    BatchNormOp,
    DropoutOp,
    SoftmaxOp,
    LogSoftmaxOp,
    BatchFlattenOp,
    PadOp,
)
