// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// deformable_conv2d: the defaults (NCHW, OIHW, stride 1, no padding), padding with two deformable groups and a `?` batch, and NHWC/HWIO with strides, dilation, groups, channels, kernel_size and an f64 out_dtype.
// CHECK-LABEL: func.func @deformable_conv2d
func.func @deformable_conv2d(%x: tensor<1x4x5x6xf32>, %o: tensor<1x18x3x4xf32>, %w: tensor<2x4x3x3xf32>, %y: tensor<?x4x5x6xf32>, %p: tensor<?x36x5x6xf32>, %h: tensor<1x5x6x4xf32>, %q: tensor<1x2x4x8xf32>, %v: tensor<2x2x2x4xf32>) -> tensor<1x2x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.deformable_conv2d %y, %p, %w {padding = [1, 1], deformable_groups = 2} : (tensor<?x4x5x6xf32>, tensor<?x36x5x6xf32>, tensor<2x4x3x3xf32>) -> tensor<?x2x5x6xf32>
  // CHECK-NEXT: %2 = relay.nn.deformable_conv2d %h, %q, %v {strides = [2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [2, 2], data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f64} : (tensor<1x5x6x4xf32>, tensor<1x2x4x8xf32>, tensor<2x2x2x4xf32>) -> tensor<1x2x4x4xf64>
  // GENERIC: "relay.nn.deformable_conv2d"(%x, %o, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, deformable_groups = 1 : i64, groups = 1 : i64, data_layout = "NCHW", kernel_layout = "OIHW", out_layout = ""}> : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  // GENERIC: "relay.nn.deformable_conv2d"(%y, %p, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, deformable_groups = 2 : i64
  // GENERIC: "relay.nn.deformable_conv2d"(%h, %q, %v) <{strides = array<i64: 2, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 2>, deformable_groups = 1 : i64, groups = 2 : i64, channels = 4 : i64, kernel_size = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO", out_layout = "", out_dtype = f64
  %0 = relay.nn.deformable_conv2d %x, %o, %w : (tensor<1x4x5x6xf32>, tensor<1x18x3x4xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x3x4xf32>
  %1 = relay.nn.deformable_conv2d %y, %p, %w {padding = [1, 1], deformable_groups = 2} : (tensor<?x4x5x6xf32>, tensor<?x36x5x6xf32>, tensor<2x4x3x3xf32>) -> tensor<?x2x5x6xf32>
  %2 = relay.nn.deformable_conv2d %h, %q, %v {strides = [2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [2, 2], data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = f64} : (tensor<1x5x6x4xf32>, tensor<1x2x4x8xf32>, tensor<2x2x2x4xf32>) -> tensor<1x2x4x4xf64>
  func.return %0 : tensor<1x2x3x4xf32>
}
