// RUN: xrelay-opt %s -p convert-relay-to-dnnl --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'convert-relay-to-dnnl{layout=keep}' --split-input-file | filecheck %s --check-prefix=KEEP

/// A residual block: conv2d_bias_relu, then conv2d_bias_sum_relu adding the first one's
/// result. The convolutions run on NHWC activations: one reorder of the input in, the first
/// result feeds the second conv and its sum post-op directly, one reorder of the result out.
/// With layout=keep the convolutions run NCHW and nothing is reordered. The sum post-op offers
/// plan-memory its operand #3 for the result (xrelay.reuse_operand): oneDNN accumulates there.
// CHECK-LABEL: func.func @residual
//  CHECK-NEXT:   %w = relay.constant
//  CHECK-NEXT:   %b = relay.constant
//  CHECK-NEXT:   %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x4x8x8xf32>) -> tensor<1x8x8x4xf32>
//  CHECK-NEXT:   %1 = dnnl.conv2d %0, %w, %b {padding = [1, 1, 1, 1], data_layout = "NHWC", has_bias = true, eltwise = "relu"} : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
//  CHECK-NEXT:   %2 = dnnl.conv2d %1, %w, %b, %1 {padding = [1, 1, 1, 1], data_layout = "NHWC", has_bias = true, has_sum = true, eltwise = "relu", xrelay.reuse_operand = 3 : i64} : (tensor<1x8x8x4xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
//  CHECK-NEXT:   %3 = dnnl.reorder %2 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   func.return %3 : tensor<1x4x8x8xf32>
// KEEP-LABEL: func.func @residual
//   KEEP-NEXT:   %w = relay.constant
//   KEEP-NEXT:   %b = relay.constant
//   KEEP-NEXT:   %0 = dnnl.conv2d %x, %w, %b {padding = [1, 1, 1, 1], has_bias = true, eltwise = "relu"} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
//   KEEP-NEXT:   %1 = dnnl.conv2d %0, %w, %b, %0 {padding = [1, 1, 1, 1], has_bias = true, has_sum = true, eltwise = "relu", xrelay.reuse_operand = 3 : i64} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
//   KEEP-NEXT:   func.return %1 : tensor<1x4x8x8xf32>
func.func @residual(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> attributes {Compiler = "dnnl"} {
  %w = relay.constant dense<0.5> : tensor<4x4x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<4xf32>
  %0 = relay.composite "dnnl.conv2d_bias_relu" (%x, %w, %b) : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%i: tensor<1x4x8x8xf32>, %k: tensor<4x4x3x3xf32>, %c: tensor<4xf32>):
    %1 = relay.nn.conv2d %i, %k {padding = [1, 1, 1, 1]} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
    %2 = relay.nn.bias_add %1, %c : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    %3 = relay.nn.relu %2 : tensor<1x4x8x8xf32>
    relay.yield %3 : tensor<1x4x8x8xf32>
  }
  %1 = relay.composite "dnnl.conv2d_bias_sum_relu" (%0, %w, %b) : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%i: tensor<1x4x8x8xf32>, %k: tensor<4x4x3x3xf32>, %c: tensor<4xf32>):
    %2 = relay.nn.conv2d %i, %k {padding = [1, 1, 1, 1]} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
    %3 = relay.nn.bias_add %2, %c : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    %4 = relay.add %i, %3 : tensor<1x4x8x8xf32>
    %5 = relay.nn.relu %4 : tensor<1x4x8x8xf32>
    relay.yield %5 : tensor<1x4x8x8xf32>
  }
  func.return %1 : tensor<1x4x8x8xf32>
}

// -----

