// RUN: xrelay-opt %s -p convert-relay-to-accel --split-input-file | filecheck %s

/// conv2d_bias_relu: one accel.conv2d with bias and relu on the composite's inputs, the
/// conv2d's attributes kept; the constants stay.
// CHECK-LABEL: func.func @conv2d_bias_relu
//  CHECK-NEXT:   %w = relay.constant
//  CHECK-NEXT:   %b = relay.constant
//  CHECK-NEXT:   %0 = accel.conv2d %x, %w, %b {strides = [2, 2], padding = [1, 1, 1, 1], has_bias = true, has_relu = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
//  CHECK-NEXT:   func.return %0 : tensor<1x4x4x4xf32>
func.func @conv2d_bias_relu(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "accel"} {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<4xf32>
  %0 = relay.composite "accel.conv2d_bias_relu" (%x, %w, %b) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>, %c: tensor<4xf32>):
    %1 = relay.nn.conv2d %i, %k {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.nn.bias_add %1, %c : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    %3 = relay.nn.relu %2 : tensor<1x4x4x4xf32>
    relay.yield %3 : tensor<1x4x4x4xf32>
  }
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// conv2d_bias, then conv2d_relu reading it: bias alone, relu alone; the second kernel reads
/// the first one's result, and the inputs are mapped by block argument, not by position.
// CHECK-LABEL: func.func @conv2d_bias_then_relu
//  CHECK-NEXT:   %0 = accel.conv2d %x, %w, %b {groups = 2, has_bias = true} : (tensor<1x4x6x6xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
//  CHECK-NEXT:   %1 = accel.conv2d %0, %v {dilation = [2, 2], has_relu = true} : (tensor<1x4x4x4xf32>, tensor<2x4x2x2xf32>) -> tensor<1x2x2x2xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x2x2x2xf32>
func.func @conv2d_bias_then_relu(%x: tensor<1x4x6x6xf32>, %b: tensor<4xf32>, %w: tensor<4x2x3x3xf32>, %v: tensor<2x4x2x2xf32>) -> tensor<1x2x2x2xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.conv2d_bias" (%b, %x, %w) : (tensor<4xf32>, tensor<1x4x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%c: tensor<4xf32>, %i: tensor<1x4x6x6xf32>, %k: tensor<4x2x3x3xf32>):
    %1 = relay.nn.conv2d %i, %k {groups = 2} : (tensor<1x4x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.nn.bias_add %1, %c : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    relay.yield %2 : tensor<1x4x4x4xf32>
  }
  %1 = relay.composite "accel.conv2d_relu" (%0, %v) : (tensor<1x4x4x4xf32>, tensor<2x4x2x2xf32>) -> tensor<1x2x2x2xf32> {
  ^bb0(%i: tensor<1x4x4x4xf32>, %k: tensor<2x4x2x2xf32>):
    %2 = relay.nn.conv2d %i, %k {dilation = [2, 2]} : (tensor<1x4x4x4xf32>, tensor<2x4x2x2xf32>) -> tensor<1x2x2x2xf32>
    %3 = relay.nn.relu %2 : tensor<1x2x2x2xf32>
    relay.yield %3 : tensor<1x2x2x2xf32>
  }
  func.return %1 : tensor<1x2x2x2xf32>
}

// -----

/// dense_bias_relu and dense_bias: accel.dense with units kept; a constant inside a composite
/// body is copied out before the kernel.
// CHECK-LABEL: func.func @dense
//  CHECK-NEXT:   %0 = accel.dense %x, %w, %b {units = 5, has_bias = true, has_relu = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//  CHECK-NEXT:   %[[C:.*]] = relay.constant dense<1.000000e+00> : tensor<3xf32>
//  CHECK-NEXT:   %1 = accel.dense %0, %v, %[[C]] {has_bias = true} : (tensor<2x5xf32>, tensor<3x5xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   func.return %1 : tensor<2x3xf32>
func.func @dense(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>, %v: tensor<3x5xf32>) -> tensor<2x3xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.dense_bias_relu" (%x, %w, %b) : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<5x8xf32>, %c: tensor<5xf32>):
    %1 = relay.nn.dense %i, %k {units = 5} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
    %2 = relay.nn.bias_add %1, %c {axis = -1} : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
    %3 = relay.nn.relu %2 : tensor<2x5xf32>
    relay.yield %3 : tensor<2x5xf32>
  }
  %1 = relay.composite "accel.dense_bias" (%0, %v) : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32> {
  ^bb0(%i: tensor<2x5xf32>, %k: tensor<3x5xf32>):
    %c = relay.constant dense<1.0> : tensor<3xf32>
    %2 = relay.nn.dense %i, %k : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
    %3 = relay.nn.bias_add %2, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    relay.yield %3 : tensor<2x3xf32>
  }
  func.return %1 : tensor<2x3xf32>
}

