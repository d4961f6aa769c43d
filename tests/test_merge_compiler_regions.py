"""MergeCompilerRegions (tvm-semantics.md C.4): ports of TVM's tests and of its semantics.

The annotated IR is written by hand (AnnotateTarget is another pass); each test checks
the merged graph (`assert_graph_equal`, TVM's structural equality) and that the
reference interpreter computes the same outputs before and after (`run_and_check`).
"""

from __future__ import annotations

import numpy as np
from testlib.numerics import assert_same_numerics, run_and_check
from testlib.pass_helpers import assert_graph_equal
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp
from xrelay.passes import lookup_pass
from xrelay.passes.merge_compiler_regions import MergeCompilerRegions, MergeCompilerRegionsPass
from xrelay.passes.partition_graph import PartitionGraph

import xrelay
from xrelay import IRModule, relay, transform

T = "tensor<10x10xf32>"


def merged(text: str) -> IRModule:
    """The module of `text` after MergeCompilerRegions, with numerics checked."""
    return run_and_check(xrelay.parse(text), MergeCompilerRegions())


def annotations(mod: IRModule) -> list[str]:
    """`begin:<target>` / `end:<target>` for every annotation, in block order."""
    out: list[str] = []
    for op in mod.module.walk():
        if isinstance(op, CompilerBeginOp | CompilerEndOp):
            kind = "begin" if isinstance(op, CompilerBeginOp) else "end"
            out.append(f"{kind}:{op.compiler.data}")
    return out


def functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in mod.module.ops if isinstance(op, func.FuncOp)}


def test_registered_with_tvm_name_and_level() -> None:
    entry = lookup_pass("MergeCompilerRegions")
    assert entry is not None
    assert entry.flag == "merge-compiler-regions"
    assert entry.factory() is MergeCompilerRegionsPass
    info = MergeCompilerRegions().info
    assert (info.name, info.opt_level, info.required) == ("MergeCompilerRegions", 0, ())
    assert transform.get_pass("merge-compiler-regions").info.name == "MergeCompilerRegions"


DIAMOND = f"""
func.func @main(%data: {T}) -> {T} {{
  %cb_1 = relay.compiler_begin %data {{compiler = "test"}} : {T}
  %O_1 = relay.abs %cb_1 : {T}
  %ce_1 = relay.compiler_end %O_1 {{compiler = "test"}} : {T}
  %ce_2 = relay.compiler_end %O_1 {{compiler = "test"}} : {T}
  %cb_2 = relay.compiler_begin %ce_1 {{compiler = "test"}} : {T}
  %cb_3 = relay.compiler_begin %ce_2 {{compiler = "default"}} : {T}
  %O_2 = relay.nn.relu %cb_2 : {T}
  %ce_3 = relay.compiler_end %O_2 {{compiler = "test"}} : {T}
  %X = relay.tanh %cb_3 : {T}
  %ce_4 = relay.compiler_end %X {{compiler = "default"}} : {T}
  %cb_4 = relay.compiler_begin %ce_3 {{compiler = "test"}} : {T}
  %cb_5 = relay.compiler_begin %ce_4 {{compiler = "test"}} : {T}
  %O_3 = relay.add %cb_4, %cb_5 : {T}
  %ce_5 = relay.compiler_end %O_3 {{compiler = "test"}} : {T}
  func.return %ce_5 : {T}
}}
"""


def test_diamond_graph_fanouts() -> None:
    """TVM's test_diamond_graph_fanouts: the add does not join abs+relu (tanh is default)."""
    expected = f"""
func.func @main(%data: {T}) -> {T} {{
  %cb_1 = relay.compiler_begin %data {{compiler = "test"}} : {T}
  %O_1 = relay.abs %cb_1 : {T}
  %ce_2 = relay.compiler_end %O_1 {{compiler = "test"}} : {T}
  %O_2 = relay.nn.relu %O_1 : {T}
  %ce_3 = relay.compiler_end %O_2 {{compiler = "test"}} : {T}
  %cb_3 = relay.compiler_begin %ce_2 {{compiler = "default"}} : {T}
  %X = relay.tanh %cb_3 : {T}
  %ce_4 = relay.compiler_end %X {{compiler = "default"}} : {T}
  %cb_4 = relay.compiler_begin %ce_3 {{compiler = "test"}} : {T}
  %cb_5 = relay.compiler_begin %ce_4 {{compiler = "test"}} : {T}
  %O_3 = relay.add %cb_4, %cb_5 : {T}
  %ce_5 = relay.compiler_end %O_3 {{compiler = "test"}} : {T}
  func.return %ce_5 : {T}
}}
"""
    assert_graph_equal(merged(DIAMOND), xrelay.parse(expected))


