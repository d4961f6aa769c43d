// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// Blocked and permuted layouts (TVM's): conv2d on NCHW4c data with an OIHW4i4o kernel,
/// contrib_conv2d_NCHWc with an OIHW4o kernel, the pools on NCHW4c, conv2d in HWNC / HWOI.
// CHECK-LABEL: func.func @blocked
func.func @blocked(%x: tensor<1x2x8x8x4xf32>, %w: tensor<2x2x3x3x4x4xf32>, %k: tensor<3x8x3x3x4xf32>, %h: tensor<8x8x1x8xf32>, %g: tensor<3x3x8x8xf32>) -> tensor<1x2x6x6x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x6x6x4xf32>
  // CHECK-NEXT: %1 = relay.nn.contrib_conv2d_NCHWc %x, %k {padding = [1, 1, 1, 1], channels = 12, kernel_size = [3, 3], data_layout = "NCHW4c", kernel_layout = "OIHW4o"} : (tensor<1x2x8x8x4xf32>, tensor<3x8x3x3x4xf32>) -> tensor<1x3x8x8x4xf32>
  // CHECK-NEXT: %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2], layout = "NCHW4c"} : (tensor<1x3x8x8x4xf32>) -> tensor<1x3x4x4x4xf32>
  // CHECK-NEXT: %3 = relay.nn.global_avg_pool2d %2 {layout = "NCHW4c"} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x1x1x4xf32>
  // CHECK-NEXT: %4 = relay.nn.conv2d %h, %g {padding = [1, 1, 1, 1], data_layout = "HWNC", kernel_layout = "HWOI"} : (tensor<8x8x1x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x1x8xf32>
  // GENERIC: %0 = "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"}> : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x6x6x4xf32>
  // GENERIC: %1 = "relay.nn.contrib_conv2d_NCHWc"(%x, %k) <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, channels = 12 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW4c", kernel_layout = "OIHW4o"}> : (tensor<1x2x8x8x4xf32>, tensor<3x8x3x3x4xf32>) -> tensor<1x3x8x8x4xf32>
  // GENERIC: %2 = "relay.nn.max_pool2d"(%1) <{pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, layout = "NCHW4c", ceil_mode = false}> : (tensor<1x3x8x8x4xf32>) -> tensor<1x3x4x4x4xf32>
  // GENERIC: %3 = "relay.nn.global_avg_pool2d"(%2) <{layout = "NCHW4c"}> : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x1x1x4xf32>
  // GENERIC: %4 = "relay.nn.conv2d"(%h, %g) <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "HWNC", kernel_layout = "HWOI"}> : (tensor<8x8x1x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x1x8xf32>
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<1x2x8x8x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x6x6x4xf32>
  %1 = relay.nn.contrib_conv2d_NCHWc %x, %k {padding = [1, 1, 1, 1], channels = 12, kernel_size = [3, 3], data_layout = "NCHW4c", kernel_layout = "OIHW4o"} : (tensor<1x2x8x8x4xf32>, tensor<3x8x3x3x4xf32>) -> tensor<1x3x8x8x4xf32>
  %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2], layout = "NCHW4c"} : (tensor<1x3x8x8x4xf32>) -> tensor<1x3x4x4x4xf32>
  %3 = relay.nn.global_avg_pool2d %2 {layout = "NCHW4c"} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x1x1x4xf32>
  %4 = relay.nn.conv2d %h, %g {padding = [1, 1, 1, 1], data_layout = "HWNC", kernel_layout = "HWOI"} : (tensor<8x8x1x8xf32>, tensor<3x3x8x8xf32>) -> tensor<8x8x1x8xf32>
  func.return %0 : tensor<1x2x6x6x4xf32>
}
