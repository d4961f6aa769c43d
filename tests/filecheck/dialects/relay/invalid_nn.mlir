// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

func.func @conv2d_0(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op expected 4-D data, got rank 3 (3, 8, 8)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_1(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op expected 4-D weight, got rank 3 (4, 3, 3)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_2(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight element type f16 does not match data f32}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_3(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op unknown data_layout 'CHWN'; expected one of NCHW, NHWC}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "CHWN"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_4(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op unknown kernel_layout 'IOHW'; expected one of OIHW, HWIO, OHWI, HWOI}}
  %0 = relay.nn.conv2d %x, %w {kernel_layout = "IOHW"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_5(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op strides must have 2 values, got 3}}
  %0 = relay.nn.conv2d %x, %w {strides = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_6(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op dilation must have 2 values, got 1}}
  %0 = relay.nn.conv2d %x, %w {dilation = [1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_7(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_8(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op strides must be positive, got [0, 1]}}
  %0 = relay.nn.conv2d %x, %w {strides = [0, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_9(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op dilation must be positive, got [1, -1]}}
  %0 = relay.nn.conv2d %x, %w {dilation = [1, -1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_10(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op padding must be non-negative, got [-1, 0]}}
  %0 = relay.nn.conv2d %x, %w {padding = [-1, 0]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_11(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op groups must be positive, got 0}}
  %0 = relay.nn.conv2d %x, %w {groups = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_12(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op input channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_13(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_14(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight input channels 2 do not match data channels 3 / groups 1; data (1, 3, 8, 8) (NCHW), weight (4, 2, 3, 3) (OIHW)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_15(%x: tensor<?x8x8x3xf32>, %w: tensor<3x3x4x8xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op weight input channels 4 do not match data channels 3 / groups 1; data (?, 8, 8, 3) (NHWC), weight (3, 3, 4, 8) (HWIO)}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x8x8x3xf32>, tensor<3x3x4x8xf32>) -> tensor<?x6x6x8xf32>
  func.return
}

// -----

func.func @conv2d_16(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op channels must be positive, got 0}}
  %0 = relay.nn.conv2d %x, %w {channels = 0} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_17(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op channels 8 do not match weight output channels 4}}
  %0 = relay.nn.conv2d %x, %w {channels = 8} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_18(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size must have 2 values, got 1}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_19(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x?x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size must be positive, got [0, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [0, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x?x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_20(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size [5, 5] does not match weight kernel [3, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [5, 5]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_21(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x?x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op kernel_size [5, 5] does not match weight kernel [?, 3]}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = [5, 5]} : (tensor<1x3x8x8xf32>, tensor<4x3x?x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_22(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x9x9xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op window of size 9 does not fit input extent 8 with padding 0}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x9x9xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_23(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op window of size 5 does not fit input extent 2 with padding 2}}
  %0 = relay.nn.conv2d %x, %w {dilation = [2, 1], padding = [1, 1]} : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_24(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op unsupported out_dtype index}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = index} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_25(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op attribute 'strides' must be a list of integers, got array<f32: 1.000000e+00, 1.000000e+00>}}
  %0 = relay.nn.conv2d %x, %w {strides = array<f32: 1.0, 1.0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return
}

// -----

func.func @conv2d_26(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op inferred type(s) 'tensor<1x4x6x6xf32>' are incompatible with return type(s) of operation 'tensor<1x4x8x8xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  func.return
}

// -----

func.func @conv2d_27(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) {
  // expected-error@+1 {{'relay.nn.conv2d' op inferred type(s) 'tensor<1x4x6x6xi32>' are incompatible with return type(s) of operation 'tensor<1x4x6x6xi8>'}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>) -> tensor<1x4x6x6xi8>
  func.return
}

// -----

func.func @bias_add_28(%x: tensor<1x4x2x2xf32>, %b: tensor<4x1xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op expected 1-D bias, got rank 2 (4, 1)}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4x1xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

func.func @bias_add_29(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op axis 4 is out of range for rank 4}}
  %0 = relay.nn.bias_add %x, %b {axis = 4} : (tensor<1x4x2x2xf32>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

func.func @bias_add_30(%x: tensor<1x4x2x2xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias element type f16 does not match data f32}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<4xf16>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

func.func @bias_add_31(%x: tensor<1x4x2x2xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op bias of size 3 does not match data dim 4 on axis 1}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x4x2x2xf32>, tensor<3xf32>) -> tensor<1x4x2x2xf32>
  func.return
}

// -----

func.func @leaky_relu_32(%x: tensor<4xi32>) {
  // expected-error@+1 {{'relay.nn.leaky_relu' op expected a floating-point operand, got i32}}
  %0 = relay.nn.leaky_relu %x : tensor<4xi32>
  func.return
}

// -----

func.func @dense_33(%x: tensor<f32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.dense %x, %w : (tensor<f32>, tensor<4x8xf32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @dense_34(%x: tensor<2x8xf32>, %w: tensor<4x8x1xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op expected 2-D weight, got rank 3 (4, 8, 1)}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8x1xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dense_35(%x: tensor<2x8xf32>, %w: tensor<4x8xf16>) {
  // expected-error@+1 {{'relay.nn.dense' op weight element type f16 does not match data f32}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x8xf16>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dense_36(%x: tensor<2x8xf32>, %w: tensor<4x7xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op data (2, 8) and weight (4, 7) disagree on the reduction dim: 8 vs 7}}
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<4x7xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dense_37(%x: tensor<2x8xf32>, %w: tensor<?x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op units must be positive, got -4}}
  %0 = relay.nn.dense %x, %w {units = -4} : (tensor<2x8xf32>, tensor<?x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dense_38(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op units 5 do not match weight rows 4}}
  %0 = relay.nn.dense %x, %w {units = 5} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @dense_39(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) {
  // expected-error@+1 {{'relay.nn.dense' op unsupported out_dtype tensor<2xf32>}}
  %0 = relay.nn.dense %x, %w {out_dtype = tensor<2xf32>} : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

func.func @batch_norm_40(%x: tensor<2x3xi32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected a floating-point operand, got i32}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>>
  func.return
}

// -----

func.func @batch_norm_41(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {axis = 2} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_42(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {axis = -3} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_43(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op epsilon must be non-negative, got -1.0}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v {epsilon = -1.0} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_44(%x: tensor<2x3xf32>, %g: tensor<3x1xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected 1-D gamma, got rank 2 (3, 1)}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_45(%x: tensor<2x3xf32>, %g: tensor<3xf16>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op gamma element type f16 does not match data f32}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_46(%x: tensor<2x3xf32>, %g: tensor<4xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op gamma of size 4 does not match data dim 3 on axis 1}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}

// -----

func.func @batch_norm_47(%x: tensor<2x?xf32>, %g: tensor<4xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op beta of size 3 does not match gamma size 4}}
  %0 = relay.nn.batch_norm %x, %g, %v, %v, %v : (tensor<2x?xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x?xf32>, tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

func.func @dropout_48(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op rate must be in [0, 1), got 1.0}}
  %0 = relay.nn.dropout %x {rate = 1.0} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

func.func @dropout_49(%x: tensor<4xf32>) {
  // expected-error@+1 {{'relay.nn.dropout' op rate must be in [0, 1), got -0.5}}
  %0 = relay.nn.dropout %x {rate = -0.5} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  func.return
}

// -----

func.func @dropout_50(%x: tensor<4xi32>) {
  // expected-error@+1 {{'relay.nn.dropout' op expected a floating-point operand, got i32}}
  %0 = relay.nn.dropout %x : (tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>>
  func.return
}

// -----

func.func @softmax_51(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.nn.softmax' op axis 2 is out of range for rank 2}}
  %0 = relay.nn.softmax %x {axis = 2} : tensor<2x4xf32>
  func.return
}

// -----

func.func @softmax_52(%x: tensor<2x4xi32>) {
  // expected-error@+1 {{'relay.nn.softmax' op expected a floating-point operand, got i32}}
  %0 = relay.nn.softmax %x : tensor<2x4xi32>
  func.return
}

// -----

func.func @log_softmax_53(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op axis -3 is out of range for rank 2}}
  %0 = relay.nn.log_softmax %x {axis = -3} : tensor<2x4xf32>
  func.return
}

// -----

func.func @log_softmax_54(%x: tensor<2x4xi8>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op expected a floating-point operand, got i8}}
  %0 = relay.nn.log_softmax %x : tensor<2x4xi8>
  func.return
}

// -----

func.func @batch_flatten_55(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.batch_flatten %x : (tensor<f32>) -> tensor<1x1xf32>
  func.return
}

// -----

func.func @batch_flatten_56(%x: tensor<?x3x4xf32>) {
  // expected-error@+1 {{'relay.nn.batch_flatten' op inferred type(s) 'tensor<?x12xf32>' are incompatible with return type(s) of operation 'tensor<?x6xf32>'}}
  %0 = relay.nn.batch_flatten %x : (tensor<?x3x4xf32>) -> tensor<?x6xf32>
  func.return
}

// -----

func.func @pad_57(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width must have 2 values per axis (4), got 3}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @pad_58(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op pad_width must be non-negative, got [0, 0, -1, 0]}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, -1, 0]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @pad_59(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op unknown pad_mode 'wrap'; expected one of constant, edge, reflect}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 1, 1], pad_mode = "wrap"} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

func.func @pad_60(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op reflect padding 3 must be smaller than dim 3 on axis 1}}
  %0 = relay.nn.pad %x {pad_width = [0, 0, 3, 0], pad_mode = "reflect"} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  func.return
}