/// The bias added by `add`: a (C, 1, 1) body constant becomes a (C,) constant; a (1, C, 1, 1)
/// input is read through a relay.reshape (the same bytes). An NHWC conv2d runs as written.
// CHECK-LABEL: func.func @bias_by_add
//  CHECK-NEXT:   %0 = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//  CHECK-NEXT:   %1 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x3x6x6xf32>) -> tensor<1x6x6x3xf32>
//  CHECK-NEXT:   %2 = dnnl.conv2d %1, %w, %0 {data_layout = "NHWC", has_bias = true} : (tensor<1x6x6x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
//  CHECK-NEXT:   %3 = dnnl.reorder %2 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:   %4 = relay.reshape %p {newshape = [2]} : (tensor<1x2x1x1xf32>) -> tensor<2xf32>
//  CHECK-NEXT:   %5 = dnnl.conv2d %1, %w, %4 {data_layout = "NHWC", has_bias = true, eltwise = "tanh"} : (tensor<1x6x6x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
//  CHECK-NEXT:   %6 = dnnl.reorder %5 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x4x4xf32>
//  CHECK-NEXT:   %7 = dnnl.conv2d %y, %v {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x4x4x2xf32>
//  CHECK-NEXT:   func.return %3, %6, %7 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>
// KEEP-LABEL: func.func @bias_by_add
//   KEEP-NEXT:   %0 = relay.constant
//   KEEP-NEXT:   %1 = dnnl.conv2d %x, %w, %0 {has_bias = true} : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
//   KEEP-NEXT:   %2 = relay.reshape %p {newshape = [2]} : (tensor<1x2x1x1xf32>) -> tensor<2xf32>
//   KEEP-NEXT:   %3 = dnnl.conv2d %x, %w, %2 {has_bias = true, eltwise = "tanh"} : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
//   KEEP-NEXT:   %4 = dnnl.conv2d %y, %v {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x4x4x2xf32>
//   KEEP-NEXT:   func.return %1, %3, %4 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>
func.func @bias_by_add(%x: tensor<1x3x6x6xf32>, %w: tensor<2x3x3x3xf32>, %p: tensor<1x2x1x1xf32>, %y: tensor<1x6x6x3xf32>, %v: tensor<3x3x3x2xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>) attributes {Compiler = "dnnl"} {
  %0 = relay.composite "dnnl.conv2d_bias" (%x, %w) : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%i: tensor<1x3x6x6xf32>, %k: tensor<2x3x3x3xf32>):
    %c = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
    %2 = relay.add %c, %1 : (tensor<2x1x1xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    relay.yield %2 : tensor<1x2x4x4xf32>
  }
  %1 = relay.composite "dnnl.conv2d_bias_tanh" (%x, %w, %p) : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%i: tensor<1x3x6x6xf32>, %k: tensor<2x3x3x3xf32>, %c: tensor<1x2x1x1xf32>):
    %2 = relay.nn.conv2d %i, %k : (tensor<1x3x6x6xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
    %3 = relay.add %2, %c : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %4 = relay.tanh %3 : tensor<1x2x4x4xf32>
    relay.yield %4 : tensor<1x2x4x4xf32>
  }
  %2 = relay.nn.conv2d %y, %v {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x4x4x2xf32>
  func.return %0, %1, %2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x4x4x2xf32>
}

// -----

