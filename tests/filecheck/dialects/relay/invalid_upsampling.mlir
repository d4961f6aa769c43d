// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// upsampling: the data must be 4-D.
func.func @upsampling_rank(%x: tensor<3x4x5xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op expected 4-D data, got rank 3 (3, 4, 5)}}
  %0 = relay.nn.upsampling %x : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  func.return
}

// -----

/// upsampling: no boolean data.
func.func @upsampling_bool(%x: tensor<1x3x4x5xi1>) {
  // expected-error@+1 {{'relay.nn.upsampling' op upsampling does not take boolean data}}
  %0 = relay.nn.upsampling %x : (tensor<1x3x4x5xi1>) -> tensor<1x3x4x5xi1>
  func.return
}

// -----

/// upsampling: NCHW or NHWC only.
func.func @upsampling_layout(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op unknown layout 'NCWH'; expected one of NCHW, NHWC}}
  %0 = relay.nn.upsampling %x {layout = "NCWH"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  func.return
}

// -----

/// upsampling: TVM's three methods.
func.func @upsampling_method(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op unknown method 'linear'; expected one of 'nearest_neighbor', 'bilinear', 'bicubic'}}
  %0 = relay.nn.upsampling %x {method = "linear"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  func.return
}

// -----

/// upsampling: H and W must be static (the output extents are computed from them).
func.func @upsampling_dynamic(%x: tensor<1x3x?x5xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op upsampling needs static H and W, got (1, 3, ?, 5)}}
  %0 = relay.nn.upsampling %x : (tensor<1x3x?x5xf32>) -> tensor<1x3x?x5xf32>
  func.return
}

// -----

/// upsampling: scales must be positive and finite.
func.func @upsampling_scale(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.nn.upsampling' op scale_w must be a positive finite number, got -2.0}}
  %0 = relay.nn.upsampling %x {scale_w = -2.0} : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  func.return
}
