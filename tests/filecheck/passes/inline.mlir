// RUN: xrelay-opt %s -p inline --split-input-file | filecheck %s

/// A call of an `Inline` function becomes its body, operands for parameters; the function is removed.
// CHECK-LABEL: @fold_simple(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = relay.add %x, %y : tensor<4xf32>
//  CHECK-NEXT:   %r = relay.exp %0 : tensor<4xf32>
//  CHECK-NEXT:   %1 = relay.negative %r : tensor<4xf32>
//  CHECK-NEXT:   func.return %1 : tensor<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: // -----
func.func @fold_simple(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @add_exp(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %0 = relay.negative %r : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @add_exp(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// Several results, one of them a parameter; two call sites get two copies.
// CHECK-LABEL: @fold_multi(%x: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %p = relay.exp %x : tensor<4xf32>
//  CHECK-NEXT:   %m = relay.multiply %p, %x : tensor<4xf32>
//  CHECK-NEXT:   %q = relay.exp %m : tensor<4xf32>
//  CHECK-NEXT:   %0 = relay.add %q, %m : tensor<4xf32>
//  CHECK-NEXT:   func.return %0 : tensor<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: // -----
func.func @pair(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {Inline = 1 : i32} {
  %0 = relay.exp %a : tensor<4xf32>
  func.return %0, %a : tensor<4xf32>, tensor<4xf32>
}
func.func @fold_multi(%x: tensor<4xf32>) -> tensor<4xf32> {
  %p, %a = func.call @pair(%x) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %m = relay.multiply %p, %a : tensor<4xf32>
  %q, %b = func.call @pair(%m) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %0 = relay.add %q, %b : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Nested calls are inlined transitively, inside relay.if branches too; both functions go.
// CHECK-LABEL: @fold_nested(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
//  CHECK-NEXT:     %1 = relay.exp %x : tensor<4xf32>
//  CHECK-NEXT:     %r = relay.negative %1 : tensor<4xf32>
//  CHECK-NEXT:     relay.yield %r : tensor<4xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %x : tensor<4xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %0 : tensor<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: // -----
func.func @outer(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  %0 = func.call @inner(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.negative %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @fold_nested(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %r = func.call @outer(%x) : (tensor<4xf32>) -> tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
func.func @inner(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  %0 = relay.exp %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// An inlined body may call functions that are not inlinable: those calls stay.
// CHECK-LABEL: @fold_keeps_inner_call(%x: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = func.call @plain(%x) : (tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %r = relay.exp %0 : tensor<4xf32>
//  CHECK-NEXT:   func.return %r : tensor<4xf32>
//  CHECK-NEXT: }
//  CHECK-NEXT: func.func @plain(
//  CHECK-NEXT:   relay.negative
//  CHECK-NEXT:   func.return
//  CHECK-NEXT: }
//  CHECK-NEXT: }
//  CHECK-NEXT: // -----
func.func @wrapper(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  %0 = func.call @plain(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @fold_keeps_inner_call(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @wrapper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
func.func @plain(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Not inlined: no `Inline`, `Inline = 0`, or a partitioned function (`Compiler`), even with `Inline = 1`.
// CHECK-LABEL: @keep_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = func.call @no_attr(%x) : (tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %1 = func.call @zero(%0) : (tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %2 = func.call @tvmgen_default_accel_main_0(%1) : (tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   func.return %2 : tensor<4xf32>
//       CHECK: func.func @no_attr(
//       CHECK: func.func @zero({{.*}} attributes {Inline = 0 : i32}
//       CHECK: func.func @tvmgen_default_accel_main_0({{.*}} attributes {Compiler = "accel", Inline = 1 : i32, Primitive = 1 : i32}
func.func @keep_calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @no_attr(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @zero(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = func.call @tvmgen_default_accel_main_0(%1) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
func.func @no_attr(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}
func.func @zero(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 0 : i32} {
  func.return %a : tensor<4xf32>
}
func.func @tvmgen_default_accel_main_0(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel", Inline = 1 : i32, Primitive = 1 : i32} {
  %0 = relay.nn.relu %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Entry points stay: an `Inline` function nobody calls, and `main`, are kept as they are.
// CHECK-LABEL: @keep_entry(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
//  CHECK-NEXT:   %0 = relay.exp %a : tensor<4xf32>
//       CHECK: func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
func.func @keep_entry(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  %0 = relay.exp %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Inline = 1 : i32} {
  func.return %a : tensor<4xf32>
}
