// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// Reduction axes are in range.
func.func @sum_axis(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.sum' op axis 3 is out of range for rank 3}}
  %0 = relay.sum %x {axis = [3]} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return
}

// -----

/// Each axis once.
func.func @mean_repeated(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.mean' op axis -2 is repeated in [1, -2]}}
  %0 = relay.mean %x {axis = [1, -2]} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// keepdims keeps the reduced dims as 1.
func.func @max_keepdims_type(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.max' op inferred type(s) 'tensor<2x1x4xf32>' are incompatible with return type(s) of operation 'tensor<2x4xf32>'}}
  %0 = relay.max %x {axis = [1], keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  func.return
}

// -----

/// argmax returns i32.
func.func @argmax_dtype(%x: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'relay.argmax' op inferred type(s) 'tensor<2x4xi32>' are incompatible with return type(s) of operation 'tensor<2x4xi64>'}}
  %0 = relay.argmax %x {axis = [1]} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
  func.return
}

// -----

/// matmul: matrices, not vectors.
func.func @matmul_rank(%a: tensor<4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'relay.matmul' op expected tensor_a of rank at least 2, got rank 1 (4)}}
  %0 = relay.matmul %a, %b : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  func.return
}

// -----

/// matmul: K must agree.
func.func @matmul_contraction(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error@+1 {{'relay.matmul' op contraction dims differ: tensor_a (3, 4) has 4, tensor_b (5, 6) has 5}}
  %0 = relay.matmul %a, %b : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  func.return
}

// -----

/// matmul: transpose_b takes K from the last dim of tensor_b.
func.func @matmul_transposed_contraction(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'relay.matmul' op contraction dims differ: tensor_a (3, 4) has 4, tensor_b (4, 5) has 5}}
  %0 = relay.matmul %a, %b {transpose_b = true} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x4xf32>
  func.return
}

// -----

/// matmul: batch dims broadcast.
func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error@+1 {{'relay.matmul' op batch dims (2) and (3) do not broadcast}}
  %0 = relay.matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return
}

// -----

/// matmul: one dtype.
func.func @matmul_dtype(%a: tensor<3x4xf32>, %b: tensor<4x5xf16>) {
  // expected-error@+1 {{'relay.matmul' op operand element types differ: f32 vs f16}}
  %0 = relay.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf16>) -> tensor<3x5xf32>
  func.return
}

// -----

/// matmul: out_dtype is a relay dtype.
func.func @matmul_out_dtype(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'relay.matmul' op unsupported dtype f80}}
  %0 = relay.matmul %a, %b {out_dtype = f80} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf80>
  func.return
}

// -----

/// mean: a mean of booleans is no boolean.
func.func @mean_of_booleans(%a: tensor<3xi1>) {
  // expected-error@+1 {{'relay.mean' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.mean %a : (tensor<3xi1>) -> tensor<i1>
  func.return
}
