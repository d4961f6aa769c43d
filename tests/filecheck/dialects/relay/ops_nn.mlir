// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// conv2d with every attribute; defaults are omitted in custom form.
// CHECK-LABEL: func.func @conv2d
// CHECK-NEXT: relay.nn.conv2d %x, %w {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x6xf32>
// CHECK-NEXT: relay.nn.conv2d %y, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
// GENERIC: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64, channels = 4 : i64, kernel_size = array<i64: 3, 3>, out_dtype = f32, data_layout = "NCHW", kernel_layout = "OIHW"}>
func.func @conv2d(%x: tensor<1x4x9x9xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<?x8x8x3xf32>, %k: tensor<3x3x3x8xf32>) -> tensor<1x4x5x6xf32> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x6xf32>
  %1 = relay.nn.conv2d %y, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  func.return %0 : tensor<1x4x5x6xf32>
}

// -----

/// bias_add, relu, leaky_relu, dense.
// CHECK-LABEL: func.func @dense_bias
// CHECK-NEXT: %0 = relay.nn.dense %x, %w {units = 4} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %1 = relay.nn.bias_add %0, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: %2 = relay.nn.relu %1 : tensor<?x4xf32>
// CHECK-NEXT: %3 = relay.nn.leaky_relu %2 {alpha = 0.2} : tensor<?x4xf32>
// CHECK-NEXT: %4 = relay.nn.bias_add %3, %b {axis = -1} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
// GENERIC: "relay.nn.leaky_relu"(%2) <{alpha = 2.000000e-01 : f64}>
func.func @dense_bias(%x: tensor<?x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %0 = relay.nn.dense %x, %w {units = 4} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %2 = relay.nn.relu %1 : tensor<?x4xf32>
  %3 = relay.nn.leaky_relu %2 {alpha = 0.2} : tensor<?x4xf32>
  %4 = relay.nn.bias_add %3, %b {axis = -1} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  func.return %4 : tensor<?x4xf32>
}

// -----

/// batch_norm and dropout return tuples, as in Relay.
// CHECK-LABEL: func.func @norms
// CHECK-NEXT: %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 3, epsilon = 0.001, center = false} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>
// CHECK-NEXT: %1 = relay.tuple_get_item %0 {index = 0}
// CHECK-NEXT: %2 = relay.nn.dropout %1 {rate = 0.25} : (tensor<1x2x2x3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<1x2x2x3xf32>>
// GENERIC: "relay.nn.batch_norm"(%x, %v, %v, %v, %v) <{axis = 3 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = true}>
func.func @norms(%x: tensor<1x2x2x3xf32>, %v: tensor<3xf32>) -> tensor<1x2x2x3xf32> {
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 3, epsilon = 0.001, center = false} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<1x2x2x3xf32>
  %2 = relay.nn.dropout %1 {rate = 0.25} : (tensor<1x2x2x3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<1x2x2x3xf32>>
  func.return %1 : tensor<1x2x2x3xf32>
}

// -----

