"""FoldScaleAxis: per-channel scales folded into conv2d/dense weights (TVM's three passes).

Ports of TVM's `tests/python/relay/test_pass_fold_scale_axis.py`: each case
compares the rewritten IR with the graph TVM's test expects, built with the
builder (both are printed in the builder's op order, so that only the graph
counts), and checks the numerics before and after on seeded random inputs.
The `*_fail` cases must come out exactly as they went in. TVM's blocked-layout
variants (NCHW2c, OIHW2i4o) are not ported: xrelay's conv2d takes NCHW/NHWC
data only. `test_fold_fwd_let_fail` has no counterpart (xrelay has no `let`);
a value read inside a `relay.if` branch plays its part.
"""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import assert_same_numerics, run_and_check
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.passes.backward_fold_scale_axis import BackwardFoldScaleAxis
from xrelay.passes.fold_constant import FoldConstant
from xrelay.passes.fold_scale_axis import FoldScaleAxis, FoldScaleAxisPass
from xrelay.passes.forward_fold_scale_axis import ForwardFoldScaleAxis
from xrelay.passes.simplify_inference import SimplifyInference

from xrelay import IRModule, relay, transform

RNG = np.random.default_rng(0)


def positive_scale(*shape: int) -> np.ndarray:
    """TVM's `_get_positive_scale`: uniform in [0.5, 1)."""
    return RNG.uniform(0.5, 1, size=shape).astype("float32")


def canonical(mod: IRModule) -> str:
    """`main` printed as the builder emits it (ops in post-order from the return)."""
    return str(IRModule.from_expr(mod["main"]))


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def check_folded(before: IRModule, pass_: transform.Pass, expected: IRModule) -> IRModule:
    """The pass gives the expected graph and computes what `before` computes."""
    after = run_and_check(before, pass_, rtol=1e-4, atol=1e-5)
    assert canonical(after) == canonical(expected)
    return after


def check_unchanged(before: IRModule, pass_: transform.Pass) -> None:
    """TVM's `*_fail` cases: the module comes out exactly as it went in."""
    text = str(before)
    after = run_and_check(before, pass_)
    assert str(after) == text


def conv(
    x: relay.Expr,
    w: relay.Expr,
    channels: int,
    groups: int = 1,
    data_layout: str = "NCHW",
    kernel_layout: str = "OIHW",
) -> relay.Expr:
    """TVM's test conv: 3x3 kernel, padding 1."""
    return relay.nn.conv2d(
        x,
        w,
        channels=channels,
        kernel_size=(3, 3),
        padding=(1, 1),
        groups=groups,
        data_layout=data_layout,
        kernel_layout=kernel_layout,
    )


# --------------------------------------------------------------------------- #
# Backward
# --------------------------------------------------------------------------- #


def test_fold_bwd_simple() -> None:
    """conv2d -> add(bias) -> relu -> multiply(s[C,1,1] > 0): s goes into w and the bias."""
    shape, in_channels, channels = (2, 4, 10, 10), 4, 8
    scale = relay.const(positive_scale(channels, 1, 1))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=shape),
            relay.var("weight", shape=(channels, in_channels, 3, 3)),
            relay.var("out_bias", shape=(channels,)),
        ]

    x, w, b = ps = params()
    y = relay.add(conv(x, w, channels), relay.expand_dims(b, axis=1, num_newaxis=2))
    before = module(ps, relay.multiply(relay.nn.relu(y), scale))

    x, w, b = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])
    w = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))
    bias = relay.multiply(
        relay.expand_dims(b, axis=1, num_newaxis=2),
        relay.expand_dims(squeezed, axis=1, num_newaxis=2),
    )
    expected = module(qs, relay.nn.relu(relay.add(conv(x, w, channels), bias)))
    after = check_folded(before, BackwardFoldScaleAxis(), expected)
    assert count(after, "relay.multiply") == 2  # on the weight and on the bias, none after


