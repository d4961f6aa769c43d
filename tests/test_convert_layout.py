"""ConvertLayout: TVM's test_pass_convert_op_layout.py cases ported, plus constants, axes and options.

Each case compares the rewritten graph with one built with the builder (both
re-emitted in the builder's order, so only the graph counts, as with TVM's
structural equality, and checked to hold no op besides it) and the numerics
before and after on seeded random inputs. Shapes are TVM's with fewer pixels
and channels, so the reference interpreter stays fast. Where xrelay's graph
differs from TVM's on purpose (bias_add keeps its op; `batch_flatten` is a
boundary), the test says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import assert_graph_equal
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.passes.convert_layout import ConvertLayout, ConvertLayoutPass, parse_desired_layouts
from xrelay.passes.fold_constant import FoldConstant

from xrelay import IRModule, relay, transform

NCHW_DEFAULT = {"nn.conv2d": ["NCHW", "default"]}
NHWC_DEFAULT = {"nn.conv2d": ["NHWC", "default"]}


def module(params: Sequence[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(list(params), body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def transforms(mod: IRModule) -> list[tuple[str, str]]:
    return [
        (get_str(op.properties, "src_layout"), get_str(op.properties, "dst_layout"))
        for op in mod.module.walk()
        if op.name == "relay.layout_transform"
    ]


def convert(mod: IRModule, desired: dict[str, list[str]]) -> IRModule:
    return run_and_check(mod, ConvertLayout(desired))


def weight(shape: tuple[int, ...], seed: int = 3) -> relay.Constant:
    return relay.const(np.random.default_rng(seed).standard_normal(shape).astype("float32"))


def bn_params(channels: int) -> list[relay.Constant]:
    """gamma, beta, mean and a positive variance."""
    rng = np.random.default_rng(5)
    values = [rng.standard_normal(channels) for _ in range(3)] + [rng.uniform(0.5, 2, channels)]
    return [relay.const(v.astype("float32")) for v in values]


def nhwc_conv(x: relay.Expr, w: relay.Expr, channels: int, **kwargs: object) -> relay.Expr:
    return relay.nn.conv2d(
        x,
        w,
        channels=channels,
        kernel_size=(3, 3),
        padding=(1, 1),
        data_layout="NHWC",
        kernel_layout="HWIO",
        **kwargs,  # type: ignore[arg-type]
    )


def to_nchw(x: relay.Expr, w: relay.Expr) -> tuple[relay.Expr, relay.Expr]:
    """x from NHWC and w from HWIO to NCHW and OIHW."""
    return relay.layout_transform(x, "NHWC", "NCHW"), relay.layout_transform(w, "HWIO", "OIHW")


def nchw_bias(bias: relay.Expr) -> relay.Expr:
    """An NHWC bias `[C]` as TVM's ConvertLayout adds it to an NCHW value."""
    return relay.layout_transform(relay.expand_dims(bias, axis=0, num_newaxis=3), "NHWC", "NCHW")


def nchw_conv(x: relay.Expr, w: relay.Expr, channels: int) -> relay.Expr:
    return relay.nn.conv2d(x, w, channels=channels, kernel_size=(3, 3), padding=(1, 1))


# --------------------------------------------------------------------------- #
# TVM's cases
# --------------------------------------------------------------------------- #


def test_no_convert_layout() -> None:
    """A module already in the desired layout is unchanged."""
    x = relay.var("x", shape=(1, 8, 6, 6))
    w = relay.var("weight", shape=(8, 8, 3, 3))
    before = module([x, w], relay.nn.relu(nchw_conv(x, w, 8)))
    out = convert(before, NCHW_DEFAULT)
    assert str(out) == str(before)


