"""AnnotateTarget: compiler_begin/compiler_end per edge, first matching target wins.

Ports of TVM's `tests/python/relay/test_pass_annotate_target.py` (extern_dnnl,
multiple_ends, type_propagation, tuple, composite_function, multiple_runs,
if_else, ends_with_tuple, free_vars_zeros) and the semantics of
tvm-semantics.md C.2: first match by target order, one end per consumer edge,
idempotent and additive runs, composites by name prefix, tuples with and
without `include_non_call_ops`, the predicate seeing attributes and types, a
raising predicate named with its op and target. Every rewrite is checked
against the reference interpreter (`run_and_check`): annotations are
identities. Expected graphs are built with the builder and compared as graphs
(`assert_graph_equal`).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import assert_graph_equal
from xdsl.context import Context
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.pass_warnings import PassWarning
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp
from xrelay.passes import lookup_pass
from xrelay.passes.adapters import to_pass
from xrelay.passes.annotate_target import AnnotateTarget, AnnotateTargetPass
from xrelay.passes.byoc_registry import ByocError, ExprView, temp_op_attr
from xrelay.passes.pass_manager import PassError

import xrelay
from xrelay import IRModule, relay


def begin(expr: relay.Expr, target: str) -> relay.Expr:
    """`relay.annotation.compiler_begin(expr, target)`."""
    return relay.Call(CompilerBeginOp, [expr], {"compiler": StringAttr(target)})


def end(expr: relay.Expr, target: str) -> relay.Expr:
    """`relay.annotation.compiler_end(expr, target)`."""
    return relay.Call(CompilerEndOp, [expr], {"compiler": StringAttr(target)})


def annotate(
    mod: IRModule, targets: str | list[str], include_non_call_ops: bool = True
) -> IRModule:
    """AnnotateTarget on a copy of `mod`; the result verifies and computes what `mod` does."""
    return run_and_check(mod, AnnotateTarget(targets, include_non_call_ops))


def annotations(mod: IRModule) -> list[tuple[str, str, str]]:
    """(`begin`/`end`, target, name of the annotated value's op or `arg`) in IR order."""
    found: list[tuple[str, str, str]] = []
    for op in mod.module.walk():
        if isinstance(op, CompilerBeginOp | CompilerEndOp):
            kind = "begin" if isinstance(op, CompilerBeginOp) else "end"
            owner = op.data.owner
            name = owner.name if isinstance(owner, Operation) else "arg"
            found.append((kind, op.compiler.data, name))
    return found


def target_of(mod: IRModule, op_name: str) -> set[str]:
    """The targets of the begins feeding every `op_name` op."""
    targets: set[str] = set()
    for op in mod.module.walk():
        if op.name == op_name:
            for operand in op.operands:
                owner = operand.owner
                assert isinstance(owner, CompilerBeginOp), op
                targets.add(owner.compiler.data)
    return targets


# --------------------------------------------------------------------------- #
# TVM's tests
# --------------------------------------------------------------------------- #


def test_extern_dnnl() -> None:
    """Two depthwise convs and an add, all dnnl: conv1's two consumer edges get two ends."""
    ishape, wshape = (1, 32, 14, 14), (32, 1, 3, 3)

    def before() -> IRModule:
        data, weight = relay.var("data", shape=ishape), relay.var("weight1", shape=wshape)
        conv1 = relay.nn.conv2d(data, weight, kernel_size=(3, 3), padding=(1, 1), groups=32)
        conv2 = relay.nn.conv2d(conv1, weight, kernel_size=(3, 3), padding=(1, 1), groups=32)
        return IRModule.from_expr(relay.Function([data, weight], relay.add(conv1, conv2)))

    def expected() -> IRModule:
        data, weight = relay.var("data", shape=ishape), relay.var("weight1", shape=wshape)
        conv1 = relay.nn.conv2d(
            begin(data, "dnnl"),
            begin(weight, "dnnl"),
            kernel_size=(3, 3),
            padding=(1, 1),
            groups=32,
        )
        end0, end1 = end(conv1, "dnnl"), end(conv1, "dnnl")
        conv2 = relay.nn.conv2d(
            begin(end0, "dnnl"),
            begin(weight, "dnnl"),
            kernel_size=(3, 3),
            padding=(1, 1),
            groups=32,
        )
        out = relay.add(begin(end1, "dnnl"), begin(end(conv2, "dnnl"), "dnnl"))
        return IRModule.from_expr(relay.Function([data, weight], end(out, "dnnl")))

    assert_graph_equal(annotate(before(), "dnnl"), expected())


def test_multiple_ends() -> None:
    """relu feeds two abs: two ends, and the default ops are annotated "default"."""

    def before() -> IRModule:
        x = relay.var("x", shape=(10, 10))
        r = relay.nn.relu(x)
        out = relay.add(relay.abs(r), relay.abs(r))
        return IRModule.from_expr(relay.Function([x], out))

    def expected() -> IRModule:
        x = relay.var("x", shape=(10, 10))
        r = relay.nn.relu(begin(x, "test"))
        a_1 = relay.abs(begin(end(r, "test"), "default"))
        a_2 = relay.abs(begin(end(r, "test"), "default"))
        out = relay.add(
            begin(end(a_1, "default"), "default"), begin(end(a_2, "default"), "default")
        )
        return IRModule.from_expr(relay.Function([x], end(out, "default")))

    with temp_op_attr("nn.relu", "target.test", True):
        assert_graph_equal(annotate(before(), "test"), expected())


def test_type_propagation() -> None:
    """The seed's two-argument predicate reads the operand's checked_type."""
    seen: list[str] = []

    def relu(attrs: object, args: list[ExprView]) -> bool:
        seen.append(args[0].checked_type.dtype)
        return args[0].checked_type.dtype == "float32"

    x = relay.var("x", shape=(10, 10))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.nn.relu(x))))
    with temp_op_attr("nn.relu", "target.test_type_propagation", relu):
        out = annotate(mod, "test_type_propagation")
    assert seen == ["float32", "float32"]
    assert target_of(out, "relay.nn.relu") == {"test_type_propagation"}


