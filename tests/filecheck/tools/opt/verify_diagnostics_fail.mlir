// RUN: not xrelay-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s

/// An expected error that is not produced fails the run.
// CHECK: verify_diagnostics_fail.mlir:[[# @LINE + 2]]: error: expected error "this never happens" was not produced
func.func @missing(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{this never happens}}
  %0 = relay.exp %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// A diagnostic nobody expected fails the run.
// CHECK: verify_diagnostics_fail.mlir:[[# @LINE + 2]]:3: error: unexpected error: 'relay.exp' op expected a floating-point operand, got i32
func.func @unexpected(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// An expectation on the wrong line does not match the diagnostic.
// CHECK: unexpected error: 'relay.exp' op
// CHECK: expected error "'relay.exp' op" was not produced
func.func @wrong_line(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+2 {{'relay.exp' op}}
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
