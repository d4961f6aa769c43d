// RUN: xrelay-opt %s -p canonicalize-ops --split-input-file | filecheck %s

/// NCHW (axis 1 of rank 4): the bias gets two trailing unit dims, then a broadcasting add.
// CHECK-LABEL: @fold_nchw
//  CHECK-NEXT:   %0 = relay.expand_dims %b {axis = 1, num_newaxis = 2} : (tensor<4xf32>) -> tensor<4x1x1xf32>
//  CHECK-NEXT:   %1 = relay.add %x, %0 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x4x8x8xf32>
func.func @fold_nchw(%x: tensor<1x4x8x8xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  func.return %0 : tensor<1x4x8x8xf32>
}

// -----

/// NHWC (axis 3, the last): the bias already broadcasts, so no expand_dims.
// CHECK-LABEL: @fold_nhwc
//  CHECK-NEXT:   %0 = relay.add %x, %b : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
//  CHECK-NEXT:   func.return %0
func.func @fold_nhwc(%x: tensor<1x8x8x4xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = relay.nn.bias_add %x, %b {axis = 3} : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  func.return %0 : tensor<1x8x8x4xf32>
}

// -----

/// A negative axis counts from the end: -1 is NHWC's channel axis.
// CHECK-LABEL: @fold_negative_last_axis
//  CHECK-NEXT:   %0 = relay.add %x, %b : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
//  CHECK-NEXT:   func.return %0
func.func @fold_negative_last_axis(%x: tensor<1x8x8x4xf32>, %b: tensor<4xf32>) -> tensor<1x8x8x4xf32> {
  %0 = relay.nn.bias_add %x, %b {axis = -1} : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  func.return %0 : tensor<1x8x8x4xf32>
}

// -----

/// -3 on rank 4 is axis 1 (NCHW): two trailing unit dims, as for axis 1.
// CHECK-LABEL: @fold_negative_axis
//  CHECK-NEXT:   %0 = relay.expand_dims %b {axis = 1, num_newaxis = 2} : (tensor<4xf32>) -> tensor<4x1x1xf32>
//  CHECK-NEXT:   %1 = relay.add %x, %0
func.func @fold_negative_axis(%x: tensor<1x4x8x8xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.bias_add %x, %b {axis = -3} : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  func.return %0 : tensor<1x4x8x8xf32>
}

// -----

/// A dense output (rank 2, axis 1) broadcasts as it is; axis 0 needs one unit dim.
// CHECK-LABEL: @fold_dense
//  CHECK-NEXT:   %0 = relay.nn.dense %x, %w
//  CHECK-NEXT:   %1 = relay.add %0, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
//  CHECK-NEXT:   %2 = relay.expand_dims %c {axis = 1} : (tensor<2xf32>) -> tensor<2x1xf32>
//  CHECK-NEXT:   %3 = relay.add %1, %2 : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
//  CHECK-NEXT:   func.return %3
func.func @fold_dense(%x: tensor<2x16xf32>, %w: tensor<8x16xf32>, %b: tensor<8xf32>, %c: tensor<2xf32>) -> tensor<2x8xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x16xf32>, tensor<8x16xf32>) -> tensor<2x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %2 = relay.nn.bias_add %1, %c {axis = 0} : (tensor<2x8xf32>, tensor<2xf32>) -> tensor<2x8xf32>
  func.return %2 : tensor<2x8xf32>
}

// -----

/// The add keeps bias_add's result type (dynamic dims stay as declared).
// CHECK-LABEL: @fold_dynamic
//  CHECK-NEXT:   %0 = relay.expand_dims %b {axis = 1, num_newaxis = 2} : (tensor<?xf32>) -> tensor<?x1x1xf32>
//  CHECK-NEXT:   %1 = relay.add %x, %0 : (tensor<?x4x?x?xf32>, tensor<?x1x1xf32>) -> tensor<?x4x?x?xf32>
//  CHECK-NEXT:   func.return %1 : tensor<?x4x?x?xf32>
func.func @fold_dynamic(%x: tensor<?x4x?x?xf32>, %b: tensor<?xf32>) -> tensor<?x4x?x?xf32> {
  %0 = relay.nn.bias_add %x, %b : (tensor<?x4x?x?xf32>, tensor<?xf32>) -> tensor<?x4x?x?xf32>
  func.return %0 : tensor<?x4x?x?xf32>
}

// -----

/// bias_add inside a relay.if branch is rewritten too.
// CHECK-LABEL: @fold_in_branch
//       CHECK:   relay.if %c
//  CHECK-NEXT:     %1 = relay.expand_dims %b {axis = 1, num_newaxis = 2}
//  CHECK-NEXT:     %2 = relay.add %x, %1
//  CHECK-NEXT:     relay.yield %2
func.func @fold_in_branch(%c: tensor<i1>, %x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<1x4x2x2xf32> {
    %1 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %1 : tensor<1x4x2x2xf32>
  } else {
    relay.yield %x : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// Other ops are untouched, a plain add included.
// CHECK-LABEL: @keep_other_ops
//  CHECK-NEXT:   %0 = relay.nn.relu %x
//  CHECK-NEXT:   %1 = relay.add %0, %b
//  CHECK-NEXT:   %2 = relay.nn.softmax %1
//  CHECK-NEXT:   func.return %2
func.func @keep_other_ops(%x: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %0 = relay.nn.relu %x : tensor<2x4xf32>
  %1 = relay.add %0, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %2 = relay.nn.softmax %1 : tensor<2x4xf32>
  func.return %2 : tensor<2x4xf32>
}

// -----

/// A composite body keeps its bias_add (the backend expects the matched pattern).
// CHECK-LABEL: @keep_composite
//       CHECK:   ^bb0
//  CHECK-NEXT:     relay.nn.bias_add
func.func @keep_composite(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  %0 = relay.composite "accel.bias_add" (%x, %b) : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%i: tensor<1x4x2x2xf32>, %j: tensor<4xf32>):
    %1 = relay.nn.bias_add %i, %j : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %1 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// A function for an external compiler is skipped.
// CHECK-LABEL: @keep_external
//  CHECK-NEXT:   relay.nn.bias_add
func.func @keep_external(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  func.return %0 : tensor<1x4x2x2xf32>
}
