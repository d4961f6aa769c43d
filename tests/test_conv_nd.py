"""conv1d, conv3d and the transposed convolutions: reference semantics against naive loops,
type inference and its errors, and the C target against the interpreter.

The naive loops here are written from the ops' definitions (a convolution reads
`x[o * stride + k * dilation - pad_before]`; a transposed convolution adds
`x[i] * w[k]` at `i * stride + k * dilation - pad_before`), in channels-first
order; other layouts are reached by transposing the inputs and the result.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.relay.base import RelayTypeError

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(15)
SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def run(expr: relay.Expr, *inputs: Array) -> Array:
    return np.asarray(xrelay.evaluate(IRModule.from_expr(expr), *inputs))


def naive_conv(
    x: Array,
    w: Array,
    strides: Sequence[int],
    before: Sequence[int],
    after: Sequence[int],
    dilation: Sequence[int],
    groups: int,
) -> Array:
    n, _, *sizes = x.shape
    o, cg, *kernel = w.shape
    rank = len(sizes)
    out = [
        (sizes[d] + before[d] + after[d] - dilation[d] * (kernel[d] - 1) - 1) // strides[d] + 1
        for d in range(rank)
    ]
    y = np.zeros((n, o, *out))
    for b, oc in itertools.product(range(n), range(o)):
        g = oc // (o // groups)
        for pos in itertools.product(*(range(e) for e in out)):
            total = 0.0
            for ic in range(cg):
                for tap in itertools.product(*(range(k) for k in kernel)):
                    at = [
                        pos[d] * strides[d] + tap[d] * dilation[d] - before[d] for d in range(rank)
                    ]
                    if all(0 <= at[d] < sizes[d] for d in range(rank)):
                        total += float(x[(b, g * cg + ic, *at)]) * float(w[(oc, ic, *tap)])
            y[(b, oc, *pos)] = total
    return y


def naive_conv_transpose(
    x: Array,
    w: Array,
    strides: Sequence[int],
    before: Sequence[int],
    after: Sequence[int],
    extra: Sequence[int],
    dilation: Sequence[int],
    groups: int,
) -> Array:
    n, c, *sizes = x.shape
    _, og, *kernel = w.shape
    rank = len(sizes)
    out = [
        (sizes[d] - 1) * strides[d]
        + dilation[d] * (kernel[d] - 1)
        + 1
        - before[d]
        - after[d]
        + extra[d]
        for d in range(rank)
    ]
    cg = c // groups
    y = np.zeros((n, og * groups, *out))
    for b, ic, o in itertools.product(range(n), range(c), range(og)):
        oc = ic // cg * og + o
        for pos in itertools.product(*(range(e) for e in sizes)):
            for tap in itertools.product(*(range(k) for k in kernel)):
                at = [pos[d] * strides[d] + tap[d] * dilation[d] - before[d] for d in range(rank)]
                if all(0 <= at[d] < out[d] for d in range(rank)):
                    y[(b, oc, *at)] += float(x[(b, ic, *pos)]) * float(w[(ic, o, *tap)])
    return y


def arrange(a: Array, src: str, dst: str) -> Array:
    return np.transpose(a, [src.index(d) for d in dst])


def split_pad(padding: Sequence[int], rank: int) -> tuple[list[int], list[int]]:
    if len(padding) == 1:
        return [padding[0]] * rank, [padding[0]] * rank
    if len(padding) == rank:
        return list(padding), list(padding)
    return list(padding[:rank]), list(padding[rank:])


CONVS: list[tuple[Callable[..., relay.Expr], tuple[int, ...], tuple[int, ...], dict[str, Any]]] = [
    (relay.nn.conv1d, (2, 4, 9), (6, 2, 3), {"groups": 2, "strides": 2, "padding": (1, 2)}),
    (relay.nn.conv1d, (1, 3, 7), (2, 3, 2), {"dilation": 3, "padding": 2}),
    (relay.nn.conv3d, (1, 2, 4, 5, 6), (3, 2, 2, 3, 2), {"strides": (1, 2, 2), "padding": 1}),
    (
        relay.nn.conv3d,
        (2, 4, 5, 4, 5),
        (4, 1, 3, 2, 2),
        {"groups": 4, "dilation": (1, 2, 1), "padding": (1, 0, 1, 0, 1, 2)},
    ),
]


@pytest.mark.parametrize(("fn", "dshape", "wshape", "attrs"), CONVS)
@pytest.mark.parametrize("channels_last", [False, True])
def test_conv_matches_loops(
    fn: Callable[..., relay.Expr],
    dshape: tuple[int, ...],
    wshape: tuple[int, ...],
    attrs: dict[str, Any],
    channels_last: bool,
) -> None:
    rank = len(dshape) - 2
    spatial = SPATIAL[rank]
    x, w = RNG.standard_normal(dshape), RNG.standard_normal(wshape)
    x, w = x.astype("float32"), w.astype("float32")
    data_layout = "N" + spatial + "C" if channels_last else "NC" + spatial
    kernel_layout = spatial + "IO" if channels_last else "OI" + spatial
    xs, ws = arrange(x, "NC" + spatial, data_layout), arrange(w, "OI" + spatial, kernel_layout)
    expr = fn(
        relay.var("x", shape=xs.shape),
        relay.var("w", shape=ws.shape),
        data_layout=data_layout,
        kernel_layout=kernel_layout,
        **attrs,
    )
    padding = attrs.get("padding", 0)
    before, after = split_pad((padding,) if isinstance(padding, int) else padding, rank)

    def per_dim(name: str) -> list[int]:
        value = attrs.get(name, 1)
        return [value] * rank if isinstance(value, int) else list(value)

    want = naive_conv(
        x, w, per_dim("strides"), before, after, per_dim("dilation"), attrs.get("groups", 1)
    )
    got = arrange(run(expr, xs, ws), data_layout, "NC" + spatial)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


TRANSPOSES: list[
    tuple[Callable[..., relay.Expr], tuple[int, ...], tuple[int, ...], dict[str, Any]]
] = [
    (
        relay.nn.conv1d_transpose,
        (2, 2, 5),
        (2, 3, 3),
        {"strides": 2, "padding": (1, 2), "output_padding": 1},
    ),
    (relay.nn.conv1d_transpose, (1, 4, 4), (4, 1, 2), {"groups": 2, "dilation": 2}),
    (relay.nn.conv2d_transpose, (1, 2, 3, 3), (2, 3, 3, 3), {}),
    (
        relay.nn.conv2d_transpose,
        (2, 4, 3, 4),
        (4, 3, 3, 2),
        {
            "strides": (2, 3),
            "padding": (1, 0, 2, 1),
            "output_padding": (1, 2),
            "dilation": (2, 1),
            "groups": 2,
        },
    ),
    (relay.nn.conv2d_transpose, (1, 1, 3, 3), (1, 2, 3, 3), {"strides": (3, 2), "padding": (1, 1)}),
    (
        relay.nn.conv3d_transpose,
        (1, 2, 3, 3, 4),
        (2, 2, 2, 2, 3),
        {"strides": (1, 2, 2), "padding": 1},
    ),
]


@pytest.mark.parametrize(("fn", "dshape", "wshape", "attrs"), TRANSPOSES)
def test_conv_transpose_matches_loops(
    fn: Callable[..., relay.Expr],
    dshape: tuple[int, ...],
    wshape: tuple[int, ...],
    attrs: dict[str, Any],
) -> None:
    rank = len(dshape) - 2
    x = RNG.standard_normal(dshape).astype("float32")
    w = RNG.standard_normal(wshape).astype("float32")
    expr = fn(relay.var("x", shape=dshape), relay.var("w", shape=wshape), **attrs)
    padding = attrs.get("padding", 0)
    before, after = split_pad((padding,) if isinstance(padding, int) else padding, rank)

    def per_dim(name: str, default: int) -> list[int]:
        value = attrs.get(name, default)
        return [value] * rank if isinstance(value, int) else list(value)

    want = naive_conv_transpose(
        x,
        w,
        per_dim("strides", 1),
        before,
        after,
        per_dim("output_padding", 0),
        per_dim("dilation", 1),
        attrs.get("groups", 1),
    )
    np.testing.assert_allclose(run(expr, x, w), want, rtol=1e-5, atol=1e-5)


def test_conv2d_transpose_hand_computed() -> None:
    # One input channel [[1, 2], [3, 4]], a 2x2 kernel of ones, stride 2: each input
    # element becomes a 2x2 block; stride 1 instead overlaps the blocks (sums).
    x = np.array([[[[1, 2], [3, 4]]]], "float32")
    w = np.ones((1, 1, 2, 2), "float32")
    X, W = relay.var("x", shape=(1, 1, 2, 2)), relay.var("w", shape=(1, 1, 2, 2))
    blocks = run(relay.nn.conv2d_transpose(X, W, strides=(2, 2)), x, w)
    np.testing.assert_array_equal(
        blocks[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]]
    )
    overlapped = run(relay.nn.conv2d_transpose(X, W), x, w)
    np.testing.assert_array_equal(overlapped[0, 0], [[1, 3, 2], [4, 10, 6], [3, 7, 4]])
    # Padding crops the full result; output_padding adds a row/column nothing reaches.
    cropped = run(relay.nn.conv2d_transpose(X, W, padding=(1, 1)), x, w)
    np.testing.assert_array_equal(cropped[0, 0], [[10]])
    extra = run(relay.nn.conv2d_transpose(X, W, strides=(2, 2), output_padding=(1, 0)), x, w)
    np.testing.assert_array_equal(extra[0, 0, 4], [0, 0, 0, 0])


def test_conv_transpose_padding_adds_nothing_with_inf_weights() -> None:
    # Only real taps are summed: an infinite weight meets no inserted zero (no NaN).
    x = np.ones((1, 1, 2), "float32")
    w = np.array([[[np.inf, 1.0]]], "float32")
    got = run(
        relay.nn.conv1d_transpose(
            relay.var("x", shape=(1, 1, 2)), relay.var("w", shape=(1, 1, 2)), strides=3
        ),
        x,
        w,
    )
    np.testing.assert_array_equal(got[0, 0], [np.inf, 1, 0, np.inf, 1])


def test_integer_conv3d_and_transpose_with_out_dtype() -> None:
    x = RNG.integers(-5, 5, (1, 2, 3, 3, 3)).astype("int8")
    w = RNG.integers(-3, 3, (2, 2, 2, 2, 2)).astype("int8")
    X, W = relay.var("x", shape=x.shape, dtype="int8"), relay.var("w", shape=w.shape, dtype="int8")
    got = run(relay.nn.conv3d(X, W, out_dtype="int32"), x, w)
    assert got.dtype == np.int32
    want = naive_conv(x, w, [1] * 3, [0] * 3, [0] * 3, [1] * 3, 1)
    np.testing.assert_array_equal(got, want.astype("int32"))
    got_t = run(relay.nn.conv3d_transpose(X, W, out_dtype="int32"), x, w)
    want_t = naive_conv_transpose(x, w, [1] * 3, [0] * 3, [0] * 3, [0] * 3, [1] * 3, 1)
    np.testing.assert_array_equal(got_t, want_t.astype("int32"))


def shape_of(expr: relay.Expr) -> str:
    return str(IRModule.from_expr(expr)["main"].ret_type)


def test_types_with_dynamic_dims() -> None:
    x = relay.var("x", shape=(relay.Any(), 4, relay.Any()))
    w = relay.var("w", shape=(4, 3, 3))
    assert "?x6x?" in shape_of(relay.nn.conv1d_transpose(x, w, groups=2, channels=6))
    y = relay.var("y", shape=(1, 2, 5, 5, 5))
    k = relay.var("k", shape=(4, 2, 3, relay.Any(), 3))
    assert "1x4x3x3x3" in shape_of(relay.nn.conv3d(y, k, kernel_size=(3, 3, 3)))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (
            lambda: relay.nn.conv1d(
                relay.var("x", shape=(1, 4, 5)), relay.var("w", shape=(2, 3, 3))
            ),
            "weight input channels 3 do not match data channels 4 / groups 1",
        ),
        (
            lambda: relay.nn.conv2d_transpose(
                relay.var("x", shape=(1, 4, 5, 5)), relay.var("w", shape=(3, 2, 3, 3))
            ),
            "weight input channels 3 do not match data channels 4",
        ),
        (
            lambda: relay.nn.conv2d_transpose(
                relay.var("x", shape=(1, 4, 5, 5)),
                relay.var("w", shape=(4, 2, 3, 3)),
                channels=2,
                groups=2,
            ),
            "channels 2 do not match weight output channels 2 * groups 2",
        ),
        (
            lambda: relay.nn.conv1d_transpose(
                relay.var("x", shape=(1, 1, 1)), relay.var("w", shape=(1, 1, 1)), padding=(1, 1)
            ),
            "padding 1 + 1 exceeds the transposed extent 1 of input extent 1",
        ),
        (
            lambda: relay.nn.conv3d(
                relay.var("x", shape=(1, 1, 4, 4)), relay.var("w", shape=(1, 1, 1, 1, 1))
            ),
            "expected 5-D data, got rank 4",
        ),
    ],
)
def test_type_errors(build: Callable[[], relay.Expr], message: str) -> None:
    with pytest.raises(RelayTypeError, match=re.escape(message)):
        IRModule.from_expr(build())


# ------------------------------------------------------------------ the C target


class Cases:
    """Many convolutions in one module for target c; each case has its own inputs."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.params: list[relay.Var] = []
        self.values: list[Array] = []
        self.outputs: list[relay.Expr] = []

    def var(self, shape: Sequence[int], dtype: str = "float32") -> relay.Var:
        v = relay.var(f"v{len(self.params)}", shape=tuple(shape), dtype=dtype)
        self.params.append(v)
        if np.dtype(dtype).kind in "iu":
            self.values.append(self.rng.integers(-5, 6, shape).astype(dtype))
        else:
            self.values.append(self.rng.uniform(-2, 2, shape).astype(dtype))
        return v

    def check(self, cache: Path, optimize: bool) -> None:
        mod = IRModule.from_expr(relay.Function(self.params, relay.Tuple(self.outputs)))
        lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
        got, want = lib(*self.values), xrelay.evaluate(mod, *self.values)
        assert len(got) == len(want) == len(self.outputs)
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            g, w = np.asarray(g), np.asarray(w)
            assert (g.dtype, g.shape) == (w.dtype, w.shape), index
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"case {index}")


