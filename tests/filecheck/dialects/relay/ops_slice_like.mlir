// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// slice_like: every common axis (shape_like of lower rank), chosen axes with a negative one, and a `?` dim of shape_like.
// CHECK-LABEL: func.func @slice_like
func.func @slice_like(%x: tensor<3x4x5xf32>, %y: tensor<2x3xi8>, %z: tensor<?x1x2xf32>) -> tensor<2x3x5xf32> {
  // CHECK-NEXT: %0 = relay.slice_like %x, %y : (tensor<3x4x5xf32>, tensor<2x3xi8>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: %1 = relay.slice_like %x, %z {axes = [-1, 1]} : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<3x1x2xf32>
  // CHECK-NEXT: %2 = relay.slice_like %x, %z {axes = [0]} : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<?x4x5xf32>
  // GENERIC: "relay.slice_like"(%x, %y) : (tensor<3x4x5xf32>, tensor<2x3xi8>) -> tensor<2x3x5xf32>
  // GENERIC: "relay.slice_like"(%x, %z) <{axes = array<i64: -1, 1>}> : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<3x1x2xf32>
  // GENERIC: "relay.slice_like"(%x, %z) <{axes = array<i64: 0>}> : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<?x4x5xf32>
  %0 = relay.slice_like %x, %y : (tensor<3x4x5xf32>, tensor<2x3xi8>) -> tensor<2x3x5xf32>
  %1 = relay.slice_like %x, %z {axes = [-1, 1]} : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<3x1x2xf32>
  %2 = relay.slice_like %x, %z {axes = [0]} : (tensor<3x4x5xf32>, tensor<?x1x2xf32>) -> tensor<?x4x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}
