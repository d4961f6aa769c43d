// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// conv2d: every attribute (strides, 4-value asymmetric padding, dilation, groups, channels, kernel_size, out_dtype); defaults are omitted in custom form.
// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x4x9x9xf32>, %w: tensor<4x2x3x3xf32>, %v: tensor<?x3x?x?xf32>, %u: tensor<6x3x?x3xf32>) -> tensor<1x4x5x6xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv2d %x, %w {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x6xf32>
  // CHECK-NEXT: %1 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // CHECK-NEXT: %2 = relay.nn.conv2d %v, %u {channels = 6, kernel_size = [5, 3]} : (tensor<?x3x?x?xf32>, tensor<6x3x?x3xf32>) -> tensor<?x6x?x?xf32>
  // GENERIC: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 1>, padding = array<i64: 1, 0, 2, 1>, dilation = array<i64: 1, 2>, groups = 2 : i64, channels = 4 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NCHW", kernel_layout = "OIHW", out_dtype = f32}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x6xf32>
  // GENERIC: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NCHW", kernel_layout = "OIHW"}> : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  // GENERIC: "relay.nn.conv2d"(%v, %u) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, channels = 6 : i64, kernel_size = array<i64: 5, 3>, data_layout = "NCHW", kernel_layout = "OIHW"}> : (tensor<?x3x?x?xf32>, tensor<6x3x?x3xf32>) -> tensor<?x6x?x?xf32>
  %0 = relay.nn.conv2d %x, %w {strides = [2, 1], padding = [1, 0, 2, 1], dilation = [1, 2], groups = 2, channels = 4, kernel_size = [3, 3], out_dtype = f32} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x5x6xf32>
  %1 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x4x9x9xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x7x7xf32>
  %2 = relay.nn.conv2d %v, %u {kernel_size = [5, 3], channels = 6} : (tensor<?x3x?x?xf32>, tensor<6x3x?x3xf32>) -> tensor<?x6x?x?xf32>
  func.return %0 : tensor<1x4x5x6xf32>
}

// -----

/// conv2d layouts: NHWC data with HWIO / HWOI kernels, 1- and 2-value padding, depthwise groups with int8 in and an i32 out_dtype, a `?` batch.
// CHECK-LABEL: func.func @conv2d_layouts
func.func @conv2d_layouts(%y: tensor<?x8x8x3xf32>, %k: tensor<3x3x3x8xf32>, %a: tensor<1x9x9x4xf32>, %b: tensor<3x3x4x2xf32>, %x: tensor<?x4x9x9xi8>, %w: tensor<8x1x3x3xi8>) -> tensor<?x6x6x8xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv2d %y, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  // CHECK-NEXT: %1 = relay.nn.conv2d %a, %b {padding = [1], groups = 2, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x9x9x4xf32>
  // CHECK-NEXT: %2 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1], groups = 4, out_dtype = i32} : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
  // GENERIC: "relay.nn.conv2d"(%y, %k) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NHWC", kernel_layout = "HWIO"}> : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  // GENERIC: "relay.nn.conv2d"(%a, %b) <{strides = array<i64: 1, 1>, padding = array<i64: 1>, dilation = array<i64: 1, 1>, groups = 2 : i64, data_layout = "NHWC", kernel_layout = "HWOI"}> : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x9x9x4xf32>
  // GENERIC: "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, dilation = array<i64: 1, 1>, groups = 4 : i64, data_layout = "NCHW", kernel_layout = "OIHW", out_dtype = i32}> : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
  %0 = relay.nn.conv2d %y, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x6x6x8xf32>
  %1 = relay.nn.conv2d %a, %b {padding = [1], groups = 2, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x9x9x4xf32>
  %2 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1], groups = 4, out_dtype = i32} : (tensor<?x4x9x9xi8>, tensor<8x1x3x3xi8>) -> tensor<?x8x5x5xi32>
  func.return %0 : tensor<?x6x6x8xf32>
}

// -----

