"""PartialEvaluate: known calls inlined, known values evaluated; numerics unchanged."""

from __future__ import annotations

import numpy as np

from xrelay import IRModule, evaluate, relay, transform


def test_inlined_and_folded_where_known_with_the_same_results() -> None:
    d = relay.var("d", shape=(3,))
    double = relay.Function([d], relay.add(d, d))
    x = relay.var("x", shape=(3,))
    known = double(relay.const(np.arange(3, dtype="float32")))
    body = relay.multiply(double(x), known)
    mod = IRModule.from_expr(relay.Function([x], body))
    out = transform.PartialEvaluate()(mod)
    text = str(out)
    assert "func.call" not in text
    assert "dense<[0.000000e+00, 2.000000e+00, 4.000000e+00]>" in text
    a = np.array([1.0, -2.0, 0.5], dtype="float32")
    np.testing.assert_array_equal(evaluate(out, a), evaluate(mod, a))


def test_recursion_stays_a_call() -> None:
    n = relay.var("n", shape=(), dtype="int64")
    f = relay.GlobalVar("f")
    mod = IRModule()
    body = relay.If(
        relay.equal(n, relay.const(0, "int64")),
        n,
        relay.add(n, f(relay.subtract(n, relay.const(1, "int64")))),
    )
    mod[f] = relay.Function([n], body, relay.TensorType((), "int64"))
    out = transform.PartialEvaluate()(mod)
    assert "func.call @f" in str(out)
    assert int(evaluate(out, np.array(4, dtype="int64"), entry="f")) == 10
