// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// roi_align: mode is avg or max.
func.func @align_mode(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_align' op mode must be 'avg' or 'max', got 'sum'}}
  %0 = relay.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0, mode = "sum"} : (tensor<1x2x4x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_align: data is 4-D.
func.func @align_data_rank(%x: tensor<2x4x4xf32>, %r: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_align' op expected 4-D data, got rank 3 (2, 4, 4)}}
  %0 = relay.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<2x4x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_pool: rois are 2-D.
func.func @pool_rois_rank(%x: tensor<1x2x4x4xf32>, %r: tensor<5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_pool' op expected 2-D rois, got rank 1 (5)}}
  %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x2x4x4xf32>, tensor<5xf32>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_pool: data is float32 or float64.
func.func @pool_dtype(%x: tensor<1x2x4x4xf16>, %r: tensor<3x5xf16>) {
  // expected-error@+1 {{'relay.vision.roi_pool' op data must be float32 or float64, got f16}}
  %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x2x4x4xf16>, tensor<3x5xf16>) -> tensor<3x2x2x2xf16>
  func.return
}

// -----

/// roi_align: rois have the data's type.
func.func @align_rois_type(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf64>) {
  // expected-error@+1 {{'relay.vision.roi_align' op rois element type f64 does not match data f32}}
  %0 = relay.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x2x4x4xf32>, tensor<3x5xf64>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_pool: rois rows are (batch_index, x1, y1, x2, y2).
func.func @pool_rois_shape(%x: tensor<1x2x4x4xf32>, %r: tensor<3x4xf32>) {
  // expected-error@+1 {{'relay.vision.roi_pool' op rois must have shape [num_roi, 5] (batch_index, x1, y1, x2, y2), got (3, 4)}}
  %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x2x4x4xf32>, tensor<3x4xf32>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_align: NCHW or NHWC.
func.func @align_layout(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_align' op unknown layout 'HWCN'; expected one of NCHW, NHWC}}
  %0 = relay.vision.roi_align %x, %r {pooled_size = [2, 2], spatial_scale = 1.0, layout = "HWCN"} : (tensor<1x2x4x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  func.return
}

// -----

/// roi_pool: pooled_size is two positive integers.
func.func @pool_size(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_pool' op pooled_size must be two positive integers, got [2, 0]}}
  %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 0], spatial_scale = 1.0} : (tensor<1x2x4x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x0xf32>
  func.return
}

// -----

/// roi_align: pooled_size has two values.
func.func @align_size_count(%x: tensor<1x2x4x4xf32>, %r: tensor<3x5xf32>) {
  // expected-error@+1 {{'relay.vision.roi_align' op pooled_size must be two positive integers, got [2]}}
  %0 = relay.vision.roi_align %x, %r {pooled_size = [2], spatial_scale = 1.0} : (tensor<1x2x4x4xf32>, tensor<3x5xf32>) -> tensor<3x2x2x2xf32>
  func.return
}
