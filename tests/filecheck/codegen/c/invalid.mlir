// RUN: xrelay-opt %s --split-input-file -p plan-memory -t c --verify-diagnostics
// RUN: not xrelay-opt %s --split-input-file -t c 2>&1 | filecheck %s --check-prefix=NOPLAN

/// An op of another target's dialect is not host code: the located error names op and target.
// NOPLAN: invalid.mlir:[[# @LINE + 1]]:1: error: 'builtin.module' op has no memory plan (xrelay.arena_size is missing); run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'accel.relu' op cannot be emitted for target 'c'}}
  %0 = accel.relu %x : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

/// A relay op with no C form for its element type.
func.func @main(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{'relay.subtract' op cannot be emitted for target 'c': no 'sub' on booleans}}
  %0 = relay.subtract %x, %x : tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

/// The C ABI has no uint16 dtype for an input or output.
// expected-error@+1 {{'func.func' op cannot emit type 'tensor<4xui16>' as a model input or output for target 'c'}}
func.func @main(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = relay.add %x, %x : tensor<4xui16>
  func.return %0 : tensor<4xui16>
}

// -----

/// A call of a function without a body has nothing to call.
func.func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'func.call' op cannot be emitted for target 'c': @external has no planned body to call}}
  %0 = func.call @external(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
