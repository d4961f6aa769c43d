// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: xrelay-opt %s --split-input-file --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=MLIR

/// conv2d: every relay conv2d attribute plus the post-ops: bias, sum and relu; without any;
/// bias only; sum with tanh; NHWC data with HWIO weights and a sigmoid.
// CHECK-LABEL: func.func @conv2d
// MLIR-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x4x9x9xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<4xf32>, %s: tensor<1x4x5x6xf32>, %t: tensor<1x4x7x7xf32>, %y: tensor<1x8x8x3xf32>, %k: tensor<3x3x3x6xf32>, %c: tensor<6xf32>) -> tensor<1x4x5x6xf32> {
  // CHECK-NEXT: %0 = dnnl.conv2d %x, %w, %b, %s {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  // CHECK-NEXT: %1 = dnnl.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %2 = dnnl.conv2d %x, %w, %b {groups = 2, has_bias = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %3 = dnnl.conv2d %x, %w, %t {groups = 2, has_sum = true, eltwise = "tanh"} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %4 = dnnl.conv2d %y, %k, %c {data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true, eltwise = "sigmoid"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // GENERIC: %0 = "dnnl.conv2d"(%x, %w, %b, %s) <{strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64, channels = 4 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW", out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  // GENERIC: %1 = "dnnl.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = false, has_sum = false}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: %2 = "dnnl.conv2d"(%x, %w, %b) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = true, has_sum = false}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: %3 = "dnnl.conv2d"(%x, %w, %t) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW", has_bias = false, has_sum = true, eltwise = "tanh"}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: %4 = "dnnl.conv2d"(%y, %k, %c) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true, has_sum = false, eltwise = "sigmoid"}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // MLIR: %0 = "dnnl.conv2d"(%arg0, %arg1, %arg2, %arg3) <{channels = 4 : i64, data_layout = "NCHW", dilation = array<i64: 1, 2>, eltwise = "relu", groups = 2 : i64, has_bias = true, has_sum = true, kernel_layout = "OIHW", kernel_size = array<i64: 3, 3>, out_dtype = f32, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  // MLIR: %1 = "dnnl.conv2d"(%arg0, %arg1) <{data_layout = "NCHW", dilation = array<i64: 1, 1>, groups = 2 : i64, has_bias = false, has_sum = false, kernel_layout = "OIHW", padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // MLIR: %2 = "dnnl.conv2d"(%arg0, %arg1, %arg2) <{data_layout = "NCHW", dilation = array<i64: 1, 1>, groups = 2 : i64, has_bias = true, has_sum = false, kernel_layout = "OIHW", padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  // MLIR: %3 = "dnnl.conv2d"(%arg0, %arg1, %arg4) <{data_layout = "NCHW", dilation = array<i64: 1, 1>, eltwise = "tanh", groups = 2 : i64, has_bias = false, has_sum = true, kernel_layout = "OIHW", padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  // MLIR: %4 = "dnnl.conv2d"(%arg5, %arg6, %arg7) <{data_layout = "NHWC", dilation = array<i64: 1, 1>, eltwise = "sigmoid", groups = 1 : i64, has_bias = true, has_sum = false, kernel_layout = "HWIO", padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  %0 = dnnl.conv2d %x, %w, %b, %s {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  %1 = dnnl.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  %2 = dnnl.conv2d %x, %w, %b {groups = 2, has_bias = true} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<4xf32>) -> tensor<1x4x7x7xf32>
  %3 = dnnl.conv2d %x, %w, %t {groups = 2, has_sum = true, eltwise = "tanh"} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>, tensor<1x4x7x7xf32>) -> tensor<1x4x7x7xf32>
  %4 = dnnl.conv2d %y, %k, %c {data_layout = "NHWC", kernel_layout = "HWIO", has_bias = true, eltwise = "sigmoid"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x6xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  func.return %0 : tensor<1x4x5x6xf32>
}

// -----

