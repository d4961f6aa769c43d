// RUN: xrelay-opt %s -p 'partition-for{target=accel}' --split-input-file | filecheck %s

/// ReLU6 after conv2d + bias (an add of a (C, 1, 1) constant): one composite, clip inside.
// CHECK-LABEL: func.func @tvmgen_default_accel_conv_bias_clip_0
// CHECK:         relay.composite "accel.conv2d_bias_clip" {{.*}} {PartitionedFromPattern = "nn.conv2d_add_clip_"}
// CHECK:           relay.clip %{{.*}} {a_min = 0.0, a_max = 6.0}
// CHECK-NEXT:      relay.yield
// CHECK-LABEL: func.func @conv_bias_clip
// CHECK-NEXT:    func.call @tvmgen_default_accel_conv_bias_clip_0
func.func @conv_bias_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %b = relay.constant dense<0.25> : tensor<4x1x1xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.add %0, %b : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.clip %1 {a_min = 0.0, a_max = 6.0} : tensor<1x4x8x8xf32>
  func.return %2 : tensor<1x4x8x8xf32>
}

// -----

/// clip of a conv2d without bias, and of a dense with a bias_add: their clip composites.
// CHECK-LABEL: func.func @tvmgen_default_accel_conv_and_dense_0
// CHECK:         relay.composite "accel.conv2d_clip" {{.*}} {PartitionedFromPattern = "nn.conv2d_clip_"}
// CHECK-LABEL: func.func @tvmgen_default_accel_conv_and_dense_2
// CHECK:         relay.composite "accel.dense_bias_clip" {{.*}} {PartitionedFromPattern = "nn.dense_nn.bias_add_clip_"}
// CHECK:           relay.clip %{{.*}} {a_min = -1.5, a_max = 2.0}
func.func @conv_and_dense(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>, %v: tensor<3x32xf32>, %c: tensor<3xf32>) -> tensor<1x3xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.clip %0 {a_min = 0.0, a_max = 6.0} : tensor<1x2x4x4xf32>
  %2 = relay.reshape %1 {newshape = [1, 32]} : (tensor<1x2x4x4xf32>) -> tensor<1x32xf32>
  %3 = relay.nn.dense %2, %v : (tensor<1x32xf32>, tensor<3x32xf32>) -> tensor<1x3xf32>
  %4 = relay.nn.bias_add %3, %c : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %5 = relay.clip %4 {a_min = -1.5, a_max = 2.0} : tensor<1x3xf32>
  func.return %5 : tensor<1x3xf32>
}

// -----

/// A clip after an op accel does not take (tanh) is a single accel.clip of its own; a clip
/// on int32, and one with an infinite bound, stay on the host.
// CHECK-LABEL: func.func @tvmgen_default_accel_after_host_op_0
// CHECK-NEXT:    %0 = relay.clip %accel_0_i0 {a_min = 0.0, a_max = 6.0} : tensor<2x8xf32>
// CHECK-NOT:     relay.composite
// CHECK-LABEL: func.func @after_host_op
// CHECK-NEXT:    %0 = relay.tanh %x
// CHECK-NEXT:    %1 = func.call @tvmgen_default_accel_after_host_op_0(%0)
// CHECK-NEXT:    %2 = relay.clip %i {a_min = 0.0, a_max = 6.0} : tensor<2x8xi32>
// CHECK-NEXT:    %3 = relay.clip %1 {a_min = 0.0, a_max = 0x7ff0000000000000 : f64} : tensor<2x8xf32>
func.func @after_host_op(%x: tensor<2x8xf32>, %i: tensor<2x8xi32>) -> (tensor<2x8xf32>, tensor<2x8xi32>) {
  %0 = relay.tanh %x : tensor<2x8xf32>
  %1 = relay.clip %0 {a_min = 0.0, a_max = 6.0} : tensor<2x8xf32>
  %2 = relay.clip %i {a_min = 0.0, a_max = 6.0} : tensor<2x8xi32>
  %3 = relay.clip %1 {a_min = 0.0, a_max = 0x7FF0000000000000 : f64} : tensor<2x8xf32>
  func.return %3, %2 : tensor<2x8xf32>, tensor<2x8xi32>
}