/// bias_add: along axis 1 (the default) and a negative axis.
// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<?x4x2x2xf32>, %b: tensor<4xf32>, %y: tensor<?x4xf32>) -> tensor<?x4x2x2xf32> {
  // CHECK-NEXT: %0 = relay.nn.bias_add %x, %b : (tensor<?x4x2x2xf32>, tensor<4xf32>) -> tensor<?x4x2x2xf32>
  // CHECK-NEXT: %1 = relay.nn.bias_add %y, %b {axis = -1} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  // GENERIC: "relay.nn.bias_add"(%x, %b) <{axis = 1 : i64}> : (tensor<?x4x2x2xf32>, tensor<4xf32>) -> tensor<?x4x2x2xf32>
  // GENERIC: "relay.nn.bias_add"(%y, %b) <{axis = -1 : i64}> : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %0 = relay.nn.bias_add %x, %b : (tensor<?x4x2x2xf32>, tensor<4xf32>) -> tensor<?x4x2x2xf32>
  %1 = relay.nn.bias_add %y, %b {axis = -1} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4x2x2xf32>
}

// -----

/// relu: any dtype, also an empty tensor.
// CHECK-LABEL: func.func @relu
func.func @relu(%x: tensor<?x4xf32>, %e: tensor<0x3xi32>) -> tensor<?x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.relu %x : tensor<?x4xf32>
  // CHECK-NEXT: %1 = relay.nn.relu %e : tensor<0x3xi32>
  // GENERIC: "relay.nn.relu"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  // GENERIC: "relay.nn.relu"(%e) : (tensor<0x3xi32>) -> tensor<0x3xi32>
  %0 = relay.nn.relu %x : tensor<?x4xf32>
  %1 = relay.nn.relu %e : tensor<0x3xi32>
  func.return %0 : tensor<?x4xf32>
}

// -----

/// leaky_relu: alpha (default 0.01) is an f64 property.
// CHECK-LABEL: func.func @leaky_relu
func.func @leaky_relu(%x: tensor<?x3x5xf32>) -> tensor<?x3x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.leaky_relu %x {alpha = 0.2} : tensor<?x3x5xf32>
  // CHECK-NEXT: %1 = relay.nn.leaky_relu %x : tensor<?x3x5xf32>
  // GENERIC: "relay.nn.leaky_relu"(%x) <{alpha = 2.000000e-01 : f64}> : (tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
  // GENERIC: "relay.nn.leaky_relu"(%x) <{alpha = 1.000000e-02 : f64}> : (tensor<?x3x5xf32>) -> tensor<?x3x5xf32>
  %0 = relay.nn.leaky_relu %x {alpha = 0.2} : tensor<?x3x5xf32>
  %1 = relay.nn.leaky_relu %x : tensor<?x3x5xf32>
  func.return %0 : tensor<?x3x5xf32>
}

// -----

/// dense: [..., K] x [units, K]; units and out_dtype optional; `?` batch and weight rows.
// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<?x8xf32>, %w: tensor<4x8xf32>, %z: tensor<?x3x5xf32>, %v: tensor<?x5xf32>, %i: tensor<2x3xi8>, %k: tensor<4x3xi8>) -> tensor<?x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.dense %x, %w {units = 4} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  // CHECK-NEXT: %1 = relay.nn.dense %z, %v {units = 7, out_dtype = f64} : (tensor<?x3x5xf32>, tensor<?x5xf32>) -> tensor<?x3x7xf64>
  // CHECK-NEXT: %2 = relay.nn.dense %i, %k {out_dtype = i32} : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
  // GENERIC: "relay.nn.dense"(%x, %w) <{units = 4 : i64}> : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  // GENERIC: "relay.nn.dense"(%z, %v) <{units = 7 : i64, out_dtype = f64}> : (tensor<?x3x5xf32>, tensor<?x5xf32>) -> tensor<?x3x7xf64>
  // GENERIC: "relay.nn.dense"(%i, %k) <{out_dtype = i32}> : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
  %0 = relay.nn.dense %x, %w {units = 4} : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x4xf32>
  %1 = relay.nn.dense %z, %v {units = 7, out_dtype = f64} : (tensor<?x3x5xf32>, tensor<?x5xf32>) -> tensor<?x3x7xf64>
  %2 = relay.nn.dense %i, %k {out_dtype = i32} : (tensor<2x3xi8>, tensor<4x3xi8>) -> tensor<2x4xi32>
  func.return %0 : tensor<?x4xf32>
}

// -----

