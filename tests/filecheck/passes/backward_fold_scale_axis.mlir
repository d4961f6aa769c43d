// RUN: xrelay-opt %s -p backward-fold-scale-axis --split-input-file | filecheck %s

/// TVM's test_fold_bwd_simple: conv2d -> add -> relu -> multiply by a positive [C,1,1]
/// constant. The scale is squeezed, widened along the kernel's O axis for the weight and
/// along C for the bias; the multiply is gone.
// CHECK-LABEL: @fold_conv_add_relu
// CHECK-NEXT:    %[[S:.*]] = relay.constant
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %[[S]] {axis = [1, 2]} : (tensor<8x1x1xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3} : (tensor<8xf32>) -> tensor<8x1x1x1xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]] {padding = [1, 1, 1, 1]}
// CHECK-NEXT:    %[[BS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 2} : (tensor<8xf32>) -> tensor<8x1x1xf32>
// CHECK-NEXT:    %[[B:.*]] = relay.multiply %b, %[[BS]] : tensor<8x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_conv_add_relu(%x: tensor<2x4x10x10xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8x1x1xf32>) -> tensor<2x8x10x10xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<2x4x10x10xf32>, tensor<8x4x3x3xf32>) -> tensor<2x8x10x10xf32>
  %1 = relay.add %0, %b : (tensor<2x8x10x10xf32>, tensor<8x1x1xf32>) -> tensor<2x8x10x10xf32>
  %2 = relay.nn.relu %1 : tensor<2x8x10x10xf32>
  %s = relay.constant dense<[[[1.0]], [[2.0]], [[0.5]], [[4.0]], [[1.0]], [[2.0]], [[0.5]], [[0.0]]]> : tensor<8x1x1xf32>
  %3 = relay.multiply %2, %s : (tensor<2x8x10x10xf32>, tensor<8x1x1xf32>) -> tensor<2x8x10x10xf32>
  func.return %3 : tensor<2x8x10x10xf32>
}

// -----

/// TVM's test_fold_bwd_bias_add, with a [1,C,1,1] scale on the left of the multiply: the
/// bias of nn.bias_add is multiplied by the squeezed vector itself.
// CHECK-LABEL: @fold_bias_add_scale_on_left
// CHECK-NEXT:    %[[S:.*]] = relay.constant
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %[[S]] {axis = [0, 2, 3]} : (tensor<1x4x1x1xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    %[[B:.*]] = relay.multiply %b, %[[V]] : tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.nn.bias_add %[[C]], %[[B]]
// CHECK-NEXT:    func.return %[[A]]
func.func @fold_bias_add_scale_on_left(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %s = relay.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>
  %2 = relay.multiply %s, %1 : (tensor<1x4x1x1xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %2 : tensor<1x4x4x4xf32>
}

// -----

/// NHWC data, HWIO kernel, a [C] scale that is a parameter (no relu in between, so it need
/// not be a constant): no squeeze, and O is the kernel's last axis, so no expand_dims.
// CHECK-LABEL: @fold_nhwc_hwio
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %s : (tensor<3x3x3x4xf32>, tensor<4xf32>) -> tensor<3x3x3x4xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]] {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT:    func.return %[[C]]
func.func @fold_nhwc_hwio(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x3x4xf32>, %s: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
  %1 = relay.multiply %0, %s : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  func.return %1 : tensor<1x4x4x4xf32>
}

// -----

/// A depthwise OHWI conv2d folds along O (axis 0); HWOI would take axis 2.
// CHECK-LABEL: @fold_depthwise_ohwi
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %s {axis = [1, 2]}
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3} : (tensor<3xf32>) -> tensor<3x1x1x1xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]] : (tensor<3x3x3x1xf32>, tensor<3x1x1x1xf32>)
// CHECK-NEXT:    relay.nn.conv2d %x, %[[W]] {groups = 3, kernel_layout = "OHWI"}
func.func @fold_depthwise_ohwi(%x: tensor<1x3x5x5xf32>, %w: tensor<3x3x3x1xf32>, %s: tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 3, kernel_layout = "OHWI"} : (tensor<1x3x5x5xf32>, tensor<3x3x3x1xf32>) -> tensor<1x3x3x3xf32>
  %1 = relay.multiply %0, %s : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
  func.return %1 : tensor<1x3x3x3xf32>
}

