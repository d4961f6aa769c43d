"""CanonicalizeCast: upcasts copied per elementwise reader; the numerics do not change."""

from __future__ import annotations

import numpy as np

from xrelay import IRModule, evaluate, relay, transform


def test_copies_are_per_reader_and_the_results_are_the_same() -> None:
    x = relay.var("x", shape=(2, 3), dtype="int8")
    b = relay.var("b", shape=(2, 3), dtype="int32")
    c = relay.cast(x, "int32")
    y = relay.add(relay.add(c, b), relay.multiply(c, b))
    mod = IRModule.from_expr(relay.Function([x, b], y))
    out = transform.CanonicalizeCast()(mod)
    assert str(mod).count("relay.cast") == 1  # the input is left as it was
    assert str(out).count("relay.cast") == 2
    rng = np.random.default_rng(0)
    xs = rng.integers(-100, 100, (2, 3)).astype(np.int8)
    bs = rng.integers(-100, 100, (2, 3)).astype(np.int32)
    np.testing.assert_array_equal(evaluate(out, xs, bs), evaluate(mod, xs, bs))
    # Fused afterwards, the casts join their readers: the function reads the narrow i8 x.
    with transform.PassContext(opt_level=3):
        fused = transform.FuseOps()(out)
    assert "func.call @fused_cast_add_cast_multiply_add(%x, %b)" in str(fused)
