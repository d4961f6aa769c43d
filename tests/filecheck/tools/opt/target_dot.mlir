// RUN: xrelay-opt %s --split-input-file -t dot | filecheck %s

// `-t dot`: the module as a Graphviz digraph (see tests/test_dot.py for rendering).

/// A plain graph: parameters are ellipses with their type, constants small boxes,
/// ops are named as in TVM with their key attributes, every edge carries its type.
// CHECK:       digraph xrelay {
// CHECK-LABEL: graph [label="@plain", style="rounded", color="#404040"];
// CHECK-NEXT:    [[X:n[0-9]+]] [label="%x\n1x3x8x8 f32", shape=ellipse];
// CHECK-NEXT:    [[W:n[0-9]+]] [label="const\n4x3x3x3 f32", shape=box, style="filled"
// CHECK-NEXT:    [[CONV:n[0-9]+]] [label="nn.conv2d\nkernel=3x3 strides=2,2\npadding=1,1,1,1"];
// CHECK-NEXT:    [[B:n[0-9]+]] [label="const 0.5\nscalar f32", shape=box
// CHECK-NEXT:    [[ADD:n[0-9]+]] [label="add"];
// CHECK-NEXT:    [[RELU:n[0-9]+]] [label="nn.relu"];
// CHECK-NEXT:    [[RET:n[0-9]+]] [label="return", style="dashed"];
// CHECK-NEXT:  }
// CHECK-NEXT:  [[X]] -> [[CONV]] [label="1x3x8x8 f32"];
// CHECK-NEXT:  [[W]] -> [[CONV]] [label="4x3x3x3 f32"];
// CHECK-NEXT:  [[CONV]] -> [[ADD]] [label="1x4x4x4 f32"];
// CHECK-NEXT:  [[B]] -> [[ADD]] [label="scalar f32"];
// CHECK-NEXT:  [[ADD]] -> [[RELU]] [label="1x4x4x4 f32"];
// CHECK-NEXT:  [[RELU]] -> [[RET]] [label="1x4x4x4 f32"];
// CHECK-NEXT: }
func.func @plain(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %w = relay.constant dense<1.0> : tensor<4x3x3x3xf32>
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %b = relay.constant dense<0.5> : tensor<f32>
  %1 = relay.add %0, %b : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x4x4xf32>
  func.return %2 : tensor<1x4x4x4xf32>
}

// -----

/// Tuples are compact (three fields, then a count), dynamic dims are `?`, the
/// results of a multi-result op are numbered, and a call without `Compiler` is a
/// plain bold box with a dashed edge to the callee's cluster.
// CHECK-LABEL: graph [label="@caller", style="rounded", color="#404040"];
// CHECK:         [[T:n[0-9]+]] [label="tuple"];
// CHECK-NEXT:    [[G:n[0-9]+]] [label="tuple_get_item\nindex=3"];
// CHECK-NEXT:    [[CALL:n[0-9]+]] [label="call @callee", style="bold"];
// CHECK-NEXT:    [[S:n[0-9]+]] [label="add"];
// CHECK:       graph [label="@callee", style="rounded", color="#404040"];
// CHECK-NEXT:    [[P:n[0-9]+]] [label="%p\n?x2 f32", shape=ellipse];
// CHECK:       [[T]] -> [[G]] [label="(?x2 f32, ?x2 f32, ?x2 f32, +1 more)"];
// CHECK-NEXT:  [[G]] -> [[CALL]] [label="?x2 f32"];
// CHECK-NEXT:  [[CALL]] -> [[S]] [label="#0 ?x2 f32"];
// CHECK-NEXT:  [[CALL]] -> [[S]] [label="#1 ?x2 f32"];
// CHECK:       [[CALL]] -> [[P]] [lhead=cluster_1, style=dashed, color="#808080", arrowhead=empty, constraint=false];
func.func @caller(%a: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %t = relay.tuple %a, %a, %a, %a : (tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>) -> tuple<tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>>
  %g = relay.tuple_get_item %t {index = 3} : (tuple<tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>, tensor<?x2xf32>>) -> tensor<?x2xf32>
  %r:2 = func.call @callee(%g) : (tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
  %s = relay.add %r#0, %r#1 : tensor<?x2xf32>
  func.return %s : tensor<?x2xf32>
}
func.func @callee(%p: tensor<?x2xf32>) -> (tensor<?x2xf32>, tensor<?x2xf32>) {
  func.return %p, %p : tensor<?x2xf32>, tensor<?x2xf32>
}

// -----

/// relay.if is a diamond reading the condition; each branch is a dashed cluster whose
/// yield feeds the diamond; a branch reads outer values directly.
// CHECK-LABEL: graph [label="@branches", style="rounded", color="#404040"];
// CHECK:         [[C:n[0-9]+]] [label="%c\nscalar i1", shape=ellipse];
// CHECK-NEXT:    [[A:n[0-9]+]] [label="%a\n2 f32", shape=ellipse];
// CHECK-NEXT:    [[IF:n[0-9]+]] [label="if", shape=diamond, style="solid"];
// CHECK-NEXT:    subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT:      graph [label="then", style="dashed", color="#606060"];
// CHECK-NEXT:      [[EXP:n[0-9]+]] [label="exp"];
// CHECK-NEXT:      [[Y1:n[0-9]+]] [label="yield", fontsize=8, height=0.2, style="dashed"];
// CHECK-NEXT:    }
// CHECK-NEXT:    subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT:      graph [label="else", style="dashed", color="#606060"];
// CHECK-NEXT:      [[Y2:n[0-9]+]] [label="yield", fontsize=8, height=0.2, style="dashed"];
// CHECK-NEXT:    }
// CHECK:       [[C]] -> [[IF]] [label="scalar i1"];
// CHECK-NEXT:  [[A]] -> [[EXP]] [label="2 f32"];
// CHECK-NEXT:  [[EXP]] -> [[Y1]] [label="2 f32"];
// CHECK-NEXT:  [[A]] -> [[Y2]] [label="2 f32"];
// CHECK:       [[Y1]] -> [[IF]] [label="then", style=dashed];
// CHECK-NEXT:  [[Y2]] -> [[IF]] [label="else", style=dashed];
func.func @branches(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %1 = relay.exp %a : tensor<2xf32>
    relay.yield %1 : tensor<2xf32>
  } else {
    relay.yield %a : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

/// Labels are escaped: quotes and backslashes in names; braces and angle brackets stay.
// CHECK-LABEL: graph [label="@\"odd{name}<x>\\", style="rounded", color="#404040"];
// CHECK:         [[P:n[0-9]+]] [label="%a\n4 f32", shape=ellipse];
// CHECK-NEXT:    [[CALL:n[0-9]+]] [label="call @\"odd{name}<x>\\", style="bold"];
func.func @"\"odd{name}<x>\\"(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @"\"odd{name}<x>\\"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
