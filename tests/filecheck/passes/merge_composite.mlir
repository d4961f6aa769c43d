// RUN: xrelay-opt %s -p 'merge-composite{pattern-table=accel}' --split-input-file | filecheck %s

/// conv2d + bias_add + relu is one accel.conv2d_bias_relu: the inputs are the pattern's
/// leaves in pattern order, the body the matched ops in post-order, ending in a yield.
// CHECK-LABEL: func.func @conv2d_bias_relu
// CHECK-NEXT:    %[[R:.*]] = relay.composite "accel.conv2d_bias_relu" (%x, %w, %b) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]] {padding = [1, 1, 1, 1]}
// CHECK-NEXT:      %[[BA:.*]] = relay.nn.bias_add %[[C]], %[[B]]
// CHECK-NEXT:      %[[RE:.*]] = relay.nn.relu %[[BA]]
// CHECK-NEXT:      relay.yield %[[RE]] : tensor<1x4x8x8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<1x4x8x8xf32>
func.func @conv2d_bias_relu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  func.return %2 : tensor<1x4x8x8xf32>
}

// -----

/// Table order is priority: conv2d_bias_relu takes the first layer whole (not
/// conv2d_bias); the second layer, without relu, is conv2d_bias and reads the first.
// CHECK-LABEL: func.func @priority
// CHECK-NEXT:    %[[L1:.*]] = relay.composite "accel.conv2d_bias_relu" (%x, %w, %b) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_nn.relu_"}
// CHECK:         %[[L2:.*]] = relay.composite "accel.conv2d_bias" (%[[L1]], %w, %b) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      relay.nn.conv2d
// CHECK-NEXT:      relay.nn.bias_add
// CHECK-NEXT:      relay.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[L2]]
func.func @priority(%x: tensor<1x4x4x4xf32>, %w: tensor<4x4x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x4x4xf32>
  %3 = relay.nn.conv2d %2, %w : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %4 = relay.nn.bias_add %3, %b : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  func.return %4 : tensor<1x4x4x4xf32>
}

// -----

/// conv2d + relu, then a residual add + relu of two same-shaped tensors: the add_relu
/// composite reads the conv2d_relu composite and the function's parameter.
// CHECK-LABEL: func.func @conv2d_relu_add_relu
// CHECK-NEXT:    %[[CR:.*]] = relay.composite "accel.conv2d_relu" (%x, %w) {PartitionedFromPattern = "nn.conv2d_nn.relu_"}
// CHECK:         %[[AR:.*]] = relay.composite "accel.add_relu" (%[[CR]], %x) {PartitionedFromPattern = "add_nn.relu_"}
// CHECK-NEXT:    ^bb0(%[[P0:.*]]: tensor<1x4x4x4xf32>, %[[P1:.*]]: tensor<1x4x4x4xf32>):
// CHECK-NEXT:      %[[S:.*]] = relay.add %[[P0]], %[[P1]]
// CHECK-NEXT:      %[[R:.*]] = relay.nn.relu %[[S]]
// CHECK-NEXT:      relay.yield %[[R]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[AR]]
func.func @conv2d_relu_add_relu(%x: tensor<1x4x4x4xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x4x4xf32>
  %2 = relay.add %1, %x : tensor<1x4x4x4xf32>
  %3 = relay.nn.relu %2 : tensor<1x4x4x4xf32>
  func.return %3 : tensor<1x4x4x4xf32>
}

// -----

/// dense + bias_add (+ relu): accel.dense_bias_relu, then accel.dense_bias.
// CHECK-LABEL: func.func @dense
// CHECK-NEXT:    %[[D1:.*]] = relay.composite "accel.dense_bias_relu" (%x, %w, %b) {PartitionedFromPattern = "nn.dense_nn.bias_add_nn.relu_"}
// CHECK:         %[[D2:.*]] = relay.composite "accel.dense_bias" (%[[D1]], %w, %b) {PartitionedFromPattern = "nn.dense_nn.bias_add_"}
// CHECK:         func.return %[[D2]]
func.func @dense(%x: tensor<2x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %2 = relay.nn.relu %1 : tensor<2x8xf32>
  %3 = relay.nn.dense %2, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %4 = relay.nn.bias_add %3, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  func.return %4 : tensor<2x8xf32>
}

// -----

/// A constant weight matched by a wildcard stays in the function and is an input.
// CHECK-LABEL: func.func @constant_input
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<5.000000e-01> : tensor<2x2x1x1xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.composite "accel.conv2d_relu" (%x, %[[W]])
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<1x2x4x4xf32>, %[[K:.*]]: tensor<2x2x1x1xf32>):
// CHECK-NEXT:      relay.nn.conv2d %[[X]], %[[K]]
func.func @constant_input(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x2x4x4xf32>
  func.return %1 : tensor<1x2x4x4xf32>
}

// -----

/// The checks refuse an NHWC conv2d and a broadcasting add: unchanged.
// CHECK-LABEL: func.func @keep_refused
// CHECK-NEXT:    relay.nn.conv2d %x, %w {data_layout = "NHWC"}
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    func.return
func.func @keep_refused(%x: tensor<1x4x4x3xf32>, %w: tensor<4x3x1x1xf32>, %c: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC"} : (tensor<1x4x4x3xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x4x4xf32>
  %2 = relay.add %1, %c : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %3 = relay.nn.relu %2 : tensor<1x4x4x4xf32>
  func.return %3 : tensor<1x4x4x4xf32>
}

// -----

/// The add is also returned: a composite could not hand it out, so add_relu is rejected.
// CHECK-LABEL: func.func @keep_escaping
// CHECK-NEXT:    %[[S:.*]] = relay.add %a, %b
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[S]]
// CHECK-NEXT:    func.return %[[R]], %[[S]]
func.func @keep_escaping(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1, %0 : tensor<4xf32>, tensor<4xf32>
}

// -----

/// relay.if branches are merged like any block; a function with a Compiler
/// attribute (already partitioned) is left alone.
// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    %[[C:.*]] = func.call @offloaded(%x)
// CHECK-NEXT:    relay.if %c
// CHECK-NEXT:      %[[AR:.*]] = relay.composite "accel.add_relu" (%[[C]], %x)
// CHECK:           relay.yield %[[AR]]
// CHECK:       func.func private @offloaded
// CHECK-NEXT:    relay.add %p, %p
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    func.return
func.func @caller(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = func.call @offloaded(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %2 = relay.add %0, %x : tensor<4xf32>
    %3 = relay.nn.relu %2 : tensor<4xf32>
    relay.yield %3 : tensor<4xf32>
  } else {
    relay.yield %0 : tensor<4xf32>
  }
  func.return %1 : tensor<4xf32>
}
func.func private @offloaded(%p: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.add %p, %p : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