// -----

func.func @pad_61(%x: tensor<0x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op edge padding needs a non-empty dim, got 0 on axis 0}}
  %0 = relay.nn.pad %x {pad_width = [1, 1, 0, 0], pad_mode = "edge"} : (tensor<0x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @pad_62(%x: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op attribute 'pad_width' must be a list of integers, got array<f64: 1.000000e+00, 1.000000e+00>}}
  %0 = relay.nn.pad %x {pad_width = array<f64: 1.0, 1.0>} : (tensor<3xf32>) -> tensor<5xf32>
  func.return
}

// -----

func.func @pad_63(%x: tensor<?x3xf32>) {
  // expected-error@+1 {{'relay.nn.pad' op inferred type(s) 'tensor<?x5xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>'}}
  %0 = relay.nn.pad %x {pad_width = [2, 0, 1, 1]} : (tensor<?x3xf32>) -> tensor<?x4xf32>
  func.return
}

// -----

func.func @max_pool2d_64(%x: tensor<2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op expected 4-D data, got rank 3 (2, 4, 4)}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2]} : (tensor<2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_65(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op unknown layout 'HWCN'; expected one of NCHW, NHWC}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], layout = "HWCN"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_66(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op pool_size must have 2 values, got 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @avg_pool2d_67(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op pool_size must be positive, got [0, 2]}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [0, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_68(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op strides must have 2 values, got 3}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_69(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op dilation must have 2 values, got 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], dilation = [1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_70(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op padding must have 1, 2 or 4 values, got 3}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], padding = [1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_71(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op padding must be non-negative, got [-1]}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], padding = [-1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_72(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op strides must be positive, got [2, 0]}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 0]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @avg_pool2d_73(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op dilation must be positive, got [0, 1]}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [2, 2], dilation = [0, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @max_pool2d_74(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.max_pool2d' op pool window of size 5 does not fit input extent 4 with padding 0}}
  %0 = relay.nn.max_pool2d %x {pool_size = [5, 5]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @avg_pool2d_75(%x: tensor<?x2x4x?xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op pool window of size 5 does not fit input extent 4 with padding 0}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [3, 2], dilation = [2, 1]} : (tensor<?x2x4x?xf32>) -> tensor<?x2x1x?xf32>
  func.return
}

// -----

func.func @avg_pool2d_76(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.avg_pool2d' op inferred type(s) 'tensor<1x2x3x3xf32>' are incompatible with return type(s) of operation 'tensor<1x2x2x2xf32>'}}
  %0 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2], padding = [1, 1, 0, 0], ceil_mode = true} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return
}

// -----

func.func @global_avg_pool2d_77(%x: tensor<2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.global_avg_pool2d' op expected 4-D data, got rank 3 (2, 4, 4)}}
  %0 = relay.nn.global_avg_pool2d %x : (tensor<2x4x4xf32>) -> tensor<1x1xf32>
  func.return
}

// -----

func.func @global_max_pool2d_78(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'relay.nn.global_max_pool2d' op unknown layout 'NCWH'; expected one of NCHW, NHWC}}
  %0 = relay.nn.global_max_pool2d %x {layout = "NCWH"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32>
  func.return
}

