"""FoldExplicitPadding: a constant nn.pad becomes the padding of the conv or pool reading it,
with the numbers of the interpreter before and after."""

from __future__ import annotations

import numpy as np
from testlib.numerics import run_and_check
from xrelay.dialects.relay.base import get_bool, get_ints

from xrelay import IRModule, relay, transform
from xrelay.relay.analysis import list_op_freqs


def folded(body: relay.Expr, *params: relay.Var) -> IRModule:
    mod = IRModule.from_expr(relay.Function(list(params), body))
    return run_and_check(mod, transform.FoldExplicitPadding())


def test_conv2d_nhwc_and_chained_pads() -> None:
    x = relay.var("x", shape=(1, 6, 5, 2))
    w = relay.var("w", shape=(3, 3, 2, 4))
    inner = relay.nn.pad(x, ((0, 0), (1, 0), (0, 2), (0, 0)))
    outer = relay.nn.pad(inner, ((0, 0), (0, 1), (1, 1), (0, 0)))
    conv = relay.nn.conv2d(
        outer, w, padding=(1, 0, 0, 1), data_layout="NHWC", kernel_layout="HWIO", strides=(2, 1)
    )
    out = folded(conv, x, w)
    assert list_op_freqs(out) == {"nn.conv2d": 1}
    assert list(out["main"].body.attrs.padding) == [2, 1, 1, 4]  # top, left, bottom, right


def test_pools() -> None:
    x = relay.var("x", shape=(1, 2, 7, 6))
    low = float(np.finfo(np.float32).min)
    pad = ((0, 0), (0, 0), (2, 1), (0, 3))
    maxed = relay.nn.max_pool2d(relay.nn.pad(x, pad, low), pool_size=(3, 2), ceil_mode=True)
    averaged = relay.nn.avg_pool2d(relay.nn.pad(x, pad), pool_size=(2, 3), strides=(2, 2))
    kept = relay.nn.avg_pool2d(relay.nn.pad(x, pad), pool_size=(2, 2), padding=(1, 1))
    out = folded(relay.Tuple([maxed, averaged, kept]), x)
    assert list_op_freqs(out).get("nn.pad") == 1  # the avg pool with its own padding keeps it
    (pool,) = [op for op in out.module.walk() if op.name == "relay.nn.avg_pool2d"][:1]
    assert list(get_ints(pool.properties, "padding")) == [2, 0, 1, 3]
    assert get_bool(pool.properties, "count_include_pad")


def test_shared_pad_stays_for_its_other_reader() -> None:
    x = relay.var("x", shape=(1, 2, 5))
    w = relay.var("w", shape=(3, 2, 3))
    pad = relay.nn.pad(x, ((0, 0), (0, 0), (1, 1)))
    body = relay.Tuple([relay.nn.conv1d(pad, w), relay.nn.relu(pad)])
    out = folded(body, x, w)
    assert list_op_freqs(out) == {"nn.conv1d": 1, "nn.pad": 1, "nn.relu": 1}


def test_kept_when_the_value_or_axes_differ() -> None:
    x = relay.var("x", shape=(1, 2, 4, 4, 4), dtype="int32")
    w = relay.var("w", shape=(3, 2, 1, 1, 1), dtype="int32")
    spatial = ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1))
    body = relay.Tuple(
        [
            relay.nn.conv3d(relay.nn.pad(x, spatial, 1), w),
            relay.nn.conv3d(relay.nn.pad(x, spatial, pad_mode="edge"), w),
            relay.nn.max_pool3d(
                relay.nn.pad(x, ((0, 0), (0, 1), (1, 1), (1, 1), (1, 1)), -(2**31)),
                pool_size=(2, 2, 2),
            ),
            relay.nn.max_pool3d(relay.nn.pad(x, spatial), pool_size=(2, 2, 2)),
        ]
    )
    mod = IRModule.from_expr(relay.Function([x, w], body))
    before = str(mod)
    assert str(transform.FoldExplicitPadding()(mod)) == before