// -----

/// A grouped conv2d (groups 2, not depthwise) folds too, unlike in TVM: the O axis holds
/// every output channel, and each output channel reads its own weights only.
// CHECK-LABEL: @fold_grouped
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %s {axis = [1, 2]}
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3} : (tensor<4xf32>) -> tensor<4x1x1x1xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]] : (tensor<4x2x1x1xf32>, tensor<4x1x1x1xf32>)
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]] {groups = 2}
// CHECK-NEXT:    func.return %[[C]]
func.func @fold_grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x1x1xf32>, %s: tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x4x5x5xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x5x5xf32>
  %1 = relay.multiply %0, %s : (tensor<1x4x5x5xf32>, tensor<4x1x1xf32>) -> tensor<1x4x5x5xf32>
  func.return %1 : tensor<1x4x5x5xf32>
}

// -----

/// dense -> relu -> multiply by a positive scalar: the scalar is filled to the unit count
/// (relay.full; TVM uses repeat) and widened along the weight's rows.
// CHECK-LABEL: @fold_dense_scalar
// CHECK-NEXT:    %[[S:.*]] = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[V:.*]] = relay.full %[[S]] {shape = [3]} : (tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1} : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[WS]]
// CHECK-NEXT:    %[[D:.*]] = relay.nn.dense %x, %[[W]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[D]]
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_dense_scalar(%x: tensor<2x5xf32>, %w: tensor<3x5xf32>) -> tensor<2x3xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %1 = relay.nn.relu %0 : tensor<2x3xf32>
  %s = relay.constant dense<2.0> : tensor<f32>
  %2 = relay.multiply %1, %s : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}

// -----

/// TVM's test_fold_bwd_dual_path with a subtract and a negative scale (no relu): both
/// branches carry the scale, so both weights take it.
// CHECK-LABEL: @fold_dual_path
// CHECK-NEXT:    %[[S:.*]] = relay.constant
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %[[S]] {axis = [1, 2]}
// CHECK-NEXT:    %[[WS1:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// CHECK-NEXT:    %[[W1:.*]] = relay.multiply %w1, %[[WS1]]
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.conv2d %x, %[[W1]]
// CHECK-NEXT:    %[[WS2:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// CHECK-NEXT:    %[[W2:.*]] = relay.multiply %w2, %[[WS2]]
// CHECK-NEXT:    %[[C2:.*]] = relay.nn.conv2d %x, %[[W2]]
// CHECK-NEXT:    %[[D:.*]] = relay.subtract %[[C1]], %[[C2]]
// CHECK-NEXT:    func.return %[[D]]
func.func @fold_dual_path(%x: tensor<1x2x5x5xf32>, %w1: tensor<3x2x1x1xf32>, %w2: tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.nn.conv2d %x, %w1 : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %1 = relay.nn.conv2d %x, %w2 : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  %2 = relay.subtract %0, %1 : tensor<1x3x5x5xf32>
  %s = relay.constant dense<[[[-1.0]], [[2.0]], [[3.0]]]> : tensor<3x1x1xf32>
  %3 = relay.multiply %2, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
  func.return %3 : tensor<1x3x5x5xf32>
}

// -----

/// Inside a relay.if branch the conv2d and its multiply fold like in the function body.
// CHECK-LABEL: @fold_in_if_branch
// CHECK-NEXT:    relay.if %c
// CHECK-NEXT:      %[[V:.*]] = relay.squeeze %s {axis = [1, 2]}
// CHECK-NEXT:      %[[WS:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// CHECK-NEXT:      %[[W:.*]] = relay.multiply %w, %[[WS]]
// CHECK-NEXT:      %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:      relay.yield %[[C]]
func.func @fold_in_if_branch(%c: tensor<i1>, %x: tensor<1x2x5x5xf32>, %w: tensor<3x2x1x1xf32>, %s: tensor<3x1x1xf32>, %y: tensor<1x3x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<1x3x5x5xf32> {
    %1 = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
    %2 = relay.multiply %1, %s : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>
    relay.yield %2 : tensor<1x3x5x5xf32>
  } else {
    relay.yield %y : tensor<1x3x5x5xf32>
  }
  func.return %0 : tensor<1x3x5x5xf32>
}
