"""Lowering as rewrite patterns (`passes/lowering.py`): the registry's order, and accel's
lowering extended from outside with a composite of its own, lowered and built."""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Attribute, Operation
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xrelay.dialects import accel
from xrelay.dialects.builder import attrs
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.elementwise import AddOp
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.byoc_registry import (
    ExprView,
    get_pattern_table,
    op_supported,
    register_pattern_table,
    saved_registry,
)
from xrelay.passes.convert_relay_to_accel import ConvertRelayToAccel, is_accel_function
from xrelay.passes.dataflow_pattern import is_op, wildcard
from xrelay.passes.lowering import (
    Built,
    LowerComposite,
    LowerOp,
    Rejected,
    body_op,
    lowering_patterns,
    outside,
    register_lowering_patterns,
    unregister_lowering_patterns,
)
from xrelay.passes.partition_for import partition_for

import xrelay
from xrelay import IRModule, relay

TRUE = IntegerAttr(1, i1)


class Named(RewritePattern):
    """A pattern that does nothing, told apart by its name."""

    def __init__(self, name: str) -> None:
        self.name = name

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        return


def names(target: str) -> list[str]:
    return [p.name for p in lowering_patterns(target) if isinstance(p, Named)]


def test_patterns_are_offered_by_benefit_then_in_registration_order() -> None:
    first, second, third = [Named("a1")], [Named("b2")], [Named("c1")]

    def populate(patterns: list[RewritePattern]) -> None:
        patterns.append(Named("d0"))

    registered: list[Any] = [first, second, third, populate]
    register_lowering_patterns("t17", first)
    register_lowering_patterns("t17", second, benefit=2)
    register_lowering_patterns("t17", third)
    register_lowering_patterns("t17", populate, benefit=0)
    try:
        assert names("t17") == ["b2", "a1", "c1", "d0"]
        unregister_lowering_patterns("t17", second)
        assert names("t17") == ["a1", "c1", "d0"]
    finally:
        for patterns in registered:
            unregister_lowering_patterns("t17", patterns)
    assert lowering_patterns("t17") == []


def dense_relu_module() -> IRModule:
    """relu(dense(x, w)) doubled: accel's table has no `dense_relu` composite."""
    rng = np.random.default_rng(17)
    x = relay.var("x", shape=(3, 8))
    w = relay.const(rng.standard_normal((6, 8)).astype("float32"))
    y = relay.nn.relu(relay.nn.dense(x, w))
    return IRModule.from_expr(relay.Function([x], relay.add(y, y)))


def dense_relu_check(root: ExprView) -> bool:
    return op_supported(root.args[0].value, "accel")


def build_dense_relu(composite: CompositeOp) -> Built:
    """`accel.dense` with `has_relu`, on the composite's inputs."""
    dense = body_op(composite, nn.DenseOp)
    if dense.units is not None:
        raise Rejected("a dense with units")
    return accel.DenseOp.make(composite.operands, {**dense.properties, "has_relu": TRUE})


@contextmanager
def dense_relu_composites() -> Generator[None]:
    """accel's pattern table with `accel.dense_relu` first (restored on exit)."""
    with saved_registry():
        table = get_pattern_table("accel")
        pattern = is_op("nn.relu")(is_op("nn.dense")(wildcard(), wildcard()))
        entry = ("accel.dense_relu", pattern, dense_relu_check)
        register_pattern_table("accel", lambda: [entry, *table])
        yield


def accel_ops(mod: IRModule) -> list[str]:
    functions = [op for op in mod.module.ops if is_accel_function(op)]
    assert functions
    return [op.name for f in functions for op in f.body.block.ops if op.name.startswith("accel.")]


