// RUN: xrelay-opt %s -p 'backward-fold-scale-axis{fold-constants=true}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'backward-fold-scale-axis{fold-constants=true},forward-fold-scale-axis,fold-constant' --split-input-file | filecheck %s --check-prefix=PIPE
// RUN: xrelay-opt %s -p 'backward-fold-scale-axis,forward-fold-scale-axis,fold-constant' --split-input-file | filecheck %s --check-prefix=PIPE

/// Constant weight, bias and scale: the new weight and bias are emitted as the constants
/// FoldConstant would fold `w * expand_dims(squeeze(s))` and `b * expand_dims(...)` to,
/// where it would leave them; w, b and s, left unused, are erased. With FoldConstant after
/// it, the same IR as the unfolded rewrite (1.5*2 = 3, -2*0.5 = -1, 0.25*2 = 0.5, 4*0.5 = 2).
// CHECK-LABEL: @folded
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    %[[B:.*]] = relay.constant dense<{{\[\[\[}}5.000000e-01]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    func.return %[[R]]
// PIPE-LABEL: @folded
// PIPE-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf32>
// PIPE-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// PIPE-NEXT:    %[[B:.*]] = relay.constant dense<{{\[\[\[}}5.000000e-01]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
// PIPE-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[B]]
// PIPE-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// PIPE-NEXT:    func.return %[[R]]
func.func @folded(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-2.0]]]]> : tensor<2x1x1x1xf32>
  %b = relay.constant dense<[[[0.25]], [[4.0]]]> : tensor<2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = relay.add %0, %b : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x3x3xf32>
  %s = relay.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %3 = relay.multiply %2, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  func.return %3 : tensor<1x2x3x3xf32>
}

// -----

/// A weight another conv still reads stays; the folded one is a new constant.
// CHECK-LABEL: @shared_weight
// CHECK-NEXT:    %w = relay.constant
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    %[[D:.*]] = relay.nn.conv2d %x, %w
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[D]]
// PIPE-LABEL: @shared_weight
// PIPE-NEXT:    %w = relay.constant
// PIPE-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]>
// PIPE-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// PIPE-NEXT:    %[[D:.*]] = relay.nn.conv2d %x, %w
// PIPE-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[D]]
func.func @shared_weight(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-2.0]]]]> : tensor<2x1x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %s = relay.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %1 = relay.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %3 = relay.add %1, %2 : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  func.return %3 : tensor<1x2x3x3xf32>
}

// -----

/// Not taken: a scale that is a parameter leaves ops FoldConstant cannot fold.
// CHECK-LABEL: @scale_is_parameter
// CHECK-NEXT:    %w = relay.constant
// CHECK-NEXT:    %[[V:.*]] = relay.squeeze %s {axis = [1, 2]}
// CHECK-NEXT:    %[[E:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// CHECK-NEXT:    %[[W:.*]] = relay.multiply %w, %[[E]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    func.return %[[C]]
// PIPE-LABEL: @scale_is_parameter
// PIPE-NEXT:    %w = relay.constant
// PIPE-NEXT:    %[[V:.*]] = relay.squeeze %s {axis = [1, 2]}
// PIPE-NEXT:    %[[E:.*]] = relay.expand_dims %[[V]] {axis = 1, num_newaxis = 3}
// PIPE-NEXT:    %[[W:.*]] = relay.multiply %w, %[[E]]
// PIPE-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// PIPE-NEXT:    func.return %[[C]]
func.func @scale_is_parameter(%x: tensor<1x1x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-2.0]]]]> : tensor<2x1x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = relay.multiply %0, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  func.return %1 : tensor<1x2x3x3xf32>
}

// -----

/// Not taken: the bias multiply has the add's own shape, an operand ForwardFoldScaleAxis
/// could fold a scale through before FoldConstant runs; the ops are built as before.
// CHECK-LABEL: @bias_of_the_output_shape
// CHECK:         %[[V:.*]] = relay.squeeze %s
// CHECK:         relay.multiply %w
// CHECK:         %[[B:.*]] = relay.multiply %b
// CHECK-NEXT:    relay.add %[[B]]
// PIPE-LABEL: @bias_of_the_output_shape
// PIPE-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]>
// PIPE-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// PIPE-NEXT:    %[[B:.*]] = relay.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}2.000000e+00]]]]>
// PIPE-NEXT:    relay.add %[[B]], %[[C]]
func.func @bias_of_the_output_shape(%x: tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32> {
  %w = relay.constant dense<[[[[1.5]]], [[[-2.0]]]]> : tensor<2x1x1x1xf32>
  %b = relay.constant dense<[[[[0.25]], [[4.0]]]]> : tensor<1x2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x1x1xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %1 = relay.add %b, %0 : (tensor<1x2x1x1xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %s = relay.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf32>
  %2 = relay.multiply %1, %s : (tensor<1x2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<1x2x1x1xf32>
  func.return %2 : tensor<1x2x1x1xf32>
}

// -----

/// Not taken: float16 (only float32 and float64 constants are rounded here).
// CHECK-LABEL: @half
// CHECK:         %[[W:.*]] = relay.multiply %w
// CHECK-NEXT:    relay.nn.conv2d %x, %[[W]]
// PIPE-LABEL: @half
// PIPE-NEXT:    %[[W:.*]] = relay.constant dense<{{\[\[\[\[}}3.000000e+00]]], {{\[\[\[}}-1.000000e+00]]]]> : tensor<2x1x1x1xf16>
// PIPE-NEXT:    relay.nn.conv2d %x, %[[W]]
func.func @half(%x: tensor<1x1x3x3xf16>) -> tensor<1x2x3x3xf16> {
  %w = relay.constant dense<[[[[1.5]]], [[[-2.0]]]]> : tensor<2x1x1x1xf16>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf16>, tensor<2x1x1x1xf16>) -> tensor<1x2x3x3xf16>
  %s = relay.constant dense<[[[2.0]], [[0.5]]]> : tensor<2x1x1xf16>
  %1 = relay.multiply %0, %s : (tensor<1x2x3x3xf16>, tensor<2x1x1xf16>) -> tensor<1x2x3x3xf16>
  func.return %1 : tensor<1x2x3x3xf16>
}