def test_tuple() -> None:
    """A tuple between supported ops takes their target (TVM's tuple feeding concatenate;
    xrelay's concatenate takes its fields directly, so a projection reads the tuple)."""
    target = "test_tuple"

    def before() -> IRModule:
        x, y = relay.var("x", shape=(10, 5)), relay.var("y", shape=(10, 5))
        tup = relay.Tuple([relay.nn.relu(x), relay.nn.relu(y)])
        return IRModule.from_expr(relay.Function([x, y], relay.nn.relu(tup[1])))

    def expected() -> IRModule:
        x, y = relay.var("x", shape=(10, 5)), relay.var("y", shape=(10, 5))
        a_1 = relay.nn.relu(begin(x, target))
        a_2 = relay.nn.relu(begin(y, target))
        tup = relay.Tuple([begin(end(a_1, target), target), begin(end(a_2, target), target)])
        item = relay.TupleGetItem(begin(end(tup, target), target), 1)
        out = relay.nn.relu(begin(end(item, target), target))
        return IRModule.from_expr(relay.Function([x, y], end(out, target)))

    with temp_op_attr("nn.relu", f"target.{target}", True):
        assert_graph_equal(annotate(before(), target), expected())


COMPOSITE = """
func.func @main(%a: tensor<10x10xf32>, %b: tensor<10x10xf32>) -> tensor<10x10xf32> {
  %r = relay.composite "test.add_relu" (%a, %b) {PartitionedFromPattern = "add_nn.relu_"}
      : (tensor<10x10xf32>, tensor<10x10xf32>) -> tensor<10x10xf32> {
  ^bb0(%in_1: tensor<10x10xf32>, %in_2: tensor<10x10xf32>):
    %s = relay.add %in_1, %in_2 : tensor<10x10xf32>
    %t = relay.nn.relu %s : tensor<10x10xf32>
    relay.yield %t : tensor<10x10xf32>
  }
  func.return %r : tensor<10x10xf32>
}
"""


