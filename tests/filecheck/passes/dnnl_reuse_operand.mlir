// RUN: xrelay-opt %s --split-input-file -p plan-memory | filecheck %s

/// `xrelay.reuse_operand = k` (set by convert-relay-to-dnnl on a sum post-op): the result takes
/// operand k's buffer when this op is that buffer's last use and no other operand reads it.
/// Granted: %c is written over %a (offset 0), so the three 1 KiB values need 2 KiB, not 3.
// CHECK-LABEL: func.func @main
//  CHECK-SAME:   xrelay.arena_size = 2048 : i64, xrelay.peak_live = 2048 : i64
//  CHECK-NEXT:   dnnl.relu %x {xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.tanh %x {xrelay.buffers = [1024 : i64]}
//  CHECK-NEXT:   dnnl.conv2d {{.*}}xrelay.reuse_operand = 2 : i64, xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.sigmoid {{.*}}xrelay.buffers = ["out:0"]}
func.func @main(%x: tensor<1x4x4x16xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x4x4x16xf32> {
  %a = dnnl.relu %x : tensor<1x4x4x16xf32>
  %b = dnnl.tanh %x : tensor<1x4x4x16xf32>
  %c = dnnl.conv2d %b, %w, %a {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %d = dnnl.sigmoid %c : tensor<1x4x4x16xf32>
  func.return %d : tensor<1x4x4x16xf32>
}

// -----

/// Refused: the summand is read again after the op (%d), so the result gets its own buffer.
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   dnnl.relu %x {xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.tanh %x {xrelay.buffers = [1024 : i64]}
//  CHECK-NEXT:   dnnl.conv2d {{.*}}xrelay.reuse_operand = 2 : i64, xrelay.buffers = [2048 : i64]}
//  CHECK-NEXT:   dnnl.add %c, %a {xrelay.buffers = ["out:0"]}
func.func @main(%x: tensor<1x4x4x16xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x4x4x16xf32> {
  %a = dnnl.relu %x : tensor<1x4x4x16xf32>
  %b = dnnl.tanh %x : tensor<1x4x4x16xf32>
  %c = dnnl.conv2d %b, %w, %a {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %d = dnnl.add %c, %a : (tensor<1x4x4x16xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  func.return %d : tensor<1x4x4x16xf32>
}

// -----

/// Refused: the summand is also the convolution's data (read while the result is written),
/// a parameter (the caller's), a constant, or read later through an alias (%r, a reshape of %e,
/// is returned: %e is output 1, %g gets output 0). An index out of range is ignored.
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   dnnl.relu %x {xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.conv2d %a, %w, %a {{.*}}xrelay.buffers = [1024 : i64]}
//  CHECK-NEXT:   dnnl.conv2d %c, %w, %x {{.*}}xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   relay.constant {xrelay.buffers = ["const"]}
//  CHECK-NEXT:   dnnl.conv2d %d, %w, %k {{.*}}xrelay.buffers = ["out:1"]}
//  CHECK-NEXT:   relay.reshape %e {{.*}}xrelay.buffers = ["alias"]}
//  CHECK-NEXT:   dnnl.conv2d %e, %w, %e {{.*}}xrelay.reuse_operand = 7 : i64, xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.conv2d %f, %w, %e {{.*}}xrelay.buffers = ["out:0"]}
//  CHECK-NEXT:   func.return {xrelay.outputs = ["in_place", "in_place"]}
func.func @main(%x: tensor<1x4x4x16xf32>, %w: tensor<16x16x3x3xf32>) -> (tensor<1x4x4x16xf32>, tensor<256xf32>) {
  %a = dnnl.relu %x : tensor<1x4x4x16xf32>
  %c = dnnl.conv2d %a, %w, %a {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %d = dnnl.conv2d %c, %w, %x {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %k = relay.constant dense<1.0> : tensor<1x4x4x16xf32>
  %e = dnnl.conv2d %d, %w, %k {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %r = relay.reshape %e {newshape = [256]} : (tensor<1x4x4x16xf32>) -> tensor<256xf32>
  %f = dnnl.conv2d %e, %w, %e {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 7 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %g = dnnl.conv2d %f, %w, %e {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  func.return %g, %r : tensor<1x4x4x16xf32>, tensor<256xf32>
}

// -----

/// A chain of sums, the last one returned: every result takes the first summand's buffer,
/// which is therefore the function's output (%a writes out:0, nothing is copied).
// CHECK-LABEL: func.func @main
//  CHECK-SAME:   xrelay.arena_size = 1024 : i64
//  CHECK-NEXT:   dnnl.relu %x {xrelay.buffers = ["out:0"]}
//  CHECK-NEXT:   dnnl.tanh %x {xrelay.buffers = [0 : i64]}
//  CHECK-NEXT:   dnnl.conv2d %b, %w, %a {{.*}}xrelay.buffers = ["out:0"]}
//  CHECK-NEXT:   dnnl.conv2d %b, %w, %c {{.*}}xrelay.buffers = ["out:0"]}
//  CHECK-NEXT:   func.return {xrelay.outputs = ["in_place"]}
func.func @main(%x: tensor<1x4x4x16xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<1x4x4x16xf32> {
  %a = dnnl.relu %x : tensor<1x4x4x16xf32>
  %b = dnnl.tanh %x : tensor<1x4x4x16xf32>
  %c = dnnl.conv2d %b, %w, %a {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  %d = dnnl.conv2d %b, %w, %c {padding = [1, 1, 1, 1], data_layout = "NHWC", has_sum = true, xrelay.reuse_operand = 2 : i64} : (tensor<1x4x4x16xf32>, tensor<16x16x3x3xf32>, tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32>
  func.return %d : tensor<1x4x4x16xf32>
}
