"""`-t dot` / `module_to_dot`: Graphviz renders the text, labels survive hostile names, stable output.

Graphviz's `dot` is installed by `.ci/run` (Debian's `graphviz`):
a missing `dot` fails these tests, it does not skip them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xrelay.codegen.dot import DotTarget, module_to_dot, target_colors
from xrelay.codegen.dot.emitter import annotated_regions, type_text
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.structure import CompilerBeginOp

import xrelay
from xrelay import IRModule, relay

SVG = "{http://www.w3.org/2000/svg}"
NODE = re.compile(r"^\s*(n\d+) \[label=", re.M)
EDGE = re.compile(r"^\s*(n\d+) -> (n\d+) \[", re.M)
CLUSTER = re.compile(r"^\s*subgraph (cluster_\d+) \{", re.M)


def render(text: str) -> ET.Element:
    """The SVG Graphviz makes of `text`; any error or warning fails the test."""
    dot = shutil.which("dot")
    assert dot is not None, (
        "Graphviz's `dot` is not installed: install Debian's graphviz (.ci/run does)"
    )
    result = subprocess.run([dot, "-Tsvg"], input=text, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "", result.stderr
    return ET.fromstring(result.stdout)


def svg_texts(svg: ET.Element) -> list[str]:
    return [t.text or "" for t in svg.iter(f"{SVG}text")]


def svg_titles(svg: ET.Element, kind: str) -> list[str]:
    """The titles (ids) of the SVG groups of class `kind` (`node`, `edge`, `cluster`)."""
    return [g.findtext(f"{SVG}title") or "" for g in svg.iter(f"{SVG}g") if g.get("class") == kind]


def check_structure(text: str) -> ET.Element:
    """Ids are unique, every edge joins declared nodes, Graphviz draws exactly those."""
    nodes = NODE.findall(text)
    edges = EDGE.findall(text)
    clusters = CLUSTER.findall(text)
    assert len(nodes) == len(set(nodes))
    assert len(clusters) == len(set(clusters))
    declared = set(nodes)
    assert {end for edge in edges for end in edge} <= declared
    svg = render(text)
    assert sorted(svg_titles(svg, "node")) == sorted(nodes)  # no node made up by an edge
    assert sorted(svg_titles(svg, "cluster")) == sorted(clusters)
    assert len(svg_titles(svg, "edge")) == len(edges)
    return svg


def parse(text: str) -> ModuleOp:
    return xrelay.parse(text).module


def demo_network() -> IRModule:
    """conv-bias-relu twice, a skip add, max pool, an op accel lacks (tanh), conv-relu, pool."""
    rng = np.random.default_rng(0)

    def const(*shape: int) -> relay.Expr:
        return relay.const(rng.standard_normal(shape).astype("float32"))

    def conv_bias_relu(x: relay.Expr, cin: int, cout: int) -> relay.Expr:
        y = relay.nn.conv2d(x, const(cout, cin, 3, 3), padding=(1, 1))
        return relay.nn.relu(relay.nn.bias_add(y, const(cout)))

    x = relay.var("x", shape=(1, 3, 16, 16), dtype="float32")
    a = conv_bias_relu(x, 3, 8)
    b = conv_bias_relu(a, 8, 8)
    c = relay.tanh(relay.nn.max_pool2d(relay.add(a, b), pool_size=(2, 2), strides=(2, 2)))
    y = relay.nn.global_avg_pool2d(relay.nn.relu(relay.nn.conv2d(c, const(4, 8, 1, 1))))
    return IRModule.from_expr(relay.Function([x], y))


ANNOTATED = """
func.func @main(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  %1 = relay.compiler_begin %y {compiler = "accel"} : tensor<1x4xf32>
  %2 = relay.add %0, %1 : tensor<1x4xf32>
  %3 = relay.nn.relu %2 : tensor<1x4xf32>
  %4 = relay.compiler_end %3 {compiler = "accel"} : tensor<1x4xf32>
  %5 = relay.compiler_end %3 {compiler = "accel"} : tensor<1x4xf32>
  %6 = relay.compiler_begin %4 {compiler = "dnnl"} : tensor<1x4xf32>
  %7 = relay.exp %6 : tensor<1x4xf32>
  %8 = relay.compiler_end %7 {compiler = "dnnl"} : tensor<1x4xf32>
  %9 = relay.compiler_begin %5 {compiler = "default"} : tensor<1x4xf32>
  %10 = relay.compiler_begin %8 {compiler = "default"} : tensor<1x4xf32>
  %11 = relay.subtract %9, %10 : tensor<1x4xf32>
  %12 = relay.compiler_end %11 {compiler = "default"} : tensor<1x4xf32>
  func.return %12 : tensor<1x4xf32>
}
"""

PARTITIONED = """
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = func.call @tvmgen_default_accel_main_0(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = func.call @tvmgen_default_dnnl_main_2(%0) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = relay.tanh %1 : tensor<1x4xf32>
  func.return %2 : tensor<1x4xf32>
}
func.func private @tvmgen_default_accel_main_0(%accel_0_i0: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {Compiler = "accel", Inline = 1 : i32, Primitive = 1 : i32, global_symbol = "tvmgen_default_accel_main_0"} {
  %0 = relay.composite "accel.add_relu" (%accel_0_i0, %accel_0_i0) {PartitionedFromPattern = "add_nn.relu_"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
    %1 = relay.add %a, %b : tensor<1x4xf32>
    %2 = relay.nn.relu %1 : tensor<1x4xf32>
    relay.yield %2 : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}
func.func private @tvmgen_default_dnnl_main_2(%dnnl_2_i0: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {Compiler = "dnnl", Inline = 1 : i32, Primitive = 1 : i32, global_symbol = "tvmgen_default_dnnl_main_2"} {
  %0 = relay.exp %dnnl_2_i0 : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}
"""

BRANCHES = """
func.func @main(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %1 = relay.exp %a : tensor<2xf32>
    relay.yield %1 : tensor<2xf32>
  } else {
    %2 = relay.if %c : tensor<i1> -> tensor<2xf32> {
      relay.yield %a : tensor<2xf32>
    } else {
      %3 = relay.negative %a : tensor<2xf32>
      relay.yield %3 : tensor<2xf32>
    }
    relay.yield %2 : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}
"""


def test_plain_network_renders_with_typed_edges() -> None:
    text = module_to_dot(demo_network().module)
    svg = check_structure(text)
    texts = svg_texts(svg)
    assert "nn.conv2d" in texts
    assert "nn.global_avg_pool2d" in texts
    assert "kernel=3x3 padding=1,1,1,1" in texts
    assert "1x8x16x16 f32" in texts  # an edge label
    assert texts.count("const") == 5  # weights and biases
    assert "subgraph cluster_1" not in text  # no annotations, no regions


def test_annotated_module_has_one_cluster_per_region_in_target_colors() -> None:
    module = parse(ANNOTATED)
    text = module_to_dot(module)
    check_structure(text)
    main = next(iter(module.ops))
    regions = annotated_regions(main.regions[0].blocks[0])
    assert [(target, [op.name for op in ops]) for target, ops in regions] == [
        ("accel", ["relay.add", "relay.nn.relu"]),
        ("dnnl", ["relay.exp"]),
        ("default", ["relay.subtract"]),
    ]
    for target in ("accel", "dnnl", "default"):
        fill, line = target_colors(target)
        assert f'graph [label="{target}", style="filled,rounded", fillcolor="{fill}"' in text
        assert (
            f'[label="begin {target}", shape=box, style="filled,rounded", fillcolor="{line}"'
            in text
        )
    # the relu value has two consumer edges, hence two ends
    assert text.count('[label="end accel"') == 2


def test_partitioned_module_draws_functions_calls_and_composites() -> None:
    text = module_to_dot(parse(PARTITIONED))
    svg = check_structure(text)
    texts = svg_texts(svg)
    assert "@tvmgen_default_accel_main_0" in texts
    assert 'Compiler = "accel"' in texts
    assert "Primitive = 1" in texts
    assert "accel.add_relu" in texts
    assert "add_nn.relu_" in texts
    fill, line = target_colors("dnnl")
    assert (
        '[label="call @tvmgen_default_dnnl_main_2\\ndnnl", style="filled,bold", '
        f'fillcolor="{fill}", color="{line}"]' in text
    )
    assert text.count("lhead=cluster_") == 2  # each call points to its callee's cluster


def test_nested_branches_render() -> None:
    text = module_to_dot(parse(BRANCHES))
    svg = check_structure(text)
    assert svg_texts(svg).count("if") == 2
    assert svg_texts(svg).count("then") == 2 + 2  # two cluster labels, two edge labels


def test_real_annotation_passes_give_region_clusters() -> None:
    """MergeComposite + AnnotateTarget output: every accel op sits in an accel cluster."""
    from xrelay.passes.annotate_target import AnnotateTarget
    from xrelay.passes.merge_composite import MergeComposite

    mod = demo_network()
    mod = AnnotateTarget(["accel"])(MergeComposite("accel")(mod))
    text = module_to_dot(mod.module)
    check_structure(text)
    main = next(iter(mod.module.ops))
    regions = annotated_regions(main.regions[0].blocks[0])
    assert {target for target, _ in regions} == {"accel", "default"}
    in_regions = {op for _, ops in regions for op in ops}
    for op in main.regions[0].blocks[0].ops:
        if op.name in ("relay.composite", "relay.add", "relay.nn.max_pool2d", "relay.tanh"):
            assert op in in_regions, op.name
    assert text.count('[label="accel", style="filled,rounded"') == len(
        [t for t, _ in regions if t == "accel"]
    )


HOSTILE = r"""
func.func @"f\"{x}<y>\\N\nz"(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "t\"}{<>\\"} {
  %0 = relay.composite "acc\"el.{c}<d>\\l" (%a) {PartitionedFromPattern = "p\"}"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %r = relay.nn.relu %i : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %a {compiler = "b\"\\{"} : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "b\"\\{"} : tensor<4xf32>
  %3 = func.call @"f\"{x}<y>\\N\nz"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %3 : tensor<4xf32>
}
"""


def test_hostile_names_are_escaped() -> None:
    text = module_to_dot(parse(HOSTILE))
    texts = svg_texts(check_structure(text))
    # A name with a line break is drawn on two lines; `\N` and `\l` stay literal.
    assert '@f"{x}<y>\\N' in texts
    assert "z" in texts
    assert 'Compiler = "t"}{<>\\"' in texts
    assert 'acc"el.{c}<d>\\l' in texts
    assert 'p"}' in texts
    assert 'call @f"{x}<y>\\N' in texts
    assert 't"}{<>\\' in texts
    assert 'begin b"\\{' in texts
    assert 'end b"\\{' in texts
    assert 'b"\\{' in texts  # the region cluster's label


def test_output_is_deterministic() -> None:
    first = module_to_dot(demo_network().module)
    assert module_to_dot(demo_network().module) == first
    module = parse(PARTITIONED)
    assert module_to_dot(module) == module_to_dot(module) == module_to_dot(parse(str(module)))


def test_target_colors_are_stable_across_runs() -> None:
    assert target_colors("accel") != target_colors("dnnl")
    assert target_colors("npu") == ("#f6d5e6", "#ad1457")  # CRC-32, not Python's salted hash
    code = "from xrelay.codegen.dot import target_colors; print(target_colors('my-npu'))"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
        ).stdout
        for seed in ("1", "2")
    }
    assert runs == {f"{target_colors('my-npu')}\n"}


def test_type_text() -> None:
    module = parse(
        "func.func @f(%a: tensor<?x3xi8>, %t: tuple<tensor<2xf32>, tuple<tensor<f16>>>)"
        " -> tensor<?x3xi8> {\n  func.return %a : tensor<?x3xi8>\n}\n"
    )
    args = next(iter(module.ops)).regions[0].blocks[0].args
    assert type_text(args[0].type) == "?x3 i8"
    assert type_text(args[1].type) == "(2 f32, (scalar f16))"


def test_unknown_function_is_a_located_error() -> None:
    module = parse(PARTITIONED)
    with pytest.raises(
        DiagnosticError, match=r"has no function '@nope' to draw; its functions: @main"
    ):
        module_to_dot(module, "nope")
    one = module_to_dot(module, "tvmgen_default_dnnl_main_2")
    assert "@main" not in one
    assert "lhead" not in one
    check_structure(one)


def test_cli_target(tmp_path: Path) -> None:
    source = tmp_path / "m.mlir"
    source.write_text(PARTITIONED)
    result = subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", str(source), "-t", "dot{function=main}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == module_to_dot(parse(PARTITIONED), "main")
    assert DotTarget(function="main").function == "main"


def test_five_thousand_ops() -> None:
    """A 5k-op chain inside one annotated region, and 5k ops of alternating regions."""
    n, m = 5000, 1667
    lines = [
        "func.func @big(%x: tensor<2xf32>) -> tensor<2xf32> {",
        '  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<2xf32>',
        "  %v0 = relay.nn.relu %b : tensor<2xf32>",
    ]
    lines += [f"  %v{i} = relay.exp %v{i - 1} : tensor<2xf32>" for i in range(1, n)]
    lines += [
        f'  %e = relay.compiler_end %v{n - 1} {{compiler = "accel"}} : tensor<2xf32>',
        "  func.return %e : tensor<2xf32>",
        "}",
        "func.func @alternating(%x: tensor<2xf32>) -> tensor<2xf32> {",
        "  %w0 = relay.nn.relu %x : tensor<2xf32>",
    ]
    for i in range(1, m + 1):
        target = ("accel", "dnnl")[i % 2]
        lines += [
            f'  %b{i} = relay.compiler_begin %w{i - 1} {{compiler = "{target}"}} : tensor<2xf32>',
            f"  %r{i} = relay.exp %b{i} : tensor<2xf32>",
            f'  %w{i} = relay.compiler_end %r{i} {{compiler = "{target}"}} : tensor<2xf32>',
        ]
    lines += [f"  func.return %w{m} : tensor<2xf32>", "}"]
    module = parse("\n".join(lines) + "\n")
    text = module_to_dot(module)
    nodes, edges, clusters = NODE.findall(text), EDGE.findall(text), CLUSTER.findall(text)
    # big: x, begin, n ops, end, return; alternating: x, relu, 3 per step, return
    assert len(nodes) == (n + 4) + (2 + 3 * m + 1)
    assert len(set(nodes)) == len(nodes)
    assert len(edges) == (n + 3) + (1 + 3 * m + 1)
    assert len(clusters) == 2 + 1 + m  # two functions, one big region, one per step
    start = text.index("subgraph cluster_1 {")
    region = text[start : text.index("\n    }\n", start)]
    assert NODE.findall(region) == [f"n{i}" for i in range(2, n + 2)]  # the n ops, in order
    assert text.count('[label="dnnl", style="filled,rounded"') == (m + 1) // 2  # odd steps
    begins = [op for op in module.walk() if isinstance(op, CompilerBeginOp)]
    assert len(begins) == 1 + m
