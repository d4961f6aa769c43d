// RUN: xrelay-opt %s --split-input-file | filecheck %s
// RUN: XRELAY_ROUNDTRIP
// RUN: xrelay-opt %s --split-input-file | xrelay-opt --split-input-file | filecheck %s

/// NaN and ±Inf print as their bit patterns (as in MLIR) and read back as those
/// bits, in lists and splats of every float type; -0.0 and subnormals print as
/// decimals that read back exactly; 0.0 and -0.0 are different elements.

// CHECK-LABEL: func.func @f32_special
// CHECK: relay.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.000000e+00, 1.401300e-45, 0xFFC00001]> : tensor<6xf32>
func.func @f32_special() -> tensor<6xf32> {
  %0 = relay.constant dense<[0x7FC00000, 0x7F800000, 0xFF800000, -0.0, 1.4012984643e-45, 0xFFC00001]> : tensor<6xf32>
  func.return %0 : tensor<6xf32>
}

// -----

// CHECK-LABEL: func.func @f16_special
// CHECK: relay.constant dense<[0x7E00, 0x7C00, 0xFC00, -0.000000e+00, 5.960460e-08, 6.550400e+04]> : tensor<6xf16>
func.func @f16_special() -> tensor<6xf16> {
  %0 = relay.constant dense<[0x7E00, 0x7C00, 0xFC00, -0.0, 5.9604645e-08, 65504.0]> : tensor<6xf16>
  func.return %0 : tensor<6xf16>
}

// -----

// CHECK-LABEL: func.func @f64_special
// CHECK: relay.constant dense<[0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, -0.000000e+00, 4.940660e-324, 1.000000e-01]> : tensor<6xf64>
func.func @f64_special() -> tensor<6xf64> {
  %0 = relay.constant dense<[0x7FF8000000000000, 0x7FF0000000000000, 0xFFF0000000000000, -0.0, 4.9406564584124654e-324, 0.1]> : tensor<6xf64>
  func.return %0 : tensor<6xf64>
}

// -----

// CHECK-LABEL: func.func @splats
// CHECK: relay.constant dense<0x7FC00000> : tensor<2x3xf32>
// CHECK: relay.constant dense<0xFC00> : tensor<4xf16>
// CHECK: relay.constant dense<0x7FF0000000000000> : tensor<f64>
// CHECK: relay.constant dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>
func.func @splats() -> (tensor<2x3xf32>, tensor<4xf16>, tensor<f64>, tensor<2xf32>) {
  %0 = relay.constant dense<0x7FC00000> : tensor<2x3xf32>
  %1 = relay.constant dense<0xFC00> : tensor<4xf16>
  %2 = relay.constant dense<0x7FF0000000000000> : tensor<f64>
  %3 = relay.constant dense<[0.0, -0.0]> : tensor<2xf32>
  func.return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4xf16>, tensor<f64>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @nested
// CHECK: relay.constant dense<{{\[}}[0x7F800000, 1.000000e+00], [2.000000e+00, 0xFF800000]]> : tensor<2x2xf32>
func.func @nested() -> tensor<2x2xf32> {
  %0 = relay.constant dense<[[0x7F800000, 1.0], [2.0, 0xFF800000]]> : tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}
