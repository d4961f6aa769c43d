// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// roi_align: [num_roi, C, PH, PW] in NCHW, [num_roi, PH, PW, C] in NHWC; max mode.
// CHECK-LABEL: func.func @roi_align
func.func @roi_align(%x: tensor<2x7x9x11xf32>, %y: tensor<2x9x11x7xf32>, %r: tensor<4x5xf32>) -> tensor<4x2x3x7xf32> {
  // CHECK-NEXT: %0 = relay.vision.roi_align %x, %r {pooled_size = [3, 5], spatial_scale = 0.0625, sample_ratio = 2} : (tensor<2x7x9x11xf32>, tensor<4x5xf32>) -> tensor<4x7x3x5xf32>
  // CHECK-NEXT: %1 = relay.vision.roi_align %y, %r {pooled_size = [2, 3], spatial_scale = 0.5, layout = "NHWC", mode = "max"} : (tensor<2x9x11x7xf32>, tensor<4x5xf32>) -> tensor<4x2x3x7xf32>
  // GENERIC: "relay.vision.roi_align"(%x, %r) <{pooled_size = array<i64: 3, 5>, spatial_scale = 6.250000e-02 : f64, sample_ratio = 2 : i64, layout = "NCHW", mode = "avg"}>
  %0 = relay.vision.roi_align %x, %r {pooled_size = [3, 5], spatial_scale = 0.0625, sample_ratio = 2} : (tensor<2x7x9x11xf32>, tensor<4x5xf32>) -> tensor<4x7x3x5xf32>
  %1 = relay.vision.roi_align %y, %r {pooled_size = [2, 3], spatial_scale = 0.5, layout = "NHWC", mode = "max"} : (tensor<2x9x11x7xf32>, tensor<4x5xf32>) -> tensor<4x2x3x7xf32>
  func.return %1 : tensor<4x2x3x7xf32>
}

// -----

/// roi_pool: float64 data and rois; NHWC.
// CHECK-LABEL: func.func @roi_pool
func.func @roi_pool(%x: tensor<1x3x8x8xf64>, %y: tensor<1x8x8x3xf64>, %r: tensor<2x5xf64>) -> tensor<2x1x4x3xf64> {
  // CHECK-NEXT: %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x3x8x8xf64>, tensor<2x5xf64>) -> tensor<2x3x2x2xf64>
  // CHECK-NEXT: %1 = relay.vision.roi_pool %y, %r {pooled_size = [1, 4], spatial_scale = 0.25, layout = "NHWC"} : (tensor<1x8x8x3xf64>, tensor<2x5xf64>) -> tensor<2x1x4x3xf64>
  // GENERIC: "relay.vision.roi_pool"(%x, %r) <{pooled_size = array<i64: 2, 2>, spatial_scale = 1.000000e+00 : f64, layout = "NCHW"}>
  %0 = relay.vision.roi_pool %x, %r {pooled_size = [2, 2], spatial_scale = 1.0} : (tensor<1x3x8x8xf64>, tensor<2x5xf64>) -> tensor<2x3x2x2xf64>
  %1 = relay.vision.roi_pool %y, %r {pooled_size = [1, 4], spatial_scale = 0.25, layout = "NHWC"} : (tensor<1x8x8x3xf64>, tensor<2x5xf64>) -> tensor<2x1x4x3xf64>
  func.return %1 : tensor<2x1x4x3xf64>
}
