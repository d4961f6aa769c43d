"""The `dnnl` dialect: shared definitions, and its reference semantics against relay's.

Every dnnl op is its relay op, then its post-ops (`+ bias` along the output
channels, `+ sum`, eltwise). Each case builds both sides with the same
properties (the dnnl op, and the relay op followed by `nn.bias_add`, `add`,
`nn.relu` / `tanh` / `sigmoid`), runs them through the reference interpreter on
seeded random inputs, and expects the same numbers bit for bit, same dtype.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, StringAttr, f32, f64
from xdsl.ir import Attribute
from xdsl.irdl import OptionalDef
from xrelay.dialects import dnnl, get_all_dialects
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay import elementwise, nn, nn_pool, tensor
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.types import shape_of, tensor_type

import xrelay
from xrelay import IRModule, relay

Props = dict[str, Attribute]
RNG = np.random.default_rng(2025)
ELTWISE_RELAY: dict[str, type[RelayOp]] = {
    "relu": nn.ReluOp,
    "tanh": elementwise.TanhOp,
    "sigmoid": elementwise.SigmoidOp,
}


def evaluate(
    inputs: Sequence[np.ndarray], build: Callable[[list[relay.Expr]], relay.Expr]
) -> np.ndarray:
    """`build` applied to one parameter per input, run by the reference interpreter."""
    params = [relay.var(f"p{i}", shape=a.shape, dtype=a.dtype.name) for i, a in enumerate(inputs)]
    mod = IRModule.from_expr(relay.Function(params, build(params)))
    return xrelay.evaluate(mod, *inputs)


def randn(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype("float32")


def assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


def relay_chain(
    kernel: type[RelayOp], props: Props, bias: bool, sum_: bool, eltwise: str | None, axis: int
) -> Callable[[list[relay.Expr]], relay.Expr]:
    """`eltwise(add(bias_add(kernel(a, b), c, axis), s))`, without the parts that are off."""

    def build(args: list[relay.Expr]) -> relay.Expr:
        out: relay.Expr = relay.Call(kernel, args[:2], props)
        rest = iter(args[2:])
        if bias:
            out = relay.Call(nn.BiasAddOp, [out, next(rest)], {"axis": attrs.int_(axis)})
        if sum_:
            out = relay.Call(elementwise.AddOp, [out, next(rest)])
        return relay.Call(ELTWISE_RELAY[eltwise], [out]) if eltwise else out

    return build


def post_ops(bias: bool, sum_: bool, eltwise: str | None) -> Props:
    """The dnnl properties for the post-ops."""
    props: Props = {"has_bias": attrs.bool_(bias), "has_sum": attrs.bool_(sum_)}
    return props | ({"eltwise": attrs.str_(eltwise)} if eltwise else {})


POST_OPS = [
    (False, False, None),
    (True, False, "relu"),
    (True, True, "relu"),
    (False, True, "tanh"),
    (True, False, "sigmoid"),
]


def test_dialect_is_registered_and_parses() -> None:
    assert get_all_dialects()["dnnl"]() is dnnl.DNNL
    assert {op.name for op in dnnl.DNNL.operations} == {op.name for op in dnnl.OPS}


@pytest.mark.parametrize("op", dnnl.OPS, ids=lambda op: op.name)
def test_properties_are_the_relay_ops(op: type[dnnl.DnnlOp]) -> None:
    """Each dnnl op has every property of its relay op (same constraint and default), plus
    only the post-op flags."""
    ours = op.get_irdl_definition().properties
    theirs = op.RELAY.get_irdl_definition().properties
    for name, definition in theirs.items():
        assert name in ours, name
        assert ours[name].constr == definition.constr, name
        assert ours[name].default_value == definition.default_value, name
        assert isinstance(ours[name], OptionalDef) == isinstance(definition, OptionalDef), name
    assert set(ours) - set(theirs) <= {"has_bias", "has_sum", "eltwise", "a_min", "a_max"}


@pytest.mark.parametrize("op", dnnl.OPS, ids=lambda op: op.name)
def test_every_op_has_a_docstring_naming_it(op: type[dnnl.DnnlOp]) -> None:
    doc = op.__doc__ or ""
    assert doc.startswith(f"`{op.name}`: "), doc


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
        },
    ),
    (
        "nhwc_oihw",
        (1, 7, 7, 3),
        (4, 3, 3, 3),
        {"data_layout": attrs.str_("NHWC"), "padding": attrs.ints([1])},
    ),
]


@pytest.mark.parametrize(("bias", "sum_", "eltwise"), POST_OPS)
@pytest.mark.parametrize(
    ("data", "weight", "props"), [c[1:] for c in CONV_CASES], ids=[c[0] for c in CONV_CASES]
)
def test_conv2d(
    data: tuple[int, ...],
    weight: tuple[int, ...],
    props: Props,
    bias: bool,
    sum_: bool,
    eltwise: str | None,
) -> None:
    out = shape_of(
        nn.Conv2DOp.inferred_type([tensor_type(data, f32), tensor_type(weight, f32)], props)
    )
    layout = props.get("data_layout", attrs.str_("NCHW"))
    assert isinstance(layout, StringAttr)
    axis = layout.data.index("C")
    inputs = [randn(*data), randn(*weight)]
    inputs += [randn(out[axis])] if bias else []
    inputs += [randn(*out)] if sum_ else []
    want = evaluate(inputs, relay_chain(nn.Conv2DOp, props, bias, sum_, eltwise, axis))
    got = evaluate(
        inputs, lambda a: relay.Call(dnnl.Conv2DOp, a, props | post_ops(bias, sum_, eltwise))
    )
    assert_same(got, want)


@pytest.mark.parametrize(("bias", "sum_", "eltwise"), POST_OPS)
@pytest.mark.parametrize(("data", "weight"), [((2, 8), (5, 8)), ((2, 3, 4), (6, 4))])
def test_dense(
    data: tuple[int, ...], weight: tuple[int, ...], bias: bool, sum_: bool, eltwise: str | None
) -> None:
    out = (*data[:-1], weight[0])
    inputs = [randn(*data), randn(*weight)]
    inputs += [randn(weight[0])] if bias else []
    inputs += [randn(*out)] if sum_ else []
    want = evaluate(inputs, relay_chain(nn.DenseOp, {}, bias, sum_, eltwise, -1))
    got = evaluate(inputs, lambda a: relay.Call(dnnl.DenseOp, a, post_ops(bias, sum_, eltwise)))
    assert_same(got, want)


@pytest.mark.parametrize("name", ["relu", "tanh", "sigmoid"])
def test_eltwise(name: str) -> None:
    inputs = [randn(2, 3, 4)]
    op = {"relu": dnnl.ReluOp, "tanh": dnnl.TanhOp, "sigmoid": dnnl.SigmoidOp}[name]
    want = evaluate(inputs, lambda a: relay.Call(ELTWISE_RELAY[name], a))
    assert_same(evaluate(inputs, lambda a: relay.Call(op, a)), want)


@pytest.mark.parametrize("rhs", [(1, 4, 3, 3), (4, 1, 1), (1, 4, 1, 1), (3,), ()])
@pytest.mark.parametrize(
    ("relay_op", "dnnl_op"),
    [
        (elementwise.AddOp, dnnl.AddOp),
        (elementwise.SubtractOp, dnnl.SubtractOp),
        (elementwise.MultiplyOp, dnnl.MultiplyOp),
    ],
    ids=["add", "subtract", "multiply"],
)
def test_binary(
    relay_op: type[RelayOp], dnnl_op: type[dnnl.BinaryOp], rhs: tuple[int, ...]
) -> None:
    inputs = [randn(1, 4, 3, 3), randn(*rhs)]
    want = evaluate(inputs, lambda a: relay.Call(relay_op, a))
    assert_same(evaluate(inputs, lambda a: relay.Call(dnnl_op, a)), want)


@pytest.mark.parametrize(
    ("data", "props"),
    [
        ((2, 4, 3, 3), {}),
        ((1, 3, 3, 5), {"axis": attrs.int_(-1), "epsilon": FloatAttr(1e-3, f64)}),
        ((2, 4, 2, 2), {"scale": attrs.bool_(False), "center": attrs.bool_(False)}),
    ],
)
def test_batch_norm(data: tuple[int, ...], props: Props) -> None:
    axis_attr = props.get("axis", attrs.int_(1))
    assert isinstance(axis_attr, IntegerAttr)
    channels = data[axis_attr.value.data]
    var = np.abs(randn(channels)) + np.float32(0.1)
    inputs = [randn(*data), randn(channels), randn(channels), randn(channels), var]
    want = evaluate(inputs, lambda a: relay.Call(nn.BatchNormOp, a, props)[0])
    assert_same(evaluate(inputs, lambda a: relay.Call(dnnl.BatchNormOp, a, props)), want)


POOL_PROPS: Props = {
    "pool_size": attrs.ints([3, 3]),
    "strides": attrs.ints([2, 2]),
    "padding": attrs.ints([1, 0, 1, 1]),
    "layout": attrs.str_("NHWC"),
}


@pytest.mark.parametrize(
    ("relay_op", "dnnl_op", "extra"),
    [
        (nn_pool.MaxPool2DOp, dnnl.MaxPool2DOp, {}),
        (nn_pool.AvgPool2DOp, dnnl.AvgPool2DOp, {}),
        (nn_pool.AvgPool2DOp, dnnl.AvgPool2DOp, {"count_include_pad": attrs.bool_(True)}),
        (nn_pool.GlobalAvgPool2DOp, dnnl.GlobalAvgPool2DOp, None),
    ],
    ids=["max", "avg", "avg_count_include_pad", "global_avg"],
)
def test_pools(relay_op: type[RelayOp], dnnl_op: type[dnnl.DnnlOp], extra: Props | None) -> None:
    props = {"layout": attrs.str_("NHWC")} if extra is None else POOL_PROPS | extra
    inputs = [randn(2, 7, 6, 3)]
    want = evaluate(inputs, lambda a: relay.Call(relay_op, a, props))
    assert_same(evaluate(inputs, lambda a: relay.Call(dnnl_op, a, props)), want)


@pytest.mark.parametrize(
    ("shape", "src", "dst"), [((1, 3, 4, 5), "NCHW", "NHWC"), ((2, 3), "NC", "CN")]
)
def test_reorder(shape: tuple[int, ...], src: str, dst: str) -> None:
    props: Props = {"src_layout": attrs.str_(src), "dst_layout": attrs.str_(dst)}
    inputs = [randn(*shape)]
    want = evaluate(inputs, lambda a: relay.Call(tensor.LayoutTransformOp, a, props))
    assert_same(evaluate(inputs, lambda a: relay.Call(dnnl.ReorderOp, a, props)), want)
    assert dnnl.permutation(src, dst) == tuple(src.index(axis) for axis in dst)
