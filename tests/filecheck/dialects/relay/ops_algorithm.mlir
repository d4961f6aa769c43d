// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// topk: both (a tuple), values, indices of another dtype, k < 1 keeps the whole axis.
// CHECK-LABEL: func.func @topk
func.func @topk(%x: tensor<3x5xf32>) -> tensor<3x5xi64> {
  // CHECK-NEXT: %0 = relay.topk %x {k = 2} : (tensor<3x5xf32>) -> tuple<tensor<3x2xf32>, tensor<3x2xi32>>
  // CHECK-NEXT: %1 = relay.topk %x {k = 2, axis = 0, ret_type = "values", is_ascend = true} : (tensor<3x5xf32>) -> tensor<2x5xf32>
  // CHECK-NEXT: %2 = relay.topk %x {k = 0, ret_type = "indices", dtype = i64} : (tensor<3x5xf32>) -> tensor<3x5xi64>
  // GENERIC: "relay.topk"(%x) <{k = 2 : i64, axis = -1 : i64, ret_type = "both", is_ascend = false, dtype = i32}>
  %0 = relay.topk %x {k = 2} : (tensor<3x5xf32>) -> tuple<tensor<3x2xf32>, tensor<3x2xi32>>
  %1 = relay.topk %x {k = 2, axis = 0, ret_type = "values", is_ascend = true} : (tensor<3x5xf32>) -> tensor<2x5xf32>
  %2 = relay.topk %x {k = 0, ret_type = "indices", dtype = i64} : (tensor<3x5xf32>) -> tensor<3x5xi64>
  func.return %2 : tensor<3x5xi64>
}

// -----

/// argsort and sort: defaults (ascending, last axis, int32 indices) and every attribute set.
// CHECK-LABEL: func.func @argsort_sort
func.func @argsort_sort(%x: tensor<2x4xi8>) -> tensor<2x4xi8> {
  // CHECK-NEXT: %0 = relay.argsort %x : (tensor<2x4xi8>) -> tensor<2x4xi32>
  // CHECK-NEXT: %1 = relay.argsort %x {axis = 0, is_ascend = false, dtype = i64} : (tensor<2x4xi8>) -> tensor<2x4xi64>
  // CHECK-NEXT: %2 = relay.sort %x : tensor<2x4xi8>
  // CHECK-NEXT: %3 = relay.sort %x {axis = 0, is_ascend = false} : tensor<2x4xi8>
  // GENERIC: "relay.argsort"(%x) <{axis = -1 : i64, is_ascend = true, dtype = i32}>
  // GENERIC: "relay.sort"(%x) <{axis = -1 : i64, is_ascend = true}>
  %0 = relay.argsort %x : (tensor<2x4xi8>) -> tensor<2x4xi32>
  %1 = relay.argsort %x {axis = 0, is_ascend = false, dtype = i64} : (tensor<2x4xi8>) -> tensor<2x4xi64>
  %2 = relay.sort %x : tensor<2x4xi8>
  %3 = relay.sort %x {axis = 0, is_ascend = false} : tensor<2x4xi8>
  func.return %3 : tensor<2x4xi8>
}
