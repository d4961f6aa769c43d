// RUN: xrelay-opt %s -p 'annotate-target{targets=acel}' --verify-diagnostics | filecheck %s

/// A target nothing is registered for takes no op (as in TVM): a located warning, matched
/// like any diagnostic, and the relu stays on the host ("default").
// CHECK: relay.compiler_begin %x {compiler = "default"}
// CHECK-NOT: "acel"
// expected-warning@+1 {{annotate-target: unknown target 'acel': no op predicates or pattern table are registered for it}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
