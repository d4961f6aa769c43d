// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// resize2d: the data must be 4-D.
func.func @resize2d_data_rank(%x: tensor<3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op expected 4-D data, got rank 3 (3, 4, 5)}}
  %0 = relay.image.resize2d %x {size = [8, 10]} : (tensor<3x4x5xf32>) -> tensor<3x8x10xf32>
  func.return
}

// -----

/// resize2d: no boolean data.
func.func @resize2d_bool_data(%x: tensor<1x3x4x5xi1>) {
  // expected-error@+1 {{'relay.image.resize2d' op resize2d does not take boolean data}}
  %0 = relay.image.resize2d %x {size = [8, 10]} : (tensor<1x3x4x5xi1>) -> tensor<1x3x8x10xi1>
  func.return
}

// -----

/// resize2d: only NCHW and NHWC.
func.func @resize2d_layout(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op unknown layout 'NCWH'; expected one of NCHW, NHWC}}
  %0 = relay.image.resize2d %x {size = [8, 10], layout = "NCWH"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: size is 2 values.
func.func @resize2d_size_len(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op size must have 2 values, got 1}}
  %0 = relay.image.resize2d %x {size = [8]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: size must be non-negative.
func.func @resize2d_size_negative(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op size must be non-negative, got [8, -1]}}
  %0 = relay.image.resize2d %x {size = [8, -1]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: roi is 4 values.
func.func @resize2d_roi_len(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op roi must have 4 values, got 2}}
  %0 = relay.image.resize2d %x {size = [8, 10], roi = array<f64: 0.0, 1.0>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: roi is a float list.
func.func @resize2d_roi_floats(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op "all" should be of base attribute array}}
  %0 = relay.image.resize2d %x {size = [8, 10], roi = "all"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: scales is 2 values.
func.func @resize2d_scales_len(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op scales must have 2 values, got 1}}
  %0 = relay.image.resize2d %x {size = [8, 10], scales = array<f64: 2.0>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: scales must be positive.
func.func @resize2d_scales_positive(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op scales must be positive, got [2.0, 0.0]}}
  %0 = relay.image.resize2d %x {size = [8, 10], scales = array<f64: 2.0, 0.0>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: method is nearest_neighbor, linear or cubic.
func.func @resize2d_method(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op unknown method 'bilinear'; expected one of 'nearest_neighbor', 'linear', 'cubic'}}
  %0 = relay.image.resize2d %x {size = [8, 10], method = "bilinear"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: a known coordinate_transformation_mode.
func.func @resize2d_mode(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op unknown coordinate_transformation_mode 'center'}}
  %0 = relay.image.resize2d %x {size = [8, 10], coordinate_transformation_mode = "center"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: a known rounding_method.
func.func @resize2d_rounding(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op unknown rounding_method 'up'}}
  %0 = relay.image.resize2d %x {size = [8, 10], rounding_method = "up"} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: no boolean results.
func.func @resize2d_bool_out(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op resize2d does not give boolean results}}
  %0 = relay.image.resize2d %x {size = [8, 10], out_dtype = i1} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xi1>
  func.return
}

// -----

/// resize2d: a supported out_dtype.
func.func @resize2d_out_dtype(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op unsupported out_dtype index}}
  %0 = relay.image.resize2d %x {size = [8, 10], out_dtype = index} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  func.return
}

// -----

/// resize2d: antialias takes linear or cubic kernels.
func.func @resize2d_antialias_nearest(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize2d' op antialias needs method 'linear' or 'cubic'}}
  %0 = relay.image.resize2d %x {size = [2, 2], method = "nearest_neighbor", antialias = true} : (tensor<1x3x4x5xf32>) -> tensor<1x3x2x2xf32>
  func.return
}

// -----

/// resize1d: the data must be 3-D.
func.func @resize1d_data_rank(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op expected 3-D data, got rank 4 (1, 3, 4, 5)}}
  %0 = relay.image.resize1d %x {size = [8]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x8xf32>
  func.return
}

// -----

/// resize1d: no boolean data.
func.func @resize1d_bool_data(%x: tensor<1x3x5xi1>) {
  // expected-error@+1 {{'relay.image.resize1d' op resize1d does not take boolean data}}
  %0 = relay.image.resize1d %x {size = [8]} : (tensor<1x3x5xi1>) -> tensor<1x3x8xi1>
  func.return
}

// -----

/// resize1d: only NCW and NWC.
func.func @resize1d_layout(%x: tensor<1x3x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op unknown layout 'NCHW'; expected one of NCW, NWC}}
  %0 = relay.image.resize1d %x {size = [8], layout = "NCHW"} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// resize1d: size is 1 value.
func.func @resize1d_size_len(%x: tensor<1x3x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op size must have 1 values, got 2}}
  %0 = relay.image.resize1d %x {size = [8, 8]} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// resize1d: roi is 2 values.
func.func @resize1d_roi_len(%x: tensor<1x3x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op roi must have 2 values, got 4}}
  %0 = relay.image.resize1d %x {size = [8], roi = array<f64: 0.0, 0.0, 1.0, 1.0>} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// resize1d: scales is 1 value.
func.func @resize1d_scales_len(%x: tensor<1x3x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op scales must have 1 values, got 2}}
  %0 = relay.image.resize1d %x {size = [8], scales = array<f64: 2.0, 2.0>} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  func.return
}

