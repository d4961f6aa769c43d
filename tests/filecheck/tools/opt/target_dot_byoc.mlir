// RUN: xrelay-opt %s --split-input-file -t dot | filecheck %s

// `-t dot` on the stages of BYOC partitioning (the seed's figures 2-4): target
// colors are accel (#d6e6f7 fill, #2e75b6 line), dnnl (#d9efd3, #3d8b37) and
// default (#eeeeee, #808080).

/// After AnnotateTarget: annotations are small boxes in their target's color and
/// each op between begins and ends of one target is a cluster of that target.
// CHECK-LABEL: graph [label="@annotated", style="rounded", color="#404040"];
// CHECK-NEXT:    [[X:n[0-9]+]] [label="%x\n1x4 f32", shape=ellipse];
// CHECK-NEXT:    [[B0:n[0-9]+]] [label="begin accel", shape=box, style="filled,rounded", fillcolor="#2e75b6", fontcolor="white"
// CHECK-NEXT:    subgraph cluster_1 {
// CHECK-NEXT:      graph [label="accel", style="filled,rounded", fillcolor="#d6e6f7", color="#2e75b6", fontcolor="#2e75b6"];
// CHECK-NEXT:      [[RELU:n[0-9]+]] [label="nn.relu"];
// CHECK-NEXT:    }
// CHECK-NEXT:    [[E0:n[0-9]+]] [label="end accel"
// CHECK-NEXT:    [[B1:n[0-9]+]] [label="begin dnnl", shape=box, style="filled,rounded", fillcolor="#3d8b37"
// CHECK-NEXT:    subgraph cluster_2 {
// CHECK-NEXT:      graph [label="dnnl", style="filled,rounded", fillcolor="#d9efd3", color="#3d8b37", fontcolor="#3d8b37"];
// CHECK-NEXT:      [[EXP:n[0-9]+]] [label="exp"];
// CHECK-NEXT:    }
// CHECK-NEXT:    [[E1:n[0-9]+]] [label="end dnnl"
// CHECK-NEXT:    [[B2:n[0-9]+]] [label="begin default", shape=box, style="filled,rounded", fillcolor="#808080"
// CHECK-NEXT:    subgraph cluster_3 {
// CHECK-NEXT:      graph [label="default", style="filled,rounded", fillcolor="#eeeeee", color="#808080", fontcolor="#808080"];
// CHECK-NEXT:      [[TANH:n[0-9]+]] [label="tanh"];
// CHECK-NEXT:    }
// CHECK-NEXT:    [[E2:n[0-9]+]] [label="end default"
// CHECK-NEXT:    [[RET:n[0-9]+]] [label="return", style="dashed"];
// CHECK-NEXT:  }
// CHECK-NEXT:  [[X]] -> [[B0]] [label="1x4 f32"];
// CHECK-NEXT:  [[B0]] -> [[RELU]] [label="1x4 f32"];
// CHECK-NEXT:  [[RELU]] -> [[E0]] [label="1x4 f32"];
// CHECK-NEXT:  [[E0]] -> [[B1]] [label="1x4 f32"];
func.func @annotated(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<1x4xf32>
  %3 = relay.compiler_begin %2 {compiler = "dnnl"} : tensor<1x4xf32>
  %4 = relay.exp %3 : tensor<1x4xf32>
  %5 = relay.compiler_end %4 {compiler = "dnnl"} : tensor<1x4xf32>
  %6 = relay.compiler_begin %5 {compiler = "default"} : tensor<1x4xf32>
  %7 = relay.tanh %6 : tensor<1x4xf32>
  %8 = relay.compiler_end %7 {compiler = "default"} : tensor<1x4xf32>
  func.return %8 : tensor<1x4xf32>
}

// -----