def test_composite_function() -> None:
    """A composite named `test.*` goes to target `test`; its body is left alone."""
    with temp_op_attr("nn.relu", "target.test", False):  # makes `test` a known target
        out = annotate(xrelay.parse(COMPOSITE), "test")
    text = str(out)
    assert annotations(out) == [
        ("begin", "test", "arg"),
        ("begin", "test", "arg"),
        ("end", "test", "relay.composite"),
    ]
    body = text[text.index("^bb0") : text.index("relay.yield")]
    assert "compiler_" not in body


def test_multiple_runs() -> None:
    """AnnotateTarget("A") then ("B") equals AnnotateTarget(["A", "B"])."""

    def before() -> IRModule:
        x = relay.var("x", shape=(10, 5))
        a_1 = relay.nn.relu(x)
        out = relay.add(relay.abs(a_1), relay.nn.relu(a_1))
        return IRModule.from_expr(relay.Function([x], out))

    with temp_op_attr("nn.relu", "target.A", True), temp_op_attr("add", "target.B", True):
        twice = annotate(annotate(before(), "A"), "B")
        once = annotate(before(), ["A", "B"])
    assert_graph_equal(twice, once)
    assert target_of(once, "relay.add") == {"B"}
    assert target_of(once, "relay.nn.relu") == {"A"}


def test_if_else() -> None:
    """The branches are scopes of their own; the if is an input of erf (TVM test_if_else)."""
    target = "test_if_else"

    def before() -> IRModule:
        data = relay.var("data", shape=(1, 32))
        e1, e2 = (
            relay.var("e1", shape=(), dtype="float32"),
            relay.var("e2", shape=(), dtype="float32"),
        )
        ife = relay.If(relay.equal(e1, e2), relay.tanh(data), relay.sigmoid(data))
        return IRModule.from_expr(relay.Function([data, e1, e2], relay.erf(ife)))

    def expected() -> IRModule:
        data = relay.var("data", shape=(1, 32))
        e1, e2 = (
            relay.var("e1", shape=(), dtype="float32"),
            relay.var("e2", shape=(), dtype="float32"),
        )
        cond = end(relay.equal(begin(e1, target), begin(e2, target)), target)
        true_branch = end(relay.tanh(begin(data, target)), target)
        false_branch = end(relay.sigmoid(begin(data, target)), target)
        out = relay.erf(begin(relay.If(cond, true_branch, false_branch), target))
        return IRModule.from_expr(relay.Function([data, e1, e2], end(out, target)))

    with (
        temp_op_attr("equal", f"target.{target}", True),
        temp_op_attr("tanh", f"target.{target}", True),
        temp_op_attr("sigmoid", f"target.{target}", True),
        temp_op_attr("erf", f"target.{target}", True),
    ):
        out = annotate(before(), target)
    assert_graph_equal(out, expected())
    for e1 in (0.0, 1.0):  # both branches, annotated, compute what they computed
        inputs = (np.ones((1, 32), "float32"), np.float32(e1), np.float32(1.0))
        want = xrelay.evaluate(before(), *inputs)
        np.testing.assert_allclose(xrelay.evaluate(out, *inputs), want, rtol=1e-6)


