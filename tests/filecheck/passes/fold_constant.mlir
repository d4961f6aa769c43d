// RUN: xrelay-opt %s -p fold-constant --split-input-file | filecheck %s

/// TVM's test_fold_const: x + (c+c)*2 + c with c=[1,2,3] becomes x + [4,8,12] + c.
// CHECK-LABEL: @fold_const
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<[4.000000e+00, 8.000000e+00, 1.200000e+01]> : tensor<3xf32>
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.add %x, %[[K]] :
//  CHECK-NEXT:   %[[B:[^ ]+]] = relay.add %[[A]], %[[C]] :
//  CHECK-NEXT:   func.return %[[B]]
func.func @fold_const(%x: tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  %c = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %0 = relay.add %c, %c : tensor<3xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %1 = relay.multiply %0, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = relay.add %x, %1 : (tensor<1x2x3xf32>, tensor<3xf32>) -> tensor<1x2x3xf32>
  %3 = relay.add %2, %c : (tensor<1x2x3xf32>, tensor<3xf32>) -> tensor<1x2x3xf32>
  func.return %3 : tensor<1x2x3xf32>
}

// -----

/// TVM's test_fold_tuple: (x, c).1 + c folds to [2,4,6], (x, c).0 is x; the tuple goes away.
// CHECK-LABEL: @fold_tuple
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<[2.000000e+00, 4.000000e+00, 6.000000e+00]> : tensor<3xf32>
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.add %[[K]], %x :
//  CHECK-NEXT:   func.return %[[A]]
func.func @fold_tuple(%x: tensor<1x2x3xf32>) -> tensor<1x2x3xf32> {
  %c = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %t = relay.tuple %x, %c : (tensor<1x2x3xf32>, tensor<3xf32>) -> tuple<tensor<1x2x3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<1x2x3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %2 = relay.add %1, %c : tensor<3xf32>
  %0 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<1x2x3xf32>, tensor<3xf32>>) -> tensor<1x2x3xf32>
  %3 = relay.add %2, %0 : (tensor<3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  func.return %3 : tensor<1x2x3xf32>
}

// -----

