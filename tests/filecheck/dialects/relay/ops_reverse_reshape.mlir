// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// contrib_reverse_reshape: special values matched from the right (reshape would give 8x3 for [-1, 0]), -3, a -4 split, and a `?` dim.
// CHECK-LABEL: func.func @reverse_reshape
func.func @reverse_reshape(%x: tensor<2x3x4xf32>, %y: tensor<2x3x6xi8>, %z: tensor<?x3x4xf32>) -> tensor<6x4xf32> {
  // CHECK-NEXT: %0 = relay.contrib_reverse_reshape %x {newshape = [-1, 0]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK-NEXT: %1 = relay.contrib_reverse_reshape %x {newshape = [0, -3]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK-NEXT: %2 = relay.contrib_reverse_reshape %y {newshape = [0, 0, 3, 2, -4]} : (tensor<2x3x6xi8>) -> tensor<2x3x3x2xi8>
  // CHECK-NEXT: %3 = relay.contrib_reverse_reshape %z {newshape = [-1, 0]} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  // GENERIC: "relay.contrib_reverse_reshape"(%x) <{newshape = array<i64: -1, 0>}> : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // GENERIC: "relay.contrib_reverse_reshape"(%x) <{newshape = array<i64: 0, -3>}> : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // GENERIC: "relay.contrib_reverse_reshape"(%y) <{newshape = array<i64: 0, 0, 3, 2, -4>}> : (tensor<2x3x6xi8>) -> tensor<2x3x3x2xi8>
  // GENERIC: "relay.contrib_reverse_reshape"(%z) <{newshape = array<i64: -1, 0>}> : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  %0 = relay.contrib_reverse_reshape %x {newshape = [-1, 0]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = relay.contrib_reverse_reshape %x {newshape = [0, -3]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %2 = relay.contrib_reverse_reshape %y {newshape = [0, 0, 3, 2, -4]} : (tensor<2x3x6xi8>) -> tensor<2x3x3x2xi8>
  %3 = relay.contrib_reverse_reshape %z {newshape = [-1, 0]} : (tensor<?x3x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<6x4xf32>
}
