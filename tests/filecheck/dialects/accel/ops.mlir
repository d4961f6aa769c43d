// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: xrelay-opt %s --split-input-file --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=MLIR

/// conv2d: every relay conv2d attribute plus has_bias/has_relu; without bias, bias only, relu
/// only (defaults omitted in custom form); NHWC/HWIO with the bias along the channels (last).
// CHECK-LABEL: func.func @conv2d
// MLIR-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x4x9x9xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>, %y: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x6xf32>, %c: tensor<6xf32>) -> tensor<1x4x5x6xf32> {
  // CHECK-NEXT: %0 = accel.conv2d %x, %w, %b {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32, has_bias = true, has_relu = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x6xf32>
  // CHECK-NEXT: %1 = accel.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %2 = accel.conv2d %x, %w, %b {groups = 2, has_bias = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %3 = accel.conv2d %x, %w {groups = 2, has_relu = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %4 = accel.conv2d %y, %k, %c {data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // GENERIC: "accel.conv2d"(%x, %w, %b) <{strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64, channels = 4 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW", out_dtype = f32, has_bias = true, has_residual = false, has_relu = true}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x6xf32>
  // GENERIC: "accel.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = false, has_residual = false, has_relu = false}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: "accel.conv2d"(%x, %w, %b) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = true, has_residual = false, has_relu = false}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: "accel.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = false, has_residual = false, has_relu = true}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: "accel.conv2d"(%y, %k, %c) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true, has_residual = false, has_relu = false}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // MLIR: "accel.conv2d"(%arg0, %arg1, %arg2) <{channels = 4 : i64, data_layout = "NCHW", dilation = array<i64: 1, 2>, groups = 2 : i64, has_bias = true, has_relu = true, has_residual = false, kernel_layout = "OIHW", kernel_size = array<i64: 3, 3>, out_dtype = f32, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x6xf32>
  %0 = accel.conv2d %x, %w, %b {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32, has_bias = true, has_relu = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x5x6xf32>
  %1 = accel.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  %2 = accel.conv2d %x, %w, %b {groups = 2, has_bias = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  %3 = accel.conv2d %x, %w {groups = 2, has_relu = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  %4 = accel.conv2d %y, %k, %c {data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x4x5x6xf32>
}

// -----

/// conv2d with a residual (the last operand, after the bias; has_residual): with and
/// without a bias, NHWC (the residual has the result's type and layout).
// CHECK-LABEL: func.func @conv2d_residual
// MLIR-LABEL: func.func @conv2d_residual
func.func @conv2d_residual(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x8x8xf32>, %y: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x4xf32>, %s: tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32> {
  // CHECK-NEXT: %0 = accel.conv2d %x, %w, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true, has_relu = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // CHECK-NEXT: %1 = accel.conv2d %x, %w, %0 {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  // CHECK-NEXT: %2 = accel.conv2d %y, %k, %s {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO", has_residual = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  // GENERIC: "accel.conv2d"(%x, %w, %b, %r) <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = true, has_residual = true, has_relu = true
  // MLIR: "accel.conv2d"(%arg0, %arg1, %arg2, %arg3) <{data_layout = "NCHW", dilation = array<i64: 1, 1>, groups = 1 : i64, has_bias = true, has_relu = true, has_residual = true,
  %0 = accel.conv2d %x, %w, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true, has_relu = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %1 = accel.conv2d %x, %w, %0 {padding = [1, 1, 1, 1], has_residual = true} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %2 = accel.conv2d %y, %k, %s {padding = [1, 1, 1, 1], data_layout = "NHWC", kernel_layout = "HWIO", has_residual = true} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  func.return %1 : tensor<1x4x8x8xf32>
}

// -----

/// dense: units, out_dtype, bias and relu; without bias; bias without relu.
// CHECK-LABEL: func.func @dense
// MLIR-LABEL: func.func @dense
func.func @dense(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  // CHECK-NEXT: %0 = accel.dense %x, %w, %b {units = 5, out_dtype = f32, has_bias = true, has_relu = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %1 = accel.dense %x, %w : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %2 = accel.dense %x, %w, %b {has_bias = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // GENERIC: "accel.dense"(%x, %w, %b) <{units = 5 : i64, out_dtype = f32, has_bias = true, has_relu = true}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // GENERIC: "accel.dense"(%x, %w) <{has_bias = false, has_relu = false}> : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // GENERIC: "accel.dense"(%x, %w, %b) <{has_bias = true, has_relu = false}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // MLIR: "accel.dense"(%arg0, %arg1, %arg2) <{has_bias = true, has_relu = true, out_dtype = f32, units = 5 : i64}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %0 = accel.dense %x, %w, %b {units = 5, out_dtype = f32, has_bias = true, has_relu = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %1 = accel.dense %x, %w : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  %2 = accel.dense %x, %w, %b {has_bias = true} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

/// Pools: max with every attribute (a default layout written out is omitted), avg with
/// count_include_pad and 1-value padding, NHWC avg, global avg in both layouts.
// CHECK-LABEL: func.func @pools
// MLIR-LABEL: func.func @pools
func.func @pools(%x: tensor<1x3x9x9xf32>, %y: tensor<1x9x9x3xf32>) -> tensor<1x3x1x1xf32> {
  // CHECK-NEXT: %0 = accel.max_pool2d %x {pool_size = [3, 2], strides = [2, 2], dilation = [1, 2], padding = [1, 0, 1, 1], ceil_mode = true} : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // CHECK-NEXT: %1 = accel.avg_pool2d %x {count_include_pad = true, pool_size = [2, 2], strides = [2, 2], padding = [1]} : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // CHECK-NEXT: %2 = accel.avg_pool2d %y {pool_size = [3, 3], layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x7x7x3xf32>
  // CHECK-NEXT: %3 = accel.global_avg_pool2d %x : (tensor<1x3x9x9xf32>) -> tensor<1x3x1x1xf32>
  // CHECK-NEXT: %4 = accel.global_avg_pool2d %y {layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  // GENERIC: "accel.max_pool2d"(%x) <{pool_size = array<i64: 3, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 2>, padding = array<i64: 1, 0, 1, 1>, layout = "NCHW", ceil_mode = true}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // GENERIC: "accel.avg_pool2d"(%x) <{count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 1>, layout = "NCHW", ceil_mode = false}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // GENERIC: "accel.avg_pool2d"(%y) <{count_include_pad = false, pool_size = array<i64: 3, 3>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, layout = "NHWC", ceil_mode = false}> : (tensor<1x9x9x3xf32>) -> tensor<1x7x7x3xf32>
  // GENERIC: "accel.global_avg_pool2d"(%x) <{layout = "NCHW"}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x1x1xf32>
  // GENERIC: "accel.global_avg_pool2d"(%y) <{layout = "NHWC"}> : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  // MLIR: "accel.max_pool2d"(%arg0) <{ceil_mode = true, dilation = array<i64: 1, 2>, layout = "NCHW", padding = array<i64: 1, 0, 1, 1>, pool_size = array<i64: 3, 2>, strides = array<i64: 2, 2>}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // MLIR: "accel.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i64: 1, 1>, layout = "NCHW", padding = array<i64: 1>, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  // MLIR: "accel.global_avg_pool2d"(%arg0) <{layout = "NCHW"}> : (tensor<1x3x9x9xf32>) -> tensor<1x3x1x1xf32>
  %0 = accel.max_pool2d %x {pool_size = [3, 2], strides = [2, 2], dilation = [1, 2], padding = [1, 0, 1, 1], layout = "NCHW", ceil_mode = true} : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  %1 = accel.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], padding = [1], count_include_pad = true} : (tensor<1x3x9x9xf32>) -> tensor<1x3x5x5xf32>
  %2 = accel.avg_pool2d %y {pool_size = [3, 3], layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x7x7x3xf32>
  %3 = accel.global_avg_pool2d %x : (tensor<1x3x9x9xf32>) -> tensor<1x3x1x1xf32>
  %4 = accel.global_avg_pool2d %y {layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  func.return %3 : tensor<1x3x1x1xf32>
}

// -----

/// Elementwise add/subtract/multiply with and without relu (one type when all agree), relu.
// CHECK-LABEL: func.func @elementwise
// MLIR-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = accel.add %a, %b : tensor<2x3xf32>
  // CHECK-NEXT: %1 = accel.add %a, %b {has_relu = true} : tensor<2x3xf32>
  // CHECK-NEXT: %2 = accel.subtract %a, %b {has_relu = true} : tensor<2x3xf32>
  // CHECK-NEXT: %3 = accel.multiply %a, %b : tensor<2x3xf32>
  // CHECK-NEXT: %4 = accel.relu %a : tensor<2x3xf32>
  // GENERIC: "accel.add"(%a, %b) <{has_relu = false}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "accel.add"(%a, %b) <{has_relu = true}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "accel.subtract"(%a, %b) <{has_relu = true}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "accel.multiply"(%a, %b) <{has_relu = false}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "accel.relu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // MLIR: "accel.subtract"(%arg0, %arg1) <{has_relu = true}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // MLIR: "accel.relu"(%arg0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = accel.add %a, %b : tensor<2x3xf32>
  %1 = accel.add %a, %b {has_relu = true} : tensor<2x3xf32>
  %2 = accel.subtract %a, %b {has_relu = true} : tensor<2x3xf32>
  %3 = accel.multiply %a, %b : tensor<2x3xf32>
  %4 = accel.relu %a : tensor<2x3xf32>
  func.return %4 : tensor<2x3xf32>
}

// -----

/// batch_norm: defaults (axis 1, epsilon 1e-5, center, scale), then every attribute; one
/// tensor result of the data's type.
// CHECK-LABEL: func.func @batch_norm
// MLIR-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %be: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %y: tensor<1x2x2x4xf32>) -> tensor<1x4x2x2xf32> {
  // CHECK-NEXT: %0 = accel.batch_norm %x, %g, %be, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // CHECK-NEXT: %1 = accel.batch_norm %y, %g, %be, %m, %v {axis = -1, epsilon = 0.001, center = false, scale = false} : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  // GENERIC: "accel.batch_norm"(%x, %g, %be, %m, %v) <{axis = 1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = true}> : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // GENERIC: "accel.batch_norm"(%y, %g, %be, %m, %v) <{axis = -1 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = false}> : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  // MLIR: "accel.batch_norm"(%arg0, %arg1, %arg2, %arg3, %arg4) <{axis = 1 : i64, center = true, epsilon = 1.000000e-05 : f64, scale = true}> : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %0 = accel.batch_norm %x, %g, %be, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %1 = accel.batch_norm %y, %g, %be, %m, %v {axis = -1, epsilon = 1.0e-03, center = false, scale = false} : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// conv2d_winograd: transformed weights (m + 2, m + 2, K, C) for tile m (2, the default, or
/// 4); minimal (padding 0: the output is 2 smaller), a bias, a residual (the last operand, of
/// the convolution's type), relu, a 2x2 max pool (the result is half the convolution's
/// extents; the residual is not), everything at once, asymmetric padding, tile 4 (with a pool
/// of extents even but not multiples of 4). Defaults, also written out (has_max_pool = false,
/// tile = 2), are omitted in custom form.
// CHECK-LABEL: func.func @conv2d_winograd
// MLIR-LABEL: func.func @conv2d_winograd
func.func @conv2d_winograd(%x: tensor<2x16x8x8xf32>, %u: tensor<4x4x32x16xf32>, %b: tensor<32xf32>, %r: tensor<2x32x8x8xf32>, %v: tensor<6x6x32x16xf32>) -> tensor<2x32x4x4xf32> {
  // CHECK-NEXT: %0 = accel.conv2d_winograd %x, %u : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x6x6xf32>
  // CHECK-NEXT: %1 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>) -> tensor<2x32x8x8xf32>
  // CHECK-NEXT: %2 = accel.conv2d_winograd %x, %u, %r {padding = [1], has_residual = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  // CHECK-NEXT: %3 = accel.conv2d_winograd %x, %u {padding = [1, 1], has_relu = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x8x8xf32>
  // CHECK-NEXT: %4 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x4x4xf32>
  // CHECK-NEXT: %5 = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_max_pool = true, has_bias = true, has_residual = true, has_relu = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x4x4xf32>
  // CHECK-NEXT: %6 = accel.conv2d_winograd %x, %u {padding = [2, 0, 1, 2]} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x9x8xf32>
  // CHECK-NEXT: %7 = accel.conv2d_winograd %x, %v, %b {padding = [0, 1, 0, 1], tile = 4, has_max_pool = true, has_bias = true} : (tensor<2x16x8x8xf32>, tensor<6x6x32x16xf32>, tensor<32xf32>) -> tensor<2x32x3x4xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u) <{padding = array<i64: 0, 0, 0, 0>, tile = 2 : i64, has_max_pool = false, has_bias = false, has_residual = false, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x6x6xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u, %b) <{padding = array<i64: 1, 1, 1, 1>, tile = 2 : i64, has_max_pool = false, has_bias = true, has_residual = false, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>) -> tensor<2x32x8x8xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u, %r) <{padding = array<i64: 1>, tile = 2 : i64, has_max_pool = false, has_bias = false, has_residual = true, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u) <{padding = array<i64: 1, 1>, tile = 2 : i64, has_max_pool = false, has_bias = false, has_residual = false, has_relu = true}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x8x8xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u) <{padding = array<i64: 1, 1, 1, 1>, tile = 2 : i64, has_max_pool = true, has_bias = false, has_residual = false, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x4x4xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u, %b, %r) <{padding = array<i64: 1, 1, 1, 1>, tile = 2 : i64, has_max_pool = true, has_bias = true, has_residual = true, has_relu = true}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x4x4xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u) <{padding = array<i64: 2, 0, 1, 2>, tile = 2 : i64, has_max_pool = false, has_bias = false, has_residual = false, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x9x8xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %v, %b) <{padding = array<i64: 0, 1, 0, 1>, tile = 4 : i64, has_max_pool = true, has_bias = true, has_residual = false, has_relu = false}> : (tensor<2x16x8x8xf32>, tensor<6x6x32x16xf32>, tensor<32xf32>) -> tensor<2x32x3x4xf32>
  // MLIR: "accel.conv2d_winograd"(%arg0, %arg1, %arg2, %arg3) <{has_bias = true, has_max_pool = true, has_relu = true, has_residual = true, padding = array<i64: 1, 1, 1, 1>, tile = 2 : i64}> : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x4x4xf32>
  // MLIR: "accel.conv2d_winograd"(%arg0, %arg4, %arg2) <{has_bias = true, has_max_pool = true, has_relu = false, has_residual = false, padding = array<i64: 0, 1, 0, 1>, tile = 4 : i64}> : (tensor<2x16x8x8xf32>, tensor<6x6x32x16xf32>, tensor<32xf32>) -> tensor<2x32x3x4xf32>
  %0 = accel.conv2d_winograd %x, %u : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x6x6xf32>
  %1 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], has_bias = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>) -> tensor<2x32x8x8xf32>
  %2 = accel.conv2d_winograd %x, %u, %r {padding = [1], has_residual = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x8x8xf32>
  %3 = accel.conv2d_winograd %x, %u {padding = [1, 1], has_relu = true, has_max_pool = false} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x8x8xf32>
  %4 = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], has_max_pool = true} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x4x4xf32>
  %5 = accel.conv2d_winograd %x, %u, %b, %r {padding = [1, 1, 1, 1], has_bias = true, has_residual = true, has_relu = true, has_max_pool = true, tile = 2} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>, tensor<32xf32>, tensor<2x32x8x8xf32>) -> tensor<2x32x4x4xf32>
  %6 = accel.conv2d_winograd %x, %u {padding = [2, 0, 1, 2]} : (tensor<2x16x8x8xf32>, tensor<4x4x32x16xf32>) -> tensor<2x32x9x8xf32>
  %7 = accel.conv2d_winograd %x, %v, %b {padding = [0, 1, 0, 1], tile = 4, has_bias = true, has_max_pool = true} : (tensor<2x16x8x8xf32>, tensor<6x6x32x16xf32>, tensor<32xf32>) -> tensor<2x32x3x4xf32>
  func.return %5 : tensor<2x32x4x4xf32>
}