@pytest.mark.parametrize("include_non_call_ops", [True, False])
@pytest.mark.parametrize("get_item", [True, False])
def test_ends_with_tuple(include_non_call_ops: bool, get_item: bool) -> None:
    """The function returns a tuple (or a projection of it) of two clips of one clip."""
    target = "clip"

    def body(a: relay.Expr, annotated: bool) -> relay.Expr:
        def b(e: relay.Expr) -> relay.Expr:
            return begin(e, target) if annotated else e

        def e(x: relay.Expr) -> relay.Expr:
            return end(x, target) if annotated else x

        non_call = annotated and include_non_call_ops
        z = relay.clip(b(a), 0.0, 255.0)
        first = e(relay.clip(b(e(z)), 0.0, 15.0))
        second = e(relay.clip(b(e(z)), 16.0, 31.0))
        if non_call:
            first, second = begin(first, target), begin(second, target)
        tup: relay.Expr = relay.Tuple([second, first])
        if non_call:
            tup = end(tup, target)
        if not get_item:
            return tup
        item = relay.TupleGetItem(begin(tup, target) if non_call else tup, 1)
        return end(item, target) if non_call else item

    def module(annotated: bool) -> IRModule:
        a = relay.var("a", shape=(1, 16, 16, 4))
        return IRModule.from_expr(relay.Function([a], body(a, annotated)))

    with temp_op_attr("clip", f"target.{target}", True):
        out = annotate(module(False), target, include_non_call_ops)
    assert_graph_equal(out, module(True))


def test_free_vars_zeros() -> None:
    """A zero-operand op (zeros) is an input: a begin, never an end (TVM test_free_vars_zeros)."""
    x = relay.var("x", shape=(4,))
    mod = IRModule.from_expr(relay.Function([x], relay.add(x, relay.zeros((4,), "float32"))))
    out = annotate(mod, "accel")
    assert annotations(out) == [
        ("begin", "accel", "arg"),
        ("begin", "accel", "relay.zeros"),
        ("end", "accel", "relay.add"),
    ]


# --------------------------------------------------------------------------- #
# C.2 semantics
# --------------------------------------------------------------------------- #


def relu_then_broadcast_add() -> IRModule:
    """relu (accel and dnnl take it), then an add that broadcasts (only dnnl takes it)."""
    x, b = relay.var("x", shape=(2, 4)), relay.var("b", shape=(4,))
    return IRModule.from_expr(relay.Function([x, b], relay.add(relay.nn.relu(x), b)))


@pytest.mark.parametrize(
    ("targets", "relu", "add"),
    [
        (["accel"], "accel", "default"),
        (["dnnl"], "dnnl", "dnnl"),
        (["accel", "dnnl"], "accel", "dnnl"),
        (["dnnl", "accel"], "dnnl", "dnnl"),
    ],
)
def test_first_match_wins_by_target_order(targets: list[str], relu: str, add: str) -> None:
    out = annotate(relu_then_broadcast_add(), targets)
    assert target_of(out, "relay.nn.relu") == {relu}
    assert target_of(out, "relay.add") == {add}


