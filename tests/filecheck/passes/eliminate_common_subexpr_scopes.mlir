// RUN: xrelay-opt %s -p eliminate-common-subexpr --split-input-file | filecheck %s

/// An op inside a branch reuses the equal op computed before the `if` (it dominates).
// CHECK-LABEL: @fold_into_branch
//  CHECK-NEXT:   %0 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:   %1 = relay.if %c : tensor<i1> -> tensor<2xf32> {
//  CHECK-NEXT:     %2 = relay.add %0, %0 : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %2 : tensor<2xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %0 : tensor<2xf32>
//  CHECK-NEXT:   }
func.func @fold_into_branch(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %2 = relay.exp %x : tensor<2xf32>
    %3 = relay.add %2, %0 : tensor<2xf32>
    relay.yield %3 : tensor<2xf32>
  } else {
    %4 = relay.exp %x : tensor<2xf32>
    relay.yield %4 : tensor<2xf32>
  }
  func.return %1 : tensor<2xf32>
}

// -----

/// The two branches never share: each keeps its own exp, and the exp after the `if`
/// (not dominated by either branch) stays too; duplicates within one branch merge.
// CHECK-LABEL: @keep_across_branches
//  CHECK-NEXT:   %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
//  CHECK-NEXT:     %1 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:     %2 = relay.add %1, %1 : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %2 : tensor<2xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %3 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %3 : tensor<2xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %4 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:   %5 = relay.add %0, %4 : tensor<2xf32>
func.func @keep_across_branches(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %1 = relay.exp %x : tensor<2xf32>
    %2 = relay.exp %x : tensor<2xf32>
    %3 = relay.add %1, %2 : tensor<2xf32>
    relay.yield %3 : tensor<2xf32>
  } else {
    %4 = relay.exp %x : tensor<2xf32>
    relay.yield %4 : tensor<2xf32>
  }
  %5 = relay.exp %x : tensor<2xf32>
  %6 = relay.add %0, %5 : tensor<2xf32>
  func.return %6 : tensor<2xf32>
}

// -----

/// Nested ifs: the inner branch reuses a value of the outer branch that dominates it.
// CHECK-LABEL: @fold_nested_if
//       CHECK:   } else {
//  CHECK-NEXT:     %[[E:.*]] = relay.exp %x
//  CHECK-NEXT:     %{{.*}} = relay.if %c
//  CHECK-NEXT:       relay.yield %[[E]]
//  CHECK-NEXT:     } else {
//  CHECK-NEXT:       relay.yield %x
func.func @fold_nested_if(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %x : tensor<2xf32>
  } else {
    %1 = relay.exp %x : tensor<2xf32>
    %2 = relay.if %c : tensor<i1> -> tensor<2xf32> {
      %3 = relay.exp %x : tensor<2xf32>
      relay.yield %3 : tensor<2xf32>
    } else {
      relay.yield %x : tensor<2xf32>
    }
    %4 = relay.add %1, %2 : tensor<2xf32>
    relay.yield %4 : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

/// Two equal `if`s are not merged (ops with regions never are).
// CHECK-LABEL: @keep_equal_ifs
//  CHECK-COUNT-2: relay.if %c
func.func @keep_equal_ifs(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  %1 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  %2 = relay.add %0, %1 : tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// -----

/// BYOC annotations have effects (each marks a region edge): never merged.
// CHECK-LABEL: @keep_annotations
//  CHECK-NEXT:   relay.compiler_begin %a {compiler = "accel"}
//  CHECK-NEXT:   relay.compiler_begin %a {compiler = "accel"}
func.func @keep_annotations(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %1 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// Calls have unknown effects: never merged (TVM skips calls of global functions too).
// CHECK-LABEL: @keep_calls
//  CHECK-COUNT-2: func.call @callee(%a)
func.func @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}
func.func @keep_calls(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @callee(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// Zero-operand ops other than constants are not merged (TVM skips zero-argument calls).
// CHECK-LABEL: @keep_zero_operand_ops
//  CHECK-COUNT-2: relay.zeros
func.func @keep_zero_operand_ops() -> tensor<2xf32> {
  %0 = relay.zeros {shape = [2], dtype = f32} : () -> tensor<2xf32>
  %1 = relay.zeros {shape = [2], dtype = f32} : () -> tensor<2xf32>
  %2 = relay.add %0, %1 : tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// -----

/// A composite body is left as matched, and two equal composites are not merged.
// CHECK-LABEL: @keep_composite
//       CHECK:   ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
//  CHECK-NEXT:     relay.exp %a
//  CHECK-NEXT:     relay.exp %a
//       CHECK:   relay.composite "accel.exp"
func.func @keep_composite(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.composite "accel.exp" (%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %2 = relay.exp %a : tensor<4xf32>
    %3 = relay.exp %a : tensor<4xf32>
    %4 = relay.add %2, %3 : tensor<4xf32>
    relay.yield %4 : tensor<4xf32>
  }
  %5 = relay.composite "accel.exp" (%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%c: tensor<4xf32>, %d: tensor<4xf32>):
    %6 = relay.exp %c : tensor<4xf32>
    relay.yield %6 : tensor<4xf32>
  }
  %7 = relay.add %1, %5 : tensor<4xf32>
  %8 = relay.add %7, %0 : tensor<4xf32>
  func.return %8 : tensor<4xf32>
}

// -----

/// A function for an external compiler is skipped (TVM's function-pass rule).
// CHECK-LABEL: @keep_external
//  CHECK-COUNT-2: relay.exp %a
func.func @keep_external(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.exp %a : tensor<4xf32>
  %1 = relay.exp %a : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