def _inputs(n: int) -> str:
    return ", ".join(f"%in_{i}: {T}" for i in range(1, n + 1))


def _b(name: str, value: str, target: str = "test") -> str:
    return f'  %{name} = relay.compiler_begin %{value} {{compiler = "{target}"}} : {T}\n'


def _e(name: str, value: str, target: str = "test") -> str:
    return f'  %{name} = relay.compiler_end %{value} {{compiler = "{target}"}} : {T}\n'


def _op(name: str, op: str, a: str, b: str) -> str:
    return f"  %{name} = relay.{op} %{a}, %{b} : {T}\n"


def test_example_graph() -> None:
    """TVM's test_example_graph (the RFC's example): adds are "test", subtracts "default"."""
    d = "default"
    body = (
        _b("begin0", "in_1")
        + _b("begin1", "in_2")
        + _b("begin2", "in_3")
        + _b("begin3", "in_4")
        + _op("node0", "add", "begin0", "begin1")
        + _op("node1", "add", "begin2", "begin3")
        + _e("end0", "node0")
        + _e("end1", "node1")
        + _b("begin4", "end0")
        + _b("begin5", "end1")
        + _op("node2", "add", "begin4", "begin5")
        + _e("end2", "node2")
        + _b("dbegin0", "in_5", d)
        + _b("dbegin1", "in_6", d)
        + _op("node3", "subtract", "dbegin0", "dbegin1")
        + _b("dbegin2", "in_7", d)
        + _e("dend1", "node3", d)
        + _b("dbegin3", "dend1", d)
        + _op("node4", "subtract", "dbegin2", "dbegin3")
        + _e("dend2", "node4", d)
        + _b("begin6", "end2")
        + _b("begin7", "dend2")
        + _op("node5", "add", "begin6", "begin7")
        + _e("end3", "node5")
        + _e("end4", "node5")
        + _b("dbegin4", "in_8", d)
        + _b("dbegin5", "end3", d)
        + _op("node6", "subtract", "dbegin4", "dbegin5")
        + _b("begin8", "in_9")
        + _b("begin9", "end4")
        + _op("node7", "add", "begin8", "begin9")
        + _e("end5", "node7")
        + _e("dend3", "node6", d)
        + _b("begin10", "dend3")
        + _b("begin11", "end5")
        + _op("node8", "add", "begin10", "begin11")
        + _e("end6", "node8")
        + _b("begin12", "in_10")
        + _b("begin13", "end6")
        + _op("node9", "add", "begin12", "begin13")
        + _e("end7", "node9")
    )
    expected = (
        _b("begin0", "in_1")
        + _b("begin1", "in_2")
        + _b("begin2", "in_3")
        + _b("begin3", "in_4")
        + _op("node0", "add", "begin0", "begin1")
        + _op("node1", "add", "begin2", "begin3")
        + _op("node2", "add", "node0", "node1")
        + _b("dbegin0", "in_5", d)
        + _b("dbegin1", "in_6", d)
        + _b("dbegin2", "in_7", d)
        + _op("node3", "subtract", "dbegin0", "dbegin1")
        + _op("node4", "subtract", "dbegin2", "node3")
        + _e("dend0", "node4", d)
        + _b("begin4", "dend0")
        + _b("begin5", "in_9")
        + _op("node5", "add", "node2", "begin4")
        + _e("end1", "node5")
        + _b("dbegin4", "end1", d)
        + _b("dbegin5", "in_8", d)
        + _op("node6", "subtract", "dbegin5", "dbegin4")
        + _e("dend1", "node6", d)
        + _op("node7", "add", "begin5", "node5")
        + _e("end2", "node7")
        + _b("begin6", "end2")
        + _b("begin7", "dend1")
        + _op("node8", "add", "begin7", "begin6")
        + _b("begin8", "in_10")
        + _op("node9", "add", "begin8", "node8")
        + _e("end3", "node9")
    )

    def module(text: str, result: str) -> str:
        return f"func.func @main({_inputs(10)}) -> {T} {{\n{text}  func.return %{result} : {T}\n}}"

    assert_graph_equal(merged(module(body, "end7")), xrelay.parse(module(expected, "end3")))