// -----

/// conv2d_winograd in generic form, defaults left out: parsed, verified, printed custom.
// CHECK-LABEL: func.func @conv2d_winograd_generic
// MLIR-LABEL: func.func @conv2d_winograd_generic
func.func @conv2d_winograd_generic(%x: tensor<1x8x6x6xf32>, %u: tensor<6x6x8x8xf32>, %b: tensor<8xf32>) -> tensor<1x8x3x3xf32> {
  // CHECK-NEXT: %0 = accel.conv2d_winograd %x, %u, %b {padding = [1, 1, 1, 1], tile = 4, has_max_pool = true, has_bias = true, has_relu = true} : (tensor<1x8x6x6xf32>, tensor<6x6x8x8xf32>, tensor<8xf32>) -> tensor<1x8x3x3xf32>
  // GENERIC: "accel.conv2d_winograd"(%x, %u, %b) <{padding = array<i64: 1, 1, 1, 1>, tile = 4 : i64, has_max_pool = true, has_bias = true, has_residual = false, has_relu = true}> : (tensor<1x8x6x6xf32>, tensor<6x6x8x8xf32>, tensor<8xf32>) -> tensor<1x8x3x3xf32>
  // MLIR: "accel.conv2d_winograd"(%arg0, %arg1, %arg2) <{has_bias = true, has_max_pool = true, has_relu = true, has_residual = false, padding = array<i64: 1, 1, 1, 1>, tile = 4 : i64}> : (tensor<1x8x6x6xf32>, tensor<6x6x8x8xf32>, tensor<8xf32>) -> tensor<1x8x3x3xf32>
  %0 = "accel.conv2d_winograd"(%x, %u, %b) <{padding = array<i64: 1, 1, 1, 1>, tile = 4 : i64, has_bias = true, has_relu = true, has_max_pool = true}> : (tensor<1x8x6x6xf32>, tensor<6x6x8x8xf32>, tensor<8xf32>) -> tensor<1x8x3x3xf32>
  func.return %0 : tensor<1x8x3x3xf32>
}

// -----

/// The clip epilogue (clip_min / clip_max) on conv2d and dense, and accel.clip.
// CHECK-LABEL: func.func @clip
// MLIR-LABEL: func.func @clip
func.func @clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %y: tensor<2x8xf32>, %v: tensor<5x8xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK-NEXT: %0 = accel.conv2d %x, %w {has_relu = true, clip_min = 0.0, clip_max = 6.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  // CHECK-NEXT: %1 = accel.dense %y, %v {clip_min = -1.5, clip_max = 2.0} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %2 = accel.clip %0 {a_min = 0.0, a_max = 6.0} : tensor<1x4x6x6xf32>
  // GENERIC: "accel.clip"(%0) <{a_min = 0.000000e+00 : f64, a_max = 6.000000e+00 : f64}> : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  // MLIR: "accel.clip"
  %0 = accel.conv2d %x, %w {has_relu = true, clip_min = 0.0, clip_max = 6.0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = accel.dense %y, %v {clip_min = -1.5, clip_max = 2.0} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  %2 = accel.clip %0 {a_min = 0.0, a_max = 6.0} : tensor<1x4x6x6xf32>
  func.return %2 : tensor<1x4x6x6xf32>
}