// -----

/// resize1d: no boolean results.
func.func @resize1d_bool_out(%x: tensor<1x3x5xf32>) {
  // expected-error@+1 {{'relay.image.resize1d' op resize1d does not give boolean results}}
  %0 = relay.image.resize1d %x {size = [8], out_dtype = i1} : (tensor<1x3x5xf32>) -> tensor<1x3x8xi1>
  func.return
}

// -----

/// resize3d: the data must be 5-D.
func.func @resize3d_data_rank(%x: tensor<1x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize3d' op expected 5-D data, got rank 4 (1, 3, 4, 5)}}
  %0 = relay.image.resize3d %x {size = [2, 3, 4]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x4x5xf32>
  func.return
}

// -----

/// resize3d: no boolean data.
func.func @resize3d_bool_data(%x: tensor<1x2x3x4x5xi1>) {
  // expected-error@+1 {{'relay.image.resize3d' op resize3d does not take boolean data}}
  %0 = relay.image.resize3d %x {size = [2, 3, 4]} : (tensor<1x2x3x4x5xi1>) -> tensor<1x2x2x3x4xi1>
  func.return
}

// -----

/// resize3d: only NCDHW and NDHWC.
func.func @resize3d_layout(%x: tensor<1x2x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize3d' op unknown layout 'NCHWD'; expected one of NCDHW, NDHWC}}
  %0 = relay.image.resize3d %x {size = [2, 3, 4], layout = "NCHWD"} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x2x3x4xf32>
  func.return
}

// -----

/// resize3d: size is 3 values.
func.func @resize3d_size_len(%x: tensor<1x2x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize3d' op size must have 3 values, got 2}}
  %0 = relay.image.resize3d %x {size = [2, 3]} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x2x3x4xf32>
  func.return
}

// -----

/// resize3d: roi is 6 values.
func.func @resize3d_roi_len(%x: tensor<1x2x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize3d' op roi must have 6 values, got 4}}
  %0 = relay.image.resize3d %x {size = [2, 3, 4], roi = array<f64: 0.0, 0.0, 1.0, 1.0>} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x2x3x4xf32>
  func.return
}

// -----

/// resize3d: no boolean results.
func.func @resize3d_bool_out(%x: tensor<1x2x3x4x5xf32>) {
  // expected-error@+1 {{'relay.image.resize3d' op resize3d does not give boolean results}}
  %0 = relay.image.resize3d %x {size = [2, 3, 4], out_dtype = i1} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x2x3x4xi1>
  func.return
}

// -----

/// grid_sample: only NCHW and NCDHW.
func.func @grid_sample_layout(%x: tensor<1x3x4x5xf32>, %g: tensor<1x2x6x7xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op unknown layout 'NHWC'; expected one of NCHW, NCDHW}}
  %0 = relay.image.grid_sample %x, %g {layout = "NHWC"} : (tensor<1x3x4x5xf32>, tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xf32>
  func.return
}

// -----

/// grid_sample: a known method.
func.func @grid_sample_method(%x: tensor<1x3x4x5xf32>, %g: tensor<1x2x6x7xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op unknown method 'linear'; expected one of 'bilinear', 'nearest', 'bicubic'}}
  %0 = relay.image.grid_sample %x, %g {method = "linear"} : (tensor<1x3x4x5xf32>, tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xf32>
  func.return
}

// -----

/// grid_sample: a known padding mode.
func.func @grid_sample_padding(%x: tensor<1x3x4x5xf32>, %g: tensor<1x2x6x7xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op unknown padding_mode 'edge'; expected one of 'zeros', 'border', 'reflection'}}
  %0 = relay.image.grid_sample %x, %g {padding_mode = "edge"} : (tensor<1x3x4x5xf32>, tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xf32>
  func.return
}

// -----

/// grid_sample: floating-point data and grid.
func.func @grid_sample_int(%x: tensor<1x3x4x5xi32>, %g: tensor<1x2x6x7xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op grid_sample needs floating-point data, got i32}}
  %0 = relay.image.grid_sample %x, %g : (tensor<1x3x4x5xi32>, tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xi32>
  func.return
}

// -----

/// grid_sample: the data's rank follows the layout.
func.func @grid_sample_rank(%x: tensor<1x3x4x5x6xf32>, %g: tensor<1x2x6x7xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op layout NCHW needs 4-D data, got (1, 3, 4, 5, 6)}}
  %0 = relay.image.grid_sample %x, %g : (tensor<1x3x4x5x6xf32>, tensor<1x2x6x7xf32>) -> tensor<1x3x6x7xf32>
  func.return
}

// -----

/// grid_sample: the grid is [N, 2, OH, OW] for NCHW.
func.func @grid_sample_grid(%x: tensor<1x3x4x5xf32>, %g: tensor<1x6x7x2xf32>) {
  // expected-error@+1 {{'relay.image.grid_sample' op grid must be [1, 2, ...] (4-D), got (1, 6, 7, 2)}}
  %0 = relay.image.grid_sample %x, %g : (tensor<1x3x4x5xf32>, tensor<1x6x7x2xf32>) -> tensor<1x3x7x2xf32>
  func.return
}