/// Ops following an NHWC convolution run NHWC too: relu, a multiply by a 4-D constant (its
/// value transposed at compile time) and by a parameter (reordered once), a batch_norm of
/// axis 1 (now 3). A value returned is reordered back once, where it is made.
// CHECK-LABEL: func.func @following
//  CHECK-NEXT:   %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x2x3x3xf32>) -> tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %1 = dnnl.conv2d %0, %w {data_layout = "NHWC"} : (tensor<1x3x3x2xf32>, tensor<2x2x1x1xf32>) -> tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %2 = dnnl.relu %1 : tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %3 = dnnl.reorder %2 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
//  CHECK-NEXT:   %4 = relay.constant dense<[[[[1.000000e+00, -1.000000e+00], [2.000000e+00, -2.000000e+00], [3.000000e+00, -3.000000e+00]], [[4.000000e+00, -4.000000e+00], [5.000000e+00, -5.000000e+00], [6.000000e+00, -6.000000e+00]], [[7.000000e+00, -7.000000e+00], [8.000000e+00, -8.000000e+00], [9.000000e+00, -9.000000e+00]]]]> : tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %5 = dnnl.multiply %2, %4 : tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %6 = dnnl.reorder %q {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x2x3x3xf32>) -> tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %7 = dnnl.multiply %6, %5 : tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %8 = dnnl.batch_norm %7, %s, %s, %s, %s {axis = 3} : (tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
//  CHECK-NEXT:   %9 = dnnl.reorder %8 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x3x3x2xf32>) -> tensor<1x2x3x3xf32>
//  CHECK-NEXT:   func.return %9, %3 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
// KEEP-LABEL: func.func @following
//   KEEP-NEXT:   %c = relay.constant
//   KEEP-NEXT:   %0 = dnnl.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
//   KEEP-NEXT:   %1 = dnnl.relu %0 : tensor<1x2x3x3xf32>
//   KEEP-NEXT:   %2 = dnnl.multiply %1, %c : tensor<1x2x3x3xf32>
//   KEEP-NEXT:   %3 = dnnl.multiply %q, %2 : tensor<1x2x3x3xf32>
//   KEEP-NEXT:   %4 = dnnl.batch_norm %3, %s, %s, %s, %s : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
//   KEEP-NEXT:   func.return %4, %1 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
func.func @following(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %q: tensor<1x2x3x3xf32>, %s: tensor<2xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) attributes {Compiler = "dnnl"} {
  %c = relay.constant dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0], [-7.0, -8.0, -9.0]]]]> : tensor<1x2x3x3xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %1 = relay.nn.relu %0 : tensor<1x2x3x3xf32>
  %2 = relay.multiply %1, %c : tensor<1x2x3x3xf32>
  %3 = relay.multiply %q, %2 : tensor<1x2x3x3xf32>
  %4 = relay.nn.batch_norm %3, %s, %s, %s, %s : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %5 = relay.tuple_get_item %4 {index = 0} : (tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x3x3xf32>
  func.return %5, %1 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// -----

/// dense composites: bias with sigmoid (the bias an `add` of a (1, C) constant, made (C,)),
/// bias_add with relu; single binary ops: an add whose lhs is the broadcast one is swapped,
/// a subtract whose rhs broadcasts is kept.
// CHECK-LABEL: func.func @dense_and_binary
//  CHECK-NEXT:   %0 = relay.constant dense<5.000000e-01> : tensor<5xf32>
//  CHECK-NEXT:   %1 = dnnl.dense %x, %w, %0 {has_bias = true, eltwise = "sigmoid"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//  CHECK-NEXT:   %2 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "relu"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//  CHECK-NEXT:   %3 = dnnl.add %1, %r : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//  CHECK-NEXT:   %4 = dnnl.subtract %2, %r : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//  CHECK-NEXT:   func.return %3, %4 : tensor<2x5xf32>, tensor<2x5xf32>
// KEEP-LABEL: func.func @dense_and_binary
//   KEEP-NEXT:   %0 = relay.constant
//   KEEP-NEXT:   %1 = dnnl.dense %x, %w, %0 {has_bias = true, eltwise = "sigmoid"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//   KEEP-NEXT:   %2 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "relu"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//   KEEP-NEXT:   %3 = dnnl.add %1, %r : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//   KEEP-NEXT:   %4 = dnnl.subtract %2, %r : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
//   KEEP-NEXT:   func.return %3, %4 : tensor<2x5xf32>, tensor<2x5xf32>
func.func @dense_and_binary(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>, %r: tensor<5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) attributes {Compiler = "dnnl"} {
  %0 = relay.composite "dnnl.dense_bias_sigmoid" (%x, %w) : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<5x8xf32>):
    %c = relay.constant dense<0.5> : tensor<1x5xf32>
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
    %2 = relay.add %1, %c : (tensor<2x5xf32>, tensor<1x5xf32>) -> tensor<2x5xf32>
    %3 = relay.sigmoid %2 : tensor<2x5xf32>
    relay.yield %3 : tensor<2x5xf32>
  }
  %1 = relay.composite "dnnl.dense_bias_relu" (%x, %w, %b) : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<5x8xf32>, %c: tensor<5xf32>):
    %2 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
    %3 = relay.nn.bias_add %2, %c {axis = -1} : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
    %4 = relay.nn.relu %3 : tensor<2x5xf32>
    relay.yield %4 : tensor<2x5xf32>
  }
  %2 = relay.add %r, %0 : (tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %3 = relay.subtract %1, %r : (tensor<2x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %2, %3 : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

/// batch_norm read whole: one dnnl.batch_norm (the data), a relay.tuple of it and the moving
/// statistics; its field 1 is the moving_mean operand.
// CHECK-LABEL: func.func @batch_norm_tuple
//  CHECK-NEXT:   %0 = dnnl.batch_norm %x, %s, %s, %m, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  CHECK-NEXT:   %1 = relay.tuple %0, %m, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
//  CHECK-NEXT:   func.return %1, %m : tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>
// KEEP-LABEL: func.func @batch_norm_tuple
//   KEEP-NEXT:   %0 = dnnl.batch_norm %x, %s, %s, %m, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//   KEEP-NEXT:   %1 = relay.tuple %0, %m, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
//   KEEP-NEXT:   func.return %1, %m : tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>
func.func @batch_norm_tuple(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %m: tensor<3xf32>) -> (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>) attributes {Compiler = "dnnl"} {
  %0 = relay.nn.batch_norm %x, %s, %s, %m, %s : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 1} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  func.return %0, %1 : tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>, tensor<3xf32>
}

// -----

/// Functions not partitioned for dnnl are left alone.
// CHECK-LABEL: func.func @host
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<4xf32>
//  CHECK-NEXT:   func.return %0 : tensor<4xf32>
// KEEP-LABEL: func.func @host
//   KEEP-NEXT:   %0 = relay.nn.relu %x : tensor<4xf32>
//   KEEP-NEXT:   func.return %0 : tensor<4xf32>
func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
// -----

/// A transposition that only moves axes of extent 1 is a relay.reshape (the same bytes): the
/// 1x1 convolution's input of one pixel and its result of one channel.
// CHECK-LABEL: func.func @unit_axes
//  CHECK-NEXT:   %0 = relay.reshape %x {newshape = [1, 1, 1, 8]} : (tensor<1x8x1x1xf32>) -> tensor<1x1x1x8xf32>
//  CHECK-NEXT:   %1 = dnnl.conv2d %0, %w {data_layout = "NHWC"} : (tensor<1x1x1x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x1x1x1xf32>
//  CHECK-NEXT:   %2 = relay.reshape %1 {newshape = [1, 1, 1, 1]} : tensor<1x1x1x1xf32>
//  CHECK-NEXT:   func.return %2 : tensor<1x1x1x1xf32>
// KEEP-LABEL: func.func @unit_axes
//   KEEP-NEXT:   %0 = dnnl.conv2d %x, %w : (tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) -> tensor<1x1x1x1xf32>
//   KEEP-NEXT:   func.return %0 : tensor<1x1x1x1xf32>
func.func @unit_axes(%x: tensor<1x8x1x1xf32>, %w: tensor<1x8x1x1xf32>) -> tensor<1x1x1x1xf32> attributes {Compiler = "dnnl"} {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) -> tensor<1x1x1x1xf32>
  func.return %0 : tensor<1x1x1x1xf32>
}

// -----

/// An NHWC max_pool2d (the layout its predicate asks for) runs as written, after an NHWC
/// convolution, with no reorder.
// CHECK-LABEL: func.func @nhwc_pool
//  CHECK-NEXT:   %0 = dnnl.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
//  CHECK-NEXT:   %1 = dnnl.max_pool2d %0 {pool_size = [2, 2], strides = [2, 2], layout = "NHWC"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
//  CHECK-NEXT:   func.return %1 : tensor<1x2x2x2xf32>
// KEEP-LABEL: func.func @nhwc_pool
func.func @nhwc_pool(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x2xf32>) -> tensor<1x2x2x2xf32> attributes {Compiler = "dnnl"} {
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], strides = [2, 2], layout = "NHWC"} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %1 : tensor<1x2x2x2xf32>
}
