// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// resize2d: the defaults (linear, half_pixel, NCHW), cubic with scales (exact f64 arrays), nearest NHWC uint8 with a `?` batch, tf_crop_and_resize with roi, an extrapolation value and an f16 out_dtype.
// CHECK-LABEL: func.func @resize2d
func.func @resize2d(%x: tensor<1x3x4x5xf32>, %y: tensor<?x4x5x3xui8>) -> tensor<1x3x8x10xf32> {
  // CHECK-NEXT: %0 = relay.image.resize2d %x {size = [8, 10]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  // CHECK-NEXT: %1 = relay.image.resize2d %x {size = [2, 3], method = "cubic", coordinate_transformation_mode = "align_corners", cubic_alpha = -0.75, cubic_exclude = 1, scales = array<f64: 0.60000002384185791, 0.69999998807907104>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x2x3xf32>
  // CHECK-NEXT: %2 = relay.image.resize2d %y {size = [7, 7], layout = "NHWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "round_prefer_ceil"} : (tensor<?x4x5x3xui8>) -> tensor<?x7x7x3xui8>
  // CHECK-NEXT: %3 = relay.image.resize2d %x {size = [3, 3], roi = array<f64: 1.000000e-01, 2.000000e-01, 9.000000e-01, 1.300000e+00>, coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 10.0, out_dtype = f16} : (tensor<1x3x4x5xf32>) -> tensor<1x3x3x3xf16>
  // GENERIC: "relay.image.resize2d"(%x) <{size = array<i64: 8, 10>, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>, layout = "NCHW", method = "linear", coordinate_transformation_mode = "half_pixel", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  // GENERIC: "relay.image.resize2d"(%x) <{size = array<i64: 2, 3>, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>, layout = "NCHW", method = "cubic", coordinate_transformation_mode = "align_corners", rounding_method = "", cubic_alpha = -7.500000e-01 : f64, cubic_exclude = 1 : i64, extrapolation_value = 0.000000e+00 : f64, scales = array<f64: 0.60000002384185791, 0.69999998807907104>}> : (tensor<1x3x4x5xf32>) -> tensor<1x3x2x3xf32>
  // GENERIC: "relay.image.resize2d"(%y) <{size = array<i64: 7, 7>, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>, layout = "NHWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "round_prefer_ceil", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<?x4x5x3xui8>) -> tensor<?x7x7x3xui8>
  // GENERIC: "relay.image.resize2d"(%x) <{size = array<i64: 3, 3>, roi = array<f64: 1.000000e-01, 2.000000e-01, 9.000000e-01, 1.300000e+00>, layout = "NCHW", method = "linear", coordinate_transformation_mode = "tf_crop_and_resize", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 1.000000e+01 : f64, out_dtype = f16}> : (tensor<1x3x4x5xf32>) -> tensor<1x3x3x3xf16>
  %0 = relay.image.resize2d %x {size = [8, 10]} : (tensor<1x3x4x5xf32>) -> tensor<1x3x8x10xf32>
  %1 = relay.image.resize2d %x {size = [2, 3], method = "cubic", coordinate_transformation_mode = "align_corners", cubic_alpha = -0.75, cubic_exclude = 1, scales = array<f64: 0.6000000238418579, 0.699999988079071>} : (tensor<1x3x4x5xf32>) -> tensor<1x3x2x3xf32>
  %2 = relay.image.resize2d %y {size = [7, 7], layout = "NHWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "round_prefer_ceil"} : (tensor<?x4x5x3xui8>) -> tensor<?x7x7x3xui8>
  %3 = relay.image.resize2d %x {size = [3, 3], roi = array<f64: 0.1, 0.2, 0.9, 1.3>, coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 10.0, out_dtype = f16} : (tensor<1x3x4x5xf32>) -> tensor<1x3x3x3xf16>
  func.return %0 : tensor<1x3x8x10xf32>
}

// -----

/// resize2d: antialias (an xrelay extension, ONNX's attribute) on a cubic downsample.
// CHECK-LABEL: func.func @resize2d_antialias
func.func @resize2d_antialias(%x: tensor<1x3x8x10xf32>) -> tensor<1x3x3x4xf32> {
  // CHECK-NEXT: %0 = relay.image.resize2d %x {size = [3, 4], method = "cubic", antialias = true} : (tensor<1x3x8x10xf32>) -> tensor<1x3x3x4xf32>
  // GENERIC: "relay.image.resize2d"(%x) <{size = array<i64: 3, 4>, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>, layout = "NCHW", method = "cubic", coordinate_transformation_mode = "half_pixel", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64, antialias = true}> : (tensor<1x3x8x10xf32>) -> tensor<1x3x3x4xf32>
  %0 = relay.image.resize2d %x {size = [3, 4], method = "cubic", antialias = true} : (tensor<1x3x8x10xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}

// -----

/// resize1d: the defaults (linear, half_pixel, NCW), nearest NWC with a rounding method, and cubic tf_crop_and_resize with roi, scales and antialias.
// CHECK-LABEL: func.func @resize1d
func.func @resize1d(%x: tensor<1x3x5xf32>, %y: tensor<?x5x3xui8>) -> tensor<1x3x8xf32> {
  // CHECK-NEXT: %0 = relay.image.resize1d %x {size = [8]} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  // CHECK-NEXT: %1 = relay.image.resize1d %y {size = [7], layout = "NWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "ceil"} : (tensor<?x5x3xui8>) -> tensor<?x7x3xui8>
  // CHECK-NEXT: %2 = relay.image.resize1d %x {size = [3], roi = array<f64: 1.000000e-01, 1.300000e+00>, method = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", cubic_exclude = 1, extrapolation_value = 2.5, scales = array<f64: 5.000000e-01>, antialias = true, out_dtype = f16} : (tensor<1x3x5xf32>) -> tensor<1x3x3xf16>
  // GENERIC: "relay.image.resize1d"(%x) <{size = array<i64: 8>, roi = array<f64: 0.000000e+00, 0.000000e+00>, layout = "NCW", method = "linear", coordinate_transformation_mode = "half_pixel", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  // GENERIC: "relay.image.resize1d"(%y) <{size = array<i64: 7>, roi = array<f64: 0.000000e+00, 0.000000e+00>, layout = "NWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "ceil", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<?x5x3xui8>) -> tensor<?x7x3xui8>
  // GENERIC: "relay.image.resize1d"(%x) <{size = array<i64: 3>, roi = array<f64: 1.000000e-01, 1.300000e+00>, layout = "NCW", method = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 1 : i64, extrapolation_value = 2.500000e+00 : f64, scales = array<f64: 5.000000e-01>, antialias = true, out_dtype = f16}> : (tensor<1x3x5xf32>) -> tensor<1x3x3xf16>
  %0 = relay.image.resize1d %x {size = [8]} : (tensor<1x3x5xf32>) -> tensor<1x3x8xf32>
  %1 = relay.image.resize1d %y {size = [7], layout = "NWC", method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric", rounding_method = "ceil"} : (tensor<?x5x3xui8>) -> tensor<?x7x3xui8>
  %2 = relay.image.resize1d %x {size = [3], roi = array<f64: 0.1, 1.3>, method = "cubic", coordinate_transformation_mode = "tf_crop_and_resize", cubic_exclude = 1, extrapolation_value = 2.5, scales = array<f64: 5.000000e-01>, antialias = true, out_dtype = f16} : (tensor<1x3x5xf32>) -> tensor<1x3x3xf16>
  func.return %0 : tensor<1x3x8xf32>
}

// -----

/// resize3d: the defaults (linear, half_pixel, NCDHW) and nearest NDHWC with align_corners and a roi.
// CHECK-LABEL: func.func @resize3d
func.func @resize3d(%x: tensor<1x2x3x4x5xf32>, %y: tensor<2x3x4x5x2xi32>) -> tensor<1x2x6x2x5xf32> {
  // CHECK-NEXT: %0 = relay.image.resize3d %x {size = [6, 2, 5]} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x6x2x5xf32>
  // CHECK-NEXT: %1 = relay.image.resize3d %y {size = [1, 7, 3], roi = array<f64: 1.000000e-01, 2.000000e-01, 3.000000e-01, 9.000000e-01, 8.000000e-01, 7.000000e-01>, layout = "NDHWC", method = "nearest_neighbor", coordinate_transformation_mode = "align_corners"} : (tensor<2x3x4x5x2xi32>) -> tensor<2x1x7x3x2xi32>
  // GENERIC: "relay.image.resize3d"(%x) <{size = array<i64: 6, 2, 5>, roi = array<f64: 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00>, layout = "NCDHW", method = "linear", coordinate_transformation_mode = "half_pixel", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x6x2x5xf32>
  // GENERIC: "relay.image.resize3d"(%y) <{size = array<i64: 1, 7, 3>, roi = array<f64: 1.000000e-01, 2.000000e-01, 3.000000e-01, 9.000000e-01, 8.000000e-01, 7.000000e-01>, layout = "NDHWC", method = "nearest_neighbor", coordinate_transformation_mode = "align_corners", rounding_method = "", cubic_alpha = -5.000000e-01 : f64, cubic_exclude = 0 : i64, extrapolation_value = 0.000000e+00 : f64}> : (tensor<2x3x4x5x2xi32>) -> tensor<2x1x7x3x2xi32>
  %0 = relay.image.resize3d %x {size = [6, 2, 5]} : (tensor<1x2x3x4x5xf32>) -> tensor<1x2x6x2x5xf32>
  %1 = relay.image.resize3d %y {size = [1, 7, 3], roi = array<f64: 0.1, 0.2, 0.3, 0.9, 0.8, 0.7>, layout = "NDHWC", method = "nearest_neighbor", coordinate_transformation_mode = "align_corners"} : (tensor<2x3x4x5x2xi32>) -> tensor<2x1x7x3x2xi32>
  func.return %0 : tensor<1x2x6x2x5xf32>
}

// -----

/// grid_sample: the defaults (bilinear, NCHW, zeros, align_corners), nearest with reflection, bicubic with border, and NCDHW.
// CHECK-LABEL: func.func @grid_sample
func.func @grid_sample(%x: tensor<2x3x4x5xf32>, %g: tensor<2x2x6x7xf32>, %v: tensor<1x2x3x4x5xf64>, %h: tensor<1x3x2x2x2xf64>) -> tensor<2x3x6x7xf32> {
  // CHECK-NEXT: %0 = relay.image.grid_sample %x, %g : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // CHECK-NEXT: %1 = relay.image.grid_sample %x, %g {method = "nearest", padding_mode = "reflection", align_corners = false} : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // CHECK-NEXT: %2 = relay.image.grid_sample %x, %g {method = "bicubic", padding_mode = "border"} : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // CHECK-NEXT: %3 = relay.image.grid_sample %v, %h {layout = "NCDHW"} : (tensor<1x2x3x4x5xf64>, tensor<1x3x2x2x2xf64>) -> tensor<1x2x2x2x2xf64>
  // GENERIC: "relay.image.grid_sample"(%x, %g) <{method = "bilinear", layout = "NCHW", padding_mode = "zeros", align_corners = true}> : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // GENERIC: "relay.image.grid_sample"(%x, %g) <{method = "nearest", layout = "NCHW", padding_mode = "reflection", align_corners = false}> : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // GENERIC: "relay.image.grid_sample"(%x, %g) <{method = "bicubic", layout = "NCHW", padding_mode = "border", align_corners = true}> : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  // GENERIC: "relay.image.grid_sample"(%v, %h) <{method = "bilinear", layout = "NCDHW", padding_mode = "zeros", align_corners = true}> : (tensor<1x2x3x4x5xf64>, tensor<1x3x2x2x2xf64>) -> tensor<1x2x2x2x2xf64>
  %0 = relay.image.grid_sample %x, %g : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  %1 = relay.image.grid_sample %x, %g {method = "nearest", padding_mode = "reflection", align_corners = false} : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  %2 = relay.image.grid_sample %x, %g {method = "bicubic", padding_mode = "border"} : (tensor<2x3x4x5xf32>, tensor<2x2x6x7xf32>) -> tensor<2x3x6x7xf32>
  %3 = relay.image.grid_sample %v, %h {layout = "NCDHW"} : (tensor<1x2x3x4x5xf64>, tensor<1x3x2x2x2xf64>) -> tensor<1x2x2x2x2xf64>
  func.return %0 : tensor<2x3x6x7xf32>
}