def test_fold_bwd_dual_path() -> None:
    """Both branches of an add carry the scale: both convolutions fold it."""
    shape, in_channels, channels = (2, 4, 10, 10), 4, 8
    scale = relay.const(positive_scale(channels, 1, 1))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=shape),
            relay.var("weight", shape=(channels, in_channels, 3, 3)),
        ]

    x, w = ps = params()
    y = relay.add(relay.nn.relu(conv(x, w, channels)), relay.nn.relu(conv(x, w, channels)))
    before = module(ps, relay.multiply(y, scale))

    x, w = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])

    def folded() -> relay.Expr:
        return relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))

    y1 = relay.nn.relu(conv(x, folded(), channels))
    y2 = relay.nn.relu(conv(x, folded(), channels))
    expected = module(qs, relay.add(y1, y2))
    check_folded(before, BackwardFoldScaleAxis(), expected)


def test_fold_bwd_dual_consumer() -> None:
    """y0 feeds two scaled convolutions; each multiply folds into its own conv."""
    shape, channels = (2, 4, 10, 10), 4
    scale = relay.const(positive_scale(channels, 1, 1))

    def params() -> list[relay.Var]:
        return [relay.var("x", shape=shape), relay.var("weight", shape=(channels, 4, 3, 3))]

    x, w = ps = params()
    y0 = relay.nn.relu(relay.multiply(conv(x, w, channels), scale))
    y1 = relay.nn.relu(relay.multiply(conv(y0, w, channels), scale))
    y2 = relay.nn.relu(relay.multiply(conv(y0, w, channels), scale))
    before = module(ps, relay.add(y1, y2))

    x, w = qs = params()

    def folded() -> relay.Expr:
        squeezed = relay.squeeze(scale, axis=[1, 2])
        return relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))

    y0 = relay.nn.relu(conv(x, folded(), channels))
    y1 = relay.nn.relu(conv(y0, folded(), channels))
    y2 = relay.nn.relu(conv(y0, folded(), channels))
    expected = module(qs, relay.add(y1, y2))
    after = check_folded(before, BackwardFoldScaleAxis(), expected)
    assert count(after, "relay.multiply") == 3  # one per weight


def test_fold_bwd_fail_axes_differ() -> None:
    """TVM's `fail1`: the two branches scale different axes (NCHW and NHWC outputs of the same
    shape; TVM uses out_layout CNHW, which xrelay's conv2d has not)."""
    x = relay.var("x", shape=(4, 4, 4, 4))
    w1 = relay.var("w1", shape=(4, 4, 3, 3))
    w2 = relay.var("w2", shape=(3, 3, 4, 4))
    y1 = relay.nn.relu(conv(x, w1, 4))
    y2 = relay.nn.relu(conv(x, w2, 4, data_layout="NHWC", kernel_layout="HWIO"))
    scale = relay.const(positive_scale(4, 1, 1))
    check_unchanged(
        module([x, w1, w2], relay.multiply(relay.add(y1, y2), scale)), BackwardFoldScaleAxis()
    )


def test_fold_bwd_fail_one_branch_scaled() -> None:
    """A dual path where only one branch carries the scale (the other is not a conv)."""
    x = relay.var("x", shape=(2, 4, 10, 10))
    w = relay.var("w", shape=(4, 4, 3, 3))
    y = relay.add(relay.nn.relu(conv(x, w, 4)), relay.nn.relu(x))
    scale = relay.const(positive_scale(4, 1, 1))
    check_unchanged(module([x, w], relay.multiply(y, scale)), BackwardFoldScaleAxis())


