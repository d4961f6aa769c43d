// RUN: XRELAY_ROUNDTRIP
// RUN: XRELAY_GENERIC_ROUNDTRIP

/// The myacc ops in custom form (relay's syntax) and generic form; no load flag: xrelay-opt
/// finds the dialect through the package's entry point.
// CHECK-LABEL: func.func @kernels
// CHECK-NEXT: %g = myacc.gelu %x : tensor<2x3x4xf32>
// CHECK-NEXT: %m = myacc.matmul_relu %y, %w : (tensor<5x8xf32>, tensor<3x8xf32>) -> tensor<5x3xf32>
// CHECK-NEXT: func.return %g, %m : tensor<2x3x4xf32>, tensor<5x3xf32>
// GENERIC-LABEL: "func.func"() <{sym_name = "kernels"
// GENERIC: %g = "myacc.gelu"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// GENERIC-NEXT: %m = "myacc.matmul_relu"(%y, %w) : (tensor<5x8xf32>, tensor<3x8xf32>) -> tensor<5x3xf32>
func.func @kernels(%x: tensor<2x3x4xf32>, %y: tensor<5x8xf32>, %w: tensor<3x8xf32>) -> (tensor<2x3x4xf32>, tensor<5x3xf32>) {
  %g = myacc.gelu %x : tensor<2x3x4xf32>
  %m = myacc.matmul_relu %y, %w : (tensor<5x8xf32>, tensor<3x8xf32>) -> tensor<5x3xf32>
  func.return %g, %m : tensor<2x3x4xf32>, tensor<5x3xf32>
}

// -----

/// A scalar and dynamic dims are tensors too (a dynamic in-features dim may match).
// CHECK-LABEL: func.func @shapes
// CHECK-NEXT: %g = myacc.gelu %x : tensor<f32>
// CHECK-NEXT: %m = myacc.matmul_relu %y, %w : (tensor<?x8xf32>, tensor<3x8xf32>) -> tensor<?x3xf32>
// CHECK-NEXT: %n = myacc.matmul_relu %z, %w : (tensor<2x?xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
// GENERIC-LABEL: "func.func"() <{sym_name = "shapes"
func.func @shapes(%x: tensor<f32>, %y: tensor<?x8xf32>, %w: tensor<3x8xf32>, %z: tensor<2x?xf32>) -> (tensor<f32>, tensor<?x3xf32>, tensor<2x3xf32>) {
  %g = myacc.gelu %x : tensor<f32>
  %m = myacc.matmul_relu %y, %w : (tensor<?x8xf32>, tensor<3x8xf32>) -> tensor<?x3xf32>
  %n = myacc.matmul_relu %z, %w : (tensor<2x?xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
  func.return %g, %m, %n : tensor<f32>, tensor<?x3xf32>, tensor<2x3xf32>
}
