// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// Reductions: no axis reduces everything; keepdims keeps 1-dims; exclude reduces the others.
// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>) -> tensor<2x1x1xf32> {
  // CHECK-NEXT: %0 = relay.sum %x : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK-NEXT: %1 = relay.mean %x {axis = [1]} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: %2 = relay.max %x {axis = [-1, 0], keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // CHECK-NEXT: %3 = relay.min %x {axis = [0], exclude = true} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  // CHECK-NEXT: %4 = relay.prod %x {axis = [0], keepdims = true, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // GENERIC: "relay.sum"(%x) <{keepdims = false, exclude = false}> : (tensor<2x3x4xf32>) -> tensor<f32>
  // GENERIC: "relay.mean"(%x) <{axis = array<i64: 1>, keepdims = false, exclude = false}>
  %0 = relay.sum %x : (tensor<2x3x4xf32>) -> tensor<f32>
  %1 = relay.mean %x {axis = [1]} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %2 = relay.max %x {axis = [-1, 0], keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %3 = relay.min %x {axis = [0], exclude = true} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  %4 = relay.prod %x {axis = [0], keepdims = true, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  func.return %4 : tensor<2x1x1xf32>
}

// -----

/// Reducing static axes keeps a dynamic batch dim; reducing a `?` axis just drops it.
// CHECK-LABEL: func.func @reduce_dynamic
func.func @reduce_dynamic(%x: tensor<?x3x4xi32>) -> tensor<?x1x1xi32> {
  // CHECK-NEXT: %0 = relay.sum %x {axis = [1, 2]} : (tensor<?x3x4xi32>) -> tensor<?xi32>
  // CHECK-NEXT: %1 = relay.max %x {axis = [1, 2], keepdims = true} : (tensor<?x3x4xi32>) -> tensor<?x1x1xi32>
  // CHECK-NEXT: %2 = relay.mean %x {axis = [0]} : (tensor<?x3x4xi32>) -> tensor<3x4xi32>
  %0 = relay.sum %x {axis = [1, 2]} : (tensor<?x3x4xi32>) -> tensor<?xi32>
  %1 = relay.max %x {axis = [1, 2], keepdims = true} : (tensor<?x3x4xi32>) -> tensor<?x1x1xi32>
  %2 = relay.mean %x {axis = [0]} : (tensor<?x3x4xi32>) -> tensor<3x4xi32>
  func.return %1 : tensor<?x1x1xi32>
}

// -----

/// argmax/argmin return i32 indices.
// CHECK-LABEL: func.func @arg_reductions
func.func @arg_reductions(%x: tensor<2x3x4xf16>) -> tensor<2x1x1xi32> {
  // CHECK-NEXT: %0 = relay.argmax %x : (tensor<2x3x4xf16>) -> tensor<i32>
  // CHECK-NEXT: %1 = relay.argmin %x {select_last_index = true, axis = [1, 2], keepdims = true} : (tensor<2x3x4xf16>) -> tensor<2x1x1xi32>
  // GENERIC: "relay.argmin"(%x) <{select_last_index = true, axis = array<i64: 1, 2>, keepdims = true, exclude = false}>
  %0 = relay.argmax %x : (tensor<2x3x4xf16>) -> tensor<i32>
  %1 = relay.argmin %x {axis = [1, 2], keepdims = true, select_last_index = true} : (tensor<2x3x4xf16>) -> tensor<2x1x1xi32>
  func.return %1 : tensor<2x1x1xi32>
}

// -----

/// matmul: 2-D, transposed operands, broadcast batch dims, out_dtype, dynamic dims.
// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %ba: tensor<2x1x3x4xf32>, %bb: tensor<6x5x4xf32>, %d: tensor<?x4xi8>) -> tensor<?x5xi32> {
  // CHECK-NEXT: %0 = relay.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  // CHECK-NEXT: %1 = relay.matmul %b, %a {transpose_a = true, transpose_b = true} : (tensor<4x5xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  // CHECK-NEXT: %2 = relay.matmul %ba, %bb {transpose_b = true} : (tensor<2x1x3x4xf32>, tensor<6x5x4xf32>) -> tensor<2x6x3x5xf32>
  // CHECK-NEXT: %e = relay.zeros {shape = [4, 5], dtype = i8} : tensor<4x5xi8>
  // CHECK-NEXT: %3 = relay.matmul %d, %e {out_dtype = i32} : (tensor<?x4xi8>, tensor<4x5xi8>) -> tensor<?x5xi32>
  // GENERIC: "relay.matmul"(%a, %b) <{transpose_a = false, transpose_b = false}> : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %0 = relay.matmul %a, %b : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = relay.matmul %b, %a {transpose_a = true, transpose_b = true} : (tensor<4x5xf32>, tensor<3x4xf32>) -> tensor<5x3xf32>
  %2 = relay.matmul %ba, %bb {transpose_b = true} : (tensor<2x1x3x4xf32>, tensor<6x5x4xf32>) -> tensor<2x6x3x5xf32>
  %e = relay.zeros {shape = [4, 5], dtype = i8} : tensor<4x5xi8>
  %3 = relay.matmul %d, %e {out_dtype = i32} : (tensor<?x4xi8>, tensor<4x5xi8>) -> tensor<?x5xi32>
  func.return %3 : tensor<?x5xi32>
}
