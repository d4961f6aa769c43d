// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// conv1d: every attribute, a dilation, NWC/WIO with int8 data and an i32 out_dtype, a `?` batch; defaults are omitted in custom form.
// CHECK-LABEL: func.func @conv1d
func.func @conv1d(%x: tensor<2x4x9xf32>, %w: tensor<6x2x3xf32>, %y: tensor<?x7x3xi8>, %k: tensor<3x3x2xi8>) -> tensor<2x6x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv1d %x, %w {strides = [2], padding = [1, 2], groups = 2, channels = 6, kernel_size = [3], out_dtype = f32} : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x5xf32>
  // CHECK-NEXT: %1 = relay.nn.conv1d %x, %w {dilation = [3], groups = 2} : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x3xf32>
  // CHECK-NEXT: %2 = relay.nn.conv1d %y, %k {padding = [1], data_layout = "NWC", kernel_layout = "WIO", out_dtype = i32} : (tensor<?x7x3xi8>, tensor<3x3x2xi8>) -> tensor<?x7x2xi32>
  // GENERIC: "relay.nn.conv1d"(%x, %w) <{strides = array<i64: 2>, padding = array<i64: 1, 2>, dilation = array<i64: 1>, data_layout = "NCW", kernel_layout = "OIW", groups = 2 : i64, channels = 6 : i64, kernel_size = array<i64: 3>, out_dtype = f32}> : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x5xf32>
  // GENERIC: "relay.nn.conv1d"(%x, %w) <{strides = array<i64: 1>, padding = array<i64: 0, 0>, dilation = array<i64: 3>, data_layout = "NCW", kernel_layout = "OIW", groups = 2 : i64}> : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x3xf32>
  // GENERIC: "relay.nn.conv1d"(%y, %k) <{strides = array<i64: 1>, padding = array<i64: 1>, dilation = array<i64: 1>, data_layout = "NWC", kernel_layout = "WIO", groups = 1 : i64, out_dtype = i32}> : (tensor<?x7x3xi8>, tensor<3x3x2xi8>) -> tensor<?x7x2xi32>
  %0 = relay.nn.conv1d %x, %w {strides = [2], padding = [1, 2], dilation = [1], groups = 2, channels = 6, kernel_size = [3], out_dtype = f32} : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x5xf32>
  %1 = relay.nn.conv1d %x, %w {dilation = [3], groups = 2} : (tensor<2x4x9xf32>, tensor<6x2x3xf32>) -> tensor<2x6x3xf32>
  %2 = relay.nn.conv1d %y, %k {padding = [1], data_layout = "NWC", kernel_layout = "WIO", out_dtype = i32} : (tensor<?x7x3xi8>, tensor<3x3x2xi8>) -> tensor<?x7x2xi32>
  func.return %0 : tensor<2x6x5xf32>
}

// -----

/// conv3d: strides and 3-value padding, 6-value asymmetric padding with dilation and depthwise groups, NDHWC/DHWIO with kernel_size; `?` dims stay `?`.
// CHECK-LABEL: func.func @conv3d
func.func @conv3d(%x: tensor<1x2x4x5x6xf32>, %w: tensor<3x2x2x3x2xf32>, %y: tensor<?x4x?x5x5xf32>, %k: tensor<4x1x3x2x2xf32>) -> tensor<1x3x5x3x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv3d %x, %w {strides = [1, 2, 2], padding = [1, 1, 1]} : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x3x5x3x4xf32>
  // CHECK-NEXT: %1 = relay.nn.conv3d %y, %k {padding = [1, 0, 1, 0, 1, 2], dilation = [1, 2, 1], groups = 4} : (tensor<?x4x?x5x5xf32>, tensor<4x1x3x2x2xf32>) -> tensor<?x4x?x4x7xf32>
  // CHECK-NEXT: %2 = relay.nn.conv3d %x, %w {padding = [1], data_layout = "NDHWC", kernel_layout = "DHWIO", groups = 2, kernel_size = [3, 2, 2]} : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x2x5x6x2xf32>
  // GENERIC: "relay.nn.conv3d"(%x, %w) <{strides = array<i64: 1, 2, 2>, padding = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, data_layout = "NCDHW", kernel_layout = "OIDHW", groups = 1 : i64}> : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x3x5x3x4xf32>
  // GENERIC: "relay.nn.conv3d"(%y, %k) <{strides = array<i64: 1, 1, 1>, padding = array<i64: 1, 0, 1, 0, 1, 2>, dilation = array<i64: 1, 2, 1>, data_layout = "NCDHW", kernel_layout = "OIDHW", groups = 4 : i64}> : (tensor<?x4x?x5x5xf32>, tensor<4x1x3x2x2xf32>) -> tensor<?x4x?x4x7xf32>
  // GENERIC: "relay.nn.conv3d"(%x, %w) <{strides = array<i64: 1, 1, 1>, padding = array<i64: 1>, dilation = array<i64: 1, 1, 1>, data_layout = "NDHWC", kernel_layout = "DHWIO", groups = 2 : i64, kernel_size = array<i64: 3, 2, 2>}> : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x2x5x6x2xf32>
  %0 = relay.nn.conv3d %x, %w {strides = [1, 2, 2], padding = [1, 1, 1]} : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x3x5x3x4xf32>
  %1 = relay.nn.conv3d %y, %k {padding = [1, 0, 1, 0, 1, 2], dilation = [1, 2, 1], groups = 4} : (tensor<?x4x?x5x5xf32>, tensor<4x1x3x2x2xf32>) -> tensor<?x4x?x4x7xf32>
  %2 = relay.nn.conv3d %x, %w {padding = [1], groups = 2, data_layout = "NDHWC", kernel_layout = "DHWIO", kernel_size = [3, 2, 2]} : (tensor<1x2x4x5x6xf32>, tensor<3x2x2x3x2xf32>) -> tensor<1x2x5x6x2xf32>
  func.return %0 : tensor<1x3x5x3x4xf32>
}

