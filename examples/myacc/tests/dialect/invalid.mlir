// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// gelu: float32 only.
func.func @gelu_f16(%x: tensor<2x3xf16>) {
  // expected-error@+1 {{'myacc.gelu' op expected operand #0 of element type f32, got f16}}
  %g = myacc.gelu %x : tensor<2x3xf16>
  func.return
}

// -----

/// gelu: the result has the operand's type.
func.func @gelu_result(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'myacc.gelu' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %g = "myacc.gelu"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return
}

// -----

/// matmul_relu: float32 operands only.
func.func @matmul_relu_i32(%x: tensor<2x4xi32>, %w: tensor<5x4xf32>) {
  // expected-error@+1 {{'myacc.matmul_relu' op expected operand #0 of element type f32, got i32}}
  %m = "myacc.matmul_relu"(%x, %w) : (tensor<2x4xi32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// matmul_relu: a 2-D data.
func.func @matmul_relu_data_rank(%x: tensor<2x3x4xf32>, %w: tensor<5x4xf32>) {
  // expected-error@+1 {{'myacc.matmul_relu' op expected 2-D data, got rank 3 (2, 3, 4)}}
  %m = "myacc.matmul_relu"(%x, %w) : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// matmul_relu: a 2-D weight.
func.func @matmul_relu_weight_rank(%x: tensor<2x4xf32>, %w: tensor<4xf32>) {
  // expected-error@+1 {{'myacc.matmul_relu' op expected 2-D weight, got rank 1 (4)}}
  %m = "myacc.matmul_relu"(%x, %w) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// matmul_relu: the weight is (units, in-features), its in-features the data's.
func.func @matmul_relu_features(%x: tensor<2x4xf32>, %w: tensor<5x3xf32>) {
  // expected-error@+1 {{'myacc.matmul_relu' op expected the weight's in-features 3 to equal the data's 4}}
  %m = "myacc.matmul_relu"(%x, %w) : (tensor<2x4xf32>, tensor<5x3xf32>) -> tensor<2x5xf32>
  func.return
}
