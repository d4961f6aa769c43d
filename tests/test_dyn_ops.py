"""The dynamic ops (`relay.dyn.*`): the builders dispatch to them on an expression shape (a
constant stays static), their reference semantics read the shape at run time (hand values),
bad shapes at run time are evaluation errors, and the C target refuses what is left of them
with a located error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.interpreter import EvaluationError

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def run(body: Any, params: list[Any], *inputs: Array) -> Array:
    mod = IRModule.from_expr(relay.Function(params, body))
    return np.asarray(xrelay.evaluate(mod, *inputs))


def shape_var(n: int, dtype: str = "int64") -> Any:
    return relay.var("s", shape=(n,), dtype=dtype)


def test_builders_dispatch_on_expressions() -> None:
    x = relay.var("x", shape=(2, 3))
    s = shape_var(2)
    assert relay.reshape(x, s).op.name == "dyn.reshape"
    assert relay.reshape(x, relay.const(np.array([3, 2]))).op.name == "reshape"
    assert relay.squeeze(x, shape_var(1)).op.name == "dyn.squeeze"
    assert relay.tile(x, s).op.name == "dyn.tile"
    assert relay.broadcast_to(x, s).op.name == "dyn.broadcast_to"
    assert relay.zeros(s, "float32").op.name == "dyn.zeros"
    assert relay.ones(s, "int32").op.name == "dyn.ones"
    assert relay.full(relay.const(1.0), s).op.name == "dyn.full"
    assert relay.full(relay.const(1.0), relay.const(np.array([2]))).op.name == "full"
    pad_width = relay.var("p", shape=(2, 2), dtype="int32")
    assert relay.nn.pad(x, pad_width, 1.0).op.name == "dyn.nn.pad"
    assert str(relay.reshape(x, s).checked_type) == "tensor<?x?xf32>"
    assert str(relay.tile(x, shape_var(3)).checked_type) == "tensor<?x?x?xf32>"
    assert str(relay.squeeze(x, shape_var(1)).checked_type) == "tensor<?xf32>"


def test_reshape_squeeze_read_the_shape_at_run_time() -> None:
    x, s = relay.var("x", shape=(2, 3)), shape_var(2)
    data = np.arange(6, dtype="float32").reshape(2, 3)
    got = run(relay.reshape(x, s), [x, s], data, np.array([3, -1]))
    np.testing.assert_array_equal(got, [[0, 1], [2, 3], [4, 5]])
    got = run(relay.reshape(x, s), [x, s], data, np.array([0, 3]))  # 0 copies the dim
    np.testing.assert_array_equal(got, data)
    y, a = relay.var("y", shape=(1, 3, 1)), shape_var(1)
    got = run(relay.squeeze(y, a), [y, a], np.ones((1, 3, 1), "float32"), np.array([-1]))
    assert got.shape == (1, 3)


def test_tile_broadcast_to_read_the_shape_at_run_time() -> None:
    x, s = relay.var("x", shape=(1, 2), dtype="int32"), shape_var(2)
    data = np.array([[1, 2]], dtype="int32")
    got = run(relay.tile(x, s), [x, s], data, np.array([2, 2]))
    np.testing.assert_array_equal(got, [[1, 2, 1, 2], [1, 2, 1, 2]])
    got = run(relay.broadcast_to(x, s), [x, s], data, np.array([3, 2]))
    np.testing.assert_array_equal(got, [[1, 2], [1, 2], [1, 2]])


def test_creation_ops_read_the_shape_at_run_time() -> None:
    s = shape_var(2)
    got = run(relay.zeros(s, "int64"), [s], np.array([2, 1]))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, [[0], [0]])
    got = run(relay.ones(s, "float32"), [s], np.array([1, 3]))
    np.testing.assert_array_equal(got, [[1.0, 1.0, 1.0]])
    f = relay.var("f", shape=(), dtype="int32")
    got = run(relay.full(f, s, "float32"), [f, s], np.array(7, "int32"), np.array([2, 2]))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, [[7.0, 7.0], [7.0, 7.0]])


def test_pad_reads_widths_and_value_at_run_time() -> None:
    x = relay.var("x", shape=(1, 2), dtype="int32")
    p, v = relay.var("p", shape=(2, 2), dtype="int32"), relay.var("v", shape=(), dtype="int32")
    got = run(
        relay.nn.pad(x, p, v),
        [x, p, v],
        np.array([[5, 6]], "int32"),
        np.array([[1, 0], [0, 1]], "int32"),
        np.array(9, "int32"),
    )
    np.testing.assert_array_equal(got, [[9, 9, 9], [5, 6, 9]])


def test_bad_shapes_at_run_time_are_evaluation_errors() -> None:
    x, s = relay.var("x", shape=(2, 3)), shape_var(2)
    with pytest.raises(EvaluationError, match=r"relay\.dyn\.reshape"):
        run(relay.reshape(x, s), [x, s], np.ones((2, 3), "float32"), np.array([4, 2]))
    with pytest.raises(EvaluationError, match="only 0 and -1"):
        run(relay.reshape(x, s), [x, s], np.ones((2, 3), "float32"), np.array([-2, 1]))
    with pytest.raises(EvaluationError, match="non-negative"):
        run(relay.zeros(s, "float32"), [s], np.array([-1, 2]))


def test_target_c_refuses_a_dynamic_op_left(tmp_path: Path) -> None:
    x, s = relay.var("x", shape=(2, 3)), shape_var(2)
    mod = IRModule.from_expr(relay.Function([x, s], relay.reshape(x, s)))
    with pytest.raises(DiagnosticError, match="make the shape static") as caught:
        xrelay.build(mod, target="c", options={"cache_dir": tmp_path})
    assert "'relay.dyn.reshape' op has a shape known only at run time" in str(caught.value)
    assert "dynamic-to-static" in str(caught.value)