def test_conv_convert_layout() -> None:
    """NHWC/HWIO -> NCHW/OIHW: transforms of x and w, conv, relu, a transform back."""

    def before() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        return module([x, w], relay.nn.relu(nhwc_conv(x, w, 8)))

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        y = nchw_conv(
            relay.layout_transform(x, "NHWC", "NCHW"), relay.layout_transform(w, "HWIO", "OIHW"), 8
        )
        y = relay.layout_transform(relay.nn.relu(y), "NCHW", "NHWC")
        return module([x, w], y)

    out = convert(before(), NCHW_DEFAULT)
    assert str(out) == str(expected())  # same order too: transforms go right before the conv


def test_conv_nhwc_convert_layout() -> None:
    """NCHW/OIHW -> NHWC/HWIO."""

    def before() -> IRModule:
        x = relay.var("x", shape=(1, 8, 6, 6))
        w = relay.var("weight", shape=(8, 8, 3, 3))
        return module([x, w], relay.nn.relu(nchw_conv(x, w, 8)))

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 8, 6, 6))
        w = relay.var("weight", shape=(8, 8, 3, 3))
        xt = relay.layout_transform(x, "NCHW", "NHWC")
        y = nhwc_conv(xt, relay.layout_transform(w, "OIHW", "HWIO"), 8)
        y = relay.layout_transform(relay.nn.relu(y), "NHWC", "NCHW")
        return module([x, w], y)

    assert str(convert(before(), NHWC_DEFAULT)) == str(expected())


def bias_pool_before() -> IRModule:
    x = relay.var("x", shape=(1, 6, 6, 8))
    bias = relay.var("bias", shape=(8,))
    w = relay.var("weight", shape=(3, 3, 8, 8))
    y = relay.nn.bias_add(nhwc_conv(x, w, 8), bias, axis=3)
    y = relay.Tuple([y])[0]  # a useless tuple
    y = relay.nn.relu(y)
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), layout="NHWC")
    y = relay.cast(y, "int32")
    return module([x, bias, w], relay.nn.batch_flatten(y))


def test_conv_bias_pool_convert_layout() -> None:
    """bias_add becomes TVM's add of a relaid bias, the tuple carries the layout, the pool
    follows its input.

    As TVM (which requires CanonicalizeOps), bias_add is `add(y, layout_transform(
    expand_dims(bias)))`; TVM flattens the NCHW value, xrelay transforms back before
    `batch_flatten`, which is not layout-agnostic.
    """

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        bias = relay.var("bias", shape=(8,))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        xt, wt = to_nchw(x, w)
        y = relay.add(nchw_conv(xt, wt, 8), nchw_bias(bias))
        y = relay.Tuple([y])[0]
        y = relay.nn.relu(y)
        y = relay.nn.max_pool2d(y, pool_size=(2, 2))
        y = relay.cast(y, "int32")
        y = relay.layout_transform(y, "NCHW", "NHWC")
        return module([x, bias, w], relay.nn.batch_flatten(y))

    assert_graph_equal(convert(bias_pool_before(), NCHW_DEFAULT), expected())


def test_conv_bias_pool_uses_specified_convert_layout() -> None:
    """A pool listed in NHWC gets its input transformed back and stays NHWC."""

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        bias = relay.var("bias", shape=(8,))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        xt, wt = to_nchw(x, w)
        y = relay.add(nchw_conv(xt, wt, 8), nchw_bias(bias))
        y = relay.nn.relu(relay.Tuple([y])[0])
        y = relay.layout_transform(y, "NCHW", "NHWC")
        y = relay.nn.max_pool2d(y, pool_size=(2, 2), layout="NHWC")
        return module([x, bias, w], relay.nn.batch_flatten(relay.cast(y, "int32")))

    desired = {"nn.conv2d": ["NCHW", "OIHW"], "nn.max_pool2d": ["NHWC"]}
    assert_graph_equal(convert(bias_pool_before(), desired), expected())