// -----

func.func @bias_add_79(%x: tensor<f32>, %b: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.bias_add' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.bias_add %x, %b {axis = 0} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
  func.return
}

// -----

func.func @batch_norm_80(%x: tensor<f32>, %v: tensor<1xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {axis = 0} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tuple<tensor<f32>, tensor<1xf32>, tensor<1xf32>>
  func.return
}

// -----

func.func @softmax_81(%x: tensor<f32>) {
  // expected-error@+1 {{'relay.nn.softmax' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.softmax %x {axis = 0} : tensor<f32>
  func.return
}

// -----

func.func @log_softmax_82(%x: tensor<f16>) {
  // expected-error@+1 {{'relay.nn.log_softmax' op expected data of rank at least 1, got rank 0}}
  %0 = relay.nn.log_softmax %x {axis = 0} : tensor<f16>
  func.return
}

// -----

func.func @conv2d_83(%x: tensor<1x4x8x8xf32>, %w: tensor<?x2x3x3xf32>) {
  // expected-error@+1 {{'relay.nn.conv2d' op output channels 3 are not divisible by groups 2}}
  %0 = relay.nn.conv2d %x, %w {groups = 2, channels = 3} : (tensor<1x4x8x8xf32>, tensor<?x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  func.return
}

// -----

func.func @batch_norm_84(%x: tensor<2x3xf32>, %v: tensor<3xf32>) {
  // expected-error@+1 {{'relay.nn.batch_norm' op epsilon must be non-negative, got nan}}
  %0 = relay.nn.batch_norm %x, %v, %v, %v, %v {epsilon = 0x7FF8000000000000 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return
}
