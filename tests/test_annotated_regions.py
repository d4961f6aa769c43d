"""AnnotatedRegionSet (tvm-semantics.md C.3): regions, ids, inputs, outputs, merging, errors.

The IR is annotated by hand (text), so these tests do not depend on AnnotateTarget.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp, IfOp
from xrelay.passes.annotated_regions import (
    AnnotatedRegion,
    AnnotatedRegionSet,
    PostOrderWalk,
    annotation_source,
)

import xrelay
from xrelay import relay


def regions_of(text: str, name: str = "main") -> tuple[AnnotatedRegionSet, dict[str, Operation]]:
    """The region set of the first function of `text`, and its ops by result name."""
    mod = xrelay.parse(text)
    function = next(op for op in mod.module.ops if isinstance(op, func.FuncOp))
    ops = {op.results[0].name_hint or "": op for op in function.walk() if op.results}
    return AnnotatedRegionSet.create(function.body.block, name), ops


def names(ops: list[CompilerBeginOp] | list[CompilerEndOp] | list[Operation]) -> list[str]:
    return [op.results[0].name_hint or "" for op in ops]


TWO_INPUTS = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %by = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %a = relay.add %bx, %by : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %t = relay.tanh %ea : tensor<4xf32>
  %bt = relay.compiler_begin %t {compiler = "dnnl"} : tensor<4xf32>
  %r = relay.nn.relu %bt : tensor<4xf32>
  %er = relay.compiler_end %r {compiler = "dnnl"} : tensor<4xf32>
  func.return %er : tensor<4xf32>
}
"""


def test_one_id_per_begin_merged_regions_leave_gaps() -> None:
    regions, ops = regions_of(TWO_INPUTS)
    assert [(r.id, r.target, r.func_name) for r in regions] == [
        (0, "accel", "main"),
        (2, "dnnl", "main"),
    ]
    first, second = regions.regions
    assert names(first.ins) == ["bx", "by"]
    assert names(first.outs) == ["ea"]
    assert sorted(names(first.nodes)) == ["a", "bx", "by", "ea"]
    assert names(second.ins) == ["bt"]
    assert names(second.outs) == ["er"]
    assert regions.region_of(ops["a"]) is first
    assert regions.region_of(ops["a"].results[0]) is first
    assert regions.region_of(ops["t"]) is None  # between two regions, in none
    assert len(regions) == 2


def test_ids_and_outputs_follow_post_order_not_block_order() -> None:
    # Block order: the x region first; the return reads the y region first, so it is 0.
    # Outputs: ends in the order the post-order reaches them (eb before ea).
    regions, ops = regions_of(
        """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %bx : tensor<4xf32>
  %b = relay.nn.relu %a : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %eb = relay.compiler_end %b {compiler = "accel"} : tensor<4xf32>
  %by = relay.compiler_begin %y {compiler = "dnnl"} : tensor<4xf32>
  %c = relay.exp %by : tensor<4xf32>
  %ec = relay.compiler_end %c {compiler = "dnnl"} : tensor<4xf32>
  func.return %ec, %eb, %ea : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""
    )
    dnnl = regions.region_of(ops["c"])
    assert dnnl is not None
    assert dnnl.id == 0
    accel = regions.region_of(ops["a"])
    assert accel is not None
    assert accel.id == 1
    assert names(accel.outs) == ["eb", "ea"]


def test_unreached_ops_are_visited_after_in_block_order() -> None:
    regions, ops = regions_of(
        """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %bd = relay.compiler_begin %x {compiler = "dnnl"} : tensor<4xf32>
  %d = relay.exp %bd : tensor<4xf32>
  %ed = relay.compiler_end %d {compiler = "dnnl"} : tensor<4xf32>
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %e = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
"""
    )
    reached, unreached = regions.region_of(ops["a"]), regions.region_of(ops["d"])
    assert reached is not None
    assert reached.id == 0
    assert unreached is not None
    assert unreached.id == 1


def test_if_branches_are_regions_of_their_own_blocks_visited_at_the_if() -> None:
    regions, ops = regions_of(
        """
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %i = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %bt = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
    %t = relay.abs %bt : tensor<4xf32>
    %et = relay.compiler_end %t {compiler = "accel"} : tensor<4xf32>
    relay.yield %et : tensor<4xf32>
  } else {
    %bf = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
    %f = relay.exp %bf : tensor<4xf32>
    %ef = relay.compiler_end %f {compiler = "accel"} : tensor<4xf32>
    relay.yield %ef : tensor<4xf32>
  }
  %b = relay.compiler_begin %i {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b : tensor<4xf32>
  %e = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
"""
    )
    then_region, else_region, after = (regions.region_of(ops[n]) for n in ("t", "f", "r"))
    assert then_region is not None
    assert else_region is not None
    assert after is not None
    assert (then_region.id, else_region.id, after.id) == (0, 1, 2)
    if_op = ops["i"]
    assert isinstance(if_op, IfOp)
    assert regions.region_of(if_op) is None
    assert then_region.block is if_op.then_region.block
    assert after.block is if_op.parent_block()


def test_merge_keeps_dest_id_and_drops_internal_annotations() -> None:
    regions, ops = regions_of(
        """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %b2 = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %b1, %b2 : tensor<4xf32>
  %e1 = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e1 : tensor<4xf32>
}
"""
    )
    producer_region, consumer = regions.regions
    assert (producer_region.id, consumer.id) == (0, 1)
    assert names(consumer.ins) == ["b1", "b2"]
    regions.merge(producer_region, consumer)
    assert [r.id for r in regions] == [1]
    assert regions.region_of(ops["a"]) is consumer
    # TVM: dest's inputs, then src's; the begin reading src's end is internal now, and so
    # is that end.
    assert names(consumer.ins) == ["b2", "b0"]
    assert names(consumer.outs) == ["e1"]
    assert sorted(names(consumer.nodes)) == ["a", "b0", "b1", "b2", "e0", "e1", "s"]
    assert consumer.mask == 0b111  # ids 0 (abs), 1 and 2 (the two begins of add)
    regions.merge(consumer, consumer)  # merging a region with itself changes nothing
    assert len(regions) == 1


def test_an_op_reading_two_regions_merges_them_on_creation() -> None:
    regions, _ops = regions_of(
        """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %bx : tensor<4xf32>
  %by = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %by : tensor<4xf32>
  %m = relay.multiply %r, %a : tensor<4xf32>
  %s = relay.add %m, %a : tensor<4xf32>
  %e = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
