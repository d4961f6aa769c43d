// RUN: xrelay-opt %s -p fold-scale-axis --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p fold-scale-axis --opt-level 2 --split-input-file | filecheck %s --check-prefix=OPTTWO

/// conv2d -> add -> relu -> multiply by a positive constant, constant weight and bias:
/// BackwardFoldScaleAxis moves the scale into the weight and bias, FoldConstant folds them
/// (the default opt level of xrelay-opt is 3). At opt level 2 the pipeline still runs, but
/// its two opt-3 folds are skipped: only FoldConstant runs, and nothing here is constant.
// CHECK-LABEL: @fold_conv_bias_relu_scale
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<{{.*}}2.000000e+00{{.*}}4.000000e+00{{.*}}-3.000000e+00{{.*}}-6.000000e+00{{.*}}> : tensor<2x2x1x1xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %[[W]]
// CHECK-NEXT:    %[[B:.*]] = relay.constant dense<{{.*}}2.000000e+00{{.*}}1.500000e+00{{.*}}> : tensor<1x2x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    func.return %[[R]]
// OPTTWO-LABEL: @fold_conv_bias_relu_scale
// OPTTWO:         relay.nn.relu
// OPTTWO-NEXT:    relay.constant
// OPTTWO-NEXT:    relay.multiply
func.func @fold_conv_bias_relu_scale(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]], [[2.0]]], [[[-1.0]], [[-2.0]]]]> : tensor<2x2x1x1xf32>
  %b = relay.constant dense<[[[[1.0]], [[0.5]]]]> : tensor<1x2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = relay.add %0, %b : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x3x3xf32>
  %s = relay.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %3 = relay.multiply %2, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  func.return %3 : tensor<1x2x3x3xf32>
}

// -----

/// Two scales between two conv2d: the first goes back into w1 (backward), the second
/// forward into w2's input channels; no multiply is left.
// CHECK-LABEL: @fold_both_directions
// CHECK-NEXT:    %[[W1:.*]] = relay.constant dense<{{.*}}2.000000e+00{{.*}}3.000000e+00{{.*}}> : tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.conv2d %x, %[[W1]]
// CHECK-NEXT:    %[[W2:.*]] = relay.constant dense<{{.*}}1.000000e+00{{.*}}4.000000e+00{{.*}}> : tensor<1x2x1x1xf32>
// CHECK-NEXT:    %[[C2:.*]] = relay.nn.conv2d %[[C1]], %[[W2]]
// CHECK-NEXT:    func.return %[[C2]]
// OPTTWO-LABEL: @fold_both_directions
// OPTTWO-COUNT-2: relay.multiply
func.func @fold_both_directions(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32> {
  %w1 = relay.constant dense<[[[[1.0]]], [[[1.0]]]]> : tensor<2x1x1x1xf32>
  %w2 = relay.constant dense<[[[[1.0]], [[1.0]]]]> : tensor<1x2x1x1xf32>
  %s1 = relay.constant dense<[[[2.0]], [[3.0]]]> : tensor<2x1x1xf32>
  %s2 = relay.constant dense<[[[1.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w1 : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = relay.multiply %0, %s1 : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %2 = relay.multiply %1, %s2 : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %3 = relay.nn.conv2d %2, %w2 : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  func.return %3 : tensor<1x1x3x3xf32>
}
