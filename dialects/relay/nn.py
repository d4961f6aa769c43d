"""Neural-network relay ops (`relay.nn.*`): convolution, dense, activations, pools, norms.

See https://tvm.apache.org/docs/reference/api/python/relay/nn.html (tvm.relay.nn).
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
from xrelay.dialects.relay.types import (
    ANY,
    format_shape,
    is_float,
    tensor_element_type,
    tensor_type,
    tuple_type,
)


def element_type(t: Attribute) -> Attribute:
    """The element type of a tensor type."""
    return tensor_element_type(t)


def expect_float(types: Sequence[Attribute], index: int) -> None:
    """Operand `index` must be a floating-point tensor."""
    expect_tensor(types, index)
    if not is_float(element_type(types[index])):
        raise RelayTypeError(f"expected a floating-point operand, got {element_type(types[index])}")


def expect_positive(values: Sequence[int], what: str) -> None:
    """Every value must be >= 1."""
    if any(v < 1 for v in values):
        raise RelayTypeError(f"{what} must be positive, got {list(values)}")


def expect_len(values: Sequence[int], lengths: Sequence[int], what: str) -> None:
    """A list attribute must have one of the allowed lengths."""
    if len(values) not in lengths:
        allowed = " or ".join(str(n) for n in lengths)
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
    """Output extent of a sliding window; dynamic stays dynamic."""
    if size == ANY:
        return ANY
    out = (size + pad - dilation * (kernel - 1) - 1) // stride + 1
    if out < 1:
        raise RelayTypeError(
            f"window of size {dilation * (kernel - 1) + 1} does not fit input extent {size} "
            f"with padding {pad}"
        )
    return out


def layout_dims(layout: str, allowed: Sequence[str], what: str) -> str:
    """Check a layout string against the supported ones."""
    if layout not in allowed:
        raise RelayTypeError(f"unknown {what} '{layout}'; expected one of {', '.join(allowed)}")
    return layout


@irdl_op_definition
class Conv2DOp(RelayOp):
    """`relay.nn.conv2d`: 2-D convolution (NCHW/NHWC data, OIHW/HWIO kernel, groups)."""

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
        expect_rank(data, 4, "data")
        expect_rank(weight, 4, "weight")
        data_layout = layout_dims(get_str(props, "data_layout"), ("NCHW", "NHWC"), "data_layout")
        kernel_layout = layout_dims(
            get_str(props, "kernel_layout"), ("OIHW", "HWIO", "OHWI", "HWOI"), "kernel_layout"
        )
        strides, dilation = get_ints(props, "strides"), get_ints(props, "dilation")
        padding = get_ints(props, "padding")
        expect_len(strides, (2,), "strides")
        expect_len(dilation, (2,), "dilation")
        expect_len(padding, (2, 4), "padding")
        expect_positive(strides, "strides")
        expect_positive(dilation, "dilation")
        if any(p < 0 for p in padding):
            raise RelayTypeError(f"padding must be non-negative, got {list(padding)}")
        groups = get_int(props, "groups")
        if groups < 1:
            raise RelayTypeError(f"groups must be positive, got {groups}")

        n, c, h, w = (data[i] for i in (data_layout.index(d) for d in "NCHW"))
        o, i, kh, kw = (weight[kernel_layout.index(d)] for d in "OIHW")
        if c != ANY and c % groups != 0:
            raise RelayTypeError(f"input channels {c} are not divisible by groups {groups}")
        if o % groups != 0:
            raise RelayTypeError(f"output channels {o} are not divisible by groups {groups}")
        if c != ANY and i != c // groups:
            raise RelayTypeError(
                f"weight input channels {i} do not match data channels {c} / groups {groups}; "
                f"data {format_shape(data)} ({data_layout}), weight {format_shape(weight)} "
                f"({kernel_layout})"
            )
        channels = get_opt_int(props, "channels")
        if channels is not None and channels != o:
            raise RelayTypeError(f"channels {channels} do not match weight output channels {o}")
        kernel_size = get_opt_ints(props, "kernel_size")
        if kernel_size is not None and tuple(kernel_size) != (kh, kw):
            raise RelayTypeError(
                f"kernel_size {list(kernel_size)} does not match weight kernel {[kh, kw]}"
            )
        top, left, bottom, right = pad_2d(padding)
        oh = window_out(h, top + bottom, kh, strides[0], dilation[0])
        ow = window_out(w, left + right, kw, strides[1], dilation[1])
        out_dtype = props.get("out_dtype") or element_type(operand_types[0])
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
        expect_rank(bias, 1, "bias")
        axis = normalize_axis(get_int(props, "axis"), len(data))
        if element_type(operand_types[0]) != element_type(operand_types[1]):
            raise RelayTypeError(
                f"bias element type {element_type(operand_types[1])} does not match data "
                f"{element_type(operand_types[0])}"
            )
        if ANY not in (data[axis], bias[0]) and data[axis] != bias[0]:
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
    """`relay.nn.dense`: `data @ weight.T`; data `[..., K]`, weight `[units, K]`."""

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
        if not data:
            raise RelayTypeError("expected data of rank at least 1, got rank 0")
        expect_rank(weight, 2, "weight")
        if element_type(operand_types[0]) != element_type(operand_types[1]):
            raise RelayTypeError(
                f"weight element type {element_type(operand_types[1])} does not match data "
                f"{element_type(operand_types[0])}"
            )
        units, k = weight
        if ANY not in (data[-1], k) and data[-1] != k:
            raise RelayTypeError(
                f"data {format_shape(data)} and weight {format_shape(weight)} disagree on the "
                f"reduction dim: {data[-1]} vs {k}"
            )
        declared = get_opt_int(props, "units")
        if declared is not None and units not in (declared, ANY):
            raise RelayTypeError(f"units {declared} do not match weight rows {units}")
        out_dtype = props.get("out_dtype") or element_type(operand_types[0])
        return [tensor_type((*data[:-1], units), out_dtype)]


@irdl_op_definition
class BatchNormOp(RelayOp):
    """`relay.nn.batch_norm`: normalize along `axis`; a tuple (out, mean, var) as in TVM.

    Operands: data, gamma, beta, moving_mean, moving_var. The reference
    semantics are the inference form: `(x - mean) / sqrt(var + epsilon) * gamma + beta`.
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
        axis = normalize_axis(get_int(props, "axis"), len(data))
        if get_float(props, "epsilon") < 0:
            raise RelayTypeError(f"epsilon must be non-negative, got {get_float(props, 'epsilon')}")
        channels = data[axis]
        names = ("gamma", "beta", "moving_mean", "moving_var")
        for index, what in enumerate(names, start=1):
            shape = expect_tensor(operand_types, index, what)
            expect_rank(shape, 1, what)
            if ANY not in (shape[0], channels) and shape[0] != channels:
                raise RelayTypeError(
                    f"{what} of size {shape[0]} does not match data dim {channels} on axis {axis}"
                )
            if element_type(operand_types[index]) != element_type(operand_types[0]):
                raise RelayTypeError(f"{what} element type does not match data")
        vector = tensor_type((channels,), element_type(operand_types[0]))
        return [tuple_type([operand_types[0], vector, vector])]