def test_an_outside_composite_lowers_to_an_accel_kernel_and_builds() -> None:
    patterns = [LowerComposite("accel.dense_relu", build_dense_relu)]
    with dense_relu_composites():
        register_lowering_patterns("accel", patterns)
        try:
            partitioned = partition_for(dense_relu_module(), "accel")
            lowered = ConvertRelayToAccel()(partitioned)
            assert sorted(accel_ops(lowered)) == ["accel.add", "accel.dense"]
            (dense,) = [op for op in lowered.module.walk() if isinstance(op, accel.DenseOp)]
            assert dense.has_relu == TRUE
            assert dense.has_bias.value.data == 0
            x = np.random.default_rng(1).standard_normal((3, 8)).astype("float32")
            expected = xrelay.evaluate(dense_relu_module(), x)
            lib = xrelay.build(dense_relu_module(), target=["accel", "c"])
            np.testing.assert_allclose(lib(x), expected, rtol=1e-5, atol=1e-6)
            assert (np.asarray(expected) > 0).any()
        finally:
            unregister_lowering_patterns("accel", patterns)


def test_an_outside_composite_without_its_lowering_is_a_located_error() -> None:
    with dense_relu_composites():
        partitioned = partition_for(dense_relu_module(), "accel")
        before = str(partitioned)
        message = "cannot be lowered to target 'accel': accel has no kernel for composite"
        with pytest.raises(DiagnosticError, match=f"{message} 'accel.dense_relu'"):
            ConvertRelayToAccel()(partitioned)
        assert str(partitioned) == before  # nothing lowered


def relu_as_clip(op: nn.ReluOp) -> Built:
    bounds: dict[str, Attribute] = {"a_min": attrs.float_(0.0), "a_max": attrs.float_(3.0e38)}
    return accel.ClipOp.make([op.data], bounds)


def test_a_pattern_of_higher_benefit_is_tried_first_and_may_decline() -> None:
    """A relu of rank 2 becomes a clip (the outside pattern, benefit 2); the 4-D relu it
    declines falls through to accel's own pattern."""

    def rank_2(op: nn.ReluOp) -> bool:
        if len(shape_of(op.data.type)) != 2:
            raise Rejected("not of rank 2")
        return True

    patterns = [LowerOp(nn.ReluOp, relu_as_clip, rank_2)]
    register_lowering_patterns("accel", patterns, benefit=2)
    try:
        x = relay.var("x", shape=(2, 9))
        y = relay.nn.relu(relay.reshape(relay.nn.relu(x), (1, 2, 3, 3)))
        mod = IRModule.from_expr(relay.Function([x], y))
        lowered = ConvertRelayToAccel()(partition_for(mod, "accel"))
        functions = [op for op in lowered.module.ops if isinstance(op, func.FuncOp)]
        kinds = [op.name for f in functions for op in f.body.block.ops]
        assert "accel.clip" in kinds, kinds
        assert "accel.relu" in kinds, kinds
    finally:
        unregister_lowering_patterns("accel", patterns)


COMPOSITE = """\
func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.composite "t.k" (%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32> {
  ^bb0(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>):
    %c = relay.constant dense<2.0> : tensor<f32>
    %m = relay.multiply %b, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %s = relay.add %a, %m : tensor<2x3xf32>
    relay.yield %s : tensor<2x3xf32>
  }
  func.return %0 : tensor<2x3xf32>
}
"""


def test_outside_maps_body_values_to_the_composite_inputs_or_constant_copies() -> None:
    (composite,) = [
        op for op in xrelay.parse(COMPOSITE).module.walk() if isinstance(op, CompositeOp)
    ]
    add = body_op(composite, AddOp)
    multiply = add.operands[1].owner
    assert isinstance(multiply, Operation)
    copies: list[Operation] = []
    assert outside(add.operands[0], composite, copies) is composite.operands[0]
    assert outside(multiply.operands[0], composite, copies) is composite.operands[1]
    assert copies == []
    constant = outside(multiply.operands[1], composite, copies)
    assert len(copies) == 1
    assert constant is copies[0].results[0]
    assert copies[0].parent is None  # a new op for the builder to return
    assert str(copies[0].properties["value"]) == str(multiply.operands[1].owner.properties["value"])
    with pytest.raises(Rejected, match="computed inside the composite"):
        outside(add.operands[1], composite, copies)
