// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// sparse_to_dense: 0-D, 1-D and 2-D indices of several integer types, one value or one per index, a zero dim.
// CHECK-LABEL: func.func @sparse_to_dense
func.func @sparse_to_dense(%i0: tensor<i32>, %i1: tensor<3xi64>, %i2: tensor<2x2xi8>, %v: tensor<f32>, %vs: tensor<3xf32>, %w: tensor<2xi32>, %d: tensor<f32>, %e: tensor<i64>) {
  // CHECK-NEXT: %0 = relay.sparse_to_dense %i0, %v, %d {output_shape = [5]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  // CHECK-NEXT: %1 = relay.sparse_to_dense %i1, %vs, %d {output_shape = [4]} : (tensor<3xi64>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: %2 = relay.sparse_to_dense %i2, %w, %e {output_shape = [3, 0]} : (tensor<2x2xi8>, tensor<2xi32>, tensor<i64>) -> tensor<3x0xi32>
  // GENERIC: %0 = "relay.sparse_to_dense"(%i0, %v, %d) <{output_shape = array<i64: 5>}> : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  // GENERIC: %1 = "relay.sparse_to_dense"(%i1, %vs, %d) <{output_shape = array<i64: 4>}> : (tensor<3xi64>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  // GENERIC: %2 = "relay.sparse_to_dense"(%i2, %w, %e) <{output_shape = array<i64: 3, 0>}> : (tensor<2x2xi8>, tensor<2xi32>, tensor<i64>) -> tensor<3x0xi32>
  %0 = relay.sparse_to_dense %i0, %v, %d {output_shape = [5]} : (tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  %1 = relay.sparse_to_dense %i1, %vs, %d {output_shape = [4]} : (tensor<3xi64>, tensor<3xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = relay.sparse_to_dense %i2, %w, %e {output_shape = [3, 0]} : (tensor<2x2xi8>, tensor<2xi32>, tensor<i64>) -> tensor<3x0xi32>
  func.return
}