@irdl_op_definition
class DropoutOp(RelayOp):
    """`relay.nn.dropout`: identity at inference; a tuple (out, mask) as in TVM."""

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
    """`relay.nn.batch_flatten`: `[N, d1, d2, ...]` to `[N, d1 * d2 * ...]`."""

    name = "relay.nn.batch_flatten"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0)
        if not data:
            raise RelayTypeError("expected data of rank at least 1, got rank 0")
        rest = 1
        for d in data[1:]:
            rest = ANY if ANY in (d, rest) else rest * d
        return [tensor_type((data[0], rest), element_type(operand_types[0]))]


PAD_MODES = ("constant", "edge", "reflect")


@irdl_op_definition
class PadOp(RelayOp):
    """`relay.nn.pad`: pad each axis before and after.

    `pad_width` is stored flat, two ints per axis:
    `[before0, after0, before1, after1, ...]` (TVM's `((b0, a0), (b1, a1), ...)`);
    `pad_value` is a number (TVM passes it as an expression).
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
        if any(w < 0 for w in widths):
            raise RelayTypeError(f"pad_width must be non-negative, got {list(widths)}")
        mode = get_str(props, "pad_mode")
        if mode not in PAD_MODES:
            raise RelayTypeError(
                f"unknown pad_mode '{mode}'; expected one of {', '.join(PAD_MODES)}"
            )
        out: list[int] = []
        for axis, d in enumerate(data):
            before, after = widths[2 * axis], widths[2 * axis + 1]
            if mode == "reflect" and d != ANY and max(before, after) >= d:
                widest = max(before, after)
                raise RelayTypeError(
                    f"reflect padding {widest} must be smaller than dim {d} on axis {axis}"
                )
            out.append(ANY if d == ANY else d + before + after)
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
