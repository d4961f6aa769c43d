// RUN: xrelay-opt %s -p defuse-ops --split-input-file | filecheck %s

/// A fused (Primitive) function is inlined at its call and removed.
// CHECK-NOT:   @fused_add_exp
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %0 = relay.add %x, %x : tensor<4xf32>
//  CHECK-NEXT:   %1 = relay.exp %0 : tensor<4xf32>
//  CHECK-NEXT:   func.return %1
func.func private @fused_add_exp(%p0: tensor<4xf32>) -> tensor<4xf32> attributes {Primitive = 1 : i32} {
  %0 = relay.add %p0, %p0 : tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @fused_add_exp(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Kept: a public (global) function, a function partitioned for a backend, and a private
/// function's call of itself inside its own body (it is still inlined into main once).
// CHECK:       func.func @global
// CHECK:       func.func private @accel_0
// CHECK:       func.func private @countdown
// CHECK:         func.call @countdown
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %0 = func.call @global(%x)
//  CHECK-NEXT:   %1 = func.call @accel_0(%0)
//  CHECK-NEXT:   %2 = relay.negative %1
//  CHECK-NEXT:   %3 = func.call @countdown(%2)
//  CHECK-NEXT:   func.return %3
func.func @global(%p: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.abs %p : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @accel_0(%p: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel", Primitive = 1 : i32} {
  %0 = relay.nn.relu %p : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @countdown(%p: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %p : tensor<4xf32>
  %1 = func.call @countdown(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @global(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @accel_0(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = func.call @countdown(%1) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