def test_conv_concat_convert_layout() -> None:
    """Two consecutive convs need no transform between them; concatenate's axis 3 becomes 1."""

    def before() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 8)), relay.var("weight2", shape=(3, 3, 8, 8))
        y = nhwc_conv(x, w1, 8)
        y1 = nhwc_conv(y, w2, 8)
        return module([x, w1, w2], relay.concatenate([y, y1], axis=3))

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 8)), relay.var("weight2", shape=(3, 3, 8, 8))
        y = nchw_conv(
            relay.layout_transform(x, "NHWC", "NCHW"), relay.layout_transform(w1, "HWIO", "OIHW"), 8
        )
        y1 = nchw_conv(y, relay.layout_transform(w2, "HWIO", "OIHW"), 8)
        ret = relay.layout_transform(relay.concatenate([y, y1], axis=1), "NCHW", "NHWC")
        return module([x, w1, w2], ret)

    out = convert(before(), NCHW_DEFAULT)
    assert_graph_equal(out, expected())
    assert transforms(out).count(("NCHW", "NHWC")) == 1


def test_dual_path_convert_layout() -> None:
    """Two consumers of one conv: the second conv stays in NCHW, the flatten gets NHWC back.

    TVM flattens the NCHW value (changing the numbers); xrelay transforms it back first.
    """

    def before() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 4)), relay.var("weight2", shape=(3, 3, 4, 4))
        y = relay.nn.relu(nhwc_conv(x, w1, 4))
        y1 = relay.nn.relu(nhwc_conv(y, w2, 4))
        return module([x, w1, w2], relay.Tuple([y1, relay.nn.batch_flatten(y)]))

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 4)), relay.var("weight2", shape=(3, 3, 4, 4))
        w1t, w2t = (
            relay.layout_transform(w1, "HWIO", "OIHW"),
            relay.layout_transform(w2, "HWIO", "OIHW"),
        )
        y = relay.nn.relu(nchw_conv(relay.layout_transform(x, "NHWC", "NCHW"), w1t, 4))
        y1 = relay.layout_transform(relay.nn.relu(nchw_conv(y, w2t, 4)), "NCHW", "NHWC")
        y2 = relay.nn.batch_flatten(relay.layout_transform(y, "NCHW", "NHWC"))
        return module([x, w1, w2], relay.Tuple([y1, y2]))

    assert_graph_equal(convert(before(), NCHW_DEFAULT), expected())


def test_bn_convert_layout() -> None:
    """Only one NCHW -> NHWC transform: batch_norm follows the conv (axis 3 -> 1)."""
    x = relay.var("x", shape=(1, 6, 6, 8))
    w = relay.var("weight1", shape=(3, 3, 8, 4))
    y = relay.nn.batch_norm(nhwc_conv(x, w, 4), *bn_params(4), axis=3)
    out = convert(module([x, w], y[0]), NCHW_DEFAULT)
    assert transforms(out).count(("NCHW", "NHWC")) == 1


def test_resnet_convert_layout() -> None:
    """Both convs read one transform of x; the add and the global pool follow; one transform back."""

    def before(pool_layout: str) -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 4)), relay.var("weight2", shape=(1, 1, 8, 4))
        y = relay.nn.relu(nhwc_conv(x, w1, 4))
        y2 = relay.nn.conv2d(
            x, w2, channels=4, kernel_size=(1, 1), data_layout="NHWC", kernel_layout="HWIO"
        )
        y = relay.nn.global_max_pool2d(y + relay.nn.relu(y2), layout=pool_layout)
        return module([x, w1, w2], y)

    def expected(pool_in_nhwc: bool) -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w1, w2 = relay.var("weight1", shape=(3, 3, 8, 4)), relay.var("weight2", shape=(1, 1, 8, 4))
        w1t, w2t = (
            relay.layout_transform(w1, "HWIO", "OIHW"),
            relay.layout_transform(w2, "HWIO", "OIHW"),
        )
        xt = relay.layout_transform(x, "NHWC", "NCHW")
        y = relay.nn.relu(nchw_conv(xt, w1t, 4))
        y2 = relay.nn.relu(relay.nn.conv2d(xt, w2t, channels=4, kernel_size=(1, 1)))
        y = y + y2
        if pool_in_nhwc:
            y = relay.nn.global_max_pool2d(relay.layout_transform(y, "NCHW", "NHWC"), "NHWC")
        else:
            y = relay.layout_transform(relay.nn.global_max_pool2d(y), "NCHW", "NHWC")
        return module([x, w1, w2], y)

    assert_graph_equal(convert(before("NHWC"), NCHW_DEFAULT), expected(False))
    # test_resnet_pool_uses_specified_convert_layout
    desired = {"nn.conv2d": ["NCHW", "default"], "nn.global_max_pool2d": ["NHWC"]}
    assert_graph_equal(convert(before("NHWC"), desired), expected(True))


