"""The `accel` dialect: shared definitions, and its reference semantics against relay's.

Every accel op is its relay op, then `+ bias` along the output channels, then
relu. Each case builds both sides with the same properties (the accel op, and
the relay op followed by `nn.bias_add` / `nn.relu`), runs them through the
reference interpreter on seeded random inputs, and expects the same numbers
bit for bit, with the same dtype.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, f64
from xdsl.ir import Attribute
from xdsl.irdl import OptionalDef
from xrelay.dialects import accel, get_all_dialects
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay import elementwise, nn, nn_pool
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.types import tensor_type

import xrelay
from xrelay import IRModule, relay

Props = dict[str, Attribute]
RNG = np.random.default_rng(2024)


def evaluate(
    inputs: Sequence[np.ndarray], build: Callable[[list[relay.Expr]], relay.Expr]
) -> np.ndarray:
    """`build` applied to one parameter per input, run by the reference interpreter."""
    params = [relay.var(f"p{i}", shape=a.shape, dtype=a.dtype.name) for i, a in enumerate(inputs)]
    mod = IRModule.from_expr(relay.Function(params, build(params)))
    return xrelay.evaluate(mod, *inputs)


def relay_chain(
    kernel: type[RelayOp], props: Props, has_bias: bool, has_relu: bool, axis: int
) -> Callable[[list[relay.Expr]], relay.Expr]:
    """`relu(bias_add(kernel(a, b), c, axis))`, without the parts that are off."""

    def build(args: list[relay.Expr]) -> relay.Expr:
        out: relay.Expr = relay.Call(kernel, args[:2], props)
        if has_bias:
            out = relay.Call(nn.BiasAddOp, [out, args[2]], {"axis": attrs.int_(axis)})
        return relay.Call(nn.ReluOp, [out]) if has_relu else out

    return build


def accel_call(
    kernel: type[accel.AccelOp], props: Props
) -> Callable[[list[relay.Expr]], relay.Expr]:
    """The accel op on all parameters."""
    return lambda args: relay.Call(kernel, args, props)


def flags(has_bias: bool, has_relu: bool) -> Props:
    """The accel properties for bias and relu."""
    return {"has_bias": attrs.bool_(has_bias), "has_relu": attrs.bool_(has_relu)}


def randn(*shape: int, dtype: str = "float32") -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


BIAS_RELU = list(itertools.product([False, True], repeat=2))


# --------------------------------------------------------------------------- #
# The dialect's definitions
# --------------------------------------------------------------------------- #


def test_dialect_is_registered_and_parses() -> None:
    assert get_all_dialects()["accel"]() is accel.ACCEL
    ops = {op.name for op in accel.OPS} | {accel.Conv2DWinogradOp.name}
    assert {op.name for op in accel.ACCEL.operations} == ops
    mod = xrelay.parse(
        "func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
        "  %0 = accel.subtract %a, %b {has_relu = true} : tensor<2x3xf32>\n"
        "  func.return %0 : tensor<2x3xf32>\n"
        "}\n"
    )
    a, b = randn(2, 3), randn(2, 3)
    assert_same(xrelay.evaluate(mod, a, b), np.maximum(a - b, np.float32(0)))


@pytest.mark.parametrize("op", accel.OPS, ids=lambda op: op.name)
def test_properties_are_the_relay_ops(op: type[accel.AccelOp]) -> None:
    """Each accel op has every property of its relay op, with the same constraint and default,
    plus only the bias/residual/relu flags (false by default) and the optional clip bounds."""
    ours = op.get_irdl_definition().properties
    theirs = op.RELAY.get_irdl_definition().properties
    for name, definition in theirs.items():
        assert name in ours, name
        assert ours[name].constr == definition.constr, name
        assert ours[name].default_value == definition.default_value, name
        assert isinstance(ours[name], OptionalDef) == isinstance(definition, OptionalDef), name
    clip = {"clip_min", "clip_max"}
    assert set(ours) - set(theirs) <= {"has_bias", "has_residual", "has_relu", *clip}
    for flag in set(ours) - set(theirs) - clip:
        assert ours[flag].default_value == attrs.bool_(False)
    for bound in clip & set(ours):
        assert isinstance(ours[bound], OptionalDef), bound


@pytest.mark.parametrize("op", accel.OPS, ids=lambda op: op.name)
def test_every_op_has_a_docstring_naming_it(op: type[accel.AccelOp]) -> None:
    doc = op.__doc__ or ""
    assert doc.startswith(f"`{op.name}`: "), doc
    assert len(doc.splitlines()[0]) > len(op.name) + 10


def test_types_are_relay_types() -> None:
    data, weight = (
        tensor_type((1, 4, 9, 9), attrs.dtype("int8")),
        tensor_type((8, 2, 3, 3), attrs.dtype("int8")),
    )
    props: Props = {"groups": attrs.int_(2), "out_dtype": attrs.dtype("int32")}
    want = nn.Conv2DOp.inferred_type([data, weight], props)
    assert accel.Conv2DOp.inferred_type([data, weight], props) == want
    bias = tensor_type((8,), attrs.dtype("int32"))
    assert accel.Conv2DOp.inferred_type([data, weight, bias], props | flags(True, True)) == want
    x, v = tensor_type((2, 3, 4, 5), f64), tensor_type((3,), f64)
    bn = accel.BatchNormOp.inferred_type([x, v, v, v, v], {})
    assert bn == x


# --------------------------------------------------------------------------- #
# Semantics against relay
# --------------------------------------------------------------------------- #

CONV_CASES: list[tuple[str, tuple[int, ...], tuple[int, ...], Props]] = [
    ("3x3_pad1", (1, 3, 8, 8), (4, 3, 3, 3), {"padding": attrs.ints([1, 1, 1, 1])}),
    (
        "strided_dilated_grouped",
        (2, 4, 9, 10),
        (6, 2, 3, 2),
        {
            "strides": attrs.ints([2, 1]),
            "padding": attrs.ints([1, 0, 2, 1]),
            "dilation": attrs.ints([1, 2]),
            "groups": attrs.int_(2),
            "channels": attrs.int_(6),
            "kernel_size": attrs.ints([3, 2]),
        },
    ),
    (
        "depthwise",
        (1, 5, 6, 6),
        (5, 1, 3, 3),
        {"groups": attrs.int_(5), "padding": attrs.ints([1])},
    ),
    (
        "nhwc_hwio",
        (1, 7, 7, 3),
        (3, 3, 3, 4),
        {"data_layout": attrs.str_("NHWC"), "kernel_layout": attrs.str_("HWIO")},
    ),
    (
        "nhwc_ohwi_strided",
        (2, 8, 8, 2),
        (3, 2, 2, 2),
        {
            "data_layout": attrs.str_("NHWC"),
            "kernel_layout": attrs.str_("OHWI"),
            "strides": attrs.ints([2, 2]),
        },
    ),
    ("out_dtype_f64", (1, 2, 5, 5), (3, 2, 1, 1), {"out_dtype": attrs.dtype("float64")}),
]


@pytest.mark.parametrize(("has_bias", "has_relu"), BIAS_RELU)
@pytest.mark.parametrize(
    ("data", "weight", "props"),
    [c[1:] for c in CONV_CASES],
    ids=[c[0] for c in CONV_CASES],
)
def test_conv2d(
    data: tuple[int, ...], weight: tuple[int, ...], props: Props, has_bias: bool, has_relu: bool
) -> None:
    layout, kernel_layout = props.get("data_layout"), props.get("kernel_layout")
    axis = layout.data.index("C") if isinstance(layout, StringAttr) else 1
    o = weight[kernel_layout.data.index("O") if isinstance(kernel_layout, StringAttr) else 0]
    out_dtype = "float64" if "out_dtype" in props else "float32"
    inputs = [randn(*data), randn(*weight)] + ([randn(o, dtype=out_dtype)] if has_bias else [])
    want = evaluate(inputs, relay_chain(nn.Conv2DOp, props, has_bias, has_relu, axis))
    got = evaluate(inputs, accel_call(accel.Conv2DOp, props | flags(has_bias, has_relu)))
    assert_same(got, want)
    if has_relu:
        assert (got >= 0).all()
        assert (got == 0).any()


@pytest.mark.parametrize(("has_bias", "has_relu"), BIAS_RELU)
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_conv2d_residual(layout: str, has_bias: bool, has_relu: bool) -> None:
    """`has_residual`: relu(conv + bias + residual), the residual in the data layout."""
    nhwc = layout == "NHWC"
    props: Props = {"padding": attrs.ints([1, 1, 1, 1]), "data_layout": attrs.str_(layout)}
    if nhwc:
        props["kernel_layout"] = attrs.str_("HWIO")
    data, weight = ((1, 5, 6, 3), (3, 3, 3, 4)) if nhwc else ((2, 3, 5, 6), (4, 3, 3, 3))
    out = (1, 5, 6, 4) if nhwc else (2, 4, 5, 6)
    inputs = [randn(*data), randn(*weight)] + ([randn(4)] if has_bias else []) + [randn(*out)]

    def chain(args: list[relay.Expr]) -> relay.Expr:
        without = relay_chain(nn.Conv2DOp, props, has_bias, False, 3 if nhwc else 1)(args[:-1])
        total = relay.Call(elementwise.AddOp, [without, args[-1]])
        return relay.Call(nn.ReluOp, [total]) if has_relu else total

    fused = props | flags(has_bias, has_relu) | {"has_residual": attrs.bool_(True)}
    got = evaluate(inputs, accel_call(accel.Conv2DOp, fused))
    assert_same(got, evaluate(inputs, chain))


DENSE_CASES: list[tuple[tuple[int, ...], tuple[int, ...], Props]] = [
    ((2, 8), (5, 8), {}),
    ((1, 16), (3, 16), {"units": attrs.int_(3)}),
    ((2, 3, 4), (6, 4), {"units": attrs.int_(6)}),
]


@pytest.mark.parametrize(("has_bias", "has_relu"), BIAS_RELU)
@pytest.mark.parametrize(("data", "weight", "props"), DENSE_CASES)
def test_dense(
    data: tuple[int, ...], weight: tuple[int, ...], props: Props, has_bias: bool, has_relu: bool
) -> None:
    inputs = [randn(*data), randn(*weight)] + ([randn(weight[0])] if has_bias else [])
    want = evaluate(inputs, relay_chain(nn.DenseOp, props, has_bias, has_relu, -1))
    got = evaluate(inputs, accel_call(accel.DenseOp, props | flags(has_bias, has_relu)))
    assert_same(got, want)


POOL_CASES: list[tuple[str, tuple[int, ...], Props]] = [
    ("2x2_s2", (1, 3, 8, 8), {"pool_size": attrs.ints([2, 2]), "strides": attrs.ints([2, 2])}),
    (
        "3x3_s2_pad_ceil",
        (2, 2, 9, 7),
        {
            "pool_size": attrs.ints([3, 3]),
            "strides": attrs.ints([2, 2]),
            "padding": attrs.ints([1, 0, 1, 1]),
            "ceil_mode": attrs.bool_(True),
        },
    ),
    (
        "dilated",
        (1, 2, 9, 9),
        {
            "pool_size": attrs.ints([2, 3]),
            "dilation": attrs.ints([2, 1]),
            "padding": attrs.ints([1]),
        },
    ),
    (
        "nhwc",
        (1, 6, 6, 4),
        {
            "pool_size": attrs.ints([3, 3]),
            "strides": attrs.ints([1, 2]),
            "layout": attrs.str_("NHWC"),
        },
    ),
]


POOLS: list[tuple[type[RelayOp], type[accel.AccelOp], Props]] = [
    (nn_pool.MaxPool2DOp, accel.MaxPool2DOp, {}),
    (nn_pool.AvgPool2DOp, accel.AvgPool2DOp, {}),
    (nn_pool.AvgPool2DOp, accel.AvgPool2DOp, {"count_include_pad": attrs.bool_(True)}),
]


@pytest.mark.parametrize(
    ("data", "props"), [c[1:] for c in POOL_CASES], ids=[c[0] for c in POOL_CASES]
)
@pytest.mark.parametrize(
    ("relay_op", "accel_op", "extra"), POOLS, ids=["max", "avg", "avg_count_include_pad"]
)
def test_pool2d(
    relay_op: type[RelayOp],
    accel_op: type[accel.AccelOp],
    extra: Props,
    data: tuple[int, ...],
    props: Props,
) -> None:
    props = props | extra
    inputs = [randn(*data)]
    want = evaluate(inputs, lambda a: relay.Call(relay_op, a, props))
    got = evaluate(inputs, accel_call(accel_op, props))
    assert_same(got, want)


@pytest.mark.parametrize(("data", "layout"), [((2, 3, 5, 4), "NCHW"), ((1, 3, 3, 6), "NHWC")])
def test_global_avg_pool2d(data: tuple[int, ...], layout: str) -> None:
    props: Props = {"layout": attrs.str_(layout)}
    inputs = [randn(*data)]
    want = evaluate(inputs, lambda a: relay.Call(nn_pool.GlobalAvgPool2DOp, a, props))
    assert_same(evaluate(inputs, accel_call(accel.GlobalAvgPool2DOp, props)), want)


@pytest.mark.parametrize("has_relu", [False, True])
@pytest.mark.parametrize("shape", [(7,), (2, 3, 4, 5)])
@pytest.mark.parametrize(
    ("relay_op", "accel_op"),
    [
        (elementwise.AddOp, accel.AddOp),
        (elementwise.SubtractOp, accel.SubtractOp),
        (elementwise.MultiplyOp, accel.MultiplyOp),
    ],
    ids=["add", "subtract", "multiply"],
)
def test_elementwise(
    relay_op: type[RelayOp], accel_op: type[accel.AccelOp], shape: tuple[int, ...], has_relu: bool
) -> None:
    inputs = [randn(*shape), randn(*shape)]

    def chain(args: list[relay.Expr]) -> relay.Expr:
        out: relay.Expr = relay.Call(relay_op, args)
        return relay.Call(nn.ReluOp, [out]) if has_relu else out

    got = evaluate(inputs, accel_call(accel_op, {"has_relu": attrs.bool_(has_relu)}))
    assert_same(got, evaluate(inputs, chain))


@pytest.mark.parametrize("shape", [(9,), (1, 4, 3, 3)])
def test_relu(shape: tuple[int, ...]) -> None:
    inputs = [randn(*shape)]
    want = evaluate(inputs, lambda a: relay.Call(nn.ReluOp, a))
    assert_same(evaluate(inputs, accel_call(accel.ReluOp, {})), want)


BN_CASES: list[tuple[tuple[int, ...], Props]] = [
    ((2, 4, 3, 3), {}),
    ((1, 3, 3, 5), {"axis": attrs.int_(-1), "epsilon": FloatAttr(1e-3, f64)}),
    ((2, 4, 2, 2), {"center": attrs.bool_(False)}),
    ((2, 4, 2, 2), {"scale": attrs.bool_(False), "center": attrs.bool_(False)}),
    ((3, 6), {"epsilon": FloatAttr(0.5, f64)}),
]


@pytest.mark.parametrize(("data", "props"), BN_CASES)
def test_batch_norm(data: tuple[int, ...], props: Props) -> None:
    axis_attr = props.get("axis", attrs.int_(1))
    assert isinstance(axis_attr, IntegerAttr)
    channels = data[axis_attr.value.data]
    var = np.abs(randn(channels)) + np.float32(0.1)
    inputs = [randn(*data), randn(channels), randn(channels), randn(channels), var]

    def relay_bn(args: list[relay.Expr]) -> relay.Expr:
        return relay.Call(nn.BatchNormOp, args, props)[0]

    got = evaluate(inputs, accel_call(accel.BatchNormOp, props))
    assert_same(got, evaluate(inputs, relay_bn))