/// After MergeCompilerRegions: one cluster holds the merged ops (listed together
/// even where the text interleaves other ops), and an unannotated constant read
/// inside the region joins it; a target not known to xrelay gets a palette color.
// CHECK-LABEL: graph [label="@merged", style="rounded", color="#404040"];
// CHECK:         subgraph cluster_1 {
// CHECK-NEXT:      graph [label="accel", style="filled,rounded", fillcolor="#d6e6f7"
// CHECK-NEXT:      [[ADD:n[0-9]+]] [label="add"];
// CHECK-NEXT:      [[C:n[0-9]+]] [label="const 2\nscalar f32"
// CHECK-NEXT:      [[MUL:n[0-9]+]] [label="multiply"];
// CHECK-NEXT:      [[RELU:n[0-9]+]] [label="nn.relu"];
// CHECK-NEXT:    }
// CHECK-NEXT:    {{n[0-9]+}} [label="negative"];
// CHECK-NEXT:    {{n[0-9]+}} [label="end accel"
// CHECK-NEXT:    {{n[0-9]+}} [label="begin npu", shape=box, style="filled,rounded", fillcolor="#{{[0-9a-f]+}}"
// CHECK-NEXT:    subgraph cluster_2 {
// CHECK-NEXT:      graph [label="npu", style="filled,rounded"
// CHECK-NEXT:      {{n[0-9]+}} [label="nn.softmax"];
// CHECK-NEXT:    }
// CHECK:       [[ADD]] -> [[MUL]] [label="1x4 f32"];
// CHECK-NEXT:  [[C]] -> [[MUL]] [label="scalar f32"];
// CHECK-NEXT:  [[MUL]] -> [[RELU]] [label="1x4 f32"];
func.func @merged(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  %1 = relay.compiler_begin %y {compiler = "accel"} : tensor<1x4xf32>
  %2 = relay.add %0, %1 : tensor<1x4xf32>
  %u = relay.negative %y : tensor<1x4xf32>
  %c = relay.constant dense<2.0> : tensor<f32>
  %3 = relay.multiply %2, %c : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
  %4 = relay.nn.relu %3 : tensor<1x4xf32>
  %5 = relay.compiler_end %4 {compiler = "accel"} : tensor<1x4xf32>
  %6 = relay.compiler_begin %5 {compiler = "npu"} : tensor<1x4xf32>
  %7 = relay.nn.softmax %6 : tensor<1x4xf32>
  %8 = relay.compiler_end %7 {compiler = "npu"} : tensor<1x4xf32>
  func.return %8 : tensor<1x4xf32>
}

// -----

/// keep_unclustered: ops that read an unannotated value, return directly, or whose
/// begins and ends disagree on the target are not a region.
// CHECK-LABEL: graph [label="@keep_unclustered", style="rounded", color="#404040"];
// CHECK-NOT:     subgraph
// CHECK:         [[RET:n[0-9]+]] [label="return", style="dashed"];
// CHECK-NEXT:  }
func.func @keep_unclustered(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  %1 = relay.add %0, %x : tensor<1x4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<1x4xf32>
  %3 = relay.compiler_begin %2 {compiler = "accel"} : tensor<1x4xf32>
  %4 = relay.nn.relu %3 : tensor<1x4xf32>
  %5 = relay.compiler_begin %x {compiler = "dnnl"} : tensor<1x4xf32>
  %6 = relay.exp %5 : tensor<1x4xf32>
  %7 = relay.compiler_end %6 {compiler = "accel"} : tensor<1x4xf32>
  %8 = relay.add %4, %7 : tensor<1x4xf32>
  func.return %8 : tensor<1x4xf32>
}

// -----