def test_scalar_convert_layout() -> None:
    """A scalar operand broadcasts in any layout: it is left as it is."""

    def build(converted: bool) -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        if converted:
            xt, wt = to_nchw(x, w)
            y = relay.add(nchw_conv(xt, wt, 8), relay.const(1, "float32"))
            return module([x, w], relay.layout_transform(y, "NCHW", "NHWC"))
        return module([x, w], relay.add(nhwc_conv(x, w, 8), relay.const(1, "float32")))

    assert_graph_equal(convert(build(False), NCHW_DEFAULT), build(True))


def test_conv_bn_convert_layout() -> None:
    """batch_norm's axis 3 becomes 1; relu of field 0 follows; one transform back at the end."""

    def build(converted: bool) -> IRModule:
        x = relay.var("x", shape=(1, 6, 6, 8))
        w = relay.var("weight", shape=(3, 3, 8, 8))
        params = bn_params(8)
        if converted:
            xt, wt = to_nchw(x, w)
            y = relay.nn.batch_norm(nchw_conv(xt, wt, 8), *params, axis=1)
            y = relay.layout_transform(relay.nn.relu(y[0]), "NCHW", "NHWC")
        else:
            y = relay.nn.relu(relay.nn.batch_norm(nhwc_conv(x, w, 8), *params, axis=3)[0])
        return module([x, w], y)

    assert_graph_equal(convert(build(False), NCHW_DEFAULT), build(True))


# --------------------------------------------------------------------------- #
# Constants, axes, depthwise, original transforms
# --------------------------------------------------------------------------- #