def test_fold_bwd_dual_path_relu_on_one_branch_negative_scale() -> None:
    """Both branches carry the scale but only the right one has a relu: a negative scale must
    not fold (TVM keeps the left branch's message and would fold it, changing the result)."""
    x = relay.var("x", shape=(1, 3, 5, 5))
    w1 = relay.var("w1", shape=(4, 3, 3, 3))
    w2 = relay.var("w2", shape=(4, 3, 3, 3))
    y = relay.add(conv(x, w1, 4), relay.nn.relu(conv(x, w2, 4)))
    scale = relay.const(-positive_scale(4, 1, 1))
    check_unchanged(module([x, w1, w2], relay.multiply(y, scale)), BackwardFoldScaleAxis())
    positive = relay.const(positive_scale(4, 1, 1))
    after = run_and_check(
        module([x, w1, w2], relay.multiply(y, positive)),
        BackwardFoldScaleAxis(),
        rtol=1e-4,
        atol=1e-5,
    )
    assert count(after, "relay.multiply") == 2  # one per weight


def test_fold_bwd_fail_second_consumer() -> None:
    """TVM's `fail2`: the conv output also feeds a relu, so its scale cannot be folded."""
    x = relay.var("x", shape=(4, 4, 10, 10))
    w = relay.var("w", shape=(4, 4, 3, 3))
    y1 = conv(x, w, 4)
    y2 = relay.nn.relu(y1)
    scale = relay.const(positive_scale(4, 1, 1))
    check_unchanged(
        module([x, w], relay.add(relay.multiply(y1, scale), y2)), BackwardFoldScaleAxis()
    )


@pytest.mark.parametrize("activation", ["relu", "leaky_relu"])
@pytest.mark.parametrize("kind", ["parameter", "negative"])
def test_fold_bwd_relu_fail(activation: str, kind: str) -> None:
    """A relu (or leaky_relu) between conv and multiply needs a constant scale >= 0.

    (TVM's test multiplies the input `x` instead of the relu, so it checks nothing;
    this is what it means to check.)
    """
    x = relay.var("x", shape=(4, 4, 10, 10))
    w = relay.var("w", shape=(4, 4, 3, 3))
    params = [x, w]
    scale: relay.Expr
    if kind == "parameter":
        scale_var = relay.var("in_scale", shape=(4, 1, 1))
        params.append(scale_var)
        scale = scale_var
    else:
        scale = relay.const(RNG.uniform(-1.0, 0.0, size=(4, 1, 1)).astype("float32"))
    y = conv(x, w, 4)
    y = relay.nn.relu(y) if activation == "relu" else relay.nn.leaky_relu(y)
    before = module(params, relay.multiply(y, scale))
    check_unchanged(before, BackwardFoldScaleAxis())


def test_fold_bwd_leaky_relu_positive_scale() -> None:
    """leaky_relu(s * v) = s * leaky_relu(v) for s >= 0: TVM folds through it like relu."""
    x = relay.var("x", shape=(1, 3, 6, 6))
    w = relay.var("w", shape=(4, 3, 3, 3))
    scale = relay.const(positive_scale(4, 1, 1))
    before = module([x, w], relay.multiply(relay.nn.leaky_relu(conv(x, w, 4), 0.2), scale))
    after = run_and_check(before, BackwardFoldScaleAxis(), rtol=1e-4, atol=1e-5)
    assert count(after, "relay.multiply") == 1  # the weight's
    assert str(after).index("relay.nn.conv2d") < str(after).index("relay.nn.leaky_relu")


def test_fold_bwd_negative_scale() -> None:
    """Without a relu in between, a negative scale folds too."""
    shape, channels = (2, 4, 10, 10), 8
    scale = relay.const(-positive_scale(channels, 1, 1))

    def params() -> list[relay.Var]:
        return [relay.var("x", shape=shape), relay.var("weight", shape=(channels, 4, 3, 3))]

    x, w = ps = params()
    before = module(ps, relay.multiply(conv(x, w, channels), scale))
    x, w = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])
    w = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))
    check_folded(before, BackwardFoldScaleAxis(), module(qs, conv(x, w, channels)))