/// batch_norm: a tuple (out, mean, var) as in Relay; axis, epsilon, center and scale.
// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<1x2x2x3xf32>, %v: tensor<3xf32>, %c: tensor<?x?x4x4xf16>, %g: tensor<?xf16>) -> tensor<1x2x2x3xf32> {
  // CHECK-NEXT: %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 3, epsilon = 0.001, center = false} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  // CHECK-NEXT: %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<1x2x2x3xf32>
  // CHECK-NEXT: %2 = relay.nn.batch_norm %c, %g, %g, %g, %g {axis = -3, scale = false} : (tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) -> tuple<tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>>
  // GENERIC: "relay.nn.batch_norm"(%x, %v, %v, %v, %v) <{axis = 3 : i64, epsilon = 1.000000e-03 : f64, center = false, scale = true}> : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  // GENERIC: "relay.nn.batch_norm"(%c, %g, %g, %g, %g) <{axis = -3 : i64, epsilon = 1.000000e-05 : f64, center = true, scale = false}> : (tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) -> tuple<tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>>
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 3, epsilon = 0.001, center = false} : (tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2x2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<1x2x2x3xf32>
  %2 = relay.nn.batch_norm %c, %g, %g, %g, %g {axis = -3, scale = false} : (tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>, tensor<?xf16>) -> tuple<tensor<?x?x4x4xf16>, tensor<?xf16>, tensor<?xf16>>
  func.return %1 : tensor<1x2x2x3xf32>
}

// -----

/// dropout: a tuple (out, mask) as in Relay; rate defaults to 0.5.
// CHECK-LABEL: func.func @dropout
func.func @dropout(%x: tensor<?x3x5xf32>) -> tensor<?x3x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.dropout %x {rate = 0.25} : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  // CHECK-NEXT: %1 = relay.nn.dropout %x : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  // CHECK-NEXT: %2 = relay.tuple_get_item %1 {index = 1} : (tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>) -> tensor<?x3x5xf32>
  // GENERIC: "relay.nn.dropout"(%x) <{rate = 2.500000e-01 : f64}> : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  // GENERIC: "relay.nn.dropout"(%x) <{rate = 5.000000e-01 : f64}> : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  %0 = relay.nn.dropout %x {rate = 0.25} : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  %1 = relay.nn.dropout %x : (tensor<?x3x5xf32>) -> tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>
  %2 = relay.tuple_get_item %1 {index = 1} : (tuple<tensor<?x3x5xf32>, tensor<?x3x5xf32>>) -> tensor<?x3x5xf32>
  func.return %2 : tensor<?x3x5xf32>
}

// -----

/// max_pool2d: padding with ceil_mode, dilation, NHWC, `?` batch and channels.
// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: tensor<1x2x8x8xf32>, %y: tensor<?x8x8x2xf32>, %c: tensor<?x?x4x4xf16>) -> tensor<1x2x5x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
  // CHECK-NEXT: %1 = relay.nn.max_pool2d %y {pool_size = [2, 2], dilation = [2, 2], layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x6x6x2xf32>
  // CHECK-NEXT: %2 = relay.nn.max_pool2d %c {pool_size = [2, 2]} : (tensor<?x?x4x4xf16>) -> tensor<?x?x3x3xf16>
  // GENERIC: "relay.nn.max_pool2d"(%x) <{pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, layout = "NCHW", ceil_mode = true}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
  // GENERIC: "relay.nn.max_pool2d"(%y) <{pool_size = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilation = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, layout = "NHWC", ceil_mode = false}> : (tensor<?x8x8x2xf32>) -> tensor<?x6x6x2xf32>
  // GENERIC: "relay.nn.max_pool2d"(%c) <{pool_size = array<i64: 2, 2>, strides = array<i64: 1, 1>, dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, layout = "NCHW", ceil_mode = false}> : (tensor<?x?x4x4xf16>) -> tensor<?x?x3x3xf16>
  %0 = relay.nn.max_pool2d %x {pool_size = [3, 3], strides = [2, 2], padding = [1, 1, 1, 1], ceil_mode = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
  %1 = relay.nn.max_pool2d %y {pool_size = [2, 2], dilation = [2, 2], layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x6x6x2xf32>
  %2 = relay.nn.max_pool2d %c {pool_size = [2, 2]} : (tensor<?x?x4x4xf16>) -> tensor<?x?x3x3xf16>
  func.return %0 : tensor<1x2x5x5xf32>
}

// -----

/// avg_pool2d: count_include_pad, asymmetric padding with ceil_mode.
// CHECK-LABEL: func.func @avg_pool2d
func.func @avg_pool2d(%x: tensor<1x2x8x8xf32>, %c: tensor<?x?x4x4xf16>) -> tensor<1x2x4x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.avg_pool2d %x {count_include_pad = true, pool_size = [2, 2], strides = [2, 2]} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  // CHECK-NEXT: %1 = relay.nn.avg_pool2d %c {pool_size = [3, 3], strides = [2, 2], padding = [1, 0, 0, 1], ceil_mode = true} : (tensor<?x?x4x4xf16>) -> tensor<?x?x2x2xf16>
  // GENERIC: "relay.nn.avg_pool2d"(%x) <{count_include_pad = true, pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, layout = "NCHW", ceil_mode = false}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  // GENERIC: "relay.nn.avg_pool2d"(%c) <{count_include_pad = false, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 1>, padding = array<i64: 1, 0, 0, 1>, layout = "NCHW", ceil_mode = true}> : (tensor<?x?x4x4xf16>) -> tensor<?x?x2x2xf16>
  %0 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], count_include_pad = true} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.avg_pool2d %c {pool_size = [3, 3], strides = [2, 2], padding = [1, 0, 0, 1], ceil_mode = true} : (tensor<?x?x4x4xf16>) -> tensor<?x?x2x2xf16>
  func.return %0 : tensor<1x2x4x4xf32>
}