/// dense: units, out_dtype, bias, sum and relu; without post-ops; bias with sigmoid.
// CHECK-LABEL: func.func @dense
// MLIR-LABEL: func.func @dense
func.func @dense(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>, %s: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // CHECK-NEXT: %0 = dnnl.dense %x, %w, %b, %s {units = 5, out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %1 = dnnl.dense %x, %w : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %2 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "sigmoid"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // GENERIC: %0 = "dnnl.dense"(%x, %w, %b, %s) <{units = 5 : i64, out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  // GENERIC: %1 = "dnnl.dense"(%x, %w) <{has_bias = false, has_sum = false}> : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // GENERIC: %2 = "dnnl.dense"(%x, %w, %b) <{has_bias = true, has_sum = false, eltwise = "sigmoid"}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // MLIR: %0 = "dnnl.dense"(%arg0, %arg1, %arg2, %arg3) <{eltwise = "relu", has_bias = true, has_sum = true, out_dtype = f32, units = 5 : i64}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  // MLIR: %1 = "dnnl.dense"(%arg0, %arg1) <{has_bias = false, has_sum = false}> : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // MLIR: %2 = "dnnl.dense"(%arg0, %arg1, %arg2) <{eltwise = "sigmoid", has_bias = true, has_sum = false}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %0 = dnnl.dense %x, %w, %b, %s {units = 5, out_dtype = f32, has_bias = true, has_sum = true, eltwise = "relu"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %1 = dnnl.dense %x, %w : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  %2 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "sigmoid"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

/// Eltwise relu/tanh/sigmoid; binary add/subtract/multiply on one shape (one type) and with
/// the rhs broadcast (a per-channel vector, a scalar).
// CHECK-LABEL: func.func @eltwise_binary
// MLIR-LABEL: func.func @eltwise_binary
func.func @eltwise_binary(%a: tensor<1x2x2x3xf32>, %b: tensor<1x2x2x3xf32>, %c: tensor<3xf32>, %s: tensor<f32>) -> tensor<1x2x2x3xf32> {
  // CHECK-NEXT: %0 = dnnl.relu %a : tensor<1x2x2x3xf32>
  // CHECK-NEXT: %1 = dnnl.tanh %0 : tensor<1x2x2x3xf32>
  // CHECK-NEXT: %2 = dnnl.sigmoid %1 : tensor<1x2x2x3xf32>
  // CHECK-NEXT: %3 = dnnl.add %2, %b : tensor<1x2x2x3xf32>
  // CHECK-NEXT: %4 = dnnl.subtract %3, %c : (tensor<1x2x2x3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  // CHECK-NEXT: %5 = dnnl.multiply %4, %s : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %0 = "dnnl.relu"(%a) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %1 = "dnnl.tanh"(%0) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %2 = "dnnl.sigmoid"(%1) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %3 = "dnnl.add"(%2, %b) : (tensor<1x2x2x3xf32>, tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %4 = "dnnl.subtract"(%3, %c) : (tensor<1x2x2x3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  // GENERIC: %5 = "dnnl.multiply"(%4, %s) : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
  // MLIR: %0 = "dnnl.relu"(%arg0) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // MLIR: %1 = "dnnl.tanh"(%0) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // MLIR: %2 = "dnnl.sigmoid"(%1) : (tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // MLIR: %3 = "dnnl.add"(%2, %arg1) : (tensor<1x2x2x3xf32>, tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  // MLIR: %4 = "dnnl.subtract"(%3, %arg2) : (tensor<1x2x2x3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  // MLIR: %5 = "dnnl.multiply"(%4, %arg3) : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
  %0 = dnnl.relu %a : tensor<1x2x2x3xf32>
  %1 = dnnl.tanh %0 : tensor<1x2x2x3xf32>
  %2 = dnnl.sigmoid %1 : tensor<1x2x2x3xf32>
  %3 = dnnl.add %2, %b : tensor<1x2x2x3xf32>
  %4 = dnnl.subtract %3, %c : (tensor<1x2x2x3xf32>, tensor<3xf32>) -> tensor<1x2x2x3xf32>
  %5 = dnnl.multiply %4, %s : (tensor<1x2x2x3xf32>, tensor<f32>) -> tensor<1x2x2x3xf32>
  func.return %5 : tensor<1x2x2x3xf32>
}

// -----

/// batch_norm: defaults (axis 1, epsilon 1e-5, center, scale), then every attribute; one
/// tensor result of the data's type.
// CHECK-LABEL: func.func @batch_norm
// MLIR-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<1x4x2x2xf32>, %g: tensor<4xf32>, %be: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>, %y: tensor<1x2x2x4xf32>) -> tensor<1x4x2x2xf32> {
  // CHECK-NEXT: %0 = dnnl.batch_norm %x, %g, %be, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // CHECK-NEXT: %1 = dnnl.batch_norm %y, %g, %be, %m, %v {axis = -1, epsilon = 0.001, center = false, scale = false} : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  // GENERIC: %0 = "dnnl.batch_norm"(%x, %g, %be, %m, %v) <{axis = 1 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = true}> : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // GENERIC: %1 = "dnnl.batch_norm"(%y, %g, %be, %m, %v) <{axis = -1 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = false}> : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  // MLIR: %0 = "dnnl.batch_norm"(%arg0, %arg1, %arg2, %arg3, %arg4) <{axis = 1 : i64, center = true, epsilon = 1.000000e-05 : f64, scale = true}> : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // MLIR: %1 = "dnnl.batch_norm"(%arg5, %arg1, %arg2, %arg3, %arg4) <{axis = -1 : i64, center = false, epsilon = 1.000000e-03 : f64, scale = false}> : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  %0 = dnnl.batch_norm %x, %g, %be, %m, %v : (tensor<1x4x2x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %1 = dnnl.batch_norm %y, %g, %be, %m, %v {axis = -1, epsilon = 1.0e-03, center = false, scale = false} : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x2x4xf32>
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// Pools on NHWC activations (relay's `layout`): max with every attribute, avg with
/// count_include_pad, global avg.
// CHECK-LABEL: func.func @pools
// MLIR-LABEL: func.func @pools
func.func @pools(%x: tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32> {
  // CHECK-NEXT: %0 = dnnl.max_pool2d %x {pool_size = [3, 2], strides = [2, 2], dilation = [1, 2], padding = [1, 0, 1, 1], layout = "NHWC", ceil_mode = true} : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // CHECK-NEXT: %1 = dnnl.avg_pool2d %x {count_include_pad = true, pool_size = [2, 2], strides = [2, 2], padding = [1], layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // CHECK-NEXT: %2 = dnnl.global_avg_pool2d %x {layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  // GENERIC: %0 = "dnnl.max_pool2d"(%x) <{pool_size = array<i64: 3, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 2>, padding = array<i64: 1, 0, 1, 1>, layout = "NHWC", ceil_mode = true}> : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // GENERIC: %1 = "dnnl.avg_pool2d"(%x) <{count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 1>, layout = "NHWC", ceil_mode = false}> : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // GENERIC: %2 = "dnnl.global_avg_pool2d"(%x) <{layout = "NHWC"}> : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  // MLIR: %0 = "dnnl.max_pool2d"(%arg0) <{ceil_mode = true, dilation = array<i64: 1, 2>, layout = "NHWC", padding = array<i64: 1, 0, 1, 1>, pool_size = array<i64: 3, 2>, strides = array<i64: 2, 2>}> : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // MLIR: %1 = "dnnl.avg_pool2d"(%arg0) <{ceil_mode = false, count_include_pad = true, dilation = array<i64: 1, 1>, layout = "NHWC", padding = array<i64: 1>, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>}> : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  // MLIR: %2 = "dnnl.global_avg_pool2d"(%arg0) <{layout = "NHWC"}> : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  %0 = dnnl.max_pool2d %x {pool_size = [3, 2], strides = [2, 2], dilation = [1, 2], padding = [1, 0, 1, 1], layout = "NHWC", ceil_mode = true} : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  %1 = dnnl.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], padding = [1], layout = "NHWC", count_include_pad = true} : (tensor<1x9x9x3xf32>) -> tensor<1x5x5x3xf32>
  %2 = dnnl.global_avg_pool2d %x {layout = "NHWC"} : (tensor<1x9x9x3xf32>) -> tensor<1x1x1x3xf32>
  func.return %2 : tensor<1x1x1x3xf32>
}

// -----

/// reorder: NCHW to NHWC and back, a 2-D transpose.
// CHECK-LABEL: func.func @reorder
// MLIR-LABEL: func.func @reorder
func.func @reorder(%x: tensor<1x3x4x5xf32>, %m: tensor<2x3xf32>) -> tensor<1x3x4x5xf32> {
  // CHECK-NEXT: %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  // CHECK-NEXT: %1 = dnnl.reorder %0 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  // CHECK-NEXT: %2 = dnnl.reorder %m {src_layout = "NC", dst_layout = "CN"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // GENERIC: %0 = "dnnl.reorder"(%x) <{src_layout = "NCHW", dst_layout = "NHWC"}> : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  // GENERIC: %1 = "dnnl.reorder"(%0) <{src_layout = "NHWC", dst_layout = "NCHW"}> : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  // GENERIC: %2 = "dnnl.reorder"(%m) <{src_layout = "NC", dst_layout = "CN"}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  // MLIR: %0 = "dnnl.reorder"(%arg0) <{dst_layout = "NHWC", src_layout = "NCHW"}> : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  // MLIR: %1 = "dnnl.reorder"(%0) <{dst_layout = "NCHW", src_layout = "NHWC"}> : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  // MLIR: %2 = "dnnl.reorder"(%arg1) <{dst_layout = "CN", src_layout = "NC"}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
  %1 = dnnl.reorder %0 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x5x3xf32>) -> tensor<1x3x4x5xf32>
  %2 = dnnl.reorder %m {src_layout = "NC", dst_layout = "CN"} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %1 : tensor<1x3x4x5xf32>
}

// -----

/// conv2d and dense with a clip post-op (ReLU6 on a depthwise conv2d): relay.clip's bounds.
// CHECK-LABEL: func.func @clip
// MLIR-LABEL: func.func @clip
func.func @clip(%x: tensor<1x8x8x6xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6xf32>, %d: tensor<4x5xf32>, %u: tensor<3x5xf32>) -> tensor<1x6x6x6xf32> {
  // CHECK-NEXT: %0 = dnnl.conv2d %x, %w, %b {groups = 6, data_layout = "NHWC", has_bias = true, eltwise = "clip", a_min = 0.0, a_max = 6.0} : (tensor<1x8x8x6xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // CHECK-NEXT: %1 = dnnl.dense %d, %u {eltwise = "clip", a_min = -1.5, a_max = 2.5} : (tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<4x3xf32>
  // GENERIC: %0 = "dnnl.conv2d"(%x, %w, %b) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 6 : i64, data_layout = "NHWC", kernel_layout = "OIHW", has_bias = true, has_sum = false, eltwise = "clip", a_min = 0.000000e+00 : f64, a_max = 6.000000e+00 : f64}> : (tensor<1x8x8x6xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // GENERIC: %1 = "dnnl.dense"(%d, %u) <{has_bias = false, has_sum = false, eltwise = "clip", a_min = -1.500000e+00 : f64, a_max = 2.500000e+00 : f64}> : (tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<4x3xf32>
  // MLIR: %0 = "dnnl.conv2d"(%arg0, %arg1, %arg2) <{a_max = 6.000000e+00 : f64, a_min = 0.000000e+00 : f64, data_layout = "NHWC", dilation = array<i64: 1, 1>, eltwise = "clip", groups = 6 : i64, has_bias = true, has_sum = false, kernel_layout = "OIHW", padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>}> : (tensor<1x8x8x6xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  // MLIR: %1 = "dnnl.dense"(%arg3, %arg4) <{a_max = 2.500000e+00 : f64, a_min = -1.500000e+00 : f64, eltwise = "clip", has_bias = false, has_sum = false}> : (tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<4x3xf32>
  %0 = dnnl.conv2d %x, %w, %b {groups = 6, data_layout = "NHWC", has_bias = true, eltwise = "clip", a_min = 0.0, a_max = 6.0} : (tensor<1x8x8x6xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x6x6xf32>
  %1 = dnnl.dense %d, %u {eltwise = "clip", a_min = -1.5, a_max = 2.5} : (tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<1x6x6x6xf32>
}

// -----

/// batch_matmul (transpose_b by default) and matmul (neither transposed by default).
// CHECK-LABEL: func.func @matmuls
// MLIR-LABEL: func.func @matmuls
func.func @matmuls(%x: tensor<2x5x8xf32>, %y: tensor<1x6x8xf32>, %a: tensor<5x7xf32>, %b: tensor<3x7xf32>) -> tensor<2x5x6xf32> {
  // CHECK-NEXT: %0 = dnnl.batch_matmul %x, %y : (tensor<2x5x8xf32>, tensor<1x6x8xf32>) -> tensor<2x5x6xf32>
  // CHECK-NEXT: %1 = dnnl.matmul %a, %b {transpose_b = true} : (tensor<5x7xf32>, tensor<3x7xf32>) -> tensor<5x3xf32>
  // GENERIC: %0 = "dnnl.batch_matmul"(%x, %y) <{transpose_a = false, transpose_b = true}> : (tensor<2x5x8xf32>, tensor<1x6x8xf32>) -> tensor<2x5x6xf32>
  // GENERIC: %1 = "dnnl.matmul"(%a, %b) <{transpose_a = false, transpose_b = true}> : (tensor<5x7xf32>, tensor<3x7xf32>) -> tensor<5x3xf32>
  // MLIR: %0 = "dnnl.batch_matmul"(%arg0, %arg1) <{transpose_a = false, transpose_b = true}> : (tensor<2x5x8xf32>, tensor<1x6x8xf32>) -> tensor<2x5x6xf32>
  // MLIR: %1 = "dnnl.matmul"(%arg2, %arg3) <{transpose_a = false, transpose_b = true}> : (tensor<5x7xf32>, tensor<3x7xf32>) -> tensor<5x3xf32>
  %0 = dnnl.batch_matmul %x, %y : (tensor<2x5x8xf32>, tensor<1x6x8xf32>) -> tensor<2x5x6xf32>
  %1 = dnnl.matmul %a, %b {transpose_b = true} : (tensor<5x7xf32>, tensor<3x7xf32>) -> tensor<5x3xf32>
  func.return %0 : tensor<2x5x6xf32>
}

// -----

/// softmax (its axis) and layer_norm (relay's defaults: the last axis, epsilon 1e-5, scale and center).
// CHECK-LABEL: func.func @softmax_layer_norm
// MLIR-LABEL: func.func @softmax_layer_norm
func.func @softmax_layer_norm(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: %0 = dnnl.softmax %x {axis = 1} : tensor<4x8xf32>
  // CHECK-NEXT: %1 = dnnl.layer_norm %x, %g, %b {epsilon = 0.001, center = false} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // GENERIC: %0 = "dnnl.softmax"(%x) <{axis = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // GENERIC: %1 = "dnnl.layer_norm"(%x, %g, %b) <{axis = -1 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = true}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // MLIR: %0 = "dnnl.softmax"(%arg0) <{axis = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // MLIR: %1 = "dnnl.layer_norm"(%arg0, %arg1, %arg2) <{axis = -1 : i64, center = false, epsilon = 1.000000e-03 : f64, scale = true}> : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %0 = dnnl.softmax %x {axis = 1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = dnnl.layer_norm %x, %g, %b {epsilon = 1.0e-03, center = false} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  func.return %0 : tensor<4x8xf32>
}

// -----

/// log_softmax (its axis; relay's default, the last).
// CHECK-LABEL: func.func @log_softmax
// MLIR-LABEL: func.func @log_softmax
func.func @log_softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK-NEXT: %0 = dnnl.log_softmax %x {axis = 1} : tensor<4x8xf32>
  // CHECK-NEXT: %1 = dnnl.log_softmax %0 : tensor<4x8xf32>
  // GENERIC: %0 = "dnnl.log_softmax"(%x) <{axis = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // GENERIC: %1 = "dnnl.log_softmax"(%0) <{axis = -1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // MLIR: %0 = "dnnl.log_softmax"(%arg0) <{axis = 1 : i64}> : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = dnnl.log_softmax %x {axis = 1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = dnnl.log_softmax %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  func.return %1 : tensor<4x8xf32>
}

// -----

/// dense with bias and oneDNN's gelu_erf post-op (GELU in erf form, codegen/dnnl/patterns.py).
// CHECK-LABEL: func.func @dense_gelu_erf
// MLIR-LABEL: func.func @dense_gelu_erf
func.func @dense_gelu_erf(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5xf32>) -> tensor<2x5xf32> {
  // CHECK-NEXT: %0 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "gelu_erf"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // GENERIC: %0 = "dnnl.dense"(%x, %w, %b) <{has_bias = true, has_sum = false, eltwise = "gelu_erf"}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // MLIR: %0 = "dnnl.dense"(%arg0, %arg1, %arg2) <{eltwise = "gelu_erf", has_bias = true, has_sum = false}> : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %0 = dnnl.dense %x, %w, %b {has_bias = true, eltwise = "gelu_erf"} : (tensor<2x8xf32>, tensor<5x8xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}
