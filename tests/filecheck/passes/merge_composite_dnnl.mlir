// RUN: xrelay-opt %s -p 'merge-composite{pattern-table=dnnl}' --split-input-file | filecheck %s

/// Seed 004: nn.conv2d, add (the bias), nn.relu become dnnl.conv2d_bias_relu with
/// PartitionedFromPattern "nn.conv2d_add_nn.relu_", exactly as the seed prints it.
// CHECK-LABEL: func.func @seed_conv2d_bias_relu
// CHECK-NEXT:    %[[R:.*]] = relay.composite "dnnl.conv2d_bias_relu" (%data, %weight, %bias) {PartitionedFromPattern = "nn.conv2d_add_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32> {
// CHECK-NEXT:    ^bb0(%[[D:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4x1x1xf32>):
// CHECK-NEXT:      %[[C:.*]] = relay.nn.conv2d %[[D]], %[[W]]
// CHECK-NEXT:      %[[A:.*]] = relay.add %[[C]], %[[B]]
// CHECK-NEXT:      %[[RE:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:      relay.yield %[[RE]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
func.func @seed_conv2d_bias_relu(%data: tensor<1x3x8x8xf32>, %weight: tensor<4x3x3x3xf32>, %bias: tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %1 = relay.nn.conv2d %data, %weight : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = relay.add %1, %bias : (tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %3 = relay.nn.relu %2 : tensor<1x4x6x6xf32>
  func.return %3 : tensor<1x4x6x6xf32>
}

// -----

/// Seed 004's second pattern: nn.conv2d, nn.relu become dnnl.conv2d_relu.
// CHECK-LABEL: func.func @seed_conv2d_relu
// CHECK-NEXT:    relay.composite "dnnl.conv2d_relu" (%data, %weight) {PartitionedFromPattern = "nn.conv2d_nn.relu_"}
func.func @seed_conv2d_relu(%data: tensor<1x3x8x8xf32>, %weight: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %1 = relay.nn.conv2d %data, %weight : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x6x6xf32>
  func.return %2 : tensor<1x4x6x6xf32>
}

// -----

/// The sum post-op: conv2d + bias + the block's input + relu is one composite, which
/// reads %x once although two leaves match it; then a conv2d + sigmoid.
// CHECK-LABEL: func.func @sum_then_sigmoid
// CHECK-NEXT:    %[[S:.*]] = relay.composite "dnnl.conv2d_bias_sum_relu" (%x, %w, %b) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_add_nn.relu_"}
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<1x4x4x4xf32>, %[[W:.*]]: tensor<4x4x1x1xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]]
// CHECK-NEXT:      %[[BA:.*]] = relay.nn.bias_add %[[C]], %[[B]]
// CHECK-NEXT:      %[[A:.*]] = relay.add %[[BA]], %[[X]]
// CHECK-NEXT:      relay.nn.relu %[[A]]
// CHECK:         %[[G:.*]] = relay.composite "dnnl.conv2d_sigmoid" (%[[S]], %w) {PartitionedFromPattern = "nn.conv2d_sigmoid_"}
// CHECK:         func.return %[[G]]
func.func @sum_then_sigmoid(%x: tensor<1x4x4x4xf32>, %w: tensor<4x4x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %2 = relay.add %1, %x : tensor<1x4x4x4xf32>
  %3 = relay.nn.relu %2 : tensor<1x4x4x4xf32>
  %4 = relay.nn.conv2d %3, %w : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %5 = relay.sigmoid %4 : tensor<1x4x4x4xf32>
  func.return %5 : tensor<1x4x4x4xf32>
}

// -----

/// dense + bias + tanh, and a float16 conv2d + relu that the check refuses.
// CHECK-LABEL: func.func @dense_tanh_keep_f16
// CHECK-NEXT:    relay.composite "dnnl.dense_bias_tanh" (%x, %w, %b) {PartitionedFromPattern = "nn.dense_nn.bias_add_tanh_"}
// CHECK:         relay.nn.conv2d %h, %k
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    func.return
func.func @dense_tanh_keep_f16(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>, %h: tensor<1x2x4x4xf16>, %k: tensor<2x2x1x1xf16>) -> (tensor<2x4xf32>, tensor<1x2x4x4xf16>) {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = relay.tanh %1 : tensor<2x4xf32>
  %3 = relay.nn.conv2d %h, %k : (tensor<1x2x4x4xf16>, tensor<2x2x1x1xf16>) -> tensor<1x2x4x4xf16>
  %4 = relay.nn.relu %3 : tensor<1x2x4x4xf16>
  func.return %2, %4 : tensor<2x4xf32>, tensor<1x2x4x4xf16>
}
