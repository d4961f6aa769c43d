// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// space_to_batch_nd over H and W with paddings (flat pairs) and a pad value; batch_to_space_nd with crops.
// CHECK-LABEL: func.func @space_batch
func.func @space_batch(%x: tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32> {
  // CHECK-NEXT: %0 = relay.nn.space_to_batch_nd %x {block_shape = [2, 2], paddings = [2, 3, 2, 3], pad_value = 0.0} : (tensor<1x5x5x4xf32>) -> tensor<4x5x5x4xf32>
  // CHECK-NEXT: %1 = relay.nn.batch_to_space_nd %0 {block_shape = [2, 2], crops = [2, 3, 2, 3]} : (tensor<4x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  // GENERIC: "relay.nn.space_to_batch_nd"(%x) <{block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 3, 2, 3>, pad_value = 0.000000e+00 : f64}> : (tensor<1x5x5x4xf32>) -> tensor<4x5x5x4xf32>
  // GENERIC: "relay.nn.batch_to_space_nd"(%0) <{block_shape = array<i64: 2, 2>, crops = array<i64: 2, 3, 2, 3>}> : (tensor<4x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %0 = relay.nn.space_to_batch_nd %x {block_shape = [2, 2], paddings = [2, 3, 2, 3], pad_value = 0.0} : (tensor<1x5x5x4xf32>) -> tensor<4x5x5x4xf32>
  %1 = relay.nn.batch_to_space_nd %0 {block_shape = [2, 2], crops = [2, 3, 2, 3]} : (tensor<4x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  func.return %1 : tensor<1x5x5x4xf32>
}
