"""Reference semantics of `relay.nn` ops against naive loops and hand-computed values."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

RNG = np.random.default_rng(7)


def run(expr: relay.Expr, *inputs: np.ndarray) -> np.ndarray:
    return xrelay.evaluate(IRModule.from_expr(expr), *inputs)


def naive_conv2d_nchw(
    x: np.ndarray,
    w: np.ndarray,
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    dilation: tuple[int, int],
    groups: int,
) -> np.ndarray:
    n, _, h, wd = x.shape
    o, cg, kh, kw = w.shape
    top, left, bottom, right = padding
    oh = (h + top + bottom - dilation[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd + left + right - dilation[1] * (kw - 1) - 1) // strides[1] + 1
    out = np.zeros((n, o, oh, ow))
    per_group = o // groups
    for b, oc, i, j in itertools.product(range(n), range(o), range(oh), range(ow)):
        g = oc // per_group
        total = 0.0
        for ic, p, q in itertools.product(range(cg), range(kh), range(kw)):
            y = i * strides[0] + p * dilation[0] - top
            z = j * strides[1] + q * dilation[1] - left
            if 0 <= y < h and 0 <= z < wd:
                total += float(x[b, g * cg + ic, y, z]) * float(w[oc, ic, p, q])
        out[b, oc, i, j] = total
    return out


CONV_CASES = [
    # (in_channels, out_channels, kernel, strides, padding, dilation, groups)
    (3, 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    (3, 2, (3, 2), (2, 1), (0, 1, 2, 0), (1, 1), 1),
    (4, 6, (3, 3), (1, 2), (2, 2, 2, 2), (2, 2), 2),
    (4, 4, (3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 4),
]


@pytest.mark.parametrize("case", CONV_CASES)
def test_conv2d_nchw_matches_loops(case: tuple) -> None:
    cin, cout, kernel, strides, padding, dilation, groups = case
    x = RNG.standard_normal((2, cin, 7, 6)).astype("float32")
    w = RNG.standard_normal((cout, cin // groups, *kernel)).astype("float32")
    xv = relay.var("x", shape=x.shape)
    conv = relay.nn.conv2d(
        xv, relay.const(w), strides=strides, padding=padding, dilation=dilation, groups=groups
    )
    expected = naive_conv2d_nchw(x, w, strides, padding, dilation, groups)
    np.testing.assert_allclose(run(conv, x), expected, rtol=1e-4, atol=1e-5)


def test_conv2d_nhwc_hwio_and_two_value_padding() -> None:
    x = RNG.standard_normal((1, 3, 6, 5)).astype("float32")
    w = RNG.standard_normal((4, 3, 3, 3)).astype("float32")
    expected = naive_conv2d_nchw(x, w, (1, 1), (1, 2, 1, 2), (1, 1), 1)
    xv = relay.var("x", shape=(1, 6, 5, 3))
    conv = relay.nn.conv2d(
        xv,
        relay.const(np.ascontiguousarray(w.transpose(2, 3, 1, 0))),
        padding=(1, 2),
        data_layout="NHWC",
        kernel_layout="HWIO",
    )
    assert str(conv.checked_type) == "tensor<1x6x7x4xf32>"
    out = run(conv, np.ascontiguousarray(x.transpose(0, 2, 3, 1)))
    np.testing.assert_allclose(out, expected.transpose(0, 2, 3, 1), rtol=1e-4, atol=1e-5)


def test_conv2d_type_errors_name_op_and_shapes() -> None:
    x = relay.var("x", shape=(1, 3, 8, 8))
    with pytest.raises(relay.RelayTypeError, match=r"'relay.nn.conv2d' weight input channels 2"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 2, 3, 3)))
    with pytest.raises(relay.RelayTypeError, match="not divisible by groups 2"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 1, 3, 3)), groups=2)
    with pytest.raises(relay.RelayTypeError, match="strides must be positive"):
        relay.nn.conv2d(x, relay.var("w", shape=(4, 3, 3, 3)), strides=(0, 1))


def naive_pool(
    x: np.ndarray,
    kind: str,
    pool: tuple[int, int],
    strides: tuple[int, int],
    padding: tuple[int, int, int, int],
    ceil_mode: bool,
    count_include_pad: bool = False,
) -> np.ndarray:
    n, c, h, w = x.shape
    top, left, bottom, right = padding
    rnd = math.ceil if ceil_mode else math.floor
    oh = int(rnd((h + top + bottom - pool[0]) / strides[0])) + 1
    ow = int(rnd((w + left + right - pool[1]) / strides[1])) + 1
    out = np.zeros((n, c, oh, ow))
    for b, ch, i, j in itertools.product(range(n), range(c), range(oh), range(ow)):
        values: list[float] = []
        counted = 0
        for p, q in itertools.product(range(pool[0]), range(pool[1])):
            y, z = i * strides[0] + p - top, j * strides[1] + q - left
            if 0 <= y < h and 0 <= z < w:
                values.append(float(x[b, ch, y, z]))
            if -top <= y < h + bottom and -left <= z < w + right:
                counted += 1
        if kind == "max":
            out[b, ch, i, j] = max(values)
        else:
            out[b, ch, i, j] = sum(values) / (counted if count_include_pad else len(values))
    return out


POOL_CASES = [
    ((2, 2), (2, 2), (0, 0, 0, 0), False),
    ((3, 3), (2, 2), (1, 1, 1, 1), False),
    ((3, 3), (2, 2), (0, 0, 0, 0), True),
    ((2, 3), (2, 1), (1, 0, 0, 1), True),
]


@pytest.mark.parametrize("case", POOL_CASES)
@pytest.mark.parametrize("kind", ["max", "avg"])
def test_pools_match_loops(case: tuple, kind: str) -> None:
    pool, strides, padding, ceil_mode = case
    x = RNG.standard_normal((1, 2, 7, 6)).astype("float32")
    xv = relay.var("x", shape=x.shape)
    build = relay.nn.max_pool2d if kind == "max" else relay.nn.avg_pool2d
    expr = build(xv, pool_size=pool, strides=strides, padding=padding, ceil_mode=ceil_mode)
    expected = naive_pool(x, kind, pool, strides, padding, ceil_mode)
    np.testing.assert_allclose(run(expr, x), expected, rtol=1e-5, atol=1e-6)


def test_avg_pool_count_include_pad() -> None:
    x = RNG.standard_normal((1, 1, 5, 5)).astype("float32")
    xv = relay.var("x", shape=x.shape)
    expr = relay.nn.avg_pool2d(
        xv, pool_size=(3, 3), strides=(2, 2), padding=(1, 1), count_include_pad=True, ceil_mode=True
    )
    expected = naive_pool(x, "avg", (3, 3), (2, 2), (1, 1, 1, 1), True, count_include_pad=True)
    np.testing.assert_allclose(run(expr, x), expected, rtol=1e-5, atol=1e-6)


def test_pool_hand_computed_and_nhwc() -> None:
    x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    xv = relay.var("x", shape=(1, 1, 4, 4))
    assert run(relay.nn.max_pool2d(xv, (2, 2), (2, 2)), x).ravel().tolist() == [5, 7, 13, 15]
    assert run(relay.nn.avg_pool2d(xv, (2, 2), (2, 2)), x).ravel().tolist() == [
        2.5,
        4.5,
        10.5,
        12.5,
    ]
    nhwc = relay.var("y", shape=(1, 4, 4, 1))
    out = run(relay.nn.max_pool2d(nhwc, (2, 2), (2, 2), layout="NHWC"), x.reshape(1, 4, 4, 1))
    assert out.shape == (1, 2, 2, 1)
    assert out.ravel().tolist() == [5, 7, 13, 15]


def test_global_pools() -> None:
    x = np.arange(24, dtype="float32").reshape(1, 2, 3, 4)
    xv = relay.var("x", shape=x.shape)
    assert run(relay.nn.global_avg_pool2d(xv), x).ravel().tolist() == [5.5, 17.5]
    assert run(relay.nn.global_max_pool2d(xv), x).ravel().tolist() == [11.0, 23.0]
    yv = relay.var("y", shape=(1, 3, 4, 2))
    out = run(relay.nn.global_avg_pool2d(yv, layout="NHWC"), x.transpose(0, 2, 3, 1).copy())
    assert out.shape == (1, 1, 1, 2)
    assert out.ravel().tolist() == [5.5, 17.5]


def test_dense_matches_loops() -> None:
    x = RNG.standard_normal((2, 3, 5)).astype("float32")
    w = RNG.standard_normal((4, 5)).astype("float32")
    expected = np.zeros((2, 3, 4))
    for a, b, u in itertools.product(range(2), range(3), range(4)):
        expected[a, b, u] = sum(float(x[a, b, k]) * float(w[u, k]) for k in range(5))
    out = run(relay.nn.dense(relay.var("x", shape=x.shape), relay.const(w), units=4), x)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(relay.RelayTypeError, match="disagree on the reduction dim: 5 vs 6"):
        relay.nn.dense(relay.var("x", shape=(2, 5)), relay.var("w", shape=(4, 6)))
    with pytest.raises(relay.RelayTypeError, match="units 3 do not match weight rows 4"):
        relay.nn.dense(relay.var("x", shape=(2, 5)), relay.var("w", shape=(4, 5)), units=3)


@pytest.mark.parametrize("axis", [1, 3])
def test_batch_norm_inference_form(axis: int) -> None:
    x = RNG.standard_normal((2, 3, 4, 3)).astype("float32")
    gamma, beta, mean = (RNG.standard_normal(3).astype("float32") for _ in range(3))
    var = (RNG.random(3) + 0.5).astype("float32")
    out = run(
        relay.nn.batch_norm(
            relay.var("x", shape=x.shape), *map(relay.const, (gamma, beta, mean, var)), axis=axis
        )[0],
        x,
    )
    expected = np.zeros_like(x, dtype=np.float64)
    for index in itertools.product(*map(range, x.shape)):
        ch = index[axis]
        expected[index] = (float(x[index]) - mean[ch]) / math.sqrt(var[ch] + 1e-5) * gamma[
            ch
        ] + beta[ch]
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5)


def test_batch_norm_tuple_and_flags() -> None:
    x = np.ones((1, 2), "float32")
    vec = relay.const(np.array([2.0, 3.0], "float32"))
    zero = relay.const(np.zeros(2, "float32"))
    one = relay.const(np.ones(2, "float32") - 1e-5)
    bn = relay.nn.batch_norm(relay.var("x", shape=(1, 2)), vec, vec, zero, one, scale=False)
    out, mean, var = run(bn.astuple(), x)
    np.testing.assert_allclose(out, [[3.0, 4.0]], rtol=1e-5)  # (1 - 0) / 1 + beta
    assert mean.tolist() == [0.0, 0.0]
    assert var.shape == (2,)


def test_softmax_and_log_softmax() -> None:
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    xv = relay.var("x", shape=x.shape)
    for axis in (-1, 0, 1):
        out = run(relay.nn.softmax(xv, axis=axis), x)
        log_out = run(relay.nn.log_softmax(xv, axis=axis), x)
        moved = np.moveaxis(x, axis, -1)
        expected = np.empty_like(moved, dtype=np.float64)
        for index in np.ndindex(moved.shape[:-1]):
            row = [math.exp(float(v)) for v in moved[index]]
            expected[index] = [v / sum(row) for v in row]
        expected = np.moveaxis(expected, -1, axis)
        np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-7)
        np.testing.assert_allclose(log_out, np.log(expected), rtol=1e-5, atol=1e-6)


def test_pad_modes() -> None:
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
    with pytest.raises(relay.RelayTypeError, match="reflect padding 3 must be smaller than dim 3"):
        relay.nn.pad(xv, ((0, 0), (3, 0)), pad_mode="reflect")


def test_small_ops() -> None:
    x = np.array([[-2.0, 0.5], [3.0, -0.25]], "float32")
    xv = relay.var("x", shape=(2, 2))
    np.testing.assert_allclose(
        run(relay.nn.leaky_relu(xv, alpha=0.1), x), [[-0.2, 0.5], [3.0, -0.025]], rtol=1e-6
    )
    out, mask = run(relay.nn.dropout(xv).astuple(), x)
    assert out.tolist() == x.tolist()
    assert mask.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    cube = np.arange(24, dtype="float32").reshape(2, 3, 4)
    flat = run(relay.nn.batch_flatten(relay.var("c", shape=(2, 3, 4))), cube)
    assert flat.shape == (2, 12)
    assert flat[1].tolist() == list(range(12, 24))


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