/// Pools: padding, ceil_mode, count_include_pad, NHWC; global pools.
// CHECK-LABEL: func.func @pools
// CHECK-NEXT: relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
// CHECK-NEXT: relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], count_include_pad = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: relay.nn.max_pool2d %y {pool_size = [2, 2], dilation = [2, 2], layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x6x6x2xf32>
// CHECK-NEXT: relay.nn.global_avg_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
// CHECK-NEXT: relay.nn.global_max_pool2d %y {layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32>
// GENERIC: "relay.nn.avg_pool2d"(%x) <{pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, count_include_pad = true, dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, layout = "NCHW", ceil_mode = false}>
func.func @pools(%x: tensor<1x2x8x8xf32>, %y: tensor<?x8x8x2xf32>) -> tensor<1x2x5x5xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], count_include_pad = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %2 = relay.nn.max_pool2d %y {pool_size = [2, 2], dilation = [2, 2], layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x6x6x2xf32>
  %3 = relay.nn.global_avg_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  %4 = relay.nn.global_max_pool2d %y {layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32>
  func.return %0 : tensor<1x2x5x5xf32>
}

// -----

/// softmax, log_softmax, batch_flatten, pad.
// CHECK-LABEL: func.func @shape_ops
// CHECK-NEXT: relay.nn.softmax %x : tensor<2x3x4xf32>
// CHECK-NEXT: relay.nn.log_softmax %x {axis = 1} : tensor<2x3x4xf32>
// CHECK-NEXT: relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK-NEXT: relay.nn.pad %x {pad_width = [0, 0, 1, 2, 0, 1], pad_value = 1.5} : (tensor<2x3x4xf32>) -> tensor<2x6x5xf32>
// CHECK-NEXT: relay.nn.pad %x {pad_width = [0, 0, 2, 2, 1, 1], pad_mode = "reflect"} : (tensor<2x3x4xf32>) -> tensor<2x7x6xf32>
// GENERIC: "relay.nn.pad"(%x) <{pad_width = array<i64: 0, 0, 1, 2, 0, 1>, pad_value = 1.500000e+00 : f64, pad_mode = "constant"}>
func.func @shape_ops(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = relay.nn.softmax %x : tensor<2x3x4xf32>
  %1 = relay.nn.log_softmax %x {axis = 1} : tensor<2x3x4xf32>
  %2 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %3 = relay.nn.pad %x {pad_width = [0, 0, 1, 2, 0, 1], pad_value = 1.5} : (tensor<2x3x4xf32>) -> tensor<2x6x5xf32>
  %4 = relay.nn.pad %x {pad_width = [0, 0, 2, 2, 1, 1], pad_mode = "reflect"} : (tensor<2x3x4xf32>) -> tensor<2x7x6xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

/// conv2d: int8 in, out_dtype i32, depthwise-style groups with a dynamic batch;
/// 1-value padding, NHWC data with an HWOI kernel; `?` spatial and kernel dims
/// resolved from kernel_size and channels.
// CHECK-LABEL: func.func @conv2d_more
// CHECK-NEXT: %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1], groups = 4, out_dtype = i32} : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
// CHECK-NEXT: %1 = relay.nn.conv2d %y, %k {padding = [1], groups = 2, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x9x9x4xf32>
// CHECK-NEXT: %2 = relay.nn.conv2d %z, %v {kernel_size = [5, 3], channels = 6} : (tensor<?x3x?x?xf32>, tensor<6x3x?x3xf32>) -> tensor<?x6x?x?xf32>
// GENERIC: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 4 : i64, out_dtype = i32, dilation = array<i64: 1, 1>, data_layout = "NCHW", kernel_layout = "OIHW"}> : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
// GENERIC: "relay.nn.conv2d"(%y, %k) <{padding = array<i64: 1>, groups = 2 : i64, data_layout = "NHWC", kernel_layout = "HWOI", strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>}>
func.func @conv2d_more(%x: tensor<?x4x9x9xi8>, %w: tensor<8x1x3x3xi8>, %y: tensor<1x9x9x4xf32>, %k: tensor<3x3x4x2xf32>, %z: tensor<?x3x?x?xf32>, %v: tensor<6x3x?x3xf32>) -> tensor<?x8x5x5xi32> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1], groups = 4, out_dtype = i32} : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
  %1 = relay.nn.conv2d %y, %k {padding = [1], groups = 2, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x9x9x4xf32>
  %2 = relay.nn.conv2d %z, %v {kernel_size = [5, 3], channels = 6} : (tensor<?x3x?x?xf32>, tensor<6x3x?x3xf32>) -> tensor<?x6x?x?xf32>
  func.return %0 : tensor<?x8x5x5xi32>
}

// -----

