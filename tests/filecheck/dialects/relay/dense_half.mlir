// RUN: xrelay-opt %s --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s

/// f16 and bf16 literals read and print exactly: NaN and ±Inf as their 16-bit
/// patterns (bf16's are the upper halves of f32's), finite values as decimals
/// that read back to the same bits (-0.0, the largest and the smallest
/// subnormal included), a decimal rounded to nearest even when it is read.

// CHECK-LABEL: func.func @bf16_special
// CHECK: relay.constant dense<[0x7FC0, 0x7F80, 0xFF80, -0.000000e+00, 3.389530e+38, 9.183550e-41, 0xFFC1]> : tensor<7xbf16>
func.func @bf16_special() -> tensor<7xbf16> {
  %0 = relay.constant dense<[0x7FC0, 0x7F80, 0xFF80, -0.0, 3.3895314e+38, 9.18355e-41, 0xFFC1]> : tensor<7xbf16>
  func.return %0 : tensor<7xbf16>
}

// -----

/// 0.1 is not a bf16: it reads as the nearest one (0.10009765625) and prints so;
/// 1.00390625 (halfway between 1.0 and 1.0078125) rounds to even, 1.0.
// CHECK-LABEL: func.func @bf16_rounding
// CHECK: relay.constant dense<[1.000980e-01, 1.000000e+00, 1.007810e+00, -2.550000e+02]> : tensor<4xbf16>
func.func @bf16_rounding() -> tensor<4xbf16> {
  %0 = relay.constant dense<[0.1, 1.00390625, 1.0078125, -255.0]> : tensor<4xbf16>
  func.return %0 : tensor<4xbf16>
}

// -----

// CHECK-LABEL: func.func @f16_values
// CHECK: relay.constant dense<[9.997560e-02, 6.103520e-05, 6.550400e+04, 0xFE01]> : tensor<4xf16>
func.func @f16_values() -> tensor<4xf16> {
  %0 = relay.constant dense<[0.1, 6.1035156e-05, 65504.0, 0xFE01]> : tensor<4xf16>
  func.return %0 : tensor<4xf16>
}

// -----

// CHECK-LABEL: func.func @splats_and_blobs
// CHECK: relay.constant dense<0xFF80> : tensor<2x3xbf16>
// CHECK: relay.constant dense<-1.500000e+00> : tensor<2xbf16>
// CHECK: relay.add %{{.*}}, %{{.*}} : tensor<2x3xbf16>
func.func @splats_and_blobs(%x: tensor<2x3xbf16>) -> tensor<2x3xbf16> {
  %0 = relay.constant dense<0xFF80> : tensor<2x3xbf16>
  %1 = relay.constant dense<-1.5> : tensor<2xbf16>
  %2 = relay.add %x, %0 : tensor<2x3xbf16>
  func.return %2 : tensor<2x3xbf16>
}
