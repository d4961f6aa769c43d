// RUN: xrelay-opt %s -p fold-constant --split-input-file | filecheck %s

/// TVM's test_fold_dropout: dropout is non-computational, so nothing after it folds either.
// CHECK-LABEL: @nofold_dropout
//  CHECK-NEXT:   %[[D:[^ ]+]] = relay.constant
//  CHECK-NEXT:   %[[O:[^ ]+]] = relay.nn.dropout %[[D]]
//  CHECK-NEXT:   %[[G:[^ ]+]] = relay.tuple_get_item %[[O]] {index = 0}
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.constant dense<1.000000e+00> : tensor<f32>
//  CHECK-NEXT:   relay.add %[[G]], %[[C]]
func.func @nofold_dropout() -> tensor<4xf32> {
  %data = relay.constant dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>
  %d = relay.nn.dropout %data : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %0 = relay.tuple_get_item %d {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %1 = relay.add %0, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// A fused (Primitive) function is left exactly as it is, tuple projections included.
// CHECK-LABEL: @nofold_primitive
//  CHECK-NEXT:   relay.constant
//  CHECK-NEXT:   relay.add
//  CHECK-NEXT:   relay.tuple
//  CHECK-NEXT:   relay.tuple_get_item
//  CHECK-NEXT:   func.return
func.func @nofold_primitive() -> tensor<2xf32> attributes {Primitive = 1 : i32} {
  %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = relay.add %c, %c : tensor<2xf32>
  %t = relay.tuple %0 : (tensor<2xf32>) -> tuple<tensor<2xf32>>
  %1 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}

// -----

/// A partitioned function (Compiler) is skipped, as by any function pass.
// CHECK-LABEL: @nofold_external
//  CHECK-NEXT:   relay.constant
//  CHECK-NEXT:   relay.add
func.func @nofold_external() -> tensor<2xf32> attributes {Compiler = "accel"} {
  %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = relay.add %c, %c : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// An op with no operands is never folded (TVM: folding ones(4, 5) only grows the module),
/// but ones_like of a constant is.
// CHECK-LABEL: @nofold_zeros
//  CHECK-NEXT:   %[[Z:[^ ]+]] = relay.zeros {shape = [2, 3], dtype = f32} : tensor<2x3xf32>
//  CHECK-NEXT:   %[[O:[^ ]+]] = relay.constant dense<1.000000e+00> : tensor<f32>
//  CHECK-NEXT:   relay.add %[[Z]], %[[O]]
func.func @nofold_zeros() -> tensor<2x3xf32> {
  %z = relay.zeros {shape = [2, 3], dtype = f32} : tensor<2x3xf32>
  %c = relay.constant dense<5.0> : tensor<f32>
  %o = relay.ones_like %c : tensor<f32>
  %r = relay.add %z, %o : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}

// -----

/// An op the interpreter fails on (an index out of range with mode "fast") stays, no error.
// CHECK-LABEL: @nofold_eval_error
//       CHECK:   relay.take %{{.*}} {axis = 0, mode = "fast"}
func.func @nofold_eval_error() -> tensor<1xf32> {
  %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %i = relay.constant dense<[5]> : tensor<1xi32>
  %t = relay.take %c, %i {axis = 0, mode = "fast"} : (tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>
  func.return %t : tensor<1xf32>
}

// -----

/// Calls, BYOC annotations and ops reading a parameter are not evaluated; a tuple of constants
/// returned as it is stays a tuple (Relay has no tuple constants).
// CHECK-LABEL: @nofold_others
//       CHECK:   func.call @callee(%[[C:[^ ]+]])
//  CHECK-NEXT:   relay.compiler_begin %[[C]] {compiler = "accel"}
//  CHECK-NEXT:   relay.add %x, %[[C]]
//  CHECK-NEXT:   relay.tuple
//  CHECK-NEXT:   func.return
func.func private @callee(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
func.func @nofold_others(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tuple<tensor<2xf32>, tensor<2xf32>>) {
  %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = func.call @callee(%c) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = relay.compiler_begin %c {compiler = "accel"} : tensor<2xf32>
  %2 = relay.add %x, %c : tensor<2xf32>
  %t = relay.tuple %c, %c : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  func.return %0, %1, %2, %t : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tuple<tensor<2xf32>, tensor<2xf32>>
}

// -----

/// A non-constant condition keeps the if (its branches may still fold, see fold_constant.mlir).
// CHECK-LABEL: @nofold_if
//  CHECK-NEXT:   relay.if %c
func.func @nofold_if(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %e = relay.exp %x : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

/// Only ops made unused by folding are erased: an op that was already unused stays.
// CHECK-LABEL: @keep_unrelated_dead
//  CHECK-NEXT:   relay.exp %x
//  CHECK-NEXT:   %[[K:[^ ]+]] = relay.constant dense<2.000000e+00>
//  CHECK-NEXT:   func.return %[[K]]
func.func @keep_unrelated_dead(%x: tensor<f32>) -> tensor<f32> {
  %dead = relay.exp %x : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %one, %one : tensor<f32>
  func.return %0 : tensor<f32>
}
