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

/// An element type outside relay's dtypes (every relay dtype, uint16 to uint64 and bf16
/// included, has a C form and a C ABI dtype; i1 arithmetic with no C form, like subtract,
/// is refused by the verifier).
// expected-error@+1 {{'func.func' op cannot emit type 'tensor<4xf80>' for target 'c'}}
func.func @main(%x: tensor<4xf80>) -> tensor<4xf80> {
  func.return %x : tensor<4xf80>
}

// -----

/// A call of a function without a body has nothing to call.
func.func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'func.call' op cannot be emitted for target 'c': @external has no planned body to call}}
  %0 = func.call @external(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