// -----

/// conv2d_bias_relu with its bias an add of a (C, 1, 1) constant (what CanonicalizeOps and
/// FoldConstant make of a bias_add): the kernel's bias is a new (C,) constant of its values,
/// built right before the kernel; the body's constant is not copied out.
// CHECK-LABEL: func.func @conv2d_add_bias_relu
//  CHECK-NEXT:   %0 = relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
//  CHECK-NEXT:   %1 = accel.conv2d %x, %w, %0 {padding = [1, 1, 1, 1], has_bias = true, has_relu = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x4x8x8xf32>
func.func @conv2d_add_bias_relu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.conv2d_bias_relu" (%x, %w) {PartitionedFromPattern = "nn.conv2d_add_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
    %1 = relay.nn.conv2d %i, %k {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
    %c = relay.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
    %2 = relay.add %1, %c : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
    %3 = relay.nn.relu %2 : tensor<1x4x8x8xf32>
    relay.yield %3 : tensor<1x4x8x8xf32>
  }
  func.return %0 : tensor<1x4x8x8xf32>
}

// -----

/// conv2d_bias with the constant first, of shape (1, C, 1, 1), a splat: the same.
// CHECK-LABEL: func.func @conv2d_add_bias_left
//  CHECK-NEXT:   %0 = relay.constant dense<5.000000e-01> : tensor<2xf32>
//  CHECK-NEXT:   %1 = accel.conv2d %x, %w, %0 {has_bias = true} : (tensor<1x3x8x8xf32>, tensor<2x3x1x1xf32>, tensor<2xf32>) -> tensor<1x2x8x8xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x2x8x8xf32>
func.func @conv2d_add_bias_left(%x: tensor<1x3x8x8xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x8x8xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.conv2d_bias" (%w, %x) : (tensor<2x3x1x1xf32>, tensor<1x3x8x8xf32>) -> tensor<1x2x8x8xf32> {
  ^bb0(%k: tensor<2x3x1x1xf32>, %i: tensor<1x3x8x8xf32>):
    %c = relay.constant dense<0.5> : tensor<1x2x1x1xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x8x8xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x8x8xf32>
    %2 = relay.add %c, %1 : (tensor<1x2x1x1xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
    relay.yield %2 : tensor<1x2x8x8xf32>
  }
  func.return %0 : tensor<1x2x8x8xf32>
}

// -----

/// dense_bias_relu with a (C,) constant on the left, dense_bias with a (1, C) one.
// CHECK-LABEL: func.func @dense_add_bias
//  CHECK-NEXT:   %0 = relay.constant dense<[1.000000e+00, -2.000000e+00, 3.000000e+00]> : tensor<3xf32>
//  CHECK-NEXT:   %1 = accel.dense %x, %w, %0 {has_bias = true, has_relu = true} : (tensor<2x8xf32>, tensor<3x8xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %2 = relay.constant dense<[5.000000e+00, 6.000000e+00]> : tensor<2xf32>
//  CHECK-NEXT:   %3 = accel.dense %1, %v, %2 {has_bias = true} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x2xf32>
//  CHECK-NEXT:   func.return %3 : tensor<2x2xf32>
func.func @dense_add_bias(%x: tensor<2x8xf32>, %w: tensor<3x8xf32>, %v: tensor<2x3xf32>) -> tensor<2x2xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.dense_bias_relu" (%x, %w) : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<3x8xf32>):
    %c = relay.constant dense<[1.0, -2.0, 3.0]> : tensor<3xf32>
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
    %2 = relay.add %c, %1 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %3 = relay.nn.relu %2 : tensor<2x3xf32>
    relay.yield %3 : tensor<2x3xf32>
  }
  %1 = relay.composite "accel.dense_bias" (%0, %v) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32> {
  ^bb0(%i: tensor<2x3xf32>, %k: tensor<2x3xf32>):
    %1 = relay.nn.dense %i, %k : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    %c = relay.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
    %2 = relay.add %1, %c : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
    relay.yield %2 : tensor<2x2xf32>
  }
  func.return %1 : tensor<2x2xf32>
}