def test_first_match_wins_even_when_later_targets_accept() -> None:
    """Predicates are asked in target order; a refusing target is skipped."""
    asked: list[str] = []

    def ask(target: str, answer: bool) -> object:
        def predicate(expr: ExprView) -> bool:
            asked.append(target)
            return answer

        return predicate

    x = relay.var("x", shape=(3,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    with (
        temp_op_attr("exp", "target.t1", ask("t1", False)),
        temp_op_attr("exp", "target.t2", ask("t2", True)),
        temp_op_attr("exp", "target.t3", ask("t3", True)),
    ):
        out = annotate(mod, ["t1", "t2", "t3"])
    assert asked == ["t1", "t2"]
    assert target_of(out, "relay.exp") == {"t2"}


def test_one_end_per_consumer_edge() -> None:
    """A value read by three ops, one of them twice, gets four ends: one per edge."""
    x = relay.var("x", shape=(4,))
    r = relay.nn.relu(x)
    out = relay.add(relay.multiply(r, r), relay.add(relay.exp(r), r))
    mod = annotate(IRModule.from_expr(relay.Function([x], out)), "accel")
    kinds = Counter(annotations(mod))
    assert kinds[("end", "accel", "relay.nn.relu")] == 4
    # every use of every annotation is single: one edge each
    for op in mod.module.walk():
        if isinstance(op, CompilerBeginOp | CompilerEndOp):
            assert op.result.has_one_use(), op


def test_returned_values_get_one_end_each() -> None:
    text = """
    func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
      %r = relay.nn.relu %x : tensor<4xf32>
      %e = relay.exp %x : tensor<4xf32>
      func.return %r, %e, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    }
    """
    out = annotate(xrelay.parse(text), "accel")
    ends = [a for a in annotations(out) if a[0] == "end"]
    assert ends == [
        ("end", "accel", "relay.nn.relu"),
        ("end", "default", "relay.exp"),
        ("end", "accel", "relay.nn.relu"),
    ]


def tinyres() -> IRModule:
    with open("examples/tinyres.mlir") as file:
        return xrelay.parse(file.read())


@pytest.mark.parametrize("targets", [["accel"], ["dnnl"], ["accel", "dnnl"]])
@pytest.mark.parametrize("include_non_call_ops", [True, False])
def test_idempotent(targets: list[str], include_non_call_ops: bool) -> None:
    once = annotate(tinyres(), targets, include_non_call_ops)
    twice = annotate(once, targets, include_non_call_ops)
    assert str(twice) == str(once)


def test_additive_with_stale_default_ends() -> None:
    """accel then dnnl equals accel,dnnl also where the first run left a "default" end
    inside the graph (on the broadcasting add): it takes its producer's new target
    (TVM re-targets only the function body's end)."""
    x, b = relay.var("x", shape=(2, 4)), relay.var("b", shape=(4,))
    s = relay.add(relay.abs(relay.nn.relu(x)), b)
    tup = relay.Tuple([s, relay.add(relay.nn.relu(x), b)])
    mod = IRModule.from_expr(relay.Function([x, b], relay.nn.relu(tup[0])))
    twice = annotate(annotate(mod, "accel"), "dnnl")
    once = annotate(mod, ["accel", "dnnl"])
    assert str(twice) == str(once)
    assert ("end", "dnnl", "relay.add") in annotations(twice)
    assert ("end", "dnnl", "relay.tuple") in annotations(twice)  # the fields now agree


def test_already_annotated_ops_are_kept() -> None:
    """An op behind a non-default begin stays with its target, even one not listed."""
    text = """
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = relay.compiler_begin %x {compiler = "dnnl"} : tensor<4xf32>
      %1 = relay.nn.relu %0 : tensor<4xf32>
      %2 = relay.compiler_end %1 {compiler = "dnnl"} : tensor<4xf32>
      %3 = relay.nn.relu %2 : tensor<4xf32>
      func.return %3 : tensor<4xf32>
    }
    """
    out = annotate(xrelay.parse(text), "accel")
    assert annotations(out) == [
        ("begin", "dnnl", "arg"),
        ("end", "dnnl", "relay.nn.relu"),
        ("begin", "accel", "relay.compiler_end"),
        ("end", "accel", "relay.nn.relu"),
    ]


COMPOSITES = """
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.composite "accel.conv2d_relu" (%x, %w) {PartitionedFromPattern = "nn.conv2d_nn.relu_"}
      : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
    %c = relay.nn.conv2d %i, %k : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %r = relay.nn.relu %c : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  %1 = relay.composite "dnnl.relu.v2" (%0) {PartitionedFromPattern = "nn.relu_"}
      : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x4x6x6xf32>):
    %r = relay.nn.relu %i : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  %2 = relay.composite "relu" (%1) {PartitionedFromPattern = "nn.relu_"}
      : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x4x6x6xf32>):
    %r = relay.nn.relu %i : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  func.return %2 : tensor<1x4x6x6xf32>
}
"""


@pytest.mark.parametrize(
    ("targets", "expected"),
    [
        (["accel"], ["accel", "default", "default"]),
        (["dnnl"], ["default", "dnnl", "default"]),
        (["dnnl", "accel"], ["accel", "dnnl", "default"]),
    ],
)
def test_composites_go_to_their_prefix_target(targets: list[str], expected: list[str]) -> None:
    """The text before the first `.` names the target, if listed; no predicate is asked."""

    def refuse(expr: ExprView) -> bool:
        raise AssertionError("the predicate of an op inside a composite was asked")

    with (
        temp_op_attr("nn.relu", "target.accel", refuse),
        temp_op_attr("nn.relu", "target.dnnl", refuse),
    ):
        out = annotate(xrelay.parse(COMPOSITES), targets)
    ends = [a[1] for a in annotations(out) if a[0] == "end"]
    assert ends == expected
    for op in out.module.walk():
        if op.name == "relay.composite":
            inner = [o.name for o in op.walk() if o is not op]
            assert not any("compiler_" in name for name in inner)


def test_tuples_both_ways() -> None:
    """Agreeing fields: the tuple takes their target; disagreeing: "default"; without
    include_non_call_ops the tuple and its projection stay outside every region."""
    x, y = relay.var("x", shape=(4,)), relay.var("y", shape=(4,))
    agree = relay.Tuple([relay.nn.relu(x), relay.nn.relu(y)])
    disagree = relay.Tuple([relay.nn.relu(x), relay.exp(y)])
    out = relay.add(relay.nn.relu(agree[0]), disagree[1])
    mod = IRModule.from_expr(relay.Function([x, y], out))

    with_tuples = annotate(mod, "accel")
    tuple_targets = [t for kind, t, name in annotations(with_tuples) if name == "relay.tuple"]
    assert tuple_targets == ["accel", "default"]
    items = [t for _, t, name in annotations(with_tuples) if name == "relay.tuple_get_item"]
    assert items == ["accel", "default"]

    calls_only = annotate(mod, "accel", include_non_call_ops=False)
    names = {name for _, _, name in annotations(calls_only) if name.startswith("relay.tuple")}
    assert names == {"relay.tuple_get_item"}  # only begins of consumers, which read them
    for op in calls_only.module.walk():
        if op.name in ("relay.tuple", "relay.tuple_get_item"):
            assert not any(isinstance(o.owner, CompilerBeginOp) for o in op.operands)


def test_predicate_sees_attrs_and_types_of_the_unchanged_op() -> None:
    """The predicate gets an ExprView of the typed op before any annotation is added."""
    seen: dict[str, object] = {}

    def conv2d(expr: ExprView) -> bool:
        assert expr.op is not None
        seen["op"] = expr.op.name
        seen["padding"] = expr.attrs.padding
        seen["groups"] = expr.attrs.get("groups", 1)
        seen["data"] = expr.args[0].checked_type.shape
        seen["producer"] = expr.args[0].op
        seen["weight_is_var"] = expr.args[1].is_var
        seen["result"] = (expr.checked_type.shape, expr.checked_type.dtype)
        return True

    x, w = relay.var("x", shape=(1, 3, 8, 8)), relay.var("w", shape=(4, 3, 3, 3))
    mod = IRModule.from_expr(
        relay.Function([x, w], relay.nn.conv2d(relay.nn.relu(x), w, padding=(1, 1)))
    )
    with temp_op_attr("nn.conv2d", "target.probe", conv2d):
        out = annotate(mod, "probe")
    assert seen == {
        "op": "nn.conv2d",
        "padding": (1, 1, 1, 1),
        "groups": 1,
        "data": (1, 3, 8, 8),
        "producer": "nn.relu",
        "weight_is_var": True,
        "result": ((1, 4, 8, 8), "float32"),
    }
    assert target_of(out, "relay.nn.conv2d") == {"probe"}


def test_raising_predicate_names_op_and_target() -> None:
    def broken(expr: ExprView) -> bool:
        raise KeyError("padding")

    x = relay.var("x", shape=(4,))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.exp(x))))
    before = str(mod)
    with temp_op_attr("nn.relu", "target.broken", broken):
        with pytest.raises(DiagnosticError) as info:
            AnnotateTargetPass(targets=("broken",)).apply(Context(), mod.module)
        (diagnostic,) = info.value.diagnostics
        assert diagnostic.message == (
            "'relay.nn.relu' op support predicate of 'nn.relu' for target 'broken' "
            "raised KeyError: 'padding'"
        )
        assert str(mod) == before  # predicates run before anything changes
        with pytest.raises(PassError) as failure:
            AnnotateTarget("broken")(mod)
    assert isinstance(failure.value.cause, DiagnosticError)
    assert "'nn.relu'" in str(failure.value)
    assert "'broken'" in str(failure.value)
    assert str(mod) == before


