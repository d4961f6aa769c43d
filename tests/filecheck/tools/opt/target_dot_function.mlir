// RUN: xrelay-opt %s -t 'dot{function=callee}' | filecheck %s
// RUN: xrelay-opt %s -t 'dot{function}' | filecheck %s --check-prefix=ALL
// RUN: not xrelay-opt %s -t 'dot{function=nope}' 2>&1 | filecheck %s --check-prefix=NOFUNC

/// `-t 'dot{function=f}'` draws function f only, with no edge into a cluster that is not drawn.
// CHECK:      digraph xrelay {
// CHECK-NOT:  @caller
// CHECK:      graph [label="@callee", style="rounded", color="#404040"];
// CHECK-NEXT:   n0 [label="%p\n2 f32", shape=ellipse];
// CHECK-NEXT:   n1 [label="nn.relu"];
// CHECK-NEXT:   n2 [label="return", style="dashed"];
// CHECK-NEXT: }
// CHECK-NEXT: n0 -> n1 [label="2 f32"];
// CHECK-NEXT: n1 -> n2 [label="2 f32"];
// CHECK-NEXT: }

/// `function` without a value draws every function.
// ALL: graph [label="@caller"
// ALL: graph [label="@callee"

/// An unknown function is an error on the module that lists its functions.
// NOFUNC: target_dot_function.mlir:[[# @LINE + 1]]:1: error: 'builtin.module' op has no function '@nope' to draw; its functions: @caller, @callee
func.func @caller(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @callee(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func @callee(%p: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.nn.relu %p : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