def test_constant_weight_and_channel_scale_fold_into_new_layout() -> None:
    """A constant weight and a per-channel `[C,1,1]` constant get transforms FoldConstant folds."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    scale = np.linspace(0.5, 2.0, 8).astype("float32").reshape(8, 1, 1)
    y = relay.nn.conv2d(x, weight((8, 4, 3, 3)), padding=(1, 1))
    y = relay.multiply(y, relay.const(scale))
    before = module([x], relay.nn.relu(y))
    out = convert(before, NHWC_DEFAULT)
    expand = [op for op in out.module.walk() if op.name == "relay.expand_dims"]
    assert [str(op.results[0].type) for op in expand] == ["tensor<1x8x1x1xf32>"]
    assert transforms(out) == [
        ("NCHW", "NHWC"),
        ("OIHW", "HWIO"),
        ("NCHW", "NHWC"),
        ("NHWC", "NCHW"),
    ]
    folded = run_and_check(before, [ConvertLayout(NHWC_DEFAULT), FoldConstant()])
    assert transforms(folded) == [("NCHW", "NHWC"), ("NHWC", "NCHW")]
    assert count(folded, "relay.expand_dims") == 0
    shapes = sorted(
        str(op.results[0].type) for op in folded.module.walk() if op.name == "relay.constant"
    )
    assert shapes == ["tensor<1x1x1x8xf32>", "tensor<3x3x4x8xf32>"]


def test_axes_follow_the_new_layout() -> None:
    """softmax, pad, split and concatenate read their axes in the new layout; bias_add is an
    add (TVM's CanonicalizeOps) of a bias relaid to `[1, 1, 1, C]`."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    y = relay.nn.conv2d(x, weight((8, 4, 3, 3)), padding=(1, 1))
    y = relay.nn.bias_add(y, relay.const(np.arange(8, dtype="float32")))
    y = relay.nn.softmax(y, axis=1)
    y = relay.nn.pad(y, ((0, 0), (0, 0), (1, 2), (0, 1)))
    parts = relay.split(y, 2, axis=1)
    y = relay.concatenate([parts[1], parts[0]], axis=1)
    out = convert(module([x], relay.nn.leaky_relu(y)), NHWC_DEFAULT)
    ops = {op.name: op for op in out.module.walk()}
    for name in ("relay.nn.softmax", "relay.split", "relay.concatenate"):
        assert get_int(ops[name].properties, "axis") == 3, name
    assert get_ints(ops["relay.nn.pad"].properties, "pad_width") == (0, 0, 1, 2, 0, 1, 0, 0)
    assert "relay.nn.bias_add" not in ops
    assert str(ops["relay.add"].operands[1].type) == "tensor<1x1x1x8xf32>"
    assert transforms(out) == [
        ("NCHW", "NHWC"),
        ("OIHW", "HWIO"),
        ("NCHW", "NHWC"),
        ("NHWC", "NCHW"),
    ]


def test_depthwise_nhwc_default_kernel_is_hwoi() -> None:
    """As TVM's convert_conv2d: an NHWC depthwise conv takes HWOI by default, others HWIO."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    y = relay.nn.conv2d(x, weight((4, 1, 3, 3)), padding=(1, 1), groups=4)
    y = relay.nn.conv2d(y, weight((8, 2, 3, 3)), padding=(1, 1), groups=2)
    out = convert(module([x], y), NHWC_DEFAULT)
    convs = [op for op in out.module.walk() if op.name == "relay.nn.conv2d"]
    assert [get_str(op.properties, "kernel_layout") for op in convs] == ["HWOI", "HWIO"]
    assert transforms(out)[0] == ("NCHW", "NHWC")
    assert transforms(out)[-1] == ("NHWC", "NCHW")


def test_original_transform_pair_cancels() -> None:
    """`layout_transform(x, NCHW, NHWC)` before an NHWC conv made NCHW cancels: the conv reads x."""

    def build(converted: bool) -> IRModule:
        x = relay.var("x", shape=(1, 4, 6, 6))
        w = relay.var("w", shape=(3, 3, 4, 8))
        if converted:
            y = nchw_conv(x, relay.layout_transform(w, "HWIO", "OIHW"), 8)
            return module([x, w], relay.layout_transform(relay.nn.relu(y), "NCHW", "NHWC"))
        y = nhwc_conv(relay.layout_transform(x, "NCHW", "NHWC"), w, 8)
        return module([x, w], relay.nn.relu(y))

    assert_graph_equal(convert(build(False), NCHW_DEFAULT), build(True))


def test_original_transform_after_conv_composes() -> None:
    """`layout_transform(conv, NHWC, NCHW)` of the original graph is the new NCHW conv itself."""
    x = relay.var("x", shape=(1, 6, 6, 4))
    y = nhwc_conv(x, weight((3, 3, 4, 8)), 8)
    out = convert(module([x], relay.layout_transform(relay.exp(y), "NHWC", "NCHW")), NCHW_DEFAULT)
    assert transforms(out) == [("NHWC", "NCHW"), ("HWIO", "OIHW")]


def test_broadcast_with_lower_rank_operand_and_comparison() -> None:
    """A `[H, W, C]` operand is widened to rank 4 then transformed; comparisons follow too."""
    x = relay.var("x", shape=(1, 6, 6, 4))
    z = relay.var("z", shape=(6, 6, 8))
    y = relay.add(nhwc_conv(x, weight((3, 3, 4, 8)), 8), z)
    mask = relay.cast(relay.greater(y, z), "float32")
    out = convert(module([x, z], relay.multiply(y, mask)), NCHW_DEFAULT)
    expand = [op for op in out.module.walk() if op.name == "relay.expand_dims"]
    assert [str(op.results[0].type) for op in expand] == ["tensor<1x6x6x8xf32>"]
    assert transforms(out) == [
        ("NHWC", "NCHW"),
        ("HWIO", "OIHW"),
        ("NHWC", "NCHW"),  # z, once for the add and the comparison
        ("NCHW", "NHWC"),
    ]


# --------------------------------------------------------------------------- #
# What stays, options, registration
# --------------------------------------------------------------------------- #


def test_keep_without_convertible_ops() -> None:
    """No conv or pool: nothing changes, nor with an empty `desired_layouts`."""
    x = relay.var("x", shape=(2, 16))
    before = module([x], relay.nn.relu(relay.nn.dense(x, weight((8, 16)))))
    assert str(convert(before, NHWC_DEFAULT)) == str(before)
    y = relay.var("y", shape=(1, 6, 6, 4))
    conv = module([y], nhwc_conv(y, weight((3, 3, 4, 4)), 4))
    assert str(convert(conv, {})) == str(conv)


def test_keep_conv_not_listed() -> None:
    """Listing only a pool leaves convs alone; the pool's input goes to NHWC and back."""
    x = relay.var("x", shape=(1, 4, 6, 6))
    y = relay.nn.relu(relay.nn.conv2d(x, weight((4, 4, 3, 3)), padding=(1, 1)))
    out = convert(module([x], relay.nn.max_pool2d(y, (2, 2))), {"nn.max_pool2d": ["NHWC"]})
    assert transforms(out) == [("NCHW", "NHWC"), ("NHWC", "NCHW")]
    conv = next(op for op in out.module.walk() if op.name == "relay.nn.conv2d")
    assert "data_layout" not in str(conv)


def test_options_and_spec() -> None:
    assert parse_desired_layouts(("nn.conv2d:NHWC", "relay.nn.avg_pool2d:NHWC")) == {
        "nn.conv2d": ("NHWC", "default"),
        "nn.avg_pool2d": ("NHWC",),
    }
    bad = [
        (("nn.dense:NHWC",), "unknown op 'nn.dense'"),
        (("nn.conv2d:NCHW16c:default",), "a blocked data layout needs a kernel layout"),
        (("nn.conv2d:NWCH:default",), "unsupported data layout 'NWCH'"),
        (("nn.conv2d:NHWC:OIDHW",), "kernel layout 'OIDHW' must have the primal axes O, I, H, W"),
        (("nn.max_pool2d:NCHW4h",), "unsupported layout 'NCHW4h'"),
        (("nn.max_pool2d:NHWC:HWIO",), "takes one layout"),
        (("nn.conv2d:NHWC", "nn.conv2d:NCHW"), "given twice"),
    ]
    for entries, message in bad:
        with pytest.raises(ValueError, match=message):
            ConvertLayoutPass(desired_layouts=entries)
    pass_ = ConvertLayout({"nn.conv2d": ["NHWC", "default"], "nn.max_pool2d": ["NHWC"]})
    assert pass_.pipeline_spec() == (
        'convert-layout{desired_layouts="nn.conv2d:NHWC:default","nn.max_pool2d:NHWC"}'
    )


def test_pass_info_and_gating() -> None:
    pass_ = ConvertLayout(NHWC_DEFAULT)
    assert (pass_.info.name, pass_.info.opt_level) == ("ConvertLayout", 3)
    assert transform.get_pass("convert-layout").info.name == "ConvertLayout"
    x = relay.var("x", shape=(1, 4, 6, 6))
    mod = module([x], relay.nn.conv2d(x, weight((4, 4, 3, 3))))
    with transform.PassContext(opt_level=2):
        out = transform.Sequential([pass_])(mod.clone())
    assert count(out, "relay.layout_transform") == 0
    with transform.PassContext(opt_level=3):
        out = transform.Sequential([pass_])(mod.clone())
    assert count(out, "relay.layout_transform") == 3