def test_no_target_is_an_error_when_built() -> None:
    with pytest.raises(ByocError, match=r"at least one target is required"):
        AnnotateTarget([])


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ("acel", r"unknown target 'acel'.*known targets: .*accel.*did you mean 'accel'"),
        (["accel", "nope"], r"unknown target 'nope'"),
    ],
)
def test_a_target_nothing_is_registered_for_takes_no_ops_with_a_warning(
    targets: str | list[str], message: str
) -> None:
    """TVM's behaviour (its tests annotate for targets with no ops); a PassWarning says so."""
    x = relay.var("x", shape=(4,))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
    with pytest.warns(PassWarning, match=message):
        out = AnnotateTarget(targets)(mod)
    text = str(out)
    assert 'compiler = "acel"' not in text
    assert 'compiler = "nope"' not in text
    # accel takes the relu; for acel alone it stays on the host (TVM's "default").
    assert ('compiler = "accel"' in text) == (targets != "acel")


def test_partitioned_functions_are_skipped() -> None:
    x = relay.var("x", shape=(4,))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(x)).with_attr("Compiler", "accel"))
    assert str(annotate(mod, "accel")) == str(mod)


def test_registered_with_tvm_name() -> None:
    entry = lookup_pass("AnnotateTarget")
    assert entry is not None
    assert entry.flag == "annotate-target"
    assert entry.factory() is AnnotateTargetPass
    info = to_pass(AnnotateTargetPass(targets=("accel",))).info
    assert (info.name, info.opt_level, info.required) == ("AnnotateTarget", 0, ())
    assert AnnotateTarget("accel").info.name == "AnnotateTarget"