// -----

/// global_avg_pool2d: H and W reduce to 1 in either layout.
// CHECK-LABEL: func.func @global_avg_pool2d
func.func @global_avg_pool2d(%x: tensor<1x2x8x8xf32>, %c: tensor<?x?x4x4xf16>) -> tensor<1x2x1x1xf32> {
  // CHECK-NEXT: %0 = relay.nn.global_avg_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  // CHECK-NEXT: %1 = relay.nn.global_avg_pool2d %c {layout = "NHWC"} : (tensor<?x?x4x4xf16>) -> tensor<?x1x1x4xf16>
  // GENERIC: "relay.nn.global_avg_pool2d"(%x) <{layout = "NCHW"}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  // GENERIC: "relay.nn.global_avg_pool2d"(%c) <{layout = "NHWC"}> : (tensor<?x?x4x4xf16>) -> tensor<?x1x1x4xf16>
  %0 = relay.nn.global_avg_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  %1 = relay.nn.global_avg_pool2d %c {layout = "NHWC"} : (tensor<?x?x4x4xf16>) -> tensor<?x1x1x4xf16>
  func.return %0 : tensor<1x2x1x1xf32>
}

// -----

/// global_max_pool2d: H and W reduce to 1 in either layout.
// CHECK-LABEL: func.func @global_max_pool2d
func.func @global_max_pool2d(%x: tensor<1x2x8x8xf32>, %y: tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32> {
  // CHECK-NEXT: %0 = relay.nn.global_max_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  // CHECK-NEXT: %1 = relay.nn.global_max_pool2d %y {layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32>
  // GENERIC: "relay.nn.global_max_pool2d"(%x) <{layout = "NCHW"}> : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  // GENERIC: "relay.nn.global_max_pool2d"(%y) <{layout = "NHWC"}> : (tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32>
  %0 = relay.nn.global_max_pool2d %x : (tensor<1x2x8x8xf32>) -> tensor<1x2x1x1xf32>
  %1 = relay.nn.global_max_pool2d %y {layout = "NHWC"} : (tensor<?x8x8x2xf32>) -> tensor<?x1x1x2xf32>
  func.return %1 : tensor<?x1x1x2xf32>
}

// -----

/// softmax: along the last axis by default, or a negative axis.
// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x3x4xf32>, %c: tensor<?x?x4x4xf16>) -> tensor<2x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.softmax %x : tensor<2x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.softmax %c {axis = -3} : tensor<?x?x4x4xf16>
  // GENERIC: "relay.nn.softmax"(%x) <{axis = -1 : i64}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.softmax"(%c) <{axis = -3 : i64}> : (tensor<?x?x4x4xf16>) -> tensor<?x?x4x4xf16>
  %0 = relay.nn.softmax %x : tensor<2x3x4xf32>
  %1 = relay.nn.softmax %c {axis = -3} : tensor<?x?x4x4xf16>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

/// log_softmax: along the last axis by default, or another axis.
// CHECK-LABEL: func.func @log_softmax
func.func @log_softmax(%x: tensor<?x3x4xf32>) -> tensor<?x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.log_softmax %x {axis = 1} : tensor<?x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.log_softmax %x : tensor<?x3x4xf32>
  // GENERIC: "relay.nn.log_softmax"(%x) <{axis = 1 : i64}> : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  // GENERIC: "relay.nn.log_softmax"(%x) <{axis = -1 : i64}> : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  %0 = relay.nn.log_softmax %x {axis = 1} : tensor<?x3x4xf32>
  %1 = relay.nn.log_softmax %x : tensor<?x3x4xf32>
  func.return %0 : tensor<?x3x4xf32>
}

