"""SimplifyExpr's rewrites from TVM v0.19 (concretized *_like ops, fills into broadcasting
ops, x + x, n / sqrt, binomials, consecutive casts, clips, transposes into rank-changing
layout transforms): each graph rewritten as TVM rewrites it and computing the same values
before and after (the reference interpreter)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.relay.types import dtype_of, shape_of, tensor_element_type

import xrelay
from xrelay import IRModule, relay
from xrelay.relay import transform

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(7)
X = relay.var("x", shape=(2, 3))
Y = relay.var("y", shape=(2, 3))
P = relay.var("p", shape=(1, 4, 4, 8))  # NHWC


def _c(value: float, dtype: str = "float32") -> relay.Expr:
    return relay.const(value, dtype)


CASES: list[tuple[str, Callable[[], relay.Expr], set[str], set[str]]] = [
    # name, graph, ops gone after, ops present after
    ("zeros_like", lambda: X * relay.zeros_like(Y) + Y, {"zeros_like"}, set()),
    (
        "reshape_like",
        lambda: relay.reshape_like(X, relay.var("l", shape=(3, 2))),
        {"reshape_like"},
        {"reshape"},
    ),
    (
        "collapse_sum_like",
        lambda: relay.collapse_sum_like(X, relay.var("s", shape=(3,))),
        {"collapse_sum_like"},
        {"collapse_sum_to"},
    ),
    (
        "broadcast_to_like",
        lambda: relay.broadcast_to_like(relay.var("b", shape=(3,)), X),
        {"broadcast_to_like"},
        {"broadcast_to"},
    ),
    (
        "cast_like",
        lambda: relay.cast_like(X, relay.var("i", shape=(1,), dtype="int8")),
        {"cast_like"},
        {"cast"},
    ),
    ("full_into_add", lambda: X - relay.full(_c(2.5), (2, 3), "float32"), {"full"}, {"subtract"}),
    ("x_plus_x", lambda: X + X, {"add"}, {"multiply"}),
    ("rsqrt", lambda: _c(3.0) / relay.sqrt(relay.abs(X) + _c(1.0)), {"sqrt", "divide"}, {"rsqrt"}),
    ("binomial", lambda: X * X + _c(2.0) * (X * Y) + Y * Y, set(), set()),
    ("binomial_6_5_1", lambda: _c(6.0) * X * X + _c(5.0) * X * Y + Y * Y, set(), set()),
    ("consecutive_cast", lambda: relay.cast(relay.cast(X, "float64"), "float16"), set(), {"cast"}),
    (
        "clip_casts",
        lambda: relay.cast(
            relay.cast(relay.clip(relay.cast(X * _c(99.0), "int32"), 0.0, 255.0), "uint8"), "int32"
        ),
        set(),
        {"clip"},
    ),
    (
        "float_clip_truncates",
        lambda: relay.cast(relay.cast(relay.clip(X, 0.0, 255.0), "uint8"), "float32"),
        set(),
        {"clip", "cast"},
    ),
    (
        "transpose_layout",
        lambda: relay.layout_transform(
            relay.nn.relu(
                relay.layout_transform(relay.transpose(P, (0, 3, 1, 2)), "NCHW", "NCHW4c")
            ),
            "NCHW4c",
            "NCHW",
        ),
        {"transpose"},
        {"layout_transform"},
    ),
]


def _ops(mod: IRModule) -> set[str]:
    return {
        op.name.removeprefix("relay.") for op in mod.module.walk() if op.name.startswith("relay.")
    }


@pytest.mark.parametrize(("name", "make", "gone", "present"), CASES, ids=[c[0] for c in CASES])
def test_rewrite_keeps_values(
    name: str, make: Callable[[], relay.Expr], gone: set[str], present: set[str]
) -> None:
    body = make()
    params = relay.analysis.free_vars(body)
    before = IRModule.from_expr(relay.Function(params, body))
    values = [_value(p) for p in params]
    want = xrelay.evaluate(before, *values)
    after = transform.SimplifyExpr()(before)
    assert not (_ops(after) & gone), (name, _ops(after))
    assert present <= _ops(after), (name, _ops(after))
    got = xrelay.evaluate(after, *values)
    np.testing.assert_allclose(
        np.asarray(got, np.float64), np.asarray(want, np.float64), rtol=1e-4, atol=1e-4
    )


def _value(p: relay.Var) -> Array:
    ty = p.checked_type
    dtype = dtype_of(tensor_element_type(ty))
    return (RNG.standard_normal(shape_of(ty)) * 3).astype(dtype)


def test_binomial_becomes_a_product_of_sums() -> None:
    """(6x² + 5xy + y²) is (y + 3x)(y + 2x): x and y swap as TVM's, a = 1 drops."""
    out = transform.SimplifyExpr()(IRModule.from_expr(_c(6.0) * X * X + _c(5.0) * X * Y + Y * Y))
    text = str(out)
    assert (text.count("relay.add"), text.count("relay.multiply")) == (2, 3), text
    assert "dense<3.0" in text, text
    assert "dense<2.0" in text, text