def test_rerun_after_merge_keeps_merged_regions() -> None:
    """After MergeCompilerRegions the ops inside a region read each other without
    annotations; a second AnnotateTarget leaves them in their region (the region's
    later ops have no begin of their own) and PartitionGraph still pairs everything."""
    from xrelay.passes.merge_compiler_regions import MergeCompilerRegions
    from xrelay.passes.partition_graph import PartitionGraph

    x = relay.var("x", shape=(4, 8))
    w = relay.const(np.full((8, 8), 0.1, "float32"))
    bn = relay.nn.batch_norm(
        relay.nn.dense(x, w), *(relay.const(np.ones(8, "float32")) for _ in range(4))
    )
    mod = IRModule.from_expr(relay.Function([x], relay.tanh(bn[0])))
    merged = MergeCompilerRegions()(AnnotateTarget(["dnnl"])(mod.clone()))
    again = AnnotateTarget(["dnnl"])(merged.clone())
    assert_graph_equal(again, merged)  # nothing re-decided inside the merged region
    out = run_and_check(again, PartitionGraph())
    lifted = [f for f in out.module.ops if "Compiler" in f.attributes]
    assert len(lifted) == 1


def test_predicate_reads_a_constant_operand_as_numpy() -> None:
    """`ExprView.data` is TVM's `Constant.data`: a constant's value, None for anything else."""
    seen: list[object] = []

    def conv2d(expr: ExprView) -> bool:
        seen.extend([expr.args[0].data, expr.args[1].data])
        return True

    weight = np.arange(108, dtype="float32").reshape(4, 3, 3, 3)
    x = relay.var("x", shape=(1, 3, 8, 8))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.conv2d(x, relay.const(weight))))
    with temp_op_attr("nn.conv2d", "target.probe", conv2d):
        annotate(mod, "probe")
    assert seen[0] is None
    assert isinstance(seen[1], np.ndarray)
    np.testing.assert_array_equal(seen[1], weight)