// -----

/// add_relu: accel.add with relu.
// CHECK-LABEL: func.func @add_relu
//  CHECK-NEXT:   %0 = accel.add %a, %b {has_relu = true} : tensor<1x4x2x2xf32>
//  CHECK-NEXT:   func.return %0 : tensor<1x4x2x2xf32>
func.func @add_relu(%a: tensor<1x4x2x2xf32>, %b: tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  %0 = relay.composite "accel.add_relu" (%a, %b) : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%l: tensor<1x4x2x2xf32>, %r: tensor<1x4x2x2xf32>):
    %1 = relay.add %l, %r : tensor<1x4x2x2xf32>
    %2 = relay.nn.relu %1 : tensor<1x4x2x2xf32>
    relay.yield %2 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// Single ops: each becomes its kernel with the same attributes (no bias, no relu).
// CHECK-LABEL: func.func @single_ops
//  CHECK-NEXT:   %c = accel.conv2d %x, %w {padding = [1, 1, 1, 1], channels = 4, kernel_size = [3, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %r = accel.relu %c : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %s = accel.add %r, %c : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %d = accel.subtract %s, %r : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %m = accel.multiply %d, %d : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %p = accel.max_pool2d %m {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x4x8x8xf32>) -> tensor<1x4x5x5xf32>
//  CHECK-NEXT:   %q = accel.avg_pool2d %p {count_include_pad = true, pool_size = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x4x5x5xf32>) -> tensor<1x4x6x6xf32>
//  CHECK-NEXT:   %g = accel.global_avg_pool2d %q : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
//  CHECK-NEXT:   %y = accel.dense %f, %u {units = 2} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
//  CHECK-NEXT:   func.return %g, %y : tensor<1x4x1x1xf32>, tensor<3x2xf32>
func.func @single_ops(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %f: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> (tensor<1x4x1x1xf32>, tensor<3x2xf32>) attributes {Compiler = "accel"} {
  %c = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], channels = 4, kernel_size = [3, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %c : tensor<1x4x8x8xf32>
  %s = relay.add %r, %c : tensor<1x4x8x8xf32>
  %d = relay.subtract %s, %r : tensor<1x4x8x8xf32>
  %m = relay.multiply %d, %d : tensor<1x4x8x8xf32>
  %p = relay.nn.max_pool2d %m {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x4x8x8xf32>) -> tensor<1x4x5x5xf32>
  %q = relay.nn.avg_pool2d %p {pool_size = [2, 2], padding = [1, 1, 1, 1], count_include_pad = true} : (tensor<1x4x5x5xf32>) -> tensor<1x4x6x6xf32>
  %g = relay.nn.global_avg_pool2d %q : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
  %y = relay.nn.dense %f, %u {units = 2} : (tensor<3x4xf32>, tensor<2x4xf32>) -> tensor<3x2xf32>
  func.return %g, %y : tensor<1x4x1x1xf32>, tensor<3x2xf32>
}

// -----

/// batch_norm with its field 0 read (twice): one accel.batch_norm, the tuple_get_items gone;
/// relay.tuple and a tuple_get_item of it stay.
// CHECK-LABEL: func.func @batch_norm
//  CHECK-NEXT:   %n = accel.batch_norm %x, %g, %b, %m, %v {epsilon = 0.001, center = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %s = accel.add %n, %n : tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %t = relay.tuple %s, %n : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>>
//  CHECK-NEXT:   %e = relay.tuple_get_item %t {index = 1} : (tuple<tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   func.return %e : tensor<1x4x2x2xf32>
func.func @batch_norm(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  %bn = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-03, center = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  %n = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x4x2x2xf32>
  %n2 = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x4x2x2xf32>
  %s = relay.add %n, %n2 : tensor<1x4x2x2xf32>
  %t = relay.tuple %s, %n : (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>>
  %e = relay.tuple_get_item %t {index = 1} : (tuple<tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>>) -> tensor<1x4x2x2xf32>
  func.return %e : tensor<1x4x2x2xf32>
}

// -----

/// batch_norm returned whole (as PartitionGraph lifts it when the host reads its field 0):
/// the kernel, then a relay.tuple of it and the moving mean and variance operands, of the
/// batch_norm's tuple type, named as the batch_norm was.
// CHECK-LABEL: func.func @batch_norm_whole
//  CHECK-NEXT:   %0 = accel.batch_norm %x, %g, %b, %m, %v {epsilon = 0.01} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %bn = relay.tuple %0, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
//  CHECK-NEXT:   func.return %bn : tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
func.func @batch_norm_whole(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>> attributes {Compiler = "accel"} {
  %bn = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 1.0e-02} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  func.return %bn : tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

/// batch_norm whose fields 1 and 2 are read: the reads become its moving_mean and moving_var
/// operands (here the outputs of a first batch_norm's fields 1 and 2, themselves its operands);
/// the kernels stay, unnamed when no field 0 is read.
// CHECK-LABEL: func.func @batch_norm_fields
//  CHECK-NEXT:   %n = accel.batch_norm %x, %g, %b, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %0 = accel.batch_norm %n, %g, %b, %m, %v {center = false, scale = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %s = accel.add %m, %v : tensor<4xf32>
//  CHECK-NEXT:   func.return %s, %m : tensor<4xf32>, tensor<4xf32>
func.func @batch_norm_fields(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {Compiler = "accel"} {
  %bn = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  %n = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x4x2x2xf32>
  %m1 = relay.tuple_get_item %bn {index = 1} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %v1 = relay.tuple_get_item %bn {index = 2} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %bn2 = relay.nn.batch_norm %n, %g, %b, %m1, %v1 {center = false, scale = false} : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  %m2 = relay.tuple_get_item %bn2 {index = 1} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %v2 = relay.tuple_get_item %bn2 {index = 2} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %s = relay.add %m2, %v2 : tensor<4xf32>
  func.return %s, %m2 : tensor<4xf32>, tensor<4xf32>
}

// -----

/// batch_norm read every way: field 0 (which names the kernel), field 2, and whole, twice (in a
/// relay.tuple and returned); one relay.tuple rebuilt for both whole uses.
// CHECK-LABEL: func.func @batch_norm_mixed
//  CHECK-NEXT:   %n = accel.batch_norm %x, %g, %b, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %bn = relay.tuple %n, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
//  CHECK-NEXT:   %r = accel.relu %n : tensor<1x4x2x2xf32>
//  CHECK-NEXT:   %t = relay.tuple %bn, %v : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>) -> tuple<tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>
//  CHECK-NEXT:   func.return %t, %bn, %r : tuple<tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>, tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<1x4x2x2xf32>
func.func @batch_norm_mixed(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> (tuple<tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>, tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<1x4x2x2xf32>) attributes {Compiler = "accel"} {
  %bn = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  %n = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x4x2x2xf32>
  %r = relay.nn.relu %n : tensor<1x4x2x2xf32>
  %var = relay.tuple_get_item %bn {index = 2} : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %t = relay.tuple %bn, %var : (tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>) -> tuple<tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>
  func.return %t, %bn, %r : tuple<tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>, tuple<tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>>, tensor<1x4x2x2xf32>
}

// -----

/// keep_host: functions without Compiler = "accel" are untouched, even with ops and composites
/// accel takes (a host function, a dnnl function); only the accel function is lowered.
// CHECK-LABEL: func.func @keep_dnnl
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<4xf32>
// CHECK-LABEL: func.func @lowered
//  CHECK-NEXT:   %0 = accel.relu %x : tensor<4xf32>
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %0 = relay.composite "accel.add_relu" (%x, %x)
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     relay.add
//  CHECK-NEXT:     relay.nn.relu
//  CHECK-NEXT:     relay.yield
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %1 = relay.nn.relu %0 : tensor<4xf32>
//  CHECK-NEXT:   %2 = relay.tanh %1 : tensor<4xf32>
//  CHECK-NEXT:   %3 = func.call @keep_dnnl(%2)
//  CHECK-NEXT:   %4 = func.call @lowered(%3)
func.func @keep_dnnl(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @lowered(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.composite "accel.add_relu" (%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    %1 = relay.add %l, %r : tensor<4xf32>
    %2 = relay.nn.relu %1 : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  }
  %1 = relay.nn.relu %0 : tensor<4xf32>
  %2 = relay.tanh %1 : tensor<4xf32>
  %3 = func.call @keep_dnnl(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = func.call @lowered(%3) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %4 : tensor<4xf32>
}