// -----

/// conv2d_transpose (every attribute; IOHW weights, output channels = weight O * groups), conv1d_transpose and conv3d_transpose with output_padding, `?` data dims.
// CHECK-LABEL: func.func @conv_transpose
func.func @conv_transpose(%x: tensor<2x4x3x4xf32>, %w: tensor<4x3x3x2xf32>, %a: tensor<2x2x5xf32>, %b: tensor<2x3x3xf32>, %c: tensor<1x2x3x3x4xf32>, %d: tensor<2x2x2x2x3xf32>, %e: tensor<?x4x?x?xf32>) -> tensor<2x6x7x12xf32> {
  // CHECK-NEXT: %0 = relay.nn.conv2d_transpose %x, %w {strides = [2, 3], padding = [1, 0, 2, 1], output_padding = [1, 2], dilation = [2, 1], groups = 2, channels = 6, kernel_size = [3, 2]} : (tensor<2x4x3x4xf32>, tensor<4x3x3x2xf32>) -> tensor<2x6x7x12xf32>
  // CHECK-NEXT: %1 = relay.nn.conv1d_transpose %a, %b {strides = [2], padding = [1, 2], output_padding = [1]} : (tensor<2x2x5xf32>, tensor<2x3x3xf32>) -> tensor<2x3x9xf32>
  // CHECK-NEXT: %2 = relay.nn.conv3d_transpose %c, %d {strides = [1, 2, 2], padding = [1, 1, 1, 1, 1, 1]} : (tensor<1x2x3x3x4xf32>, tensor<2x2x2x2x3xf32>) -> tensor<1x2x2x4x7xf32>
  // CHECK-NEXT: %3 = relay.nn.conv2d_transpose %e, %w {groups = 2} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>) -> tensor<?x6x?x?xf32>
  // GENERIC: "relay.nn.conv2d_transpose"(%x, %w) <{strides = array<i64: 2, 3>, padding = array<i64: 1, 0, 2, 1>, output_padding = array<i64: 1, 2>, dilation = array<i64: 2, 1>, data_layout = "NCHW", kernel_layout = "IOHW", groups = 2 : i64, channels = 6 : i64, kernel_size = array<i64: 3, 2>}> : (tensor<2x4x3x4xf32>, tensor<4x3x3x2xf32>) -> tensor<2x6x7x12xf32>
  // GENERIC: "relay.nn.conv1d_transpose"(%a, %b) <{strides = array<i64: 2>, padding = array<i64: 1, 2>, output_padding = array<i64: 1>, dilation = array<i64: 1>, data_layout = "NCW", kernel_layout = "IOW", groups = 1 : i64}> : (tensor<2x2x5xf32>, tensor<2x3x3xf32>) -> tensor<2x3x9xf32>
  // GENERIC: "relay.nn.conv3d_transpose"(%c, %d) <{strides = array<i64: 1, 2, 2>, padding = array<i64: 1, 1, 1, 1, 1, 1>, output_padding = array<i64: 0, 0, 0>, dilation = array<i64: 1, 1, 1>, data_layout = "NCDHW", kernel_layout = "IODHW", groups = 1 : i64}> : (tensor<1x2x3x3x4xf32>, tensor<2x2x2x2x3xf32>) -> tensor<1x2x2x4x7xf32>
  // GENERIC: "relay.nn.conv2d_transpose"(%e, %w) <{strides = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, output_padding = array<i64: 0, 0>, dilation = array<i64: 1, 1>, data_layout = "NCHW", kernel_layout = "IOHW", groups = 2 : i64}> : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>) -> tensor<?x6x?x?xf32>
  %0 = relay.nn.conv2d_transpose %x, %w {strides = [2, 3], padding = [1, 0, 2, 1], output_padding = [1, 2], dilation = [2, 1], groups = 2, channels = 6, kernel_size = [3, 2]} : (tensor<2x4x3x4xf32>, tensor<4x3x3x2xf32>) -> tensor<2x6x7x12xf32>
  %1 = relay.nn.conv1d_transpose %a, %b {strides = [2], padding = [1, 2], output_padding = [1]} : (tensor<2x2x5xf32>, tensor<2x3x3xf32>) -> tensor<2x3x9xf32>
  %2 = relay.nn.conv3d_transpose %c, %d {strides = [1, 2, 2], padding = [1, 1, 1, 1, 1, 1]} : (tensor<1x2x3x3x4xf32>, tensor<2x2x2x2x3xf32>) -> tensor<1x2x2x4x7xf32>
  %3 = relay.nn.conv2d_transpose %e, %w {groups = 2, data_layout = "NCHW", kernel_layout = "IOHW"} : (tensor<?x4x?x?xf32>, tensor<4x3x3x2xf32>) -> tensor<?x6x?x?xf32>
  func.return %0 : tensor<2x6x7x12xf32>
}