@pytest.mark.parametrize(("data_shape", "weight_shape"), [((2, 4), (3, 4)), ((3, 5), (4, 5))])
def test_fold_bwd_dense(data_shape: tuple[int, int], weight_shape: tuple[int, int]) -> None:
    """dense -> add(bias) -> relu -> multiply(s[N]): w * expand_dims(s, 1), bias * s."""
    scale = relay.const(positive_scale(weight_shape[0]))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=data_shape),
            relay.var("weight", shape=weight_shape),
            relay.var("in_bias", shape=(weight_shape[0],)),
        ]

    x, w, b = ps = params()
    y = relay.nn.relu(relay.add(relay.nn.dense(x, w), b))
    before = module(ps, relay.multiply(y, scale))
    x, w, b = qs = params()
    w = relay.multiply(w, relay.expand_dims(scale, axis=1))
    y = relay.nn.relu(relay.add(relay.nn.dense(x, w), relay.multiply(b, scale)))
    check_folded(before, BackwardFoldScaleAxis(), module(qs, y))


def test_fold_bwd_bias_add() -> None:
    """conv2d -> nn.bias_add -> relu -> multiply: the bias is multiplied by the squeezed scale."""
    shape, channels = (2, 4, 10, 10), 4
    scale = relay.const(positive_scale(channels, 1, 1))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=shape),
            relay.var("weight", shape=(channels, 4, 3, 3)),
            relay.var("out_bias", shape=(channels,)),
        ]

    x, w, b = ps = params()
    y = relay.nn.relu(relay.nn.bias_add(conv(x, w, channels), b))
    before = module(ps, relay.multiply(y, scale))
    x, w, b = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])
    w = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))
    y = relay.nn.relu(relay.nn.bias_add(conv(x, w, channels), relay.multiply(b, squeezed)))
    check_folded(before, BackwardFoldScaleAxis(), module(qs, y))


@pytest.mark.parametrize(
    ("scale_shape", "squeeze"), [((1, 4, 1, 1), [0, 2, 3]), ((4, 1, 1), [1, 2]), ((4,), None)]
)
def test_fold_bwd_scale_shapes_nhwc(
    scale_shape: tuple[int, ...], squeeze: list[int] | None
) -> None:
    """NCHW takes [C,1,1] and [1,C,1,1]; NHWC/HWIO takes [C] along its last axis (kernel O is
    axis 3: no expand_dims)."""
    data_layout, kernel_layout = ("NHWC", "HWIO") if squeeze is None else ("NCHW", "OIHW")
    scale = relay.const(positive_scale(*scale_shape))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=(1, 6, 6, 3) if squeeze is None else (1, 3, 6, 6)),
            relay.var("w", shape=(3, 3, 3, 4) if squeeze is None else (4, 3, 3, 3)),
        ]

    x, w = ps = params()
    y = conv(x, w, 4, data_layout=data_layout, kernel_layout=kernel_layout)
    before = module(ps, relay.multiply(y, scale))
    x, w = qs = params()
    if squeeze is None:
        folded = relay.multiply(w, scale)
    else:
        squeezed = relay.squeeze(scale, axis=squeeze)
        folded = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=3))
    y = conv(x, folded, 4, data_layout=data_layout, kernel_layout=kernel_layout)
    check_folded(before, BackwardFoldScaleAxis(), module(qs, y))


