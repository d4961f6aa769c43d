"""ConvertLayout: ops that renumber their axes for the new layout (passes/convert_layout_axes.py).

Each case converts a small NHWC conv followed by the op to NCHW, checks the
op's rewritten attributes and the transforms left, and (through
`run_and_check`) that the numerics before and after agree on random inputs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.passes.convert_layout import ConvertLayout

from xrelay import IRModule, relay

NCHW = {"nn.conv2d": ["NCHW", "default"]}


def conv_then(tail: Callable[[relay.Expr], relay.Expr], channels: int = 4) -> IRModule:
    x = relay.var("x", shape=(1, 5, 6, 3))
    w = relay.const(np.random.default_rng(1).standard_normal((3, 3, 3, channels)), "float32")
    y = relay.nn.conv2d(
        x, w, channels=channels, kernel_size=(3, 3), padding=(1, 1),
        data_layout="NHWC", kernel_layout="HWIO",
    )  # fmt: skip
    body = tail(y)
    return IRModule.from_expr(relay.Function([x], body))


def converted(tail: Callable[[relay.Expr], relay.Expr]) -> tuple[dict[str, object], list[str]]:
    """The converted module's ops by name and its layout transforms as `src->dst`."""
    out = run_and_check(conv_then(tail), ConvertLayout(NCHW))
    ops = {op.name: op for op in out.module.walk()}
    pairs = [
        f"{get_str(op.properties, 'src_layout')}->{get_str(op.properties, 'dst_layout')}"
        for op in out.module.walk()
        if op.name == "relay.layout_transform"
    ]
    return ops, pairs


BOUNDARY_IN = ["NHWC->NCHW", "HWIO->OIHW"]


def test_squeeze_drops_the_letter_from_both_layouts() -> None:
    ops, pairs = converted(lambda y: relay.squeeze(relay.sum(y, axis=[1], keepdims=True), [1]))
    assert get_ints(ops["relay.sum"].properties, "axis") == (2,)
    assert get_ints(ops["relay.squeeze"].properties, "axis") == (2,)
    assert pairs == [*BOUNDARY_IN, "NCW->NWC"]


def test_squeeze_without_axis_lists_the_static_ones() -> None:
    def tail(y: relay.Expr) -> relay.Expr:
        return relay.squeeze(relay.max(y, axis=[1, 2], keepdims=True))

    ops, pairs = converted(tail)
    assert get_ints(ops["relay.squeeze"].properties, "axis") == (0, 2, 3)
    assert pairs == BOUNDARY_IN  # the result `[C]` needs no transform back


@pytest.mark.parametrize("name", ["sum", "mean", "max", "argmax", "argmin"])
def test_reductions_renumber_and_sort_their_axes(name: str) -> None:
    ops, pairs = converted(lambda y: getattr(relay, name)(y, axis=[2, 1]))
    assert get_ints(ops[f"relay.{name}"].properties, "axis") == (2, 3)
    assert pairs == BOUNDARY_IN


def test_argmax_over_reordered_axes_is_a_boundary() -> None:
    """NHWC axes (W, C) are (C, W) in NCHW: the flat index would count another way."""
    ops, pairs = converted(lambda y: relay.argmax(y, axis=[2, 3]))
    assert get_ints(ops["relay.argmax"].properties, "axis") == (2, 3)
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC"]


def test_exclude_reduction_becomes_an_explicit_axis_list() -> None:
    ops, pairs = converted(lambda y: relay.sum(y, axis=[3], exclude=True, keepdims=True))
    props = ops["relay.sum"].properties
    assert (get_ints(props, "axis"), get_int(props, "exclude")) == ((0, 2, 3), 0)
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC"]


def test_strided_slice_fills_and_permutes_its_bounds() -> None:
    ops, pairs = converted(lambda y: relay.strided_slice(y, [0, 1], [1, 4, 5], [1, 2, 1]))
    props = ops["relay.strided_slice"].properties
    assert get_ints(props, "begin") == (0, 0, 1, 0)
    assert get_ints(props, "end") == (1, 4, 4, 5)
    assert get_ints(props, "strides") == (1, 1, 2, 1)
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC"]


