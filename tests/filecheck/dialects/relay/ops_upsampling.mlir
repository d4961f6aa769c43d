// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// upsampling: the defaults (nearest_neighbor, NCHW, scale 1), bilinear with align_corners and a fractional scale (4.5 rounds half to even to 4), bicubic NHWC with a `?` batch.
// CHECK-LABEL: func.func @upsampling
func.func @upsampling(%x: tensor<1x3x2x3xf32>, %y: tensor<?x4x5x3xui8>) -> tensor<1x3x2x3xf32> {
  // CHECK-NEXT: %0 = relay.nn.upsampling %x : tensor<1x3x2x3xf32>
  // CHECK-NEXT: %1 = relay.nn.upsampling %x {scale_h = 2.0, scale_w = 1.5, method = "bilinear", align_corners = true} : (tensor<1x3x2x3xf32>) -> tensor<1x3x4x4xf32>
  // CHECK-NEXT: %2 = relay.nn.upsampling %y {scale_h = 0.5, scale_w = 3.0, layout = "NHWC", method = "bicubic"} : (tensor<?x4x5x3xui8>) -> tensor<?x2x15x3xui8>
  // GENERIC: "relay.nn.upsampling"(%x) <{scale_h = 1.000000e+00 : f64, scale_w = 1.000000e+00 : f64, layout = "NCHW", method = "nearest_neighbor", align_corners = false}> : (tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  // GENERIC: "relay.nn.upsampling"(%x) <{scale_h = 2.000000e+00 : f64, scale_w = 1.500000e+00 : f64, layout = "NCHW", method = "bilinear", align_corners = true}> : (tensor<1x3x2x3xf32>) -> tensor<1x3x4x4xf32>
  // GENERIC: "relay.nn.upsampling"(%y) <{scale_h = 5.000000e-01 : f64, scale_w = 3.000000e+00 : f64, layout = "NHWC", method = "bicubic", align_corners = false}> : (tensor<?x4x5x3xui8>) -> tensor<?x2x15x3xui8>
  %0 = relay.nn.upsampling %x : (tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  %1 = relay.nn.upsampling %x {scale_h = 2.0, scale_w = 1.5, method = "bilinear", align_corners = true} : (tensor<1x3x2x3xf32>) -> tensor<1x3x4x4xf32>
  %2 = relay.nn.upsampling %y {scale_h = 0.5, scale_w = 3.0, layout = "NHWC", method = "bicubic"} : (tensor<?x4x5x3xui8>) -> tensor<?x2x15x3xui8>
  func.return %0 : tensor<1x3x2x3xf32>
}