@pytest.mark.parametrize("scale_shape", [(4, 6, 6), (1, 1, 6), (1, 4, 1, 6), (2, 4, 1, 1)])
def test_fold_bwd_not_per_channel(scale_shape: tuple[int, ...]) -> None:
    """A scale that varies along another axis, or has a batch dim, is not a channel scale."""
    x = relay.var("x", shape=(2, 3, 6, 6))
    w = relay.var("w", shape=(4, 3, 3, 3))
    scale = relay.const(positive_scale(*scale_shape))
    check_unchanged(module([x, w], relay.multiply(conv(x, w, 4), scale)), BackwardFoldScaleAxis())


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_fold_bwd_grouped_conv(layout: str) -> None:
    """A grouped conv (groups 2 and 4, not depthwise) folds an output-channel scale, with the
    shift and residual after it, as ShuffleNet's batch norms leave them (TVM does not fold
    these; the backward pass's module doc says why it is valid)."""
    nchw = layout == "NCHW"
    shape = (1, 8, 6, 7) if nchw else (1, 6, 7, 8)
    kernel_layout = "OIHW" if nchw else "HWIO"
    for groups in (2, 4):
        x = relay.var("x", shape=shape)
        w_shape = (8, 8 // groups, 3, 3) if nchw else (3, 3, 8 // groups, 8)
        w = relay.const(RNG.standard_normal(w_shape).astype("float32"))
        channel = (8, 1, 1) if nchw else (8,)
        scale = relay.const(RNG.uniform(-2, 2, size=channel).astype("float32"))
        shift = relay.const(RNG.standard_normal(channel).astype("float32"))
        y = conv(x, w, 8, groups=groups, data_layout=layout, kernel_layout=kernel_layout)
        body = relay.nn.relu(relay.add(relay.add(relay.multiply(y, scale), shift), x))
        after = run_and_check(module([x], body), BackwardFoldScaleAxis(), rtol=1e-4, atol=1e-5)
        folded = run_and_check(after, FoldConstant(), rtol=1e-4, atol=1e-5)
        assert count(folded, "relay.multiply") == 0, str(folded)


def test_fold_bwd_depthwise_and_parameter_scale() -> None:
    """A depthwise conv folds; with no relu in between the scale may be a parameter (as in TVM)."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    w = relay.var("w", shape=(4, 1, 3, 3))
    s = relay.var("s", shape=(4, 1, 1))
    before = module([x, w, s], relay.multiply(conv(x, w, 4, groups=4), s))
    after = run_and_check(before, BackwardFoldScaleAxis(), rtol=1e-4, atol=1e-5)
    assert count(after, "relay.multiply") == 1
    assert "relay.squeeze %s {axis = [1, 2]}" in str(after)


# --------------------------------------------------------------------------- #
# Forward
# --------------------------------------------------------------------------- #


def test_fold_fwd_simple() -> None:
    """multiply(x, s[C,1,1] > 0) -> relu -> add(bias) -> conv2d: relu(x), bias / s, w * s."""
    shape, in_channels, channels = (2, 4, 10, 10), 4, 2
    scale = relay.const(positive_scale(in_channels, 1, 1))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=shape),
            relay.var("weight", shape=(channels, in_channels, 3, 3)),
            relay.var("in_bias", shape=(in_channels, 1, 1)),
        ]

    x, w, b = ps = params()
    y = relay.add(relay.nn.relu(relay.multiply(x, scale)), b)
    before = module(ps, conv(y, w, channels))

    x, w, b = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])
    bias = relay.divide(b, relay.expand_dims(squeezed, axis=1, num_newaxis=2))
    y = relay.add(relay.nn.relu(x), bias)
    w = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=2))
    after = check_folded(before, ForwardFoldScaleAxis(), module(qs, conv(y, w, channels)))
    assert count(after, "relay.multiply") == 1  # the weight's


def test_fold_fwd_dual_path() -> None:
    """NHWC depthwise: the scaled value (scale on the left) feeds two convolutions."""
    dshape, channels = (2, 4, 10, 3), 3
    scale = relay.const(positive_scale(channels))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=dshape),
            relay.var("weight", shape=(3, 3, 1, channels)),
            relay.var("in_bias", shape=(channels,)),
        ]

    def dwconv(data: relay.Expr, weight: relay.Expr) -> relay.Expr:
        return conv(
            data, weight, channels, data_layout="NHWC", kernel_layout="HWIO", groups=channels
        )

    x, w, b = ps = params()
    y = relay.subtract(relay.nn.relu(relay.multiply(scale, x)), b)
    before = module(ps, relay.add(dwconv(y, w), dwconv(y, w)))

    x, w, b = qs = params()
    y = relay.subtract(relay.nn.relu(x), relay.divide(b, scale))
    y1 = dwconv(y, relay.multiply(w, scale))
    y2 = dwconv(y, relay.multiply(w, scale))
    check_folded(before, ForwardFoldScaleAxis(), module(qs, relay.add(y1, y2)))


def test_fold_fwd_fail() -> None:
    """TVM's `test_fold_fwd_fail`: the scaled value also feeds the final add (leaky_relu path)."""
    x = relay.var("x", shape=(2, 11, 10, 4))
    w = relay.var("weight", shape=(3, 3, 4, 4))
    scaled = relay.multiply(x, relay.const(positive_scale(4)))
    y1 = conv(
        relay.nn.leaky_relu(scaled, alpha=0.1), w, 4, data_layout="NHWC", kernel_layout="HWIO"
    )
    check_unchanged(module([x, w], relay.add(y1, scaled)), ForwardFoldScaleAxis())


@pytest.mark.parametrize("kind", ["parameter", "negative"])
@pytest.mark.parametrize("dual", [True, False])
def test_fold_fwd_relu_fail(kind: str, dual: bool) -> None:
    """A relu between multiply and conv2d needs a constant scale >= 0 (TVM's test also adds
    the dual consumer; `dual=False` checks the relu alone)."""
    x = relay.var("x", shape=(2, 11, 10, 4))
    w = relay.var("weight", shape=(3, 3, 4, 4))
    params = [x, w]
    scale: relay.Expr
    if kind == "parameter":
        scale_var = relay.var("in_scale", shape=(4,))
        params.append(scale_var)
        scale = scale_var
    else:
        scale = relay.const(-positive_scale(4))
    scaled = relay.multiply(x, scale)
    y = conv(relay.nn.relu(scaled), w, 4, data_layout="NHWC", kernel_layout="HWIO")
    check_unchanged(module(params, relay.add(y, scaled) if dual else y), ForwardFoldScaleAxis())


def test_fold_fwd_use_in_branch_fail() -> None:
    """In place of TVM's `test_fold_fwd_let_fail`: the scaled value is also read in a branch."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    w = relay.var("w", shape=(2, 4, 3, 3))
    c = relay.var("c", shape=(), dtype="bool")
    scaled = relay.multiply(x, relay.const(positive_scale(4, 1, 1)))
    y = conv(scaled, w, 2)
    branch = relay.If(c, relay.sum(scaled), relay.sum(x))
    check_unchanged(module([x, w, c], relay.Tuple([y, branch])), ForwardFoldScaleAxis())


def test_fold_fwd_negative_scale() -> None:
    """No relu in between: a negative scale goes into the weight's I axis."""
    shape, channels = (2, 4, 10, 10), 4
    scale = relay.const(-positive_scale(4, 1, 1))

    def params() -> list[relay.Var]:
        return [relay.var("x", shape=shape), relay.var("weight", shape=(channels, 4, 3, 3))]

    x, w = ps = params()
    before = module(ps, conv(relay.multiply(x, scale), w, channels))
    x, w = qs = params()
    squeezed = relay.squeeze(scale, axis=[1, 2])
    w = relay.multiply(w, relay.expand_dims(squeezed, axis=1, num_newaxis=2))
    check_folded(before, ForwardFoldScaleAxis(), module(qs, conv(x, w, channels)))


@pytest.mark.parametrize(("data_shape", "weight_shape"), [((2, 4), (3, 4)), ((3, 5), (4, 5))])
def test_fold_fwd_dense(data_shape: tuple[int, int], weight_shape: tuple[int, int]) -> None:
    """multiply(x, s[K]) -> relu -> add(bias) -> dense: bias / s, w * s."""
    scale = relay.const(positive_scale(data_shape[1]))

    def params() -> list[relay.Var]:
        return [
            relay.var("x", shape=data_shape),
            relay.var("weight", shape=weight_shape),
            relay.var("in_bias", shape=(data_shape[1],)),
        ]

    x, w, b = ps = params()
    y = relay.add(relay.nn.relu(relay.multiply(x, scale)), b)
    before = module(ps, relay.nn.dense(y, w))
    x, w, b = qs = params()
    y = relay.add(relay.nn.relu(x), relay.divide(b, scale))
    check_folded(
        before, ForwardFoldScaleAxis(), module(qs, relay.nn.dense(y, relay.multiply(w, scale)))
    )


def test_fold_fwd_integer_scale_is_left_alone() -> None:
    """An integer scale is not folded forward: the bias would need a truncating division."""
    x = relay.var("x", shape=(2, 4), dtype="int32")
    w = relay.var("w", shape=(3, 4), dtype="int32")
    scale = relay.const(np.array([1, 2, 3, 4], "int32"))
    check_unchanged(
        module([x, w], relay.nn.dense(relay.multiply(x, scale), w)), ForwardFoldScaleAxis()
    )


# --------------------------------------------------------------------------- #
# FoldScaleAxis: the pipeline
# --------------------------------------------------------------------------- #


def conv_bn_relu() -> IRModule:
    """conv2d -> batch_norm -> relu with constant parameters (TVM's `test_fold_batch_norm`,
    with a relu and random parameters instead of zeros)."""
    data = relay.var("data", shape=(1, 3, 16, 16))
    weight = relay.const(RNG.normal(size=(16, 3, 3, 3)).astype("float32"))
    gamma, beta, mean = (relay.const(RNG.normal(size=16).astype("float32")) for _ in range(3))
    var = relay.const(RNG.uniform(0.5, 2.0, size=16).astype("float32"))
    y = relay.nn.conv2d(data, weight, kernel_size=(3, 3), channels=16, padding=(1, 1))
    y = relay.nn.batch_norm(y, gamma, beta, mean, var)[0]
    return module([data], relay.nn.relu(y))


def test_fold_batch_norm() -> None:
    """Issue 4's must-show: SimplifyInference, FoldConstant, FoldScaleAxis at opt_level 3 turn
    conv2d -> batch_norm -> relu into conv2d(data, W') + b' -> relu, W' and b' constants."""
    before = conv_bn_relu()
    after = run_and_check(
        before, [SimplifyInference(), FoldConstant(), FoldScaleAxis()], rtol=1e-4, atol=1e-4
    )
    data = relay.var("data", shape=(1, 3, 16, 16))
    weight = relay.var("weight", shape=(16, 3, 3, 3))
    bias = relay.var("bias", shape=(16, 1, 1))
    y = relay.nn.conv2d(data, weight, kernel_size=(3, 3), channels=16, padding=(1, 1))
    shape_only = module([data, weight, bias], relay.nn.relu(relay.add(y, bias)))
    # TVM's expected: conv2d(data, const W') + const b' (here with the relu); only the
    # constants' values differ from this graph of parameters.
    want = [op.name for op in shape_only.module.walk()]
    got = [op.name for op in after.module.walk()]
    assert [n for n in got if n != "relay.constant"] == want
    assert count(after, "relay.constant") == 2
    for op in after.module.walk():
        if op.name in ("relay.nn.conv2d", "relay.add"):
            assert isinstance(op.operands[1].owner, ConstantOp), op


def test_fold_scale_axis_skips_its_folds_below_opt_level_3() -> None:
    """TVM's quirk: `FoldScaleAxis()(mod)` at the default opt_level 2 runs the Sequential but
    gates its two opt-3 children: only FoldConstant runs, so the scale stays."""
    x = relay.var("x", shape=(1, 3, 6, 6))
    w = relay.const(RNG.normal(size=(4, 3, 3, 3)).astype("float32"))
    scale = relay.const(positive_scale(4, 1, 1))
    before = module([x], relay.multiply(conv(x, w, 4), relay.add(scale, scale)))

    at_default = FoldScaleAxis()(before.clone())  # PassContext default: opt_level 2
    assert count(at_default, "relay.multiply") == 1  # the scale is still applied after the conv
    assert count(at_default, "relay.add") == 0  # FoldConstant did run: scale + scale folded
    assert_same_numerics(before, at_default)

    with transform.PassContext(opt_level=3):
        at_three = FoldScaleAxis()(before.clone())
    assert count(at_three, "relay.multiply") == 0
    assert count(at_three, "relay.constant") == 1  # the folded weight
    assert_same_numerics(before, at_three, rtol=1e-4, atol=1e-5)


def test_fold_bwd_simple_constant() -> None:
    """TVM's `test_fold_bwd_simple_constant`: a scalar 2.0 after relu, bound parameters; at
    opt_level 3 the multiply disappears into constant weights and bias."""
    w_value = RNG.normal(size=(16, 3, 3, 3)).astype("float32")
    b_value = RNG.normal(size=(16, 1, 1)).astype("float32")
    data = relay.var("data", shape=(1, 3, 20, 20))
    y = relay.nn.conv2d(data, relay.const(w_value), kernel_size=(3, 3), channels=16, padding=(1, 1))
    y = relay.nn.relu(relay.add(y, relay.const(b_value)))
    before = module([data], relay.multiply(y, relay.const(2.0)))

    with transform.PassContext(opt_level=3):
        after = FoldScaleAxis()(before.clone())
    data = relay.var("data", shape=(1, 3, 20, 20))
    y = relay.nn.conv2d(
        data, relay.const(w_value * 2), kernel_size=(3, 3), channels=16, padding=(1, 1)
    )
    expected = module([data], relay.nn.relu(relay.add(y, relay.const(b_value * 2))))
    assert canonical(after) == canonical(expected)
    assert_same_numerics(before, after)


def test_fold_scale_axis_is_a_sequential_of_three() -> None:
    """`FoldScaleAxis()` is TVM's Sequential("FoldScaleAxis", [Backward, Forward, FoldConstant])."""
    seq = FoldScaleAxis()
    assert isinstance(seq, transform.Sequential)
    assert seq.info.name == "FoldScaleAxis"
    assert seq.info.opt_level == 0
    names = [(p.info.name, p.info.opt_level) for p in seq.passes]
    assert names == [("BackwardFoldScaleAxis", 3), ("ForwardFoldScaleAxis", 3), ("FoldConstant", 2)]
    assert transform.get_pass("fold-scale-axis").info.name == "FoldScaleAxis"
    assert isinstance(transform.to_pass(FoldScaleAxisPass()), transform.Sequential)
    assert transform.FoldScaleAxis is FoldScaleAxis


def test_backward_then_forward_in_one_pipeline() -> None:
    """A scale before one conv and after another: both fold, and the weights become constants."""
    x = relay.var("x", shape=(1, 3, 8, 8))
    w1 = relay.const(RNG.normal(size=(4, 3, 3, 3)).astype("float32"))
    w2 = relay.const(RNG.normal(size=(2, 4, 3, 3)).astype("float32"))
    y = relay.nn.relu(relay.multiply(conv(x, w1, 4), relay.const(positive_scale(4, 1, 1))))
    y = conv(relay.multiply(y, relay.const(positive_scale(4, 1, 1))), w2, 2)
    before = module([x], y)
    after = run_and_check(before, FoldScaleAxis(), rtol=1e-4, atol=1e-5)
    assert count(after, "relay.multiply") == 0
    assert count(after, "relay.constant") == 2