def test_if_else_restrictions_propagate() -> None:
    """TVM's test_if_else (PR #15211), annotated as AnnotateTarget would: O1 (add0) must not
    merge with O2 (the last add), which also reads it through the If."""
    text = """
func.func @main(%data: tensor<1x32xf32>) -> tensor<1x32xf32> {
  %b0 = relay.compiler_begin %data {compiler = "t"} : tensor<1x32xf32>
  %b1 = relay.compiler_begin %data {compiler = "t"} : tensor<1x32xf32>
  %add0 = relay.add %b0, %b1 : tensor<1x32xf32>
  %e0 = relay.compiler_end %add0 {compiler = "t"} : tensor<1x32xf32>
  %d0 = relay.compiler_begin %e0 {compiler = "default"} : tensor<1x32xf32>
  %d1 = relay.compiler_begin %data {compiler = "default"} : tensor<1x32xf32>
  %sub0 = relay.subtract %d0, %d1 : tensor<1x32xf32>
  %e1 = relay.compiler_end %sub0 {compiler = "default"} : tensor<1x32xf32>
  %e2 = relay.compiler_end %add0 {compiler = "t"} : tensor<1x32xf32>
  %d2 = relay.compiler_begin %e2 {compiler = "default"} : tensor<1x32xf32>
  %s0 = relay.sum %d2 : (tensor<1x32xf32>) -> tensor<f32>
  %e3 = relay.compiler_end %s0 {compiler = "default"} : tensor<f32>
  %e4 = relay.compiler_end %sub0 {compiler = "default"} : tensor<1x32xf32>
  %d3 = relay.compiler_begin %e4 {compiler = "default"} : tensor<1x32xf32>
  %s1 = relay.sum %d3 : (tensor<1x32xf32>) -> tensor<f32>
  %e5 = relay.compiler_end %s1 {compiler = "default"} : tensor<f32>
  %d4 = relay.compiler_begin %e3 {compiler = "default"} : tensor<f32>
  %d5 = relay.compiler_begin %e5 {compiler = "default"} : tensor<f32>
  %eq = relay.equal %d4, %d5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %e6 = relay.compiler_end %eq {compiler = "default"} : tensor<i1>
  %e7 = relay.compiler_end %add0 {compiler = "t"} : tensor<1x32xf32>
  %ife = relay.if %e6 : tensor<i1> -> tensor<1x32xf32> {
    %t0 = relay.compiler_begin %e7 {compiler = "t"} : tensor<1x32xf32>
    %st = relay.sigmoid %t0 : tensor<1x32xf32>
    %t1 = relay.compiler_end %st {compiler = "t"} : tensor<1x32xf32>
    relay.yield %t1 : tensor<1x32xf32>
  } else {
    %f0 = relay.compiler_begin %e1 {compiler = "t"} : tensor<1x32xf32>
    %sf = relay.sigmoid %f0 : tensor<1x32xf32>
    %f1 = relay.compiler_end %sf {compiler = "t"} : tensor<1x32xf32>
    relay.yield %f1 : tensor<1x32xf32>
  }
  %b2 = relay.compiler_begin %ife {compiler = "t"} : tensor<1x32xf32>
  %erf = relay.erf %b2 : tensor<1x32xf32>
  %e8 = relay.compiler_end %erf {compiler = "t"} : tensor<1x32xf32>
  %e9 = relay.compiler_end %add0 {compiler = "t"} : tensor<1x32xf32>
  %b3 = relay.compiler_begin %e9 {compiler = "t"} : tensor<1x32xf32>
  %b4 = relay.compiler_begin %e8 {compiler = "t"} : tensor<1x32xf32>
  %out = relay.add %b3, %b4 : tensor<1x32xf32>
  %e10 = relay.compiler_end %out {compiler = "t"} : tensor<1x32xf32>
  func.return %e10 : tensor<1x32xf32>
}
"""
    mod = merged(text)
    printed = str(mod)
    assert "%out = relay.add %b3, %erf" in printed  # erf merged into the last add
    assert "%b3 = relay.compiler_begin %e9" in printed  # add0 kept apart from it
    assert "%t0 = relay.compiler_begin %e7" in printed  # branch regions stay on their own
    partitioned = run_and_check(mod, PartitionGraph())
    # add0 is region 0, the last add (with erf) 2, the branches 3 and 4, in creation order.
    assert list(functions(partitioned)) == [
        "tvmgen_default_t_main_0",
        "tvmgen_default_t_main_3",
        "tvmgen_default_t_main_4",
        "tvmgen_default_t_main_2",
        "main",
    ]


