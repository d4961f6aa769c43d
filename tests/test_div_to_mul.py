"""DivToMul: division by a nonzero float constant becomes a multiply by its reciprocal, with
the numbers of the division (within the one extra rounding) before and after."""

from __future__ import annotations

import numpy as np
import pytest
from testlib.numerics import run_and_check

from xrelay import IRModule, relay, transform


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_rewritten_with_the_same_numbers(dtype: str) -> None:
    x = relay.var("x", shape=(4, 3), dtype=dtype)
    divisor = np.array([3.0, -7.0, 0.1], dtype=dtype)
    body = relay.divide(relay.nn.relu(x), relay.const(divisor, dtype))
    mod = IRModule.from_expr(relay.Function([x], body))
    rtol = 1e-3 if dtype == "float16" else 1e-6
    out = run_and_check(mod, transform.DivToMul(), rtol=rtol)
    assert count(out, "relay.divide") == 0
    assert count(out, "relay.multiply") == 1
    inverse = out["main"].body.args[1].data
    assert inverse.dtype == np.dtype(dtype)
    np.testing.assert_allclose(inverse, 1 / divisor.astype(np.float64), rtol=rtol)


@pytest.mark.parametrize(
    ("dtype", "divisor"), [("int32", 2), ("float32", 0.0), ("float32", [1.0, -0.0, 2.0])]
)
def test_kept(dtype: str, divisor: object) -> None:
    x = relay.var("x", shape=(3,), dtype=dtype)
    mod = IRModule.from_expr(relay.Function([x], relay.divide(x, relay.const(divisor, dtype))))
    before = str(mod)
    assert str(transform.DivToMul()(mod)) == before
