"""`fold-channel-shuffle` (`passes/fold_channel_shuffle.py`): the interpreter gives the same
result before and after, the shuffle goes where a groups=1 convolution absorbs it and moves
past a strided depthwise one (with its bias), stays where a grouped convolution reads it;
ShuffleNet-like units build on c, accel and dnnl and match the interpreter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.passes.adapters import get_pass

import xrelay
from xrelay import IRModule, relay

RNG = np.random.default_rng(16)


def const(*shape: int) -> relay.Expr:
    return relay.const((RNG.standard_normal(shape) * 0.3).astype(np.float32))


def shuffle(x: relay.Expr, shape: tuple[int, int, int, int], groups: int) -> relay.Expr:
    n, c, h, w = shape
    split = relay.reshape(x, (n, groups, c // groups, h, w))
    return relay.reshape(relay.transpose(split, (0, 2, 1, 3, 4)), shape)


def fold(mod: IRModule) -> IRModule:
    passes = ["FoldChannelShuffle", "DeadCodeElimination"]
    for name in passes:
        mod = get_pass(name)(mod if name != passes[0] else mod.clone())
    return mod


def count(mod: IRModule, name: str) -> int:
    return sum(op.name == name for op in mod.module.walk())


def unit(c: int, groups: int, size: int, stride: int, bias: str, pointwise_groups: int) -> Any:
    """A ShuffleNet unit's middle: relu, shuffle, depthwise 3x3 (+ bias), 1x1 conv."""
    shape = (1, c, size, size)
    x = relay.var("x", shape=shape)
    y = shuffle(relay.nn.relu(x), shape, groups)
    y = relay.nn.conv2d(y, const(c, 1, 3, 3), strides=(stride, stride), padding=(1, 1), groups=c)
    if bias == "bias_add":
        y = relay.nn.bias_add(y, const(c))
    elif bias == "add":
        y = relay.add(y, const(c, 1, 1))
    out = relay.nn.conv2d(y, const(8, c // pointwise_groups, 1, 1), groups=pointwise_groups)
    mod = IRModule.from_expr(relay.Function([x], out))
    return mod, RNG.standard_normal(shape).astype(np.float32)


CASES = [
    # channels, shuffle groups, size, depthwise stride, bias, pointwise groups -> transposes
    ((12, 3, 9, 2, "bias_add", 1), 0),  # moved past the depthwise, then absorbed
    ((12, 4, 9, 2, "add", 4), 1),  # moved; a grouped 1x1 cannot absorb it
    ((10, 2, 7, 1, "none", 1), 1),  # stride 1: stays before the depthwise
]


@pytest.mark.parametrize(("case", "left"), CASES, ids=[str(c[0]) for c in CASES])
def test_the_result_stays(case: tuple[Any, ...], left: int) -> None:
    mod, x = unit(*case)
    after = fold(mod)
    assert count(after, "relay.transpose") == left
    want = np.asarray(xrelay.evaluate(mod, x))
    got = np.asarray(xrelay.evaluate(after, x))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_left_alone_where_it_does_not_apply() -> None:
    shape = (1, 8, 5, 5)
    x = relay.var("x", shape=shape)
    w = relay.var("w", shape=(4, 8, 1, 1))
    grouped = relay.nn.conv2d(shuffle(x, shape, 2), const(4, 4, 1, 1), groups=2)
    variable = relay.nn.conv2d(shuffle(x, shape, 4), w)
    nhwc = relay.nn.conv2d(
        shuffle(x, shape, 2), const(1, 1, 5, 4), data_layout="NHWC", kernel_layout="HWIO"
    )
    multiplier = relay.nn.conv2d(shuffle(x, shape, 2), const(16, 1, 3, 3), strides=(2, 2), groups=8)
    outs = [grouped, variable, relay.sum(nhwc), multiplier]
    mod = IRModule.from_expr(relay.Function([x, w], relay.Tuple(outs)))
    assert count(fold(mod), "relay.transpose") == 4


@pytest.mark.parametrize("target", ["c", ["accel", "c"], ["dnnl", "c"]], ids=str)
@pytest.mark.parametrize(("case", "left"), CASES[:2], ids=[str(c[0]) for c in CASES[:2]])
def test_builds_match_the_interpreter(
    target: Any, case: tuple[Any, ...], left: int, tmp_path: Path
) -> None:
    mod, x = unit(*case)
    lib = xrelay.build(mod, target=target, options={"cache_dir": tmp_path, "num_threads": 2})
    if target != "c":  # the BYOC prelude runs the pass
        assert count(lib.module, "relay.transpose") == left
    want = np.asarray(xrelay.evaluate(mod, x))
    np.testing.assert_allclose(np.asarray(lib(x)), want, rtol=1e-4, atol=1e-5)
