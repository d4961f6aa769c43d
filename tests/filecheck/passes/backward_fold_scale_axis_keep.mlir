// RUN: xrelay-opt %s -p backward-fold-scale-axis --split-input-file | filecheck %s

/// TVM's fail2: the conv2d output also feeds a relu, so the multiply cannot go into it.
// CHECK-LABEL: @keep_second_consumer
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %w
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[C]]
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[C]], %s
// CHECK-NEXT:    relay.add %[[M]], %[[R]]
func.func @keep_second_consumer(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.nn.relu %0 : tensor<1x3x5x5xf32>
  %2 = relay.multiply %0, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  %3 = relay.add %2, %1 : tensor<1x3x5x5xf32>
  func.return %3 : tensor<1x3x5x5xf32>
}

// -----

/// A relu in between needs a constant scale with no negative element: -1 blocks the fold.
// CHECK-LABEL: @keep_relu_negative_scale
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.multiply
func.func @keep_relu_negative_scale(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.nn.relu %0 : tensor<1x3x5x5xf32>
  %s = relay.constant dense<[[[1.0]], [[-1.0]], [[2.0]]]> : tensor<3x1x1xf32>
  %2 = relay.multiply %1, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  func.return %2 : tensor<1x3x5x5xf32>
}

// -----

/// A relu or leaky_relu in between and a scale that is a parameter: its sign is unknown.
// CHECK-LABEL: @keep_leaky_relu_parameter_scale
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.nn.leaky_relu
// CHECK-NEXT:    relay.multiply
func.func @keep_leaky_relu_parameter_scale(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.nn.leaky_relu %0 {alpha = 0.1} : tensor<1x3x5x5xf32>
  %2 = relay.multiply %1, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  func.return %2 : tensor<1x3x5x5xf32>
}

// -----

/// A scale that varies along W ([C,1,W]) is not a per-channel vector.
// CHECK-LABEL: @keep_not_per_channel
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.multiply
func.func @keep_not_per_channel(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x5xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.multiply %0, %s : (tensor<1x3x5x5xf32>, tensor<3x1x5xf32>) -> tensor<1x3x5x5xf32>
  func.return %1 : tensor<1x3x5x5xf32>
}

// -----

/// A dual path where only one branch carries the scale (the other is the input itself).
// CHECK-LABEL: @keep_one_branch
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.multiply
func.func @keep_one_branch(%x: tensor<1x3x5x5xf32>, %w: tensor<3x3x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x5x5xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.add %0, %x : tensor<1x3x5x5xf32>
  %2 = relay.multiply %1, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  func.return %2 : tensor<1x3x5x5xf32>
}

// -----

/// TVM's fail1: the branches scale different axes (NCHW's 1, NHWC's 3), shapes alike.
// CHECK-LABEL: @keep_axes_differ
// CHECK-NEXT:    relay.nn.conv2d %x, %w1
// CHECK-NEXT:    relay.nn.conv2d %x, %w2
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.multiply
func.func @keep_axes_differ(%x: tensor<1x3x3x3xf32>, %w1: tensor<3x3x1x1xf32>, %w2: tensor<1x1x3x3xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32> {
  %0 = relay.nn.conv2d %x, %w1 : (tensor<1x3x3x3xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x3xf32>
  %1 = relay.nn.conv2d %x, %w2 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x3x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x3x3x3xf32>
  %2 = relay.add %0, %1 : tensor<1x3x3x3xf32>
  %3 = relay.multiply %2, %s : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  func.return %3 : tensor<1x3x3x3xf32>
}

// -----

/// The conv2d is also read in a relay.if branch (another block): no message, no fold.
// CHECK-LABEL: @keep_use_in_branch
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.if
// CHECK-NEXT:      relay.multiply
func.func @keep_use_in_branch(%c: tensor<i1>, %x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<1x3x5x5xf32> {
    %2 = relay.multiply %0, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
    relay.yield %2 : tensor<1x3x5x5xf32>
  } else {
    relay.yield %0 : tensor<1x3x5x5xf32>
  }
  func.return %1 : tensor<1x3x5x5xf32>
}

// -----

/// out_dtype f64 on f32 data: the f64 scale cannot multiply the f32 weight.
// CHECK-LABEL: @keep_out_dtype
// CHECK-NEXT:    relay.nn.conv2d %x, %w {out_dtype = f64}
// CHECK-NEXT:    relay.multiply
func.func @keep_out_dtype(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf64>) -> tensor<1x3x5x5xf64> {
  %0 = relay.nn.conv2d %x, %w {out_dtype = f64} : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf64>
  %1 = relay.multiply %0, %s : (tensor<1x3x5x5xf64>, tensor<3x1x1xf64>) -> tensor<1x3x5x5xf64>
  func.return %1 : tensor<1x3x5x5xf64>
}

// -----

/// A function partitioned for an external compiler is skipped (a function pass).
// CHECK-LABEL: @keep_external
// CHECK-NEXT:    relay.nn.conv2d %x, %w
// CHECK-NEXT:    relay.multiply
func.func @keep_external(%x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.multiply %0, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  func.return %1 : tensor<1x3x5x5xf32>
}
