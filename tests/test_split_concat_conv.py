"""`split-concat-conv`: a conv2d over a channel concatenation becomes a sum of conv2ds over
the pieces (`passes/split_concat_conv.py`): where it applies and where it must not, the
interpreter's results before and after, and builds on every target against the
interpreter (the BYOC targets see it in the partition prelude)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.passes.adapters import get_pass

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(11)


def weight(out: int, cin: int, k: int) -> relay.Expr:
    return relay.const((RNG.standard_normal((out, cin, k, k)) * 0.3).astype(np.float32))


def fire(
    pieces: list[int], out: int, k: int = 1, bias: str = "bias_add", **conv: Any
) -> tuple[IRModule, list[Array]]:
    """relu(bias(conv2d(concatenate(pieces, 1), W))) over 9x11 planes."""
    xs = [relay.var(f"x{i}", shape=(1, c, 9, 11)) for i, c in enumerate(pieces)]
    y = relay.nn.conv2d(relay.concatenate(xs, 1), weight(out, sum(pieces), k), **conv)
    b = relay.const(RNG.standard_normal(out).astype(np.float32))
    if bias == "bias_add":
        y = relay.nn.bias_add(y, b)
    elif bias == "add":
        y = relay.add(y, relay.reshape(b, (out, 1, 1)))
    mod = IRModule.from_expr(relay.Function(xs, relay.nn.relu(y)))
    values = [RNG.standard_normal((1, c, 9, 11)).astype(np.float32) for c in pieces]
    return mod, values


def split(mod: IRModule) -> IRModule:
    return get_pass("SplitConcatConv")(get_pass("FoldConstant")(mod.clone()))


def ops(mod: IRModule) -> list[str]:
    return [op.name for op in mod.module.walk()]


@pytest.mark.parametrize(
    ("pieces", "out", "k", "bias", "conv"),
    [
        ([4, 4], 3, 1, "bias_add", {}),
        ([3, 5, 2], 4, 1, "add", {}),
        ([6, 5], 3, 3, "none", {"padding": (1, 2), "strides": (2, 1)}),
        ([5, 7], 2, 3, "bias_add", {"dilation": (2, 1), "padding": (2, 1)}),
    ],
)
def test_the_concatenation_goes_and_the_result_stays(
    pieces: list[int], out: int, k: int, bias: str, conv: dict[str, Any]
) -> None:
    mod, values = fire(pieces, out, k, bias, **conv)
    after = split(mod)
    names = ops(after)
    assert "relay.concatenate" not in names
    assert names.count("relay.nn.conv2d") == len(pieces)
    want = np.asarray(xrelay.evaluate(mod, *values))
    got = np.asarray(xrelay.evaluate(after, *values))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_left_alone_where_it_does_not_apply() -> None:
    x, y = relay.var("x", shape=(1, 4, 6, 6)), relay.var("y", shape=(1, 4, 6, 6))
    cat = relay.concatenate([x, y], 1)
    shared = relay.add(relay.nn.conv2d(cat, weight(2, 8, 1)), relay.nn.conv2d(cat, weight(2, 8, 1)))
    grouped = relay.nn.conv2d(relay.concatenate([x, y], 1), weight(2, 4, 1), groups=2)
    rows = relay.nn.conv2d(relay.concatenate([x, y], 2), weight(2, 4, 1))
    wide = relay.nn.conv2d(relay.concatenate([x, y], 1), weight(9, 8, 1))  # 9 > 8 channels
    w = relay.var("w", shape=(2, 8, 1, 1))
    variable = relay.nn.conv2d(relay.concatenate([x, y], 1), w)
    outs = [shared, grouped, relay.sum(rows), relay.sum(wide), variable]
    mod = IRModule.from_expr(relay.Function([x, y, w], relay.Tuple(outs)))
    assert ops(split(mod)).count("relay.concatenate") == ops(mod).count("relay.concatenate") == 5


@pytest.mark.parametrize(
    ("pool", "name", "options"),
    [
        (relay.nn.max_pool2d, "max", {"pool_size": (3, 3), "strides": (2, 2), "ceil_mode": True}),
        (relay.nn.avg_pool2d, "avg", {"pool_size": (2, 3), "padding": (1, 1), "strides": (1, 2)}),
    ],
)
def test_a_pool_moves_before_the_concatenation_and_the_conv_after_splits(
    pool: Any, name: str, options: dict[str, Any]
) -> None:
    xs = [relay.var(f"x{i}", shape=(1, c, 9, 11)) for i, c in enumerate((5, 3))]
    pooled = pool(relay.concatenate(xs, 1), **options)
    mod = IRModule.from_expr(relay.Function(xs, relay.nn.conv2d(pooled, weight(4, 8, 1))))
    values = [RNG.standard_normal((1, c, 9, 11)).astype(np.float32) for c in (5, 3)]
    after = split(mod)
    names = ops(after)
    assert "relay.concatenate" not in names
    assert names.count(f"relay.nn.{name}_pool2d") == 2
    want = np.asarray(xrelay.evaluate(mod, *values))
    got = np.asarray(xrelay.evaluate(after, *values))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


CASES = [([64, 64], 16, 1), ([7, 9, 5], 6, 3), ([13, 3], 5, 1)]


@pytest.mark.parametrize("target", ["c", ["accel", "c"], ["dnnl", "c"]], ids=str)
@pytest.mark.parametrize(("pieces", "out", "k"), CASES, ids=[str(c) for c in CASES])
def test_builds_match_the_interpreter(
    target: Any, pieces: list[int], out: int, k: int, tmp_path: Path
) -> None:
    mod, values = fire(pieces, out, k, padding=(k // 2, k // 2))
    lib = xrelay.build(mod, target=target, options={"cache_dir": tmp_path})
    if target != "c":
        assert "relay.concatenate" not in ops(lib.module)
    got = np.asarray(lib(*values))
    want = np.asarray(xrelay.evaluate(mod, *values))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)))


@pytest.mark.parametrize("target", ["c", ["accel", "c"], ["dnnl", "c"]], ids=str)
def test_pooled_fire_builds_match_the_interpreter(target: Any, tmp_path: Path) -> None:
    """SqueezeNet's fire module before a pool: concatenate, 3x3/2 ceil-mode max pool,
    squeeze conv (the pool moves before the concatenation, the conv splits)."""
    xs = [relay.var(f"x{i}", shape=(1, c, 13, 15)) for i, c in enumerate((6, 10))]
    pooled = relay.nn.max_pool2d(
        relay.concatenate(xs, 1), pool_size=(3, 3), strides=(2, 2), ceil_mode=True
    )
    out = relay.nn.relu(relay.nn.conv2d(pooled, weight(5, 16, 1)))
    mod = IRModule.from_expr(relay.Function(xs, out))
    values = [RNG.standard_normal((1, c, 13, 15)).astype(np.float32) for c in (6, 10)]
    lib = xrelay.build(mod, target=target, options={"cache_dir": tmp_path})
    if target != "c":
        assert "relay.concatenate" not in ops(lib.module)
    got = np.asarray(lib(*values))
    want = np.asarray(xrelay.evaluate(mod, *values))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * np.max(np.abs(want)))