def test_siblings_are_never_merged() -> None:
    """TVM's test_multiple_use_of_an_output (different output region): log and subtract
    both read the unsupported add; they stay two regions (AllowedListAnnotator's shared
    ends: one end per producer, read by both begins)."""
    text = """
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %z: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %add = relay.add %x, %y : tensor<8x8xf32>
  %b0 = relay.compiler_begin %add {compiler = "ccompiler"} : tensor<8x8xf32>
  %b1 = relay.compiler_begin %z {compiler = "ccompiler"} : tensor<8x8xf32>
  %sub = relay.subtract %b0, %b1 : tensor<8x8xf32>
  %es = relay.compiler_end %sub {compiler = "ccompiler"} : tensor<8x8xf32>
  %b2 = relay.compiler_begin %add {compiler = "ccompiler"} : tensor<8x8xf32>
  %log = relay.log %b2 : tensor<8x8xf32>
  %el = relay.compiler_end %log {compiler = "ccompiler"} : tensor<8x8xf32>
  %mul = relay.multiply %el, %es : tensor<8x8xf32>
  func.return %mul : tensor<8x8xf32>
}
"""
    before = xrelay.parse(text)
    assert_graph_equal(merged(text), before)


def test_multiple_use_same_output_region() -> None:
    """TVM's test_multiple_use_of_an_output (same output region): the multiply reading log
    and subtract merges them all into one region, the shared ends become internal."""
    text = """
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>, %z: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %add = relay.add %x, %y : tensor<8x8xf32>
  %b0 = relay.compiler_begin %add {compiler = "ccompiler"} : tensor<8x8xf32>
  %b1 = relay.compiler_begin %z {compiler = "ccompiler"} : tensor<8x8xf32>
  %sub = relay.subtract %b0, %b1 : tensor<8x8xf32>
  %es = relay.compiler_end %sub {compiler = "ccompiler"} : tensor<8x8xf32>
  %b2 = relay.compiler_begin %add {compiler = "ccompiler"} : tensor<8x8xf32>
  %log = relay.log %b2 : tensor<8x8xf32>
  %el = relay.compiler_end %log {compiler = "ccompiler"} : tensor<8x8xf32>
  %b3 = relay.compiler_begin %el {compiler = "ccompiler"} : tensor<8x8xf32>
  %b4 = relay.compiler_begin %es {compiler = "ccompiler"} : tensor<8x8xf32>
  %mul = relay.multiply %b3, %b4 : tensor<8x8xf32>
  %em = relay.compiler_end %mul {compiler = "ccompiler"} : tensor<8x8xf32>
  func.return %em : tensor<8x8xf32>
}
"""
    mod = merged(text)
    assert annotations(mod) == ["begin:ccompiler"] * 3 + ["end:ccompiler"]
    partitioned = run_and_check(mod, PartitionGraph())
    lifted = functions(partitioned)["tvmgen_default_ccompiler_main_0"]
    ops = [op.name for op in lifted.body.block.ops]
    assert ops == ["relay.subtract", "relay.log", "relay.multiply", "func.return"]
    # k is the begin's place among the inputs: the begin of z is the third (after two of add)
    assert [a.name_hint for a in lifted.body.block.args] == ["ccompiler_0_i0", "ccompiler_0_i2"]


def test_chain_merges_into_one_region() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %t = relay.exp %b2 : tensor<4xf32>
  %e2 = relay.compiler_end %t {compiler = "accel"} : tensor<4xf32>
  func.return %e2 : tensor<4xf32>
}
"""
    mod = merged(text)
    assert annotations(mod) == ["begin:accel", "end:accel"]
    assert "%r = relay.nn.relu %a" in str(mod)


def test_restrictions_are_inherited_transitively() -> None:
    """abs -> tanh (dnnl) -> exp -> neg (dnnl) -> add, and abs -> add: abs reaches add through
    two dnnl regions, the restriction is inherited along the whole path, nothing merges."""
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %e1 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "dnnl"} : tensor<4xf32>
  %t = relay.tanh %b1 : tensor<4xf32>
  %e2 = relay.compiler_end %t {compiler = "dnnl"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e2 {compiler = "accel"} : tensor<4xf32>
  %p = relay.exp %b2 : tensor<4xf32>
  %e3 = relay.compiler_end %p {compiler = "accel"} : tensor<4xf32>
  %b3 = relay.compiler_begin %e3 {compiler = "dnnl"} : tensor<4xf32>
  %n = relay.negative %b3 : tensor<4xf32>
  %e4 = relay.compiler_end %n {compiler = "dnnl"} : tensor<4xf32>
  %b4 = relay.compiler_begin %e4 {compiler = "accel"} : tensor<4xf32>
  %b5 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %b4, %b5 : tensor<4xf32>
  %e5 = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e5 : tensor<4xf32>
}
"""
    mod = merged(text)
    assert_graph_equal(mod, xrelay.parse(text))  # nothing merges
    partitioned = run_and_check(mod, PartitionGraph())
    assert len(functions(partitioned)) == 6


