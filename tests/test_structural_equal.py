"""`xrelay.ir.structural_equal` / `assert_structural_equal` with TVM's meaning (issue 18)."""

from __future__ import annotations

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay
from xrelay.ir import assert_structural_equal, structural_equal


def conv_relu(name: str, shared: bool = True) -> relay.Function:
    x = relay.var(name, shape=(1, 2, 4, 4))
    w = relay.const(np.ones((3, 2, 1, 1), "float32"))
    y = relay.nn.relu(relay.nn.conv2d(x, w, channels=3, kernel_size=(1, 1)))
    other = y if shared else relay.nn.relu(relay.nn.conv2d(x, w, channels=3, kernel_size=(1, 1)))
    return relay.Function([x], relay.add(y, other))


def test_parameter_names_do_not_matter() -> None:
    assert structural_equal(conv_relu("x"), conv_relu("data"))
    assert_structural_equal(conv_relu("x"), conv_relu("data"))


def test_sharing_must_be_alike() -> None:
    assert structural_equal(conv_relu("x", shared=False), conv_relu("y", shared=False))
    assert not structural_equal(conv_relu("x", shared=True), conv_relu("x", shared=False))
    with pytest.raises(ValueError, match="sharing differs"):
        assert_structural_equal(conv_relu("x", shared=True), conv_relu("x", shared=False))


def test_constants_compare_by_value_shared_or_not() -> None:
    x = relay.var("x", shape=(2,))
    one = relay.const(1.0)
    shared = relay.Function([x], relay.add(relay.add(x, one), one))
    x2 = relay.var("x", shape=(2,))
    apart = relay.Function([x2], relay.add(relay.add(x2, relay.const(1.0)), relay.const(1.0)))
    assert structural_equal(shared, apart)
    x3 = relay.var("x", shape=(2,))
    other = relay.Function([x3], relay.add(relay.add(x3, relay.const(1.0)), relay.const(2.0)))
    assert not structural_equal(shared, other)


def test_ops_attributes_and_types_differ() -> None:
    x = relay.var("x", shape=(2, 3))
    assert not structural_equal(
        relay.Function([x], relay.exp(x)), relay.Function([x], relay.log(x))
    )
    s0 = relay.Function([x], relay.sum(x, axis=0))
    s1 = relay.Function([x], relay.sum(x, axis=1))
    assert not structural_equal(s0, s1)
    assert structural_equal(s0, relay.Function([x], relay.sum(x, axis=[0])))
    y = relay.var("y", shape=(3, 2))
    assert not structural_equal(
        relay.Function([x], relay.exp(x)), relay.Function([y], relay.exp(y))
    )
    # a property left at its default equals the default written out
    assert structural_equal(
        relay.Function([x], relay.nn.softmax(x)), relay.Function([x], relay.nn.softmax(x, axis=-1))
    )


def test_function_attributes_compare_as_tvm_values() -> None:
    x = relay.var("x", shape=(2,))
    a = relay.Function([x], relay.exp(x)).with_attr("Primitive", 1)
    b = relay.Function([x], relay.exp(x)).with_attr("Primitive", xrelay.tir.IntImm("int32", 1))
    assert structural_equal(a, b)
    assert not structural_equal(a, relay.Function([x], relay.exp(x)))


def test_free_variables() -> None:
    x = relay.var("x", shape=(2,))
    y = relay.var("y", shape=(2,))
    assert structural_equal(relay.exp(x), relay.exp(x))
    assert not structural_equal(relay.exp(x), relay.exp(y))
    assert structural_equal(relay.exp(x), relay.exp(y), map_free_vars=True)
    # mapped one to one: x+x is not y+z
    z = relay.var("z", shape=(2,))
    assert not structural_equal(relay.add(x, x), relay.add(y, z), map_free_vars=True)


def test_modules_and_values() -> None:
    a = IRModule.from_expr(conv_relu("x"))
    b = IRModule.from_expr(conv_relu("q"))
    assert structural_equal(a, b)
    assert structural_equal(a["main"], b["main"])  # functions read back from func.func
    assert not structural_equal(a, IRModule.from_expr(conv_relu("x", shared=False)))
    assert structural_equal([1, 2], (1, 2))
    assert not structural_equal([1, 2], [1, 3])
    assert not structural_equal(a, a["main"])


def test_assert_message_prints_both_sides() -> None:
    x = relay.var("x", shape=(2,))
    with pytest.raises(
        ValueError, match=r"ops differ: exp vs log(.|\n)*relay\.exp(.|\n)*relay\.log"
    ):
        assert_structural_equal(
            relay.Function([x], relay.exp(x)), relay.Function([x], relay.log(x))
        )