"""
    )
    (region,) = regions.regions
    # The first open operand's region (relu's, id 0: the return reads multiply first)
    # takes the other; the second operand of add is in it already.
    assert region.id == 0
    assert names(region.ins) == ["by", "bx"]


def test_annotation_source_skips_annotations() -> None:
    _, ops = regions_of(TWO_INPUTS)
    begin = ops["bt"]
    assert isinstance(begin, CompilerBeginOp)
    assert annotation_source(begin.data) is ops["t"].results[0]
    end = ops["ea"]
    assert isinstance(end, CompilerEndOp)
    assert annotation_source(end.results[0]) is ops["a"].results[0]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            """%0 = relay.exp %x : tensor<4xf32>
  %1 = relay.compiler_end %0 {compiler = "accel"} : tensor<4xf32>""",
            "'relay.compiler_end' op cannot find the corresponding region for end annotation "
            "of 'accel': its operand is in no annotated region",
        ),
        (
            """%0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = relay.compiler_end %0 {compiler = "dnnl"} : tensor<4xf32>""",
            "'relay.compiler_end' op target mismatch: end annotation of 'dnnl' closes region 0 "
            "of 'accel'",
        ),
        (
            """%0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %c = relay.constant dense<1.0> : tensor<4xf32>
  %1 = relay.add %0, %c : tensor<4xf32>""",
            "'relay.add' op operands are inconsistent: operand #0 is in annotated region 0 "
            "('accel') but operand #1 is in none; every operand of an annotated op needs a "
            "compiler_begin",
        ),
    ],
)
def test_located_errors(body: str, message: str) -> None:
    text = f"""
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  {body}
  func.return %x : tensor<4xf32>
}}
"""
    with pytest.raises(DiagnosticError) as info:
        regions_of(text)
    (diagnostic,) = info.value.diagnostics
    assert diagnostic.message == message
    assert diagnostic.line > 0  # located on the op


def test_region_cannot_cross_an_if_boundary() -> None:
    with pytest.raises(DiagnosticError) as info:
        regions_of(
            """
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %i = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %t = relay.abs %b : tensor<4xf32>
    %e = relay.compiler_end %t {compiler = "accel"} : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %i : tensor<4xf32>
}
"""
        )
    assert "a region cannot cross a relay.if boundary" in str(info.value)


def test_walk_is_iterative_on_deep_graphs() -> None:
    """A 20000-op chain (far past Python's recursion limit) in TVM's post-order."""
    x = relay.var("x", shape=(2,))
    value: relay.Expr = x
    for _ in range(20000):
        value = relay.exp(value)
    op = relay.Function([x], value).to_func_op("main")
    seen: list[Operation] = []

    def visit(visited: Operation) -> None:
        seen.append(visited)

    PostOrderWalk(visit).walk_block(op.body.block)
    assert seen == list(op.body.block.ops)


def test_deep_chain_of_regions() -> None:
    """Regions over a 3000-region chain, built with the builder's begin/end calls."""
    x = relay.var("x", shape=(2,))
    value: relay.Expr = x
    for i in range(3000):
        if i:
            value = relay.Call(CompilerEndOp, [value], {"compiler": StringAttr("accel")})
        value = relay.exp(relay.Call(CompilerBeginOp, [value], {"compiler": StringAttr("accel")}))
    value = relay.Call(CompilerEndOp, [value], {"compiler": StringAttr("accel")})
    op = relay.Function([x], value).to_func_op("main")
    regions = AnnotatedRegionSet.create(op.body.block)
    assert len(regions) == 3000
    assert [r.id for r in regions][:3] == [0, 1, 2]
    last: AnnotatedRegion = regions.regions[-1]
    assert last.func_name == "default"
    assert isinstance(last.outs[0], CompilerEndOp)