/// After PartitionGraph: the lifted function is a cluster filled with its target's
/// color, labelled with its attributes; the call is colored by the callee's
/// `Compiler` and points to the callee's cluster.
// CHECK-LABEL: graph [label="@main", style="rounded", color="#404040"];
// CHECK-NEXT:    [[X:n[0-9]+]] [label="%x\n1x4 f32", shape=ellipse];
// CHECK-NEXT:    [[CALL:n[0-9]+]] [label="call @tvmgen_default_accel_main_0\naccel", style="filled,bold", fillcolor="#d6e6f7", color="#2e75b6"];
// CHECK-NEXT:    [[TANH:n[0-9]+]] [label="tanh"];
// CHECK:       subgraph [[CLUSTER:cluster_[0-9]+]] {
// CHECK-NEXT:    graph [label="@tvmgen_default_accel_main_0\nCompiler = \"accel\"\nInline = 1\nPrimitive = 1\nglobal_symbol = \"tvmgen_default_accel_main_0\"", style="filled,rounded", fillcolor="#d6e6f7", color="#2e75b6", penwidth=2];
// CHECK-NEXT:    [[P:n[0-9]+]] [label="%accel_0_i0\n1x4 f32", shape=ellipse];
// CHECK-NEXT:    [[RELU:n[0-9]+]] [label="nn.relu"];
// CHECK:       [[X]] -> [[CALL]] [label="1x4 f32"];
// CHECK-NEXT:  [[CALL]] -> [[TANH]] [label="1x4 f32"];
// CHECK:       [[P]] -> [[RELU]] [label="1x4 f32"];
// CHECK:       [[CALL]] -> [[P]] [lhead=[[CLUSTER]], style=dashed
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = func.call @tvmgen_default_accel_main_0(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = relay.tanh %0 : tensor<1x4xf32>
  func.return %1 : tensor<1x4xf32>
}
func.func private @tvmgen_default_accel_main_0(%accel_0_i0: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {Compiler = "accel", Inline = 1 : i32, Primitive = 1 : i32, global_symbol = "tvmgen_default_accel_main_0"} {
  %0 = relay.nn.relu %accel_0_i0 : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

/// A composite is a dashed cluster in its target's color labelled with its name and
/// PartitionedFromPattern; edges enter its body ops from its operands and leave from
/// what it yields. A composite without body ops is one box.
// CHECK-LABEL: graph [label="@composite", style="rounded", color="#404040"];
// CHECK-NEXT:    [[X:n[0-9]+]] [label="%x\n1x3x8x8 f32", shape=ellipse];
// CHECK-NEXT:    [[W:n[0-9]+]] [label="%w\n4x3x3x3 f32", shape=ellipse];
// CHECK-NEXT:    subgraph cluster_1 {
// CHECK-NEXT:      graph [label="dnnl.conv2d_relu\nnn.conv2d_nn.relu_", style="dashed,rounded", color="#3d8b37", fontcolor="#3d8b37", penwidth=2];
// CHECK-NEXT:      [[CONV:n[0-9]+]] [label="nn.conv2d\nkernel=3x3"];
// CHECK-NEXT:      [[RELU:n[0-9]+]] [label="nn.relu"];
// CHECK-NEXT:    }
// CHECK-NEXT:    [[ID:n[0-9]+]] [label="accel.identity", style="dashed,filled", fillcolor="#d6e6f7", color="#2e75b6", penwidth=2];
// CHECK-NEXT:    [[RET:n[0-9]+]] [label="return", style="dashed"];
// CHECK-NEXT:  }
// CHECK-NEXT:  [[X]] -> [[CONV]] [label="1x3x8x8 f32"];
// CHECK-NEXT:  [[W]] -> [[CONV]] [label="4x3x3x3 f32"];
// CHECK-NEXT:  [[CONV]] -> [[RELU]] [label="1x4x6x6 f32"];
// CHECK-NEXT:  [[RELU]] -> [[ID]] [label="1x4x6x6 f32"];
// CHECK-NEXT:  [[ID]] -> [[RET]] [label="1x4x6x6 f32"];
// CHECK-NEXT: }
func.func @composite(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.composite "dnnl.conv2d_relu" (%x, %w) {PartitionedFromPattern = "nn.conv2d_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %2 = relay.nn.relu %1 : tensor<1x4x6x6xf32>
    relay.yield %2 : tensor<1x4x6x6xf32>
  }
  %3 = relay.composite "accel.identity" (%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%j: tensor<1x4x6x6xf32>):
    relay.yield %j : tensor<1x4x6x6xf32>
  }
  func.return %3 : tensor<1x4x6x6xf32>
}
