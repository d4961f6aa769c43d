// RUN: xrelay-opt %s -p div-to-mul --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p DivToMul --split-input-file | filecheck %s

/// A float32 scalar divisor: multiply by its reciprocal (0.25 exactly); the old constant goes.
// CHECK-LABEL: @scalar
//  CHECK-NEXT:   %0 = relay.constant dense<2.500000e-01> : tensor<f32>
//  CHECK-NEXT:   %1 = relay.multiply %x, %0 : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   func.return %1
func.func @scalar(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<4.0> : tensor<f32>
  %0 = relay.divide %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

/// Every element of a vector divisor is inverted (TVM reads only the first).
// CHECK-LABEL: @vector
//  CHECK-NEXT:   %0 = relay.constant dense<[5.000000e-01, 2.500000e-01, -1.250000e-01]> : tensor<3xf64>
//  CHECK-NEXT:   %1 = relay.multiply %x, %0
func.func @vector(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %c = relay.constant dense<[2.0, 4.0, -8.0]> : tensor<3xf64>
  %0 = relay.divide %x, %c : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  func.return %0 : tensor<2x3xf64>
}

// -----

/// Kept: a zero in the divisor, an integer division, a divisor that is not a constant, and the
/// constant on the left. The constant read twice stays for its other user.
// CHECK-LABEL: @kept
//  CHECK-NEXT:   %z = relay.constant dense<[1.000000e+00, 0.000000e+00, 2.000000e+00]> : tensor<3xf32>
//  CHECK-NEXT:   %0 = relay.divide %x, %z
//  CHECK-NEXT:   %i = relay.constant dense<2> : tensor<i32>
//  CHECK-NEXT:   %1 = relay.divide %n, %i
//  CHECK-NEXT:   %2 = relay.divide %x, %x
//  CHECK-NEXT:   %c = relay.constant dense<2.000000e+00> : tensor<f32>
//  CHECK-NEXT:   %3 = relay.divide %c, %x
//  CHECK-NEXT:   %4 = relay.constant dense<5.000000e-01> : tensor<f32>
//  CHECK-NEXT:   %5 = relay.multiply %x, %4
func.func @kept(%x: tensor<3xf32>, %n: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %z = relay.constant dense<[1.0, 0.0, 2.0]> : tensor<3xf32>
  %0 = relay.divide %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %i = relay.constant dense<2> : tensor<i32>
  %1 = relay.divide %n, %i : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %2 = relay.divide %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %c = relay.constant dense<2.0> : tensor<f32>
  %3 = relay.divide %c, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %4 = relay.divide %x, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}