// -----

/// batch_flatten: [N, d1, d2, ...] to [N, d1 * d2 * ...]; a `?` among the rest makes it `?`.
// CHECK-LABEL: func.func @batch_flatten
func.func @batch_flatten(%x: tensor<2x3x4xf32>, %y: tensor<?x3x4xf32>, %c: tensor<?x?x4x4xf16>) -> tensor<2x12xf32> {
  // CHECK-NEXT: %0 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK-NEXT: %1 = relay.nn.batch_flatten %y : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // CHECK-NEXT: %2 = relay.nn.batch_flatten %c : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
  // GENERIC: "relay.nn.batch_flatten"(%x) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // GENERIC: "relay.nn.batch_flatten"(%y) : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // GENERIC: "relay.nn.batch_flatten"(%c) : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
  %0 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = relay.nn.batch_flatten %y : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %2 = relay.nn.batch_flatten %c : (tensor<?x?x4x4xf16>) -> tensor<?x?xf16>
  func.return %0 : tensor<2x12xf32>
}

// -----

/// pad: pad_width is flat [before0, after0, before1, after1, ...]; constant, edge, reflect and wrap modes.
// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3x4xf32>, %y: tensor<?x3x5xf32>, %e: tensor<0x3xi32>) -> tensor<2x6x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.pad %x {pad_width = [0, 0, 1, 2, 0, 1], pad_value = 1.5} : (tensor<2x3x4xf32>) -> tensor<2x6x5xf32>
  // CHECK-NEXT: %1 = relay.nn.pad %x {pad_width = [0, 0, 2, 2, 1, 1], pad_mode = "reflect"} : (tensor<2x3x4xf32>) -> tensor<2x7x6xf32>
  // CHECK-NEXT: %2 = relay.nn.pad %y {pad_width = [1, 1, 0, 0, 2, 0], pad_mode = "edge"} : (tensor<?x3x5xf32>) -> tensor<?x3x7xf32>
  // CHECK-NEXT: %3 = relay.nn.pad %e {pad_width = [1, 0, 0, 1], pad_value = -2.0} : (tensor<0x3xi32>) -> tensor<1x4xi32>
  // CHECK-NEXT: %4 = relay.nn.pad %x {pad_width = [0, 0, 5, 1, 0, 0], pad_mode = "wrap"} : (tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  // GENERIC: "relay.nn.pad"(%x) <{pad_width = array<i64: 0, 0, 1, 2, 0, 1>, pad_value = 1.500000e+00 : f64, pad_mode = "constant"}> : (tensor<2x3x4xf32>) -> tensor<2x6x5xf32>
  // GENERIC: "relay.nn.pad"(%x) <{pad_width = array<i64: 0, 0, 2, 2, 1, 1>, pad_value = 0.000000e+00 : f64, pad_mode = "reflect"}> : (tensor<2x3x4xf32>) -> tensor<2x7x6xf32>
  // GENERIC: "relay.nn.pad"(%y) <{pad_width = array<i64: 1, 1, 0, 0, 2, 0>, pad_value = 0.000000e+00 : f64, pad_mode = "edge"}> : (tensor<?x3x5xf32>) -> tensor<?x3x7xf32>
  // GENERIC: "relay.nn.pad"(%e) <{pad_width = array<i64: 1, 0, 0, 1>, pad_value = -2.000000e+00 : f64, pad_mode = "constant"}> : (tensor<0x3xi32>) -> tensor<1x4xi32>
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1, 2, 0, 1], pad_value = 1.5} : (tensor<2x3x4xf32>) -> tensor<2x6x5xf32>
  %1 = relay.nn.pad %x {pad_width = [0, 0, 2, 2, 1, 1], pad_mode = "reflect"} : (tensor<2x3x4xf32>) -> tensor<2x7x6xf32>
  %2 = relay.nn.pad %y {pad_width = [1, 1, 0, 0, 2, 0], pad_mode = "edge"} : (tensor<?x3x5xf32>) -> tensor<?x3x7xf32>
  %3 = relay.nn.pad %e {pad_width = [1, 0, 0, 1], pad_value = -2} : (tensor<0x3xi32>) -> tensor<1x4xi32>
  %4 = relay.nn.pad %x {pad_width = [0, 0, 5, 1, 0, 0], pad_mode = "wrap"} : (tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  func.return %0 : tensor<2x6x5xf32>
}
