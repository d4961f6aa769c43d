"""ConvertLayout on vision.roi_align / roi_pool and nn.deformable_conv2d: the graphs TVM makes
(its FInferCorrectLayout and convert functions) and the numerics before and after."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import assert_graph_equal
from xrelay.passes.convert_layout import ConvertLayout, parse_desired_layouts

from xrelay import IRModule, relay

ROIS = np.array([[0, 1, 1, 9, 7], [0, -2, 0.5, 4, 3.5], [0, 3, 3, 3, 3]], "float32")


def module(params: Sequence[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(list(params), body))


def weight(shape: tuple[int, ...]) -> relay.Constant:
    return relay.const(np.random.default_rng(3).standard_normal(shape).astype("float32"))


def conv_nchw(x: relay.Expr) -> relay.Expr:
    return relay.nn.conv2d(x, weight((4, 3, 3, 3)), channels=4, kernel_size=(3, 3), padding=(1, 1))


def conv_nhwc(x: relay.Expr) -> relay.Expr:
    w = relay.layout_transform(weight((4, 3, 3, 3)), "OIHW", "HWIO")
    return relay.nn.conv2d(
        relay.layout_transform(x, "NCHW", "NHWC"),
        w,
        channels=4,
        kernel_size=(3, 3),
        padding=(1, 1),
        data_layout="NHWC",
        kernel_layout="HWIO",
    )


@pytest.mark.parametrize("op", ["roi_align", "roi_pool"])
def test_listed_roi_op_takes_the_conv_layout(op: str) -> None:
    """TVM's test_conv_roi_*_convert_layout: the roi op reads the NHWC conv directly (rois
    as they are); its NHWC result follows into relu and goes back at the return."""

    def roi(y: relay.Expr, rois: relay.Expr, layout: str) -> relay.Expr:
        if op == "roi_align":
            return relay.vision.roi_align(y, rois, (2, 3), 0.5, 2, layout)
        return relay.vision.roi_pool(y, rois, (2, 3), 0.5, layout)

    def graph(nhwc: bool) -> IRModule:
        x, rois = relay.var("x", shape=(1, 3, 8, 10)), relay.var("rois", shape=(3, 5))
        y = roi(conv_nhwc(x), rois, "NHWC") if nhwc else roi(conv_nchw(x), rois, "NCHW")
        y = relay.nn.relu(y)
        return module([x, rois], relay.layout_transform(y, "NHWC", "NCHW") if nhwc else y)

    desired = {"nn.conv2d": ["NHWC", "default"], f"vision.{op}": ["NHWC", "default"]}
    out = run_and_check(graph(False), ConvertLayout(desired))
    assert_graph_equal(out, graph(True).clone())


def test_roi_op_not_listed_keeps_its_layout() -> None:
    """TVM's test_no_desired_layout: roi_align's layout is its own; its data goes back."""

    def expected() -> IRModule:
        x, rois = relay.var("x", shape=(1, 3, 8, 10)), relay.var("rois", shape=(3, 5))
        y = relay.layout_transform(conv_nhwc(x), "NHWC", "NCHW")
        return module([x, rois], relay.vision.roi_align(y, rois, (2, 2), 1.0, -1, "NCHW", "max"))

    x, rois = relay.var("x", shape=(1, 3, 8, 10)), relay.var("rois", shape=(3, 5))
    y = relay.vision.roi_align(conv_nchw(x), rois, (2, 2), 1.0, mode="max")
    out = run_and_check(module([x, rois], y), ConvertLayout({"nn.conv2d": ["NHWC", "default"]}))
    assert_graph_equal(out, expected())


def test_listed_roi_op_in_its_own_layout_is_unchanged() -> None:
    x, rois = relay.var("x", shape=(1, 3, 8, 10)), relay.var("rois", shape=(3, 5))
    mod = module([x, rois], relay.vision.roi_pool(x, rois, (2, 2), 1.0))
    out = run_and_check(mod, ConvertLayout({"vision.roi_pool": ["NCHW", "default"]}))
    assert_graph_equal(out, mod)


def _deformable(layout: str, x: relay.Expr, offset: relay.Expr) -> relay.Expr:
    w = weight((4, 3, 3, 3))
    if layout == "NHWC":
        w = relay.layout_transform(w, "OIHW", "HWIO")
    return relay.nn.deformable_conv2d(
        x,
        offset,
        w,
        padding=(1, 1),
        kernel_size=(3, 3),
        channels=4,
        data_layout=layout,
        kernel_layout="OIHW" if layout == "NCHW" else "HWIO",
    )


def test_deformable_conv2d_is_converted_with_its_offset() -> None:
    """TVM's test_deformable_conv_bias_pool_convert_layout (smaller): data and offset go to
    NCHW, the weight to OIHW; the NCHW result follows into relu and the pool."""

    def expected() -> IRModule:
        x, off = relay.var("x", shape=(1, 6, 5, 3)), relay.var("offset", shape=(1, 6, 5, 18))
        w = weight((4, 3, 3, 3))  # OIHW -> HWIO -> OIHW cancels
        y = relay.nn.deformable_conv2d(
            relay.layout_transform(x, "NHWC", "NCHW"),
            relay.layout_transform(off, "NHWC", "NCHW"),
            w,
            padding=(1, 1),
            kernel_size=(3, 3),
            channels=4,
        )
        y = relay.nn.max_pool2d(relay.nn.relu(y), pool_size=(2, 2))
        return module([x, off], relay.layout_transform(y, "NCHW", "NHWC"))

    x, off = relay.var("x", shape=(1, 6, 5, 3)), relay.var("offset", shape=(1, 6, 5, 18))
    y = relay.nn.relu(_deformable("NHWC", x, relay.multiply(off, relay.const(1.5))))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), layout="NHWC")
    out = run_and_check(
        module([x, off], y), ConvertLayout({"nn.deformable_conv2d": ["NCHW", "default"]})
    )
    text = str(out)
    assert 'data_layout = "NHWC"' not in text
    assert text.count("relay.layout_transform") == 3  # x, offset (after multiply), result
    plain_x, plain_off = (
        relay.var("x", shape=(1, 6, 5, 3)),
        relay.var("offset", shape=(1, 6, 5, 18)),
    )
    y = relay.nn.max_pool2d(
        relay.nn.relu(_deformable("NHWC", plain_x, plain_off)), pool_size=(2, 2), layout="NHWC"
    )
    plain = run_and_check(
        module([plain_x, plain_off], y),
        ConvertLayout({"nn.deformable_conv2d": ["NCHW", "default"]}),
    )
    assert_graph_equal(plain, expected())


def test_deformable_conv2d_in_its_layout_is_unchanged() -> None:
    x, off = relay.var("x", shape=(1, 3, 6, 5)), relay.var("offset", shape=(1, 18, 6, 5))
    mod = module([x, off], _deformable("NCHW", x, off))
    out = run_and_check(mod, ConvertLayout({"nn.deformable_conv2d": ["NCHW", "OIHW"]}))
    assert_graph_equal(out, mod)


def test_options() -> None:
    parsed = parse_desired_layouts(("vision.roi_align:NHWC", "relay.vision.roi_pool:NCHW:default"))
    assert parsed == {
        "vision.roi_align": ("NHWC", "default"),
        "vision.roi_pool": ("NCHW", "default"),
    }
    assert parse_desired_layouts(("nn.deformable_conv2d:NHWC:default",)) == {
        "nn.deformable_conv2d": ("NHWC", "default")
    }
    with pytest.raises(ValueError, match="'default' for the rois"):
        parse_desired_layouts(("vision.roi_align:NHWC:NC",))
    with pytest.raises(ValueError, match="unsupported data layout 'NCHW4c'"):
        parse_desired_layouts(("vision.roi_pool:NCHW4c:default",))
    with pytest.raises(ValueError, match="unsupported kernel layout 'OIHW4o'"):
        parse_desired_layouts(("nn.deformable_conv2d:NCHW:OIHW4o",))
