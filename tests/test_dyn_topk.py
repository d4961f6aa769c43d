"""`relay.dyn.topk`: `relay.topk` with `k` read at run time (hand values), DynamicToStatic
making it `relay.topk` once `k` folds, and the build on target `c` after that."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xrelay.dialects.interpreter import EvaluationError

import xrelay
from xrelay import IRModule, relay, transform

DATA = np.array([[3.0, 1.0, 4.0, 1.0, 5.0], [9.0, 2.0, 6.0, 5.0, 3.0]], "float32")


def evaluate(body: Any, params: list[Any], *inputs: Any) -> Any:
    return xrelay.evaluate(IRModule.from_expr(relay.Function(params, body)), *inputs)


def test_builder_dispatches_on_an_expression_k() -> None:
    x = relay.var("x", shape=(2, 5))
    k = relay.var("k", shape=(), dtype="int32")
    out = relay.topk(x, k, axis=1, ret_type="indices", dtype="int64")
    assert out.op.name == "dyn.topk"
    assert str(out.checked_type) == "tensor<2x?xi64>"
    assert str(relay.topk(x, k, axis=0).checked_type) == "tuple<tensor<?x5xf32>, tensor<?x5xi32>>"
    assert relay.topk(x, relay.const(np.array([2], "int64"))).op.name == "topk"
    with pytest.raises(xrelay.relay.RelayTypeError, match="k must be an integer scalar"):
        relay.topk(x, relay.var("k", shape=(2,), dtype="int32"))


def test_k_is_read_at_run_time() -> None:
    x = relay.var("x", shape=(2, 5))
    k = relay.var("k", shape=(1,), dtype="int64")
    values, indices = evaluate(relay.topk(x, k, axis=1).astuple(), [x, k], DATA, np.array([2]))
    np.testing.assert_array_equal(values, [[5.0, 4.0], [9.0, 6.0]])
    np.testing.assert_array_equal(indices, [[4, 2], [0, 2]])
    assert indices.dtype == np.int32
    low = relay.topk(x, k, axis=0, ret_type="values", is_ascend=True)
    np.testing.assert_array_equal(evaluate(low, [x, k], DATA, np.array([1])), [DATA.min(0)])
    whole = relay.topk(x, k, ret_type="indices", dtype="float32")  # k < 1: the whole axis
    got = evaluate(whole, [x, k], DATA, np.array([0]))
    np.testing.assert_array_equal(got, [[4, 2, 0, 1, 3], [0, 2, 3, 4, 1]])
    assert got.dtype == np.float32
    with pytest.raises(EvaluationError, match="k 6 is larger than dim 5"):
        evaluate(whole, [x, k], DATA, np.array([6]))


def test_dynamic_to_static_then_c(tmp_path: Path) -> None:
    x = relay.var("x", shape=(2, 5))
    k = relay.add(relay.const(1, "int32"), relay.const(2, "int32"))
    out = relay.topk(x, k, axis=-1, ret_type="both", dtype="float32")
    body = relay.add(out[0], out[1])
    mod = IRModule.from_expr(relay.Function([x], body))
    static = run_and_check(mod, transform.DynamicToStatic())
    names = [op.name for op in static.module.walk()]
    assert "relay.topk" in names
    assert "relay.dyn.topk" not in names
    assert str(static["main"].ret_type) == "tensor<2x3xf32>"
    lib = xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    np.testing.assert_array_equal(lib(DATA), xrelay.evaluate(mod, DATA))
    np.testing.assert_array_equal(lib(DATA), [[9.0, 6.0, 3.0], [9.0, 8.0, 8.0]])