/// TVM's test_fold_concat: concatenate of constants (a variadic op) is one constant.
// CHECK-LABEL: @fold_concat
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
//  CHECK-NEXT:   func.return %[[K]]
func.func @fold_concat() -> tensor<2x3xf32> {
  %a = relay.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %b = relay.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %y = relay.concatenate %a, %b : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

/// TVM's test_fold_if: a true condition takes x + y, which then folds; a false one x - y.
// CHECK-LABEL: @fold_if_true
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<1x3xf32>
//  CHECK-NEXT:   func.return %[[K]]
// CHECK-LABEL: @fold_if_false
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<0.000000e+00> : tensor<1x3xf32>
//  CHECK-NEXT:   func.return %[[K]]
func.func @fold_if_true() -> tensor<1x3xf32> {
  %cond = relay.constant dense<true> : tensor<i1>
  %x = relay.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %r = relay.if %cond : tensor<i1> -> tensor<1x3xf32> {
    %s = relay.add %x, %x : tensor<1x3xf32>
    relay.yield %s : tensor<1x3xf32>
  } else {
    %d = relay.subtract %x, %x : tensor<1x3xf32>
    relay.yield %d : tensor<1x3xf32>
  }
  func.return %r : tensor<1x3xf32>
}
func.func @fold_if_false() -> tensor<1x3xf32> {
  %cond = relay.constant dense<false> : tensor<i1>
  %x = relay.constant dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>
  %r = relay.if %cond : tensor<i1> -> tensor<1x3xf32> {
    %s = relay.add %x, %x : tensor<1x3xf32>
    relay.yield %s : tensor<1x3xf32>
  } else {
    %d = relay.subtract %x, %x : tensor<1x3xf32>
    relay.yield %d : tensor<1x3xf32>
  }
  func.return %r : tensor<1x3xf32>
}

// -----

/// A condition that folds picks its branch; the branch's non-constant ops move out of the if,
/// and what only the dropped branch read (the relu) goes with it.
// CHECK-LABEL: @fold_if_computed_cond
//  CHECK-NEXT:   %[[E:[^ ]+]] = relay.exp %x : tensor<4xf32>
//  CHECK-NEXT:   func.return %[[E]]
func.func @fold_if_computed_cond(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.constant dense<1> : tensor<i32>
  %b = relay.constant dense<2> : tensor<i32>
  %cond = relay.less %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %dropped = relay.nn.relu %x : tensor<4xf32>
  %r = relay.if %cond : tensor<i1> -> tensor<4xf32> {
    %e = relay.exp %x : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %dropped : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

/// Ops on constants inside the branches of a non-constant if fold in place.
// CHECK-LABEL: @fold_in_branch
//       CHECK:   relay.if %c
//  CHECK-NEXT:     %[[K:[^ ]+]] = relay.constant dense<2.000000e+00> : tensor<4xf32>
//  CHECK-NEXT:     relay.yield %[[K]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %x
func.func @fold_in_branch(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %one = relay.constant dense<1.0> : tensor<4xf32>
    %s = relay.add %one, %one : tensor<4xf32>
    relay.yield %s : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

/// Shape-changing ops: transpose then two reshapes of a constant are one constant.
// CHECK-LABEL: @fold_transpose_reshape
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
//  CHECK-NEXT:   func.return %[[K]]
func.func @fold_transpose_reshape() -> tensor<3x2xf32> {
  %c = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %t = relay.transpose %c : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = relay.reshape %t {newshape = [-1]} : (tensor<3x2xf32>) -> tensor<6xf32>
  %b = relay.reshape %r {newshape = [3, 2]} : (tensor<6xf32>) -> tensor<3x2xf32>
  func.return %b : tensor<3x2xf32>
}

// -----

/// Integer dtypes keep their semantics: i32 division truncates, a cast to i8 rounds to zero.
// CHECK-LABEL: @fold_int
//  CHECK-NEXT:   %[[D:[^ ]+]] = relay.constant dense<[3, -3]> : tensor<2xi32>
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.constant dense<[7, -7]> : tensor<2xi8>
//  CHECK-NEXT:   func.return %[[D]], %[[C]]
func.func @fold_int() -> (tensor<2xi32>, tensor<2xi8>) {
  %a = relay.constant dense<[7, -7]> : tensor<2xi32>
  %b = relay.constant dense<[2, 2]> : tensor<2xi32>
  %d = relay.divide %a, %b : tensor<2xi32>
  %f = relay.constant dense<[7.5, -7.5]> : tensor<2xf32>
  %c = relay.cast %f {dtype = i8} : (tensor<2xf32>) -> tensor<2xi8>
  func.return %d, %c : tensor<2xi32>, tensor<2xi8>
}

// -----

/// A comparison of constants is a bool constant; the one reading %x stays.
// CHECK-LABEL: @fold_bool
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.constant dense<[1, 5, 3]> : tensor<3xi32>
//  CHECK-NEXT:   %[[L:[^ ]+]] = relay.constant dense<[true, true, false]> : tensor<3xi1>
//  CHECK-NEXT:   %[[E:[^ ]+]] = relay.equal %x, %[[A]]
//  CHECK-NEXT:   relay.not_equal %[[L]], %[[E]] : tensor<3xi1>
func.func @fold_bool(%x: tensor<3xi32>) -> tensor<3xi1> {
  %a = relay.constant dense<[1, 5, 3]> : tensor<3xi32>
  %b = relay.constant dense<[2, 5, 1]> : tensor<3xi32>
  %l = relay.less_equal %a, %b : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %e = relay.equal %x, %a : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %n = relay.not_equal %l, %e : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  func.return %n : tensor<3xi1>
}

// -----

/// An op returning a tuple becomes a tuple of constants (TVM's ADT result), projected by index.
// CHECK-LABEL: @fold_split
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<[3, 4]> : tensor<2xi32>
//  CHECK-NEXT:   func.return %[[K]]
// CHECK-LABEL: @fold_split_whole
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.constant dense<[1, 2]> : tensor<2xi32>
//  CHECK-NEXT:   %[[B:[^ ]+]] = relay.constant dense<[3, 4]> : tensor<2xi32>
//  CHECK-NEXT:   %[[T:[^ ]+]] = relay.tuple %[[A]], %[[B]]
//  CHECK-NEXT:   func.return %[[T]]
func.func @fold_split() -> tensor<2xi32> {
  %c = relay.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = relay.split %c {indices_or_sections = 2} : (tensor<4xi32>) -> tuple<tensor<2xi32>, tensor<2xi32>>
  %1 = relay.tuple_get_item %s {index = 1} : (tuple<tensor<2xi32>, tensor<2xi32>>) -> tensor<2xi32>
  func.return %1 : tensor<2xi32>
}
func.func @fold_split_whole() -> tuple<tensor<2xi32>, tensor<2xi32>> {
  %c = relay.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = relay.split %c {indices_or_sections = 2} : (tensor<4xi32>) -> tuple<tensor<2xi32>, tensor<2xi32>>
  func.return %s : tuple<tensor<2xi32>, tensor<2xi32>>
}

// -----

/// shape_of and ndarray_size of a statically shaped value fold whatever computes it (TVM's
/// EvaluateShapeOf); the value itself stays for its other users.
// CHECK-LABEL: @fold_shape_of
//  CHECK-NEXT:   %[[E:[^ ]+]] = relay.exp %x
//  CHECK-NEXT:   %[[S:[^ ]+]] = relay.constant dense<[2, 3]> : tensor<2xi64>
//  CHECK-NEXT:   %[[N:[^ ]+]] = relay.constant dense<6> : tensor<i32>
//  CHECK-NEXT:   func.return %[[E]], %[[S]], %[[N]]
func.func @fold_shape_of(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi64>, tensor<i32>) {
  %e = relay.exp %x : tensor<2x3xf32>
  %s = relay.shape_of %e {dtype = i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  %n = relay.ndarray_size %e : (tensor<2x3xf32>) -> tensor<i32>
  func.return %e, %s, %n : tensor<2x3xf32>, tensor<2xi64>, tensor<i32>
}

// -----

/// shape_of of a value with a dynamic dim stays.
// CHECK-LABEL: @keep_shape_of_dynamic
//  CHECK-NEXT:   %[[S:[^ ]+]] = relay.shape_of %x
//  CHECK-NEXT:   func.return %[[S]]
func.func @keep_shape_of_dynamic(%x: tensor<?x3xf32>) -> tensor<2xi32> {
  %s = relay.shape_of %x : (tensor<?x3xf32>) -> tensor<2xi32>
  func.return %s : tensor<2xi32>
}
