// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// sparse_to_dense: integer indices.
func.func @float_indices(%i: tensor<2xf32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op sparse_indices must be integers, got tensor<2xf32>}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [4]} : (tensor<2xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

/// sparse_to_dense: a scalar default value.
func.func @vector_default(%i: tensor<2xi32>, %v: tensor<2xf32>, %d: tensor<1xf32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op default_value must be a scalar, got tensor<1xf32>}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [4]} : (tensor<2xi32>, tensor<2xf32>, tensor<1xf32>) -> tensor<4xf32>
  func.return
}

// -----

/// sparse_to_dense: a non-negative output shape.
func.func @negative_shape(%i: tensor<2xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op output_shape must be non-negative, got [-4]}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [-4]} : (tensor<2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

/// sparse_to_dense: indices of rank 2 at most.
func.func @rank3_indices(%i: tensor<1x1x1xi32>, %v: tensor<f32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op sparse_indices must be 0-D, 1-D or 2-D, got (1, 1, 1)}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [4]} : (tensor<1x1x1xi32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

/// sparse_to_dense: values of rank 1 at most.
func.func @matrix_values(%i: tensor<2xi32>, %v: tensor<2x1xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op sparse_values must be 0-D or 1-D, got (2, 1)}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [4]} : (tensor<2xi32>, tensor<2x1xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

/// sparse_to_dense: 0-D and 1-D indices address a 1-D output.
func.func @vector_indices_matrix_output(%i: tensor<2xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op 1-D sparse_indices address a 1-D output, got output_shape [2, 2]}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [2, 2]} : (tensor<2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return
}

// -----

/// sparse_to_dense: 2-D indices hold one coordinate per output dim.
func.func @coordinates(%i: tensor<2x3xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op sparse_indices of shape (2, 3) must hold 2 coordinates per row (the output's rank)}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [2, 2]} : (tensor<2x3xi32>, tensor<2xf32>, tensor<f32>) -> tensor<2x2xf32>
  func.return
}

// -----

/// sparse_to_dense: one value per index.
func.func @value_count(%i: tensor<3xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error@+1 {{'relay.sparse_to_dense' op sparse_values must hold one value per index (3), got 2}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = [4]} : (tensor<3xi32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  func.return
}
