// RUN: xrelay-opt %s -p dynamic-to-static --split-input-file | filecheck %s

/// TVM: reshape(x, shape_of(y)) with y static becomes reshape(x, newshape=[8, 3]); the shape_of goes.
// CHECK-LABEL: func.func @reshape_shape_of(%x: tensor<2x3x4xf32>, %y: tensor<8x3xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    %0 = relay.reshape %x {newshape = [8, 3]} : (tensor<2x3x4xf32>) -> tensor<8x3xf32>
// CHECK-NEXT:    func.return %0 : tensor<8x3xf32>
func.func @reshape_shape_of(%x: tensor<2x3x4xf32>, %y: tensor<8x3xf32>) -> tensor<?x?xf32> {
  %s = relay.shape_of %y : (tensor<8x3xf32>) -> tensor<2xi32>
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

/// A replaced op re-types its users, so a later shape_of of them is static and a computed shape (multiply) folds too.
// CHECK-LABEL: func.func @chain_retypes_users(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<18x8xf32>
// CHECK-NEXT:    %0 = relay.reshape %x {newshape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %1 = relay.exp %0 : tensor<3x2xf32>
// CHECK-NEXT:    %2 = relay.tile %1 {reps = [6, 4]} : (tensor<3x2xf32>) -> tensor<18x8xf32>
// CHECK-NEXT:    func.return %2 : tensor<18x8xf32>
func.func @chain_retypes_users(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<?x?xf32> {
  %s = relay.shape_of %y {dtype = i64} : (tensor<3x2xf32>) -> tensor<2xi64>
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %1 = relay.exp %0 : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %t = relay.shape_of %1 {dtype = i64} : (tensor<?x?xf32>) -> tensor<2xi64>
  %c = relay.constant dense<2> : tensor<2xi64>
  %r = relay.multiply %t, %c : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %2 = relay.dyn.tile %1, %r : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %2 : tensor<?x?xf32>
}

// -----

/// Constant shapes: zeros keeps its dtype, full its fill operand, pad takes widths and the constant pad value.
// CHECK-LABEL: func.func @creation_and_pad
// CHECK-NEXT:    %0 = relay.zeros {shape = [1, 4], dtype = i64} : tensor<1x4xi64>
// CHECK-NEXT:    %1 = relay.full %f {shape = [1, 4]} : (tensor<f32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %2 = relay.nn.pad %x {pad_width = [1, 0, 0, 2], pad_value = 7.0} : (tensor<2x2xi32>) -> tensor<3x4xi32>
// CHECK-NEXT:    func.return %0, %1, %2 : tensor<1x4xi64>, tensor<1x4xf32>, tensor<3x4xi32>
func.func @creation_and_pad(%x: tensor<2x2xi32>, %f: tensor<f32>) -> (tensor<?x?xi64>, tensor<?x?xf32>, tensor<?x?xi32>) {
  %s = relay.constant dense<[1, 4]> : tensor<2xi32>
  %0 = relay.dyn.zeros %s {dtype = i64} : (tensor<2xi32>) -> tensor<?x?xi64>
  %1 = relay.dyn.full %f, %s : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
  %p = relay.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>
  %v = relay.constant dense<7.0> : tensor<f32>
  %2 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x2xi32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xi32>
  func.return %0, %1, %2 : tensor<?x?xi64>, tensor<?x?xf32>, tensor<?x?xi32>
}

// -----

/// Negative: a shape read from a parameter is not known; the op stays.
// CHECK-LABEL: func.func @shape_from_parameter
// CHECK-NEXT:    %0 = relay.dyn.reshape %x, %s
func.func @shape_from_parameter(%x: tensor<2x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

/// Negative: shape_of of a value with a ? dim is not known.
// CHECK-LABEL: func.func @shape_of_dynamic
// CHECK-NEXT:    %s = relay.shape_of %y
// CHECK-NEXT:    %0 = relay.dyn.reshape %x, %s
func.func @shape_of_dynamic(%x: tensor<6xf32>, %y: tensor<?x3xf32>) -> tensor<?x?xf32> {
  %s = relay.shape_of %y : (tensor<?x3xf32>) -> tensor<2xi32>
  %0 = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

/// Negative: a known shape the static op rejects stays dynamic (reported at run time or build time).
// CHECK-LABEL: func.func @shape_that_does_not_fit
// CHECK:         %0 = relay.dyn.reshape %x, %s
func.func @shape_that_does_not_fit(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %s = relay.constant dense<[4, 4]> : tensor<2xi64>
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

/// Negative: dyn.nn.pad needs its pad value known too (TVM's rule).
// CHECK-LABEL: func.func @pad_value_from_parameter
// CHECK:         %0 = relay.dyn.nn.pad %x, %p, %v
func.func @pad_value_from_parameter(%x: tensor<2x2xf32>, %v: tensor<f32>) -> tensor<?x?xf32> {
  %p = relay.constant dense<[[1, 0], [0, 2]]> : tensor<2x2xi64>
  %0 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x2xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

/// TVM: dyn.topk with a constant k becomes topk(k = 2); the tuple's readers are re-typed.
// CHECK-LABEL: func.func @topk_constant_k(%x: tensor<2x5xf32>) -> tensor<2x2xi64>
// CHECK-NEXT:    %0 = relay.topk %x {k = 2, axis = 1, dtype = i64} : (tensor<2x5xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xi64>>
// CHECK-NEXT:    %1 = relay.tuple_get_item %0 {index = 1} : (tuple<tensor<2x2xf32>, tensor<2x2xi64>>) -> tensor<2x2xi64>
// CHECK-NEXT:    func.return %1 : tensor<2x2xi64>
func.func @topk_constant_k(%x: tensor<2x5xf32>) -> tensor<2x?xi64> {
  %k = relay.constant dense<[2]> : tensor<1xi32>
  %0 = relay.dyn.topk %x, %k {axis = 1, dtype = i64} : (tensor<2x5xf32>, tensor<1xi32>) -> tuple<tensor<2x?xf32>, tensor<2x?xi64>>
  %1 = relay.tuple_get_item %0 {index = 1} : (tuple<tensor<2x?xf32>, tensor<2x?xi64>>) -> tensor<2x?xi64>
  func.return %1 : tensor<2x?xi64>
}

// -----

/// Negative: k from a parameter stays dynamic.
// CHECK-LABEL: func.func @topk_parameter_k
// CHECK:         relay.dyn.topk %x, %k
func.func @topk_parameter_k(%x: tensor<2x5xf32>, %k: tensor<i32>) -> tensor<2x?xf32> {
  %0 = relay.dyn.topk %x, %k {ret_type = "values"} : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}
