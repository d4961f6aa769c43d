// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// The *_like ops and collapse_sum_to: reshape_like with and without ranges, cast_like to another shape's dtype, broadcast and collapse sums.
// CHECK-LABEL: func.func @like_ops
func.func @like_ops(%x: tensor<2x3x4xf32>, %l: tensor<6x2x2xf32>, %i: tensor<5xi8>, %s: tensor<3x1xf32>) -> tensor<6x2x2xf32> {
  // CHECK-NEXT: %0 = relay.reshape_like %x, %l : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<6x2x2xf32>
  // CHECK-NEXT: %1 = relay.reshape_like %x, %l {lhs_begin = 2, rhs_begin = -2} : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<2x3x2x2xf32>
  // CHECK-NEXT: %2 = relay.cast_like %x, %i : (tensor<2x3x4xf32>, tensor<5xi8>) -> tensor<2x3x4xi8>
  // CHECK-NEXT: %3 = relay.broadcast_to_like %s, %x : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %4 = relay.collapse_sum_like %x, %s : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  // CHECK-NEXT: %5 = relay.collapse_sum_to %x {shape = [4]} : (tensor<2x3x4xf32>) -> tensor<4xf32>
  // GENERIC: "relay.reshape_like"(%x, %l) : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<6x2x2xf32>
  // GENERIC: "relay.reshape_like"(%x, %l) <{lhs_begin = 2 : i64, rhs_begin = -2 : i64}> : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<2x3x2x2xf32>
  // GENERIC: "relay.cast_like"(%x, %i) : (tensor<2x3x4xf32>, tensor<5xi8>) -> tensor<2x3x4xi8>
  // GENERIC: "relay.broadcast_to_like"(%s, %x) : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.collapse_sum_like"(%x, %s) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  // GENERIC: "relay.collapse_sum_to"(%x) <{shape = array<i64: 4>}> : (tensor<2x3x4xf32>) -> tensor<4xf32>
  %0 = relay.reshape_like %x, %l : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<6x2x2xf32>
  %1 = relay.reshape_like %x, %l {lhs_begin = 2, rhs_begin = -2} : (tensor<2x3x4xf32>, tensor<6x2x2xf32>) -> tensor<2x3x2x2xf32>
  %2 = relay.cast_like %x, %i : (tensor<2x3x4xf32>, tensor<5xi8>) -> tensor<2x3x4xi8>
  %3 = relay.broadcast_to_like %s, %x : (tensor<3x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %4 = relay.collapse_sum_like %x, %s : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %5 = relay.collapse_sum_to %x {shape = [4]} : (tensor<2x3x4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<6x2x2xf32>
}
