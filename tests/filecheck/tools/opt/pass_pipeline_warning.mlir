/// The warning for a pass --opt-level skips is a diagnostic at the module, matched by
/// expected-warning under --verify-diagnostics (and the run succeeds).
// RUN: xrelay-opt %s -p fold-constant --opt-level 1 --verify-diagnostics | filecheck %s
// CHECK: relay.add

// expected-warning@+1 {{pass 'fold-constant' is skipped: its opt_level 2 is above --opt-level 1}}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.constant dense<1.0> : tensor<4xf32>
  %d = relay.add %c, %c : tensor<4xf32>
  func.return %d : tensor<4xf32>
}