def test_default_regions_merge() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "default"} : tensor<4xf32>
  %a = relay.tanh %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "default"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "default"} : tensor<4xf32>
  %r = relay.exp %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "default"} : tensor<4xf32>
  func.return %e1 : tensor<4xf32>
}
"""
    assert annotations(merged(text)) == ["begin:default", "end:default"]


def test_partitioned_functions_are_skipped() -> None:
    text = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %r = relay.exp %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  func.return %e1 : tensor<4xf32>
}
"""
    mod = xrelay.parse(text)
    before = str(mod)
    assert str(MergeCompilerRegions()(mod)) == before


# --------------------------------------------------------------------------- #
# Scale: deep chains and DenseNet-like graphs (correctness only)
# --------------------------------------------------------------------------- #


def begin(value: relay.Expr, target: str) -> relay.Expr:
    return relay.Call(CompilerBeginOp, [value], {"compiler": StringAttr(target)})


def end(value: relay.Expr, target: str) -> relay.Expr:
    return relay.Call(CompilerEndOp, [value], {"compiler": StringAttr(target)})


def chain(n: int, targets: tuple[str, ...]) -> IRModule:
    """n unary ops, op i annotated for targets[i % len(targets)], one begin/end per edge."""
    x = relay.var("x", shape=(1, 4))
    value: relay.Expr = x
    previous = ""
    for i in range(n):
        target = targets[i % len(targets)]
        arg = end(value, previous) if previous else value
        op = relay.exp if i % 2 else relay.tanh
        value = op(begin(arg, target))
        previous = target
    return IRModule.from_expr(relay.Function([x], end(value, previous)))


def densenet(layers: int, targets: tuple[str, ...]) -> IRModule:
    """Layer k reads every earlier output through a concatenate, then dense + relu."""
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(1, 4))
    outputs: list[tuple[relay.Expr, str]] = [(x, "")]
    for k in range(1, layers + 1):
        target = targets[k % len(targets)]
        fields = [begin(end(o, t) if t else o, target) for o, t in outputs]
        joined = relay.concatenate(fields, axis=1)
        weight = relay.const(rng.standard_normal((4, 4 * k)).astype("float32") / (4 * k))
        layer = relay.nn.relu(relay.nn.dense(joined, begin(weight, target)))
        outputs.append((layer, target))
    last, target = outputs[-1]
    return IRModule.from_expr(relay.Function([x], end(last, target)))


def test_chain_of_3000_alternating_targets() -> None:
    mod = chain(3000, ("accel", "dnnl"))
    original = mod.clone()
    mod = MergeCompilerRegions()(mod)
    assert annotations(mod) == annotations(original)  # alternating targets: nothing merges
    mod = PartitionGraph()(mod)
    assert len(functions(mod)) == 3001
    assert_same_numerics(original, mod, seeds=(0,))


def test_chain_of_3000_one_target_is_one_region() -> None:
    mod = chain(3000, ("accel",))
    original = mod.clone()
    mod = MergeCompilerRegions()(mod)
    assert annotations(mod) == ["begin:accel", "end:accel"]
    mod = PartitionGraph()(mod)
    assert sorted(functions(mod)) == ["main", "tvmgen_default_accel_main_0"]
    assert_same_numerics(original, mod, seeds=(0,))


def test_densenet_like_one_target_merges_into_one_region() -> None:
    mod = densenet(60, ("accel",))
    original = mod.clone()
    mod = MergeCompilerRegions()(mod)
    mod = PartitionGraph()(mod)
    lifted = functions(mod)
    assert len(lifted) == 2
    main_ops = [op.name for op in lifted["main"].body.block.ops]
    assert main_ops == ["func.call", "func.return"]
    assert_same_numerics(original, mod, seeds=(0,), rtol=1e-4, atol=1e-5)


def test_densenet_like_alternating_targets_never_merges_across() -> None:
    """Layer k reads k-1 (other target) and k-2 (same target, but through k-1): no merge
    is allowed anywhere (each would re-enter a region), which TVM once hung on."""
    mod = densenet(60, ("accel", "dnnl"))
    original = mod.clone()
    mod = MergeCompilerRegions()(mod)
    assert annotations(mod) == annotations(original)
    mod = PartitionGraph()(mod)
    assert len(functions(mod)) == 61
    assert_same_numerics(original, mod, seeds=(0,), rtol=1e-4, atol=1e-5)