/// Dynamic dims through every other op; defaults are omitted, non-defaults kept.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: %0 = relay.nn.dense %x, %w {units = 7, out_dtype = f64} : (tensor<?x3x5xf32>, tensor<?x5xf32>) -> tensor<?x3x7xf64>
// CHECK-NEXT: %1 = relay.nn.batch_norm %c, %g, %g, %g, %g {axis = -3, scale = false} : (tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) -> tuple<tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>>
// CHECK-NEXT: %2 = relay.nn.dropout %x : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
// CHECK-NEXT: %3 = relay.tuple_get_item %2 {index = 1}
// CHECK-NEXT: %4 = relay.nn.leaky_relu %x : tensor<?x3x5xf32>
// CHECK-NEXT: %5 = relay.nn.softmax %c {axis = -3} : tensor<?x?x4x4xf16>
// CHECK-NEXT: %6 = relay.nn.batch_flatten %c : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
// CHECK-NEXT: %7 = relay.nn.pad %x {pad_width = [1, 1, 0, 0, 2, 0], pad_mode = "edge"} : (tensor<?x3x5xf32>) -> tensor<?x3x7xf32>
// CHECK-NEXT: %8 = relay.nn.pad %e {pad_width = [1, 0, 0, 1], pad_value = -2.0} : (tensor<0x3xi32>) -> tensor<1x4xi32>
// CHECK-NEXT: %9 = relay.nn.relu %e : tensor<0x3xi32>
// CHECK-NEXT: %10 = relay.nn.avg_pool2d %c {pool_size = [3, 3], strides = [2, 2], padding = [1, 0, 0, 1], ceil_mode = true} : (tensor<?x?x4x4xf16>) -> tensor<?x?x2x2xf16>
// CHECK-NEXT: %11 = relay.nn.max_pool2d %c {pool_size = [2, 2]} : (tensor<?x?x4x4xf16>) -> tensor<?x?x3x3xf16>
// CHECK-NEXT: %12 = relay.nn.global_avg_pool2d %c {layout = "NHWC"} : (tensor<?x?x4x4xf16>) -> tensor<?x1x1x4xf16>
// GENERIC: "relay.nn.dropout"(%x) <{rate = 5.000000e-01 : f64}> : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
// GENERIC: "relay.nn.leaky_relu"(%x) <{alpha = 1.000000e-02 : f64}> : (tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
// GENERIC: "relay.nn.batch_flatten"(%c) : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
// GENERIC: "relay.nn.pad"(%e) <{pad_width = array<i64: 1, 0, 0, 1>, pad_value = -2.000000e+00 : f64, pad_mode = "constant"}>
// GENERIC: "relay.nn.relu"(%e) : (tensor<0x3xi32>) -> tensor<0x3xi32>
func.func @dynamic(%x: tensor<?x3x5xf32>, %w: tensor<?x5xf32>, %c: tensor<?x?x4x4xf16>, %g: tensor<?xf16>, %e: tensor<0x3xi32>) -> tensor<?x3x7xf64> {
  %0 = relay.nn.dense %x, %w {units = 7, out_dtype = f64} : (tensor<?x3x5xf32>, tensor<?x5xf32>) -> tensor<?x3x7xf64>
  %1 = relay.nn.batch_norm %c, %g, %g, %g, %g {axis = -3, scale = false} : (tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) -> tuple<tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>>
  %2 = relay.nn.dropout %x : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  %3 = relay.tuple_get_item %2 {index = 1} : (tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>) -> tensor<?x3x5xf32>
  %4 = relay.nn.leaky_relu %x : tensor<?x3x5xf32>
  %5 = relay.nn.softmax %c {axis = -3} : tensor<?x?x4x4xf16>
  %6 = relay.nn.batch_flatten %c : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
  %7 = relay.nn.pad %x {pad_width = [1, 1, 0, 0, 2, 0], pad_mode = "edge"} : (tensor<?x3x5xf32>) -> tensor<?x3x7xf32>
  %8 = relay.nn.pad %e {pad_width = [1, 0, 0, 1], pad_value = -2} : (tensor<0x3xi32>) -> tensor<1x4xi32>
  %9 = relay.nn.relu %e : tensor<0x3xi32>
  %10 = relay.nn.avg_pool2d %c {pool_size = [3, 3], strides = [2, 2], padding = [1, 0, 0, 1], ceil_mode = true} : (tensor<?x?x4x4xf16>) -> tensor<?x?x2x2xf16>
  %11 = relay.nn.max_pool2d %c {pool_size = [2, 2]} : (tensor<?x?x4x4xf16>) -> tensor<?x?x3x3xf16>
  %12 = relay.nn.global_avg_pool2d %c {layout = "NHWC"} : (tensor<?x?x4x4xf16>) -> tensor<?x1x1x4xf16>
  func.return %0 : tensor<?x3x7xf64>
}
