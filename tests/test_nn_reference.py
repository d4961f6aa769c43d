"""Reference semantics of `relay.nn` ops against naive loops and hand-computed values.

Every expected value here is computed independently of `reference_nn.py`: with
explicit Python loops over tiny shapes (indexing through the layout strings, no
transposes), or written out by hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

RNG = np.random.default_rng(7)
F32_LOWEST = float(np.finfo(np.float32).min)


def run(expr: relay.Expr, *inputs: np.ndarray) -> np.ndarray:
    return xrelay.evaluate(IRModule.from_expr(expr), *inputs)


def at(layout: str, **dims: int) -> tuple[int, ...]:
    """The index tuple of named dims (N, C, H, W / O, I, H, W) in `layout`."""
    return tuple(dims[d] for d in layout)


# --------------------------------------------------------------------------- #
# conv2d
# --------------------------------------------------------------------------- #


def naive_conv2d(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, int] = (1, 1),
    padding: tuple[int, int, int, int] = (0, 0, 0, 0),
    dilation: tuple[int, int] = (1, 1),
    groups: int = 1,
    data_layout: str = "NCHW",
    kernel_layout: str = "OIHW",
) -> np.ndarray:
    """Direct convolution, one output element at a time; result in `data_layout`."""
    n, c, h, wd = (x.shape[data_layout.index(d)] for d in "NCHW")
    o, cg, kh, kw = (w.shape[kernel_layout.index(d)] for d in "OIHW")
    assert c == cg * groups
    top, left, bottom, right = padding
    oh = (h + top + bottom - dilation[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + left + right - dilation[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros(at(data_layout, N=n, C=o, H=oh, W=ow))
    per_group = o // groups
    for b, oc, i, j in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // per_group
        total = 0.0
        for ic, p, q in itertools.product(range(cg), range(kh), range(kw)):
            y = i * strides[0] + p * dilation[0] - top
            z = j * strides[1] + q * dilation[1] - left
            if 0 <= y < h and 0 <= z < wd:
                xv = x[at(data_layout, N=b, C=g * cg + ic, H=y, W=z)]
                wv = w[at(kernel_layout, O=oc, I=ic, H=p, W=q)]
                total += float(xv) * float(wv)
        out[at(data_layout, N=b, C=oc, H=i, W=j)] = total
    return out


CONV_CASES = [
    # (in_channels, out_channels, kernel, strides, padding, dilation, groups)
    (3, 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),  # same padding
    (3, 2, (3, 2), (2, 1), (0, 1, 2, 0), (1, 1), 1),  # asymmetric padding, strides
    (4, 6, (3, 3), (1, 2), (2, 2, 2, 2), (2, 2), 2),  # groups, dilation
    (4, 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 4),  # depthwise
    (2, 6, (2, 3), (2, 2), (1, 0, 0, 2), (2, 1), 2),  # depthwise multiplier 3
    (3, 2, (1, 1), (3, 2), (0, 0, 0, 0), (1, 1), 1),  # 1x1, strides larger than the kernel
]

LAYOUTS = [("NCHW", "OIHW"), ("NHWC", "HWIO"), ("NCHW", "HWIO"), ("NHWC", "OHWI"), ("NHWC", "HWOI")]


@pytest.mark.parametrize("layouts", LAYOUTS, ids=lambda t: f"{t[0]}-{t[1]}")
@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_matches_loops(case: tuple, layouts: tuple[str, str]) -> None:
    cin, cout, kernel, strides, padding, dilation, groups = case
    data_layout, kernel_layout = layouts
    x = RNG.standard_normal(at(data_layout, N=2, C=cin, H=7, W=6)).astype("float32")
    w = RNG.standard_normal(
        at(kernel_layout, O=cout, I=cin // groups, H=kernel[0], W=kernel[1])
    ).astype("float32")
    conv = relay.nn.conv2d(
        relay.var("x", shape=x.shape),
        relay.const(w),
        strides=strides,
        padding=padding,
        dilation=dilation,
        groups=groups,
        data_layout=data_layout,
        kernel_layout=kernel_layout,
    )
    expected = naive_conv2d(x, w, strides, padding, dilation, groups, data_layout, kernel_layout)
    assert tuple(conv.checked_type.get_shape()) == expected.shape
    np.testing.assert_allclose(run(conv, x), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_hand_computed() -> None:
    # 3x3 input 0..8, 2x2 kernel of ones: each output is the sum of a 2x2 block.
    x = np.arange(9, dtype="float32").reshape(1, 1, 3, 3)
    w = relay.const(np.ones((1, 1, 2, 2), "float32"))
    xv = relay.var("x", shape=(1, 1, 3, 3))
    assert run(relay.nn.conv2d(xv, w), x).ravel().tolist() == [8, 12, 20, 24]
    # padding 1 on every side, stride 2: the corners see one, two or four values.
    out = run(relay.nn.conv2d(xv, w, strides=2, padding=1), x)
    assert out.ravel().tolist() == [0, 1 + 2, 3 + 6, 4 + 5 + 7 + 8]
    # two padding values are (top/bottom, left/right).
    out = run(relay.nn.conv2d(xv, w, padding=(1, 0)), x)
    assert out.shape == (1, 1, 4, 2)
    assert out.ravel().tolist() == [1, 3, 8, 12, 20, 24, 13, 15]
    # dilation 2 on a 2x2 kernel over 3x3 picks the four corners.
    assert run(relay.nn.conv2d(xv, w, dilation=2), x).ravel().tolist() == [0 + 2 + 6 + 8]


def test_conv2d_int8_with_out_dtype() -> None:
    x = np.full((1, 2, 2, 2), 100, "int8")
    w = np.full((1, 2, 2, 2), 100, "int8")
    conv = relay.nn.conv2d(
        relay.var("x", shape=x.shape, dtype="int8"), relay.const(w), out_dtype="int32"
    )
    assert str(conv.checked_type) == "tensor<1x1x1x1xi32>"
    out = run(conv, x)
    assert out.dtype == np.int32
    assert out.ravel().tolist() == [8 * 100 * 100]


def test_conv2d_dynamic_batch_and_spatial() -> None:
    w = RNG.standard_normal((4, 1, 3, 3)).astype("float32")
    xv = relay.var("x", shape=(None, 2, None, None))
    conv = relay.nn.conv2d(xv, relay.const(w), padding=(1, 1), groups=2)
    assert str(conv.checked_type) == "tensor<?x4x?x?xf32>"
    for shape in ((1, 2, 5, 4), (3, 2, 3, 6)):
        x = RNG.standard_normal(shape).astype("float32")
        expected = naive_conv2d(x, w, padding=(1, 1, 1, 1), groups=2)
        np.testing.assert_allclose(run(conv, x), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_type_errors_name_op_and_shapes() -> None:
    x = relay.var("x", shape=(1, 3, 8, 8))
    with pytest.raises(
        relay.RelayTypeError,
        match=r"'relay.nn.conv2d' weight input channels 2 do not match data channels 3 / groups 1; "
        r"data \(1, 3, 8, 8\) \(NCHW\), weight \(4, 2, 3, 3\) \(OIHW\)",
    ):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 2, 3, 3)))
    with pytest.raises(
        relay.RelayTypeError, match="input channels 3 are not divisible by groups 2"
    ):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 1, 3, 3)), groups=2)
    with pytest.raises(relay.RelayTypeError, match=r"strides must be positive, got \[0, 1\]"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3)), strides=(0, 1))
    with pytest.raises(
        relay.RelayTypeError, match="weight element type f16 does not match data f32"
    ):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3), dtype="float16"))
    with pytest.raises(relay.RelayTypeError, match="weight layout 'OIDW' must have the primal"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3)), kernel_layout="OIDW")
    with pytest.raises(ValueError, match="out_layout 'NHWC' differs from the input layout 'NCHW'"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3)), out_layout="NHWC")


def test_conv2d_channels_fill_a_dynamic_weight_dim() -> None:
    x = relay.var("x", shape=(1, 4, 6, 6))
    conv = relay.nn.conv2d(
        x, relay.var("w", shape=(None, 2, None, 3)), groups=2, channels=6, kernel_size=(3, 3)
    )
    assert str(conv.checked_type) == "tensor<1x6x4x4xf32>"
    with pytest.raises(
        relay.RelayTypeError,
        match=r"'relay\.nn\.conv2d' output channels 3 are not divisible by groups 2",
    ):
        relay.nn.conv2d(x, relay.var("w", shape=(None, 2, 3, 3)), groups=2, channels=3)


def test_rank0_data_is_rejected() -> None:
    s = relay.var("s", shape=())
    vec = relay.var("v", shape=(1,))
    message = (
        r"'relay.nn.{}' expected data of rank at least 1, got rank 0; operand types: \(tensor<f32>"
    )
    with pytest.raises(relay.RelayTypeError, match=message.format("softmax")):
        relay.nn.softmax(s, axis=0)
    with pytest.raises(relay.RelayTypeError, match=message.format("log_softmax")):
        relay.nn.log_softmax(s)
    with pytest.raises(relay.RelayTypeError, match=message.format("bias_add")):
        relay.nn.bias_add(s, vec, axis=0)
    with pytest.raises(relay.RelayTypeError, match=message.format("batch_norm")):
        relay.nn.batch_norm(s, vec, vec, vec, vec, axis=0)
    with pytest.raises(relay.RelayTypeError, match=message.format("batch_flatten")):
        relay.nn.batch_flatten(s)
    with pytest.raises(relay.RelayTypeError, match=message.format("dense")):
        relay.nn.dense(s, relay.var("w", shape=(2, 1)))


def test_batch_norm_rejects_nan_epsilon() -> None:
    vec = relay.var("v", shape=(2,))
    with pytest.raises(
        relay.RelayTypeError, match=r"'relay\.nn\.batch_norm' epsilon must be non-negative, got nan"
    ):
        relay.nn.batch_norm(relay.var("x", shape=(1, 2)), vec, vec, vec, vec, epsilon=math.nan)


def test_op_on_a_tuple_names_the_operand() -> None:
    bn = relay.nn.batch_norm(
        relay.var("x", shape=(2, 3)), *(relay.var(f"v{i}", shape=(3,)) for i in range(4))
    )
    with pytest.raises(
        relay.RelayTypeError,
        match=r"'relay.nn.relu' expected operand #0 to be a tensor, got tuple<",
    ):
        relay.nn.relu(bn)
    assert str(relay.nn.relu(bn[0]).checked_type) == "tensor<2x3xf32>"


# --------------------------------------------------------------------------- #
# Pools
# --------------------------------------------------------------------------- #


def naive_pool(
    x: np.ndarray,
    kind: str,
    pool: tuple[int, int],
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    ceil_mode: bool,
    count_include_pad: bool = False,
    dilation: tuple[int, int] = (1, 1),
    layout: str = "NCHW",
) -> np.ndarray:
    """TVM's pooling, window by window.

    The output extent uses ceil or floor division; max ignores padding, but a
    window entirely in the padding gives the dtype's lowest value; avg divides
    by the count of taps inside the input (or inside the input plus its declared
    padding); a window with nothing to count gives 0.
    """
    n, c, h, w = (x.shape[layout.index(d)] for d in "NCHW")
    top, left, bottom, right = padding
    rnd = math.ceil if ceil_mode else math.floor
    win_h, win_w = dilation[0] * (pool[0] - 1) + 1, dilation[1] * (pool[1] - 1) + 1
    oh = int(rnd((h + top + bottom - win_h) / strides[0])) + 1
    ow = int(rnd((w + left + right - win_w) / strides[1])) + 1
    out = np.zeros(at(layout, N=n, C=c, H=oh, W=ow))
    for b, ch, i, j in itertools.product(range(n), range(c), range(oh), range(ow)):
        values: list[float] = []
        counted = 0
        for p, q in itertools.product(range(pool[0]), range(pool[1])):
            y = i * strides[0] + p * dilation[0] - top
            z = j * strides[1] + q * dilation[1] - left
            if 0 <= y < h and 0 <= z < w:
                values.append(float(x[at(layout, N=b, C=ch, H=y, W=z)]))
            if -top <= y < h + bottom and -left <= z < w + right:
                counted += 1
        if kind == "max":
            result = max(values) if values else F32_LOWEST
        else:
            divisor = counted if count_include_pad else len(values)
            result = sum(values) / divisor if divisor else 0.0
        out[at(layout, N=b, C=ch, H=i, W=j)] = result
    return out


POOL_CASES = [
    # (pool, strides, padding, ceil_mode, dilation)
    ((2, 2), (2, 2), (0, 0, 0, 0), False, (1, 1)),
    ((3, 3), (2, 2), (1, 1, 1, 1), False, (1, 1)),
    ((3, 3), (2, 2), (0, 0, 0, 0), True, (1, 1)),
    ((2, 3), (2, 1), (1, 0, 0, 1), True, (1, 1)),
    ((2, 2), (3, 3), (1, 1, 2, 2), True, (1, 1)),  # windows entirely in the padding
    ((2, 2), (1, 2), (1, 0, 1, 1), True, (2, 2)),  # dilation with ceil_mode
    ((1, 1), (2, 2), (0, 0, 1, 1), True, (1, 1)),  # 1x1 windows past the input
]


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize(
    ("kind", "count_include_pad"),
    [("max", False), ("avg", False), ("avg", True)],
    ids=["max", "avg", "avg-include-pad"],
)
@pytest.mark.parametrize("case", POOL_CASES)
def test_pools_match_loops(case: tuple, kind: str, count_include_pad: bool, layout: str) -> None:
    pool, strides, padding, ceil_mode, dilation = case
    x = RNG.standard_normal(at(layout, N=1, C=2, H=7, W=6)).astype("float32")
    xv = relay.var("x", shape=x.shape)
    if kind == "max":
        expr = relay.nn.max_pool2d(
            xv, pool, strides, dilation, padding, layout=layout, ceil_mode=ceil_mode
        )
    else:
        expr = relay.nn.avg_pool2d(
            xv,
            pool,
            strides,
            dilation,
            padding,
            layout=layout,
            ceil_mode=ceil_mode,
            count_include_pad=count_include_pad,
        )
    expected = naive_pool(
        x, kind, pool, strides, padding, ceil_mode, count_include_pad, dilation, layout
    )
    assert tuple(expr.checked_type.get_shape()) == expected.shape
    np.testing.assert_allclose(run(expr, x), expected, rtol=1e-5, atol=1e-6)


def test_pool_hand_computed() -> None:
    x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    xv = relay.var("x", shape=(1, 1, 4, 4))
    assert run(relay.nn.max_pool2d(xv, (2, 2), (2, 2)), x).ravel().tolist() == [5, 7, 13, 15]
    avg = run(relay.nn.avg_pool2d(xv, (2, 2), (2, 2)), x).ravel().tolist()
    assert avg == [2.5, 4.5, 10.5, 12.5]
    nhwc = relay.var("y", shape=(1, 4, 4, 1))
    out = run(relay.nn.max_pool2d(nhwc, (2, 2), (2, 2), layout="NHWC"), x.reshape(1, 4, 4, 1))
    assert out.shape == (1, 2, 2, 1)
    assert out.ravel().tolist() == [5, 7, 13, 15]


def test_pool_ceil_mode_hand_computed() -> None:
    # 5x5 input 0..24, 2x2 windows, stride 2: ceil_mode adds a last row/column
    # of windows that hang over the bottom/right edge.
    x = np.arange(25, dtype="float32").reshape(1, 1, 5, 5)
    xv = relay.var("x", shape=(1, 1, 5, 5))
    floor = relay.nn.max_pool2d(xv, (2, 2), (2, 2))
    assert str(floor.checked_type) == "tensor<1x1x2x2xf32>"
    out = run(relay.nn.max_pool2d(xv, (2, 2), (2, 2), ceil_mode=True), x)
    assert out.tolist() == [[[[6, 8, 9], [16, 18, 19], [21, 23, 24]]]]
    expected_avg = [[[[3, 5, 6.5], [13, 15, 16.5], [20.5, 22.5, 24]]]]
    out = run(relay.nn.avg_pool2d(xv, (2, 2), (2, 2), ceil_mode=True), x)
    assert out.tolist() == expected_avg
    # The extra ceil_mode padding never counts, even with count_include_pad.
    out = run(relay.nn.avg_pool2d(xv, (2, 2), (2, 2), ceil_mode=True, count_include_pad=True), x)
    assert out.tolist() == expected_avg


def test_avg_pool_count_include_pad_hand_computed() -> None:
    ones = np.ones((1, 1, 3, 3), "float32")
    xv = relay.var("x", shape=(1, 1, 3, 3))
    # padding 1, 2x2 windows, stride 2: windows cover 1, 2, 2 and 4 input elements.
    included = relay.nn.avg_pool2d(xv, (2, 2), (2, 2), padding=(1, 1), count_include_pad=True)
    assert run(included, ones).ravel().tolist() == [0.25, 0.5, 0.5, 1.0]
    excluded = relay.nn.avg_pool2d(xv, (2, 2), (2, 2), padding=(1, 1))
    assert run(excluded, ones).ravel().tolist() == [1.0, 1.0, 1.0, 1.0]


def test_pool_windows_entirely_in_padding() -> None:
    # 1x1 windows at stride 2 over 4 rows with ceil_mode: the third starts at row 4.
    x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    xv = relay.var("x", shape=(1, 1, 4, 4))
    out = run(relay.nn.max_pool2d(xv, (1, 1), (2, 2), ceil_mode=True), x)
    low = F32_LOWEST
    assert out.tolist() == [[[[0, 2, low], [8, 10, low], [low, low, low]]]]
    for include in (False, True):
        avg = relay.nn.avg_pool2d(xv, (1, 1), (2, 2), ceil_mode=True, count_include_pad=include)
        assert run(avg, x).tolist() == [[[[0, 2, 0], [8, 10, 0], [0, 0, 0]]]]


def test_pool_integer_data() -> None:
    x = np.array([[[[-5, -6, -7], [-8, -9, -10], [-11, -12, -13]]]], "int8")
    xv = relay.var("x", shape=x.shape, dtype="int8")
    # Padding holds int8's lowest value, so it never beats negative data.
    out = run(relay.nn.max_pool2d(xv, (2, 2), (2, 2), padding=(1, 1)), x)
    assert out.dtype == np.int8
    assert out.ravel().tolist() == [-5, -6, -8, -9]
    # Integer averages truncate toward zero, as TVM's integer division does.
    avg = run(relay.nn.avg_pool2d(xv, (2, 2), (1, 1)), x)
    assert avg.ravel().tolist() == [-7, -8, -10, -11]  # -7.0, -8.0, -10.0, -11.0 exactly
    y = np.array([[[[1, 2], [2, 2]]]], "int8")
    yv = relay.var("y", shape=y.shape, dtype="int8")
    assert run(relay.nn.avg_pool2d(yv, (2, 2)), y).ravel().tolist() == [1]  # 7 / 4
    assert run(relay.nn.avg_pool2d(yv, (2, 2)), -y).ravel().tolist() == [-1]  # -7 / 4


def test_global_pools() -> None:
    x = np.arange(24, dtype="float32").reshape(1, 2, 3, 4)
    xv = relay.var("x", shape=x.shape)
    assert run(relay.nn.global_avg_pool2d(xv), x).ravel().tolist() == [5.5, 17.5]
    assert run(relay.nn.global_max_pool2d(xv), x).ravel().tolist() == [11.0, 23.0]
    nhwc = np.zeros((1, 3, 4, 2), "float32")
    for h, w, c in itertools.product(range(3), range(4), range(2)):
        nhwc[0, h, w, c] = x[0, c, h, w]
    yv = relay.var("y", shape=(1, 3, 4, 2))
    out = run(relay.nn.global_avg_pool2d(yv, layout="NHWC"), nhwc)
    assert out.shape == (1, 1, 1, 2)
    assert out.ravel().tolist() == [5.5, 17.5]
    dyn = relay.nn.global_avg_pool2d(relay.var("z", shape=(None, 2, None, None)))
    assert str(dyn.checked_type) == "tensor<?x2x1x1xf32>"
    out = run(dyn, np.stack([x[0], x[0] + 1, x[0] * 2]))
    assert out.reshape(3, 2).tolist() == [[5.5, 17.5], [6.5, 18.5], [11.0, 35.0]]


def test_pool_type_errors() -> None:
    xv = relay.var("x", shape=(1, 1, 4, 4))
    with pytest.raises(
        relay.RelayTypeError,
        match=r"'relay.nn.max_pool2d' pool_size must be positive, got \[0, 0\]",
    ):
        relay.nn.max_pool2d(xv, 0)
    with pytest.raises(
        relay.RelayTypeError, match="pool window of size 5 does not fit input extent 4"
    ):
        relay.nn.avg_pool2d(xv, (3, 3), dilation=(2, 2))
    with pytest.raises(ValueError, match="padding must have 1, 2 or 4 values, got 3"):
        relay.nn.max_pool2d(xv, 2, padding=(1, 1, 1))
    with pytest.raises(ValueError, match="out_layout 'NHWC' differs"):
        relay.nn.avg_pool2d(xv, 2, out_layout="NHWC")


# --------------------------------------------------------------------------- #
# dense, batch_norm, softmax
# --------------------------------------------------------------------------- #


def test_dense_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 5)).astype("float32")
    w = RNG.standard_normal((4, 5)).astype("float32")
    expected = np.zeros((2, 3, 4))
    for a, b, u in itertools.product(range(2), range(3), range(4)):
        expected[a, b, u] = sum(float(x[a, b, k]) * float(w[u, k]) for k in range(5))
    out = run(relay.nn.dense(relay.var("x", shape=x.shape), relay.const(w), units=4), x)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


def test_dense_hand_computed_and_out_dtype() -> None:
    x = np.array([[1, 2, 3]], "int8")
    w = np.array([[1, 0, 0], [1, 1, 1], [100, 100, 100]], "int8")
    dense = relay.nn.dense(
        relay.var("x", shape=(1, 3), dtype="int8"), relay.const(w), out_dtype="int32"
    )
    assert str(dense.checked_type) == "tensor<1x3xi32>"
    assert run(dense, x).tolist() == [[1, 6, 600]]
    vector = relay.nn.dense(relay.var("v", shape=(3,)), relay.const(np.eye(3, dtype="float32")[:2]))
    assert str(vector.checked_type) == "tensor<2xf32>"
    assert run(vector, np.array([4.0, 5.0, 6.0], "float32")).tolist() == [4.0, 5.0]


def test_dense_type_errors() -> None:
    with pytest.raises(relay.RelayTypeError, match="disagree on the reduction dim: 5 vs 6"):
        relay.nn.dense(relay.var("x", shape=(2, 5)), relay.var("w", shape=(4, 6)))
    with pytest.raises(relay.RelayTypeError, match="units 3 do not match weight rows 4"):
        relay.nn.dense(relay.var("x", shape=(2, 5)), relay.var("w", shape=(4, 5)), units=3)
    dyn = relay.nn.dense(relay.var("x", shape=(2, 5)), relay.var("w", shape=(None, 5)), units=3)
    assert str(dyn.checked_type) == "tensor<2x3xf32>"


def naive_batch_norm(
    x: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    mean: np.ndarray,
    var: np.ndarray,
    axis: int,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
) -> np.ndarray:
    out = np.zeros(x.shape)
    for index in itertools.product(*map(range, x.shape)):
        ch = index[axis]
        value = (float(x[index]) - float(mean[ch])) / math.sqrt(float(var[ch]) + epsilon)
        if scale:
            value *= float(gamma[ch])
        if center:
            value += float(beta[ch])
        out[index] = value
    return out


@pytest.mark.parametrize("axis", [1, 3, -1])
def test_batch_norm_inference_form(axis: int) -> None:
    x = RNG.standard_normal((2, 3, 4, 3)).astype("float32")
    gamma, beta, mean = (RNG.standard_normal(3).astype("float32") for _ in range(3))
    var = (RNG.random(3) + 0.5).astype("float32")
    bn = relay.nn.batch_norm(
        relay.var("x", shape=x.shape), *map(relay.const, (gamma, beta, mean, var)), axis=axis
    )
    out = run(bn[0], x)
    expected = naive_batch_norm(x, gamma, beta, mean, var, axis % 4)
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(("center", "scale"), [(True, False), (False, True), (False, False)])
def test_batch_norm_flags(center: bool, scale: bool) -> None:
    x = RNG.standard_normal((2, 3)).astype("float32")
    gamma, beta, mean = (RNG.standard_normal(3).astype("float32") for _ in range(3))
    var = (RNG.random(3) + 0.5).astype("float32")
    bn = relay.nn.batch_norm(
        relay.var("x", shape=x.shape),
        *map(relay.const, (gamma, beta, mean, var)),
        epsilon=0.1,
        center=center,
        scale=scale,
    )
    expected = naive_batch_norm(x, gamma, beta, mean, var, 1, 0.1, center, scale)
    np.testing.assert_allclose(run(bn[0], x), expected, rtol=1e-4, atol=1e-5)


def test_batch_norm_tuple_fields() -> None:
    x = np.ones((1, 2), "float32")
    vec = relay.const(np.array([2.0, 3.0], "float32"))
    zero = relay.const(np.zeros(2, "float32"))
    one = relay.const(np.ones(2, "float32") - 1e-5)
    bn = relay.nn.batch_norm(relay.var("x", shape=(1, 2)), vec, vec, zero, one, scale=False)
    assert str(bn.checked_type) == "tuple<tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>>"
    out, mean, var = run(bn.astuple(), x)
    np.testing.assert_allclose(out, [[3.0, 4.0]], rtol=1e-5)  # (1 - 0) / 1 + beta
    assert mean.tolist() == [0.0, 0.0]
    np.testing.assert_allclose(var, [1 - 1e-5] * 2, rtol=1e-7)


def test_batch_norm_dynamic_dims() -> None:
    params = [relay.var(f"p{i}", shape=(3,)) for i in range(4)]
    bn = relay.nn.batch_norm(relay.var("x", shape=(None, None, 2)), *params, axis=1)
    assert str(bn.checked_type) == "tuple<tensor<?x?x2xf32>, tensor<3xf32>, tensor<3xf32>>"
    with pytest.raises(relay.RelayTypeError, match="beta of size 4 does not match gamma size 3"):
        relay.nn.batch_norm(
            relay.var("x", shape=(None, None)),
            params[0],
            relay.var("b", shape=(4,)),
            params[2],
            params[3],
        )


def naive_softmax_rows(x: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """softmax and log_softmax along `axis`, one row at a time with `math`."""
    soft = np.zeros(x.shape)
    log_soft = np.zeros(x.shape)
    axis %= x.ndim
    others = [range(d) for i, d in enumerate(x.shape) if i != axis]
    for rest in itertools.product(*others):
        index = [*rest[:axis], 0, *rest[axis:]]
        row = []
        for k in range(x.shape[axis]):
            index[axis] = k
            row.append(float(x[tuple(index)]))
        total = sum(math.exp(v) for v in row)
        for k, v in enumerate(row):
            index[axis] = k
            soft[tuple(index)] = math.exp(v) / total
            log_soft[tuple(index)] = v - math.log(total)
    return soft, log_soft


@pytest.mark.parametrize("axis", [-1, 0, 1, 2, -2])
def test_softmax_and_log_softmax(axis: int) -> None:
    x = (RNG.standard_normal((2, 3, 4)) * 3).astype("float32")
    xv = relay.var("x", shape=x.shape)
    soft, log_soft = naive_softmax_rows(x, axis)
    np.testing.assert_allclose(run(relay.nn.softmax(xv, axis=axis), x), soft, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(
        run(relay.nn.log_softmax(xv, axis=axis), x), log_soft, rtol=1e-5, atol=1e-5
    )


def test_softmax_hand_computed_and_large_values() -> None:
    xv = relay.var("x", shape=(1, 2))
    out = run(relay.nn.softmax(xv), np.array([[0.0, math.log(3.0)]], "float32"))
    np.testing.assert_allclose(out, [[0.25, 0.75]], rtol=1e-6)
    # Large logits must not overflow.
    big = np.array([[1000.0, 1000.0]], "float32")
    np.testing.assert_allclose(run(relay.nn.softmax(xv), big), [[0.5, 0.5]], rtol=1e-6)
    np.testing.assert_allclose(run(relay.nn.log_softmax(xv), big), [[-math.log(2)] * 2], rtol=1e-6)


# --------------------------------------------------------------------------- #
# pad, batch_flatten, dropout, leaky_relu
# --------------------------------------------------------------------------- #


def test_pad_modes_1d_rows() -> None:
    x = np.array([[1.0, 2.0, 3.0]], "float32")
    xv = relay.var("x", shape=(1, 3))
    assert run(relay.nn.pad(xv, ((0, 0), (2, 1)), 9.0), x).tolist() == [[9, 9, 1, 2, 3, 9]]
    assert run(relay.nn.pad(xv, ((1, 0), (1, 1)), pad_mode="edge"), x).tolist() == [
        [1, 1, 2, 3, 3],
        [1, 1, 2, 3, 3],
    ]
    assert run(relay.nn.pad(xv, ((0, 0), (2, 2)), pad_mode="reflect"), x).tolist() == [
        [3, 2, 1, 2, 3, 2, 1]
    ]


def test_pad_modes_2d() -> None:
    x = np.array([[1, 2, 3], [4, 5, 6]], "float32")
    xv = relay.var("x", shape=(2, 3))
    assert run(relay.nn.pad(xv, ((1, 0), (0, 1))), x).tolist() == [
        [0, 0, 0, 0],
        [1, 2, 3, 0],
        [4, 5, 6, 0],
    ]
    assert run(relay.nn.pad(xv, ((1, 1), (1, 0)), pad_mode="edge"), x).tolist() == [
        [1, 1, 2, 3],
        [1, 1, 2, 3],
        [4, 4, 5, 6],
        [4, 4, 5, 6],
    ]
    assert run(relay.nn.pad(xv, ((1, 1), (0, 2)), pad_mode="reflect"), x).tolist() == [
        [4, 5, 6, 5, 4],
        [1, 2, 3, 2, 1],
        [4, 5, 6, 5, 4],
        [1, 2, 3, 2, 1],
    ]


def test_pad_value_forms_and_dtypes() -> None:
    x = np.array([1, 2], "int32")
    xv = relay.var("x", shape=(2,), dtype="int32")
    assert run(relay.nn.pad(xv, ((1, 2),), -7), x).tolist() == [-7, 1, 2, -7, -7]
    # TVM passes pad_value as an expression: a scalar constant is accepted.
    padded = relay.nn.pad(xv, [[0, 1]], relay.const(5, "int32"))
    assert run(padded, x).tolist() == [1, 2, 5]
    assert run(relay.nn.pad(xv, np.array([[1, 0]])), x).tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match=r"pad_value must be a number or a scalar relay\.const"):
        relay.nn.pad(xv, ((1, 1),), relay.var("v", shape=()))
    with pytest.raises(ValueError, match="pad_width must be pairs of ints"):
        relay.nn.pad(xv, ((1, 1, 1),))
    with pytest.raises(relay.RelayTypeError, match="reflect padding 3 must be smaller than dim 2"):
        relay.nn.pad(xv, ((0, 3),), pad_mode="reflect")
    with pytest.raises(
        relay.RelayTypeError, match=r"pad_width must have 2 values per axis \(2\), got 4"
    ):
        relay.nn.pad(xv, ((0, 1), (1, 0)))


def test_batch_flatten() -> None:
    cube = np.arange(24, dtype="float32").reshape(2, 3, 4)
    flat = run(relay.nn.batch_flatten(relay.var("c", shape=(2, 3, 4))), cube)
    assert flat.shape == (2, 12)
    assert flat[1].tolist() == list(range(12, 24))
    dyn = relay.nn.batch_flatten(relay.var("d", shape=(None, 3, None)))
    assert str(dyn.checked_type) == "tensor<?x?xf32>"
    assert run(dyn, cube).tolist() == [list(range(12)), list(range(12, 24))]
    empty = run(
        relay.nn.batch_flatten(relay.var("e", shape=(None, 2, 2))), np.zeros((0, 2, 2), "float32")
    )
    assert empty.shape == (0, 4)


def test_dropout_is_identity_at_inference() -> None:
    x = np.array([[-2.0, 0.5], [3.0, -0.25]], "float32")
    xv = relay.var("x", shape=(2, 2))
    # As in TVM, relay.nn.dropout is field 0 and dropout_raw the (out, mask) tuple.
    single = relay.nn.dropout(xv, rate=0.3)
    assert str(single.checked_type) == "tensor<2x2xf32>"
    assert run(single, x).tolist() == x.tolist()
    out, mask = run(relay.nn.dropout_raw(xv).astuple(), x)
    assert out.tolist() == x.tolist()
    assert mask.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    with pytest.raises(relay.RelayTypeError, match=r"rate must be in \[0, 1\), got 1.5"):
        relay.nn.dropout(xv, rate=1.5)


def test_leaky_relu_and_relu() -> None:
    x = np.array([[-2.0, 0.5], [3.0, -0.25]], "float32")
    xv = relay.var("x", shape=(2, 2))
    assert run(relay.nn.leaky_relu(xv, alpha=0.1), x).tolist() == [
        [np.float32(-0.2), 0.5],
        [3.0, np.float32(-0.025)],
    ]
    assert run(relay.nn.leaky_relu(xv), x).tolist() == [
        [np.float32(-0.02), 0.5],
        [3.0, np.float32(-0.0025)],
    ]
    ints = relay.var("i", shape=(3,), dtype="int32")
    assert run(relay.nn.relu(ints), np.array([-1, 0, 2], "int32")).tolist() == [0, 0, 2]


def test_bias_add_axes() -> None:
    x = np.zeros((1, 2, 3), "float32")
    xv = relay.var("x", shape=(1, 2, 3))
    out = run(relay.nn.bias_add(xv, relay.const(np.array([1.0, 2.0], "float32"))), x)
    assert out.tolist() == [[[1, 1, 1], [2, 2, 2]]]
    out = run(relay.nn.bias_add(xv, relay.const(np.array([1.0, 2.0, 3.0], "float32")), axis=-1), x)
    assert out.tolist() == [[[1, 2, 3], [1, 2, 3]]]


# --------------------------------------------------------------------------- #
# Dynamic batch end to end, text round trip
# --------------------------------------------------------------------------- #


def test_dynamic_batch() -> None:
    xv = relay.var("x", shape=(relay.Any(), 3, 4, 4))
    w = relay.const(np.ones((2, 3, 1, 1), "float32"))
    y = relay.nn.batch_flatten(relay.nn.max_pool2d(relay.nn.conv2d(xv, w), (2, 2), (2, 2)))
    assert str(y.checked_type) == "tensor<?x8xf32>"
    mod = IRModule.from_expr(
        relay.nn.softmax(relay.nn.dense(y, relay.const(np.ones((5, 8), "float32"))))
    )
    assert "tensor<?x5xf32>" in str(mod)
    for batch in (1, 3):
        out = xrelay.evaluate(mod, np.ones((batch, 3, 4, 4), "float32"))
        assert out.shape == (batch, 5)
        np.testing.assert_allclose(out, 0.2, rtol=1e-6)


Builder = Callable[[relay.Expr], relay.Expr]

DYNAMIC_BATCH_OPS: list[tuple[str, tuple[int, ...], Builder]] = [
    ("avg_pool2d", (3, 2, 5, 5), lambda v: relay.nn.avg_pool2d(v, 3, 2, padding=1, ceil_mode=True)),
    ("leaky_relu", (3, 2, 5, 5), lambda v: relay.nn.leaky_relu(v)),
    ("log_softmax", (3, 2, 5, 5), lambda v: relay.nn.log_softmax(v, axis=1)),
    (
        "pad",
        (3, 2, 5, 5),
        lambda v: relay.nn.pad(v, ((0, 0), (1, 0), (0, 0), (2, 2)), pad_mode="edge"),
    ),
    (
        "batch_norm",
        (3, 2, 5, 5),
        lambda v: relay.nn.batch_norm(
            v, *(relay.const(np.full(2, 2.0, "float32")) for _ in range(4))
        )[0],
    ),
    (
        "conv2d_nhwc_groups",
        (3, 5, 5, 4),
        lambda v: relay.nn.conv2d(
            v,
            relay.const(np.arange(3 * 3 * 2 * 6, dtype="float32").reshape(3, 3, 2, 6) / 50),
            strides=(2, 1),
            padding=(1, 0, 0, 1),
            groups=2,
            data_layout="NHWC",
            kernel_layout="HWIO",
        ),
    ),
    ("max_pool2d_nhwc", (3, 5, 5, 2), lambda v: relay.nn.max_pool2d(v, 2, 2, layout="NHWC")),
    ("global_avg_pool2d", (3, 2, 5, 5), lambda v: relay.nn.global_avg_pool2d(v)),
    (
        "global_max_pool2d",
        (3, 5, 5, 2),
        lambda v: relay.nn.global_max_pool2d(v, layout="NHWC"),
    ),
    ("dropout", (3, 2, 5, 5), lambda v: relay.nn.dropout(v)),
    (
        "bias_add",
        (3, 2, 5, 5),
        lambda v: relay.nn.bias_add(v, relay.const(np.array([1.0, -1.0], "float32"))),
    ),
    (
        "dense",
        (3, 5),
        lambda v: relay.nn.dense(v, relay.const(np.arange(15, dtype="float32").reshape(3, 5))),
    ),
    ("softmax", (3, 2, 5), lambda v: relay.nn.softmax(v, axis=0)),
    ("relu", (3, 2, 5), lambda v: relay.nn.relu(v)),
    ("batch_flatten", (3, 2, 5), lambda v: relay.nn.batch_flatten(v)),
]


@pytest.mark.parametrize(
    ("name", "shape", "build"), DYNAMIC_BATCH_OPS, ids=[c[0] for c in DYNAMIC_BATCH_OPS]
)
def test_dynamic_batch_matches_static(name: str, shape: tuple[int, ...], build: Builder) -> None:
    """The same op with a `?` batch computes what the static op computes, per batch size."""
    dyn = build(relay.var("x", shape=(None, *shape[1:])))
    assert str(dyn.checked_type).startswith("tensor<?x")
    dyn_mod = IRModule.from_expr(dyn)
    for batch in (1, shape[0]):
        x = RNG.standard_normal((batch, *shape[1:])).astype("float32")
        static = run(build(relay.var("x", shape=x.shape)), x)
        np.testing.assert_array_equal(xrelay.evaluate(dyn_mod, x), static)


def test_text_round_trip_evaluates_the_same() -> None:
    xv = relay.var("x", shape=(1, 2, 6, 6))
    w = relay.const(RNG.standard_normal((4, 1, 3, 3)).astype("float32"))
    y = relay.nn.conv2d(xv, w, padding=(0, 1, 2, 1), groups=2, dilation=(1, 2))
    y = relay.nn.avg_pool2d(y, (2, 2), (2, 2), ceil_mode=True, count_include_pad=True)
    y = relay.nn.softmax(relay.nn.batch_flatten(relay.nn.leaky_relu(y)))
    mod = IRModule.from_expr(y)
    again = xrelay.parse(str(mod))
    assert str(again) == str(mod)
    x = RNG.standard_normal((1, 2, 6, 6)).astype("float32")
    np.testing.assert_array_equal(xrelay.evaluate(again, x), xrelay.evaluate(mod, x))


def test_tinyres_example_builds_and_runs() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "examples" / "tinyres.py"
    spec = importlib.util.spec_from_file_location("tinyres", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    mod = module.tinyres()
    out = xrelay.evaluate(mod, RNG.standard_normal((1, 3, 32, 32)).astype("float32"))
    assert out.shape == (1, 10)
    assert abs(float(out.sum()) - 1.0) < 1e-5
    shipped = (path.parent / "tinyres.mlir").read_text()
    assert shipped == str(mod)
