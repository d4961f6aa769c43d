// RUN: xrelay-opt %s -p convert-relay-to-accel --split-input-file | filecheck %s

/// conv2d_bias_clip: one accel.conv2d with its bias and the clip's bounds as clip_min /
/// clip_max (ReLU6); a single relay.clip becomes accel.clip.
// CHECK-LABEL: func.func @conv2d_bias_clip
//  CHECK-NEXT:   %w = relay.constant
//  CHECK-NEXT:   %b = relay.constant
//  CHECK-NEXT:   %0 = accel.conv2d %x, %w, %b {padding = [1, 1, 1, 1], has_bias = true, clip_min = 0.0, clip_max = 6.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %1 = accel.clip %0 {a_min = -1.0, a_max = 1.0} : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x4x8x8xf32>
func.func @conv2d_bias_clip(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> attributes {Compiler = "accel"} {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<4xf32>
  %0 = relay.composite "accel.conv2d_bias_clip" (%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>, %c: tensor<4xf32>):
    %1 = relay.nn.conv2d %i, %k {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
    %2 = relay.nn.bias_add %1, %c : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    %3 = relay.clip %2 {a_min = 0.0, a_max = 6.0} : tensor<1x4x8x8xf32>
    relay.yield %3 : tensor<1x4x8x8xf32>
  }
  %4 = relay.clip %0 {a_min = -1.0, a_max = 1.0} : tensor<1x4x8x8xf32>
  func.return %4 : tensor<1x4x8x8xf32>
}

// -----

/// dense_clip: the dense with clip_min / clip_max, no bias.
// CHECK-LABEL: func.func @dense_clip
//  CHECK-NEXT:   %0 = accel.dense %x, %w {clip_min = -2.5, clip_max = 3.0} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
func.func @dense_clip(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.dense_clip" (%x, %w) : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<4x8xf32>):
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
    %2 = relay.clip %1 {a_min = -2.5, a_max = 3.0} : tensor<2x4xf32>
    relay.yield %2 : tensor<2x4xf32>
  }
  func.return %0 : tensor<2x4xf32>
}

