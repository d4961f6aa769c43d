// RUN: xrelay-opt %s -p partial-evaluate --split-input-file | filecheck %s

/// A known call is inlined and evaluated: double(4.0) is 8.0; the function goes.
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.constant dense<8.000000e+00> : tensor<f32>
//  CHECK-NEXT:   func.return %[[C]]
//   CHECK-NOT:   @double
func.func @main() -> tensor<f32> {
  %c = relay.constant dense<4.0> : tensor<f32>
  %0 = func.call @double(%c) : (tensor<f32>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func private @double(%d: tensor<f32>) -> tensor<f32> {
  %0 = relay.add %d, %d : tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

/// Inlined but not known: the residual graph stays; an external function and a public one
/// stay called.
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.add %x, %x
//  CHECK-NEXT:   %[[E:[^ ]+]] = func.call @ext(%[[A]])
//  CHECK-NEXT:   %[[P:[^ ]+]] = func.call @pub(%[[E]])
//  CHECK-NEXT:   func.return %[[P]]
// CHECK: func.func private @ext
// CHECK: func.func @pub
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @double(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @ext(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = func.call @pub(%1) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
func.func private @double(%d: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.add %d, %d : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @ext(%d: tensor<2xf32>) -> tensor<2xf32> attributes {Compiler = "accel"} {
  %0 = relay.exp %d : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func @pub(%d: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %d : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