@pytest.mark.parametrize("optimize", [False, True])
def test_c_target_matches_the_interpreter(optimize: bool, cache: Path) -> None:
    cases = Cases(3)
    for fn, dshape, wshape, attrs in CONVS + TRANSPOSES:
        cases.outputs.append(fn(cases.var(dshape), cases.var(wshape), **attrs))
    # Channels-last layouts, and integers with an out_dtype.
    x, w = cases.var((1, 7, 3)), cases.var((3, 3, 2))
    cases.outputs.append(relay.nn.conv1d(x, w, padding=1, data_layout="NWC", kernel_layout="WIO"))
    x, w = cases.var((1, 3, 4, 5, 2)), cases.var((2, 2, 2, 2, 3))
    cases.outputs.append(
        relay.nn.conv3d(x, w, strides=2, padding=1, data_layout="NDHWC", kernel_layout="DHWIO")
    )
    x, w = cases.var((2, 3, 4, 2)), cases.var((3, 2, 3, 2))
    cases.outputs.append(
        relay.nn.conv2d_transpose(
            x, w, strides=2, padding=(1, 0), data_layout="NHWC", kernel_layout="HWOI"
        )
    )
    x, w = cases.var((1, 2, 4), "int8"), cases.var((2, 3, 3), "int8")
    cases.outputs.append(relay.nn.conv1d_transpose(x, w, strides=2, out_dtype="int32"))
    cases.check(cache, optimize)
