"""Reference semantics of the relay ops added for the ONNX frontend (`nn_norm` and friends),
against naive loops and hand-computed values.

Every expected value is computed independently of `reference_nn_norm.py`: with explicit
Python loops over tiny shapes in Python floats (the formulas of ONNX's reference cases,
written out), or by hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

RNG = np.random.default_rng(15)


def run(expr: relay.Expr, *inputs: np.ndarray) -> np.ndarray:
    return np.asarray(xrelay.evaluate(IRModule.from_expr(expr), *inputs))


# --------------------------------------------------------------------------- #
# lrn
# --------------------------------------------------------------------------- #


def naive_lrn(
    x: np.ndarray, size: int, axis: int, bias: float, alpha: float, beta: float
) -> np.ndarray:
    """ONNX's LRN, one element at a time: the window is `c - floor((size - 1) / 2)` to
    `c + ceil((size - 1) / 2)`, clipped to the channels."""
    out = np.zeros(x.shape)
    channels = x.shape[axis]
    for index in itertools.product(*(range(d) for d in x.shape)):
        c = index[axis]
        low = max(0, c - math.floor((size - 1) / 2))
        high = min(channels - 1, c + math.ceil((size - 1) / 2))
        total = 0.0
        for k in range(low, high + 1):
            other = list(index)
            other[axis] = k
            total += float(x[tuple(other)]) ** 2
        out[index] = float(x[index]) / (bias + alpha / size * total) ** beta
    return out


@pytest.mark.parametrize(
    ("shape", "size", "axis"),
    [((2, 5, 3, 3), 5, 1), ((2, 5, 3, 3), 3, 1), ((1, 6, 2), 4, 1), ((3, 4), 2, -1), ((7,), 1, 0)],
)
def test_lrn_against_loops(shape: tuple[int, ...], size: int, axis: int) -> None:
    x = RNG.standard_normal(shape).astype("float32")
    xv = relay.var("x", shape=shape)
    got = run(relay.nn.lrn(xv, size, axis, bias=1.5, alpha=0.7, beta=0.75), x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, naive_lrn(x, size, axis, 1.5, 0.7, 0.75), rtol=1e-6)


def test_lrn_hand_values_and_tvm_defaults() -> None:
    xv = relay.var("x", shape=(3,))
    x = np.array([1.0, 2.0, 3.0], "float32")
    # size 3: windows {0, 1}, {0, 1, 2}, {1, 2}; alpha / size = 1, bias 1, beta 1.
    got = run(relay.nn.lrn(xv, 3, 0, bias=1.0, alpha=3.0, beta=1.0), x)
    np.testing.assert_allclose(got, [1 / 6, 2 / 15, 3 / 14], rtol=1e-7)
    # size 2 (even, ONNX's rule): windows {0, 1}, {1, 2}, {2}.
    got = run(relay.nn.lrn(xv, 2, 0, bias=1.0, alpha=2.0, beta=1.0), x)
    np.testing.assert_allclose(got, [1 / 6, 2 / 14, 3 / 10], rtol=1e-7)
    # TVM's defaults: size 5, axis 1, bias 2, alpha 1e-5, beta 0.75.
    y = np.array([[3.0, 4.0]], "float32")
    got = run(relay.nn.lrn(relay.var("y", shape=(1, 2))), y)
    np.testing.assert_allclose(got, y / (2 + 1e-5 / 5 * 25) ** 0.75, rtol=1e-7)


def test_lrn_float64_and_float16_keep_their_type() -> None:
    for dtype, rtol in (("float64", 1e-12), ("float16", 1e-3)):
        x = RNG.standard_normal((2, 4, 3)).astype(dtype)
        got = run(relay.nn.lrn(relay.var("x", shape=x.shape, dtype=dtype), 3), x)
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got, naive_lrn(x, 3, 1, 2.0, 1e-5, 0.75), rtol=rtol)


def test_lrn_type_errors() -> None:
    with pytest.raises(relay.RelayTypeError, match="floating-point"):
        relay.nn.lrn(relay.var("x", shape=(1, 4), dtype="int32"))
    with pytest.raises(relay.RelayTypeError, match="size must be positive, got 0"):
        relay.nn.lrn(relay.var("x", shape=(1, 4)), size=0)
    with pytest.raises(relay.RelayTypeError, match="axis 2 is out of range for rank 2"):
        relay.nn.lrn(relay.var("x", shape=(1, 4)), axis=2)


# --------------------------------------------------------------------------- #
# batch_matmul
# --------------------------------------------------------------------------- #


def naive_batch_matmul(x: np.ndarray, y: np.ndarray, ta: bool, tb: bool) -> np.ndarray:
    """One output element at a time; a batch of 1 is reused for every batch."""
    m, k = (x.shape[2], x.shape[1]) if ta else (x.shape[1], x.shape[2])
    n = y.shape[1] if tb else y.shape[2]
    batch = max(x.shape[0], y.shape[0])
    out = np.zeros((batch, m, n))
    for b, i, j in itertools.product(range(batch), range(m), range(n)):
        xb, yb = x[b if x.shape[0] > 1 else 0], y[b if y.shape[0] > 1 else 0]
        total = 0
        for q in range(k):
            total += (xb[q, i] if ta else xb[i, q]) * (yb[j, q] if tb else yb[q, j])
        out[b, i, j] = total
    return out


@pytest.mark.parametrize(
    ("x_shape", "y_shape", "ta", "tb"),
    [
        ((2, 3, 4), (2, 5, 4), False, True),  # TVM's default: y is [B, N, K]
        ((2, 3, 4), (2, 4, 5), False, False),
        ((1, 4, 3), (3, 5, 4), True, True),
        ((3, 4, 3), (1, 4, 2), True, False),
    ],
)
def test_batch_matmul_against_loops(
    x_shape: tuple[int, int, int], y_shape: tuple[int, int, int], ta: bool, tb: bool
) -> None:
    x = RNG.standard_normal(x_shape).astype("float32")
    y = RNG.standard_normal(y_shape).astype("float32")
    expr = relay.nn.batch_matmul(
        relay.var("x", shape=x_shape), relay.var("y", shape=y_shape), transpose_a=ta, transpose_b=tb
    )
    got = run(expr, x, y)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, naive_batch_matmul(x, y, ta, tb), rtol=1e-5, atol=1e-6)


def test_batch_matmul_integers_and_out_dtype() -> None:
    x = np.array([[[100, -100], [1, 2]]], "int8")
    y = np.array([[[100, 100], [3, 4]]], "int8")  # [B, N, K]
    xv, yv = (
        relay.var("x", shape=(1, 2, 2), dtype="int8"),
        relay.var("y", shape=(1, 2, 2), dtype="int8"),
    )
    got = run(relay.nn.batch_matmul(xv, yv, out_dtype="int32"), x, y)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [[[0, -100], [300, 11]]])
    # Without out_dtype the int8 result wraps: 300 -> 44.
    np.testing.assert_array_equal(run(relay.nn.batch_matmul(xv, yv), x, y), [[[0, -100], [44, 11]]])


def test_batch_matmul_types() -> None:
    x = relay.var("x", shape=(relay.Any(), 3, 4))
    out = relay.nn.batch_matmul(x, relay.var("y", shape=(1, 5, 4))).checked_type
    assert str(out) == "tensor<?x3x5xf32>"
    with pytest.raises(relay.RelayTypeError, match="batch dims 2 and 3 differ and neither is 1"):
        relay.nn.batch_matmul(relay.var("x", shape=(2, 3, 4)), relay.var("y", shape=(3, 5, 4)))
    with pytest.raises(relay.RelayTypeError, match="disagree on the reduction dim: 4 vs 5"):
        relay.nn.batch_matmul(
            relay.var("x", shape=(2, 3, 4)), relay.var("y", shape=(2, 5, 4)), transpose_b=False
        )
    with pytest.raises(relay.RelayTypeError, match="expected 3-D y"):
        relay.nn.batch_matmul(relay.var("x", shape=(2, 3, 4)), relay.var("y", shape=(5, 4)))


# --------------------------------------------------------------------------- #
# layer_norm, instance_norm, group_norm
# --------------------------------------------------------------------------- #

Index = tuple[int, ...]


def naive_norm(
    x: np.ndarray,
    gamma: np.ndarray,
    beta: np.ndarray,
    axis: int,
    key: Callable[[Index], Index],
    epsilon: float = 1e-5,
) -> np.ndarray:
    """Elements with the same `key` share a mean and a (biased) variance, in Python floats;
    then `(x - mean) / sqrt(var + epsilon) * gamma[c] + beta[c]`, c the index on `axis`."""
    groups: dict[Index, list[Index]] = {}
    for index in itertools.product(*(range(d) for d in x.shape)):
        groups.setdefault(key(index), []).append(index)
    out = np.zeros(x.shape)
    for members in groups.values():
        values = [float(x[i]) for i in members]
        mean = sum(values) / len(values)
        var = sum((v - mean) ** 2 for v in values) / len(values)
        for i, v in zip(members, values, strict=True):
            c = i[axis]
            out[i] = (v - mean) / math.sqrt(var + epsilon) * float(gamma[c]) + float(beta[c])
    return out


def norm_inputs(shape: tuple[int, ...], axis: int) -> list[np.ndarray]:
    c = shape[axis]
    return [RNG.standard_normal(s).astype("float32") for s in (shape, (c,), (c,))]


def norm_vars(shape: tuple[int, ...], axis: int) -> list[relay.Var]:
    c = shape[axis]
    return [relay.var("x", shape=shape), relay.var("g", shape=(c,)), relay.var("b", shape=(c,))]


@pytest.mark.parametrize(("shape", "axis"), [((2, 3, 4), -1), ((2, 3, 4), 1), ((5,), 0)])
def test_layer_norm_against_loops(shape: tuple[int, ...], axis: int) -> None:
    inputs = norm_inputs(shape, axis)
    a = axis % len(shape)
    want = naive_norm(*inputs, a, lambda i: i[:a] + i[a + 1 :])
    got = run(relay.nn.layer_norm(*norm_vars(shape, axis), axis=axis), *inputs)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("shape", "axis"), [((2, 3, 4, 5), 1), ((2, 3, 4), 2), ((3, 4), 1)])
def test_instance_norm_against_loops(shape: tuple[int, ...], axis: int) -> None:
    inputs = norm_inputs(shape, axis)
    got = run(relay.nn.instance_norm(*norm_vars(shape, axis), axis=axis, epsilon=1e-3), *inputs)
    want = naive_norm(*inputs, axis, lambda i: (i[0], i[axis]), epsilon=1e-3)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("shape", "groups", "axis"),
    [((2, 6, 3, 2), 3, 1), ((2, 6, 3, 2), 1, 1), ((2, 4, 5), 4, 1), ((2, 3, 4, 2), 2, 2)],
)
def test_group_norm_against_loops(shape: tuple[int, ...], groups: int, axis: int) -> None:
    inputs = norm_inputs(shape, axis)
    size = shape[axis] // groups
    want = naive_norm(*inputs, axis, lambda i: (*i[:axis], i[axis] // size))
    got = run(relay.nn.group_norm(*norm_vars(shape, axis), groups, axis=axis), *inputs)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_norms_hand_values_center_and_scale() -> None:
    # Row [1, 2, 3, 6]: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5.
    x = np.array([[1.0, 2.0, 3.0, 6.0]], "float32")
    gamma, beta = np.array([1, 2, 1, 1], "float32"), np.array([0, 0, 0, 10], "float32")
    xv, gv, bv = (
        relay.var("x", shape=(1, 4)),
        relay.var("g", shape=(4,)),
        relay.var("b", shape=(4,)),
    )
    root = math.sqrt(3.5 + 0.5)  # epsilon 0.5: root 2
    normalized = np.array([[-2, -1, 0, 3]]) / root
    for center, scale in itertools.product((True, False), repeat=2):
        want = normalized * (gamma if scale else 1) + (beta if center else 0)
        expr = relay.nn.layer_norm(xv, gv, bv, epsilon=0.5, center=center, scale=scale)
        np.testing.assert_allclose(run(expr, x, gamma, beta), want, rtol=1e-7)
    # One group of all four channels on axis 1 is the same statistics.
    expr = relay.nn.group_norm(xv, gv, bv, 1, epsilon=0.5)
    np.testing.assert_allclose(run(expr, x, gamma, beta), normalized * gamma + beta, rtol=1e-7)
    # instance_norm of [N, C] has one element per statistic: every output is beta.
    expr = relay.nn.instance_norm(xv, gv, bv)
    np.testing.assert_allclose(run(expr, x, gamma, beta), [beta], rtol=0)


def test_norm_type_errors() -> None:
    x, g = relay.var("x", shape=(2, 6, 3)), relay.var("g", shape=(6,))
    with pytest.raises(relay.RelayTypeError, match="gamma of size 6 does not match data dim 3"):
        relay.nn.layer_norm(x, g, g)
    with pytest.raises(relay.RelayTypeError, match="channels 6 are not divisible by num_groups 4"):
        relay.nn.group_norm(x, g, g, 4)
    with pytest.raises(relay.RelayTypeError, match="num_groups must be positive, got 0"):
        relay.nn.group_norm(x, g, g, 0)
    with pytest.raises(relay.RelayTypeError, match="epsilon must be non-negative"):
        relay.nn.instance_norm(x, g, g, epsilon=-1.0)
    with pytest.raises(relay.RelayTypeError, match="floating-point"):
        relay.nn.instance_norm(relay.var("i", shape=(2, 6), dtype="int32"), g, g)


# --------------------------------------------------------------------------- #
# prelu, l2_normalize
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(("shape", "axis"), [((2, 3, 4), 1), ((2, 3, 4), -1), ((5,), 0)])
def test_prelu_against_loops(shape: tuple[int, ...], axis: int) -> None:
    x = RNG.standard_normal(shape).astype("float32")
    alpha = RNG.standard_normal((shape[axis],)).astype("float32")
    want = np.zeros(shape, "float32")
    for index in itertools.product(*(range(d) for d in shape)):
        v = x[index]
        want[index] = v if v > 0 else v * alpha[index[axis]]
    expr = relay.nn.prelu(relay.var("x", shape=shape), relay.var("a", shape=alpha.shape), axis)
    np.testing.assert_array_equal(run(expr, x, alpha), want)


def test_prelu_hand_values_and_types() -> None:
    x = np.array([[2.0, -2.0, np.nan, -0.0]], "float32")
    alpha = np.array([0.5], "float32")
    xv, av = relay.var("x", shape=(1, 4)), relay.var("a", shape=(1,))
    got = run(relay.nn.prelu(xv, av, axis=0), x, alpha)
    np.testing.assert_array_equal(got, [[2.0, -1.0, np.nan, -0.0]])
    assert np.signbit(got[0, 3])
    with pytest.raises(relay.RelayTypeError, match="alpha of size 1 does not match data dim 4"):
        relay.nn.prelu(xv, av)
    with pytest.raises(relay.RelayTypeError, match="floating-point"):
        relay.nn.prelu(relay.var("i", shape=(1, 1), dtype="int32"), av)


@pytest.mark.parametrize(
    ("shape", "axis"), [((2, 3, 4), [1]), ((2, 3, 4), None), ((2, 3, 4), [0, -1]), ((4,), [0])]
)
def test_l2_normalize_against_loops(shape: tuple[int, ...], axis: list[int] | None) -> None:
    x = RNG.standard_normal(shape).astype("float32")
    axes = set(range(len(shape))) if axis is None else {a % len(shape) for a in axis}
    want = np.zeros(shape)
    for index in itertools.product(*(range(d) for d in shape)):
        total = 0.0
        for other in itertools.product(*(range(d) for d in shape)):
            if all(other[a] == index[a] for a in range(len(shape)) if a not in axes):
                total += float(x[other]) ** 2
        want[index] = float(x[index]) / math.sqrt(max(total, 0.25))
    got = run(relay.nn.l2_normalize(relay.var("x", shape=shape), 0.25, axis), x)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_l2_normalize_hand_values() -> None:
    x = np.array([[3.0, 4.0], [0.0, 0.0], [0.1, 0.0]], "float32")
    xv = relay.var("x", shape=(3, 2))
    # eps 1e-100: a zero row gives 0 (ONNX LpNormalization's rule); eps 1: [0.1, 0] / 1.
    got = run(relay.nn.l2_normalize(xv, 1e-100, axis=[1]), x)
    np.testing.assert_allclose(got, [[0.6, 0.8], [0.0, 0.0], [1.0, 0.0]], rtol=1e-7)
    got = run(relay.nn.l2_normalize(xv, 1.0, axis=1), x)
    np.testing.assert_allclose(got, [[0.6, 0.8], [0.0, 0.0], [0.1, 0.0]], rtol=1e-7)
    with pytest.raises(relay.RelayTypeError, match="axis 2 is out of range for rank 2"):
        relay.nn.l2_normalize(xv, 1e-12, axis=[2])
    with pytest.raises(relay.RelayTypeError, match="eps must be non-negative"):
        relay.nn.l2_normalize(xv, -1.0)


# --------------------------------------------------------------------------- #
# adaptive pools
# --------------------------------------------------------------------------- #


def naive_adaptive_pool(x: np.ndarray, out_hw: tuple[int, int], kind: str) -> np.ndarray:
    """NCHW; output row i pools input rows floor(i * H / OH) to ceil((i + 1) * H / OH)."""
    n, c, h, w = x.shape
    oh, ow = out_hw
    out = np.zeros((n, c, oh, ow))
    for b, ch, i, j in itertools.product(range(n), range(c), range(oh), range(ow)):
        rows = range(math.floor(i * h / oh), math.ceil((i + 1) * h / oh))
        cols = range(math.floor(j * w / ow), math.ceil((j + 1) * w / ow))
        values = [float(x[b, ch, r, q]) for r in rows for q in cols]
        out[b, ch, i, j] = max(values) if kind == "max" else sum(values) / len(values)
    return out


@pytest.mark.parametrize(
    ("shape", "size", "out_hw"),
    [
        ((2, 3, 7, 5), (3, 2), (3, 2)),
        ((1, 2, 4, 4), 1, (1, 1)),
        ((1, 2, 3, 5), None, (3, 5)),
        ((1, 1, 2, 3), (5, 4), (5, 4)),
    ],
)
def test_adaptive_pools_against_loops(
    shape: tuple[int, ...], size: int | tuple[int, int] | None, out_hw: tuple[int, int]
) -> None:
    x = RNG.standard_normal(shape).astype("float32")
    xv = relay.var("x", shape=shape)
    got = run(relay.nn.adaptive_avg_pool2d(xv, size), x)
    np.testing.assert_allclose(got, naive_adaptive_pool(x, out_hw, "avg"), rtol=1e-6)
    got = run(relay.nn.adaptive_max_pool2d(xv, size), x)
    np.testing.assert_array_equal(got, naive_adaptive_pool(x, out_hw, "max").astype("float32"))
    # NHWC gives the same numbers, laid out NHWC.
    nhwc = relay.var("y", shape=(shape[0], shape[2], shape[3], shape[1]))
    got = run(relay.nn.adaptive_avg_pool2d(nhwc, size, layout="NHWC"), x.transpose(0, 2, 3, 1))
    np.testing.assert_allclose(
        got, naive_adaptive_pool(x, out_hw, "avg").transpose(0, 2, 3, 1), rtol=1e-6
    )


def test_adaptive_pools_hand_values_and_types() -> None:
    # H = 3 into 2 rows: windows [0, 2) and [1, 3) overlap on row 1.
    x = np.array([[[[1.0], [2.0], [6.0]]]], "float32")
    xv = relay.var("x", shape=(1, 1, 3, 1))
    np.testing.assert_array_equal(
        run(relay.nn.adaptive_avg_pool2d(xv, (2, 1)), x).ravel(), [1.5, 4]
    )
    np.testing.assert_array_equal(run(relay.nn.adaptive_max_pool2d(xv, (2, 1)), x).ravel(), [2, 6])
    ints = relay.var("i", shape=(1, 1, 1, 2), dtype="int32")
    got = run(relay.nn.adaptive_avg_pool2d(ints, 1), np.array([[[[-3, 0]]]], "int32"))
    assert got.dtype == np.int32
    assert got.ravel().tolist() == [-1]  # -1.5 truncates
    with pytest.raises(relay.RelayTypeError, match="output_size must be positive"):
        relay.nn.adaptive_avg_pool2d(xv, (0, 1))
    with pytest.raises(relay.RelayTypeError, match="expected 4-D data"):
        relay.nn.adaptive_max_pool2d(relay.var("y", shape=(1, 3, 3)), 1)
    with pytest.raises(ValueError, match="out_layout 'NHWC' differs"):
        relay.nn.adaptive_max_pool2d(xv, 1, out_layout="NHWC")


@pytest.mark.parametrize(("shape", "axis"), [((2, 3, 4, 5), 1), ((2, 3, 4), -2), ((3, 4), 0)])
def test_layer_norm_over_trailing_axes_composes_with_reshape(
    shape: tuple[int, ...], axis: int
) -> None:
    """ONNX's LayerNormalization normalizes over every axis from `axis` on: an importer
    reshapes them into one, runs layer_norm on it without center and scale, reshapes back
    and applies the `shape[axis:]` scale and bias; checked against the formula written out."""
    a = axis % len(shape)
    rows, cols = math.prod(shape[:a]), math.prod(shape[a:])
    x = RNG.standard_normal(shape).astype("float32")
    scale = RNG.standard_normal(shape[a:]).astype("float32")
    bias = RNG.standard_normal(shape[a:]).astype("float32")
    xv = relay.var("x", shape=shape)
    ones, zeros = relay.const(np.ones(cols, "float32")), relay.const(np.zeros(cols, "float32"))
    flat = relay.reshape(xv, (rows, cols))
    normalized = relay.nn.layer_norm(flat, ones, zeros, axis=-1, center=False, scale=False)
    expr = relay.add(
        relay.multiply(relay.reshape(normalized, shape), relay.const(scale)), relay.const(bias)
    )
    got = run(expr, x)
    want = np.zeros(shape)
    for lead in itertools.product(*(range(d) for d in shape[:a])):
        values = x[lead].astype(np.float64)
        mean = values.sum() / cols
        var = ((values - mean) ** 2).sum() / cols
        want[lead] = (values - mean) / math.sqrt(var + 1e-5) * scale + bias
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_norm_edge_rules() -> None:
    """docs/semantics.md: a constant slice gives beta (NaN with epsilon 0); a NaN or an
    infinity makes its whole slice NaN; other slices are untouched."""
    x = np.array([[2.0, 2.0, 2.0], [1.0, np.inf, 3.0], [np.nan, 0.0, 1.0]], "float32")
    gamma, beta = np.full(3, 2.0, "float32"), np.array([0.5, -1.0, 3.0], "float32")
    xv, gv, bv = (
        relay.var("x", shape=(3, 3)),
        relay.var("g", shape=(3,)),
        relay.var("b", shape=(3,)),
    )
    got = run(relay.nn.layer_norm(xv, gv, bv), x, gamma, beta)
    np.testing.assert_array_equal(got[0], beta)
    assert np.isnan(got[1:]).all()
    got = run(relay.nn.layer_norm(xv, gv, bv, epsilon=0.0), x, gamma, beta)
    assert np.isnan(got).all()
    # l2_normalize: a NaN sum stays NaN; an infinity gives inf / inf = NaN and 0 beside it.
    got = run(relay.nn.l2_normalize(xv, 1e-12, axis=[1]), x)
    np.testing.assert_array_equal(got[1], [0.0, np.nan, 0.0])
    assert np.isnan(got[2]).all()