def test_strided_slice_with_axes_renumbers_them() -> None:
    ops, _ = converted(lambda y: relay.strided_slice(y, [1, 3], [3, 0], [1, -1], axes=[3, 2]))
    assert get_ints(ops["relay.strided_slice"].properties, "axes") == (1, 3)


def test_topk_tuple_fields_go_back_one_by_one() -> None:
    ops, pairs = converted(lambda y: relay.topk(y, k=2, axis=2).astuple())
    assert get_int(ops["relay.topk"].properties, "axis") == 3
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC", "NCHW->NHWC"]


def test_norms_renumber_their_axes() -> None:
    gamma = relay.const(np.linspace(0.5, 1.5, 4), "float32")
    beta = relay.const(np.linspace(-1, 1, 4), "float32")

    def tail(y: relay.Expr) -> relay.Expr:
        y = relay.nn.layer_norm(y, gamma, beta, axis=3)
        y = relay.nn.instance_norm(y, gamma, beta, axis=-1)
        return relay.nn.l2_normalize(y, 1e-6, axis=[2, 3])

    ops, pairs = converted(tail)
    assert get_int(ops["relay.nn.layer_norm"].properties, "axis") == 1
    assert get_int(ops["relay.nn.instance_norm"].properties, "axis") == 1
    assert get_ints(ops["relay.nn.l2_normalize"].properties, "axis") == (3, 1)
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC"]


@pytest.mark.parametrize(
    ("axes", "moved"),
    [([0, 3, 1, 2], (0, 1, 2, 3)), ([2, -1, 0, 1], (3, 1, 0, 2)), (None, (1, 3, 2, 0))],
)
def test_transpose_renumbers_its_axes_and_ends_the_conversion(
    axes: list[int] | None, moved: tuple[int, ...]
) -> None:
    """Each axis goes where its letter is in NCHW; the result keeps the layout it had."""
    ops, pairs = converted(lambda y: relay.nn.relu(relay.transpose(y, axes)))
    assert get_ints(ops["relay.transpose"].properties, "axes") == moved
    assert pairs == BOUNDARY_IN


def test_resize2d_follows_and_is_a_desired_layout_op() -> None:
    ops, pairs = converted(lambda y: relay.image.resize2d(y, (8, 9), layout="NHWC"))
    assert get_str(ops["relay.image.resize2d"].properties, "layout") == "NCHW"
    assert pairs == [*BOUNDARY_IN, "NCHW->NHWC"]
    x = relay.var("x", shape=(1, 2, 3, 4))
    mod = IRModule.from_expr(relay.Function([x], relay.image.resize2d(x, (6, 5))))
    out = run_and_check(mod, ConvertLayout({"image.resize2d": ["NHWC"]}))
    (resize,) = [op for op in out.module.walk() if op.name == "relay.image.resize2d"]
    assert get_str(resize.properties, "layout") == "NHWC"


def test_conv2d_transpose_default_kernel_layouts() -> None:
    x = relay.var("x", shape=(1, 4, 4, 3))
    w = relay.const(np.random.default_rng(2).standard_normal((3, 3, 3, 5)), "float32")
    y = relay.nn.conv2d_transpose(
        x, w, channels=5, kernel_size=(3, 3), data_layout="NHWC", kernel_layout="HWIO"
    )
    mod = IRModule.from_expr(relay.Function([x], y))
    out = run_and_check(mod, ConvertLayout({"nn.conv2d_transpose": ["NCHW", "default"]}))
    (conv,) = [op for op in out.module.walk() if op.name == "relay.nn.conv2d_transpose"]
    props = conv.properties
    assert (get_str(props, "data_layout"), get_str(props, "kernel_layout")) == ("NCHW", "IOHW")
