// RUN: xrelay-opt %s -p dead-code-elimination --split-input-file --allow-unregistered-dialect | filecheck %s
// RUN: xrelay-opt %s -p 'dead-code-elimination{ignore_impurity=true}' --split-input-file --allow-unregistered-dialect | filecheck %s --check-prefix=IGNORE

/// TVM's `let %x = 1; %z` -> `%z` and `(let %a = 1; 3) + 2` -> `3 + 2`: unused constants go.
// CHECK-LABEL: @dce_unused_constant
//  CHECK-NEXT:   %[[T:[^ ]+]] = relay.constant dense<3.000000e+00>
//  CHECK-NEXT:   %[[W:[^ ]+]] = relay.constant dense<2.000000e+00>
//  CHECK-NEXT:   %[[S:[^ ]+]] = relay.add %[[T]], %[[W]]
//  CHECK-NEXT:   func.return %z, %[[S]]
func.func @dce_unused_constant(%z: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  %x = relay.constant dense<1.0> : tensor<f32>
  %a = relay.constant dense<1.0> : tensor<f32>
  %three = relay.constant dense<3.0> : tensor<f32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %s = relay.add %three, %two : tensor<f32>
  func.return %z, %s : tensor<f32>, tensor<f32>
}

// -----

/// A chain of unused pure ops goes at once (an op used only by dead ops is dead); live ops stay.
// CHECK-LABEL: @dce_chain
//  CHECK-NEXT:   %[[L:[^ ]+]] = relay.nn.relu %x
//  CHECK-NEXT:   func.return %[[L]]
func.func @dce_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %live = relay.nn.relu %x : tensor<4xf32>
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.add %0, %live : tensor<4xf32>
  %2 = relay.multiply %1, %0 : tensor<4xf32>
  %3 = relay.tuple %2, %1 : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %4 = relay.tuple_get_item %3 {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  func.return %live : tensor<4xf32>
}

// -----

/// Dead ops inside a live if's branch go; an unused if with pure branches goes whole, with
/// the ops only its branches read.
// CHECK-LABEL: @dce_nested
//  CHECK-NEXT:   %[[R:[^ ]+]] = relay.if %c
//  CHECK-NEXT:     %[[E:[^ ]+]] = relay.exp %x
//  CHECK-NEXT:     relay.yield %[[E]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %x
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[R]]
func.func @dce_nested(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %only_dead_if = relay.abs %x : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %unused = relay.negative %x : tensor<4xf32>
    %e = relay.exp %x : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  %dead_if = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %n = relay.negative %only_dead_if : tensor<4xf32>
    relay.yield %n : tensor<4xf32>
  } else {
    relay.yield %only_dead_if : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

/// Ops with unknown effects stay, with what they read: a BYOC annotation (no effect trait),
/// an unregistered op, and an if whose branch holds one; ignore_impurity drops them all.
// CHECK-LABEL: @keep_effects
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.abs %x
//  CHECK-NEXT:   relay.compiler_begin %[[A]] {compiler = "accel"}
//  CHECK-NEXT:   "test.effect"(%x)
//  CHECK-NEXT:   relay.if %c
//  CHECK-NEXT:     "test.effect"(%x)
//       CHECK:   func.return %x
// IGNORE-LABEL: @keep_effects
//  IGNORE-NEXT:   "test.effect"(%x)
//  IGNORE-NEXT:   func.return %x
func.func @keep_effects(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %a = relay.abs %x : tensor<4xf32>
  %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %1 = "test.effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %3 = "test.effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    relay.yield %x : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %x : tensor<4xf32>
}

// -----

/// Unused private functions go, chains of them at once (@b is only used by the unused @a);
/// a private function that main calls stays, and so does an unused public one.
// CHECK-NOT:   @a
// CHECK-NOT:   @b
// CHECK-LABEL: func.func private @used
// CHECK-LABEL: func.func @public_unused
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   func.call @used(%x)
func.func private @a(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @b(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @b(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
func.func private @used(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @public_unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @used(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// An unused call of a pure function (recursive ones included) goes, and then the function;
/// an unused call of an impure function or of a declaration stays, and so do they.
// CHECK-NOT:   @rec
// CHECK-LABEL: func.func private @impure
// CHECK-LABEL: func.func private @decl
// CHECK-LABEL: func.func @calls
//  CHECK-NEXT:   func.call @impure(%x)
//  CHECK-NEXT:   func.call @decl(%x)
//  CHECK-NEXT:   func.return %x
// IGNORE-LABEL: func.func @calls
//  IGNORE-NEXT:   func.return %x
func.func private @rec(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @rec(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @impure(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.effect"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %x : tensor<4xf32>
}
func.func private @decl(tensor<4xf32>) -> tensor<4xf32>
func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @rec(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = func.call @impure(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = func.call @decl(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %x : tensor<4xf32>
}

// -----

/// main is the entry: kept even if private; a module with nothing dead is unchanged.
// CHECK-LABEL: func.func private @main
//  CHECK-NEXT:   %[[E:[^ ]+]] = relay.exp %x
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.add %[[E]], %x
//  CHECK-NEXT:   func.return %[[A]]
func.func private @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.add %0, %x : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// Partitioned functions are cleaned too (a module pass, as in TVM), and a symbol referenced
/// from an attribute of a live op keeps its private function.
// CHECK-LABEL: func.func private @ext
//  CHECK-NEXT:   func.return %x
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   "test.uses"() {fn = @ext}
func.func private @ext(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.exp %x : tensor<4xf32>
  func.return %x : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  "test.uses"() {fn = @ext} : () -> ()
  func.return %x : tensor<4xf32>
}
