// RUN: xrelay-opt %s -p infer-type --split-input-file | filecheck %s

/// `?` result dims that verify become static down a conv2d/relu/max_pool2d chain; the signature follows.
// CHECK-LABEL: @fold_refine_chain(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
//  CHECK-NEXT:   %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %1 = relay.nn.relu %0 : tensor<1x4x8x8xf32>
//  CHECK-NEXT:   %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
//  CHECK-NEXT:   func.return %2 : tensor<1x4x4x4xf32>
func.func @fold_refine_chain(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x?x?x?xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  %1 = relay.nn.relu %0 : tensor<?x4x?x?xf32>
  %2 = relay.nn.max_pool2d %1 {pool_size = [2, 2], strides = [2, 2]} : (tensor<?x4x?x?xf32>) -> tensor<?x?x?x?xf32>
  func.return %2 : tensor<?x?x?x?xf32>
}

// -----

/// Callers after callees, whatever the module order: the call's results and the caller's signature follow.
// CHECK-LABEL: @fold_caller(%x: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:   %1 = relay.exp %0 : tensor<4xf32>
//  CHECK-NEXT:   func.return %1 : tensor<4xf32>
// CHECK-LABEL: @callee(%a: tensor<4xf32>) -> tensor<4xf32> {
//  CHECK-NEXT:   %0 = relay.add %a, %a : tensor<4xf32>
//  CHECK-NEXT:   func.return %0 : tensor<4xf32>
func.func @fold_caller(%x: tensor<4xf32>) -> tensor<?xf32> {
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<?xf32>
  %1 = relay.exp %0 : tensor<?xf32>
  func.return %1 : tensor<?xf32>
}
func.func @callee(%a: tensor<4xf32>) -> tensor<?xf32> {
  %0 = relay.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

/// relay.if gets the join of its branches: equal dims stay, dims that differ become `?`.
// CHECK-LABEL: @fold_if(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<?xf32>) -> (tensor<2xf32>, tensor<?xf32>) {
//  CHECK-NEXT:   %0 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:   %1 = relay.if %c : tensor<i1> -> tensor<2xf32> {
//  CHECK-NEXT:     relay.yield %0 : tensor<2xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %n = relay.negative %x : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %n : tensor<2xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %2 = relay.if %c : tensor<i1> -> tensor<?xf32> {
//  CHECK-NEXT:     relay.yield %0 : tensor<2xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %y : tensor<?xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %1, %2 : tensor<2xf32>, tensor<?xf32>
func.func @fold_if(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<?xf32> {
    relay.yield %0 : tensor<?xf32>
  } else {
    %n = relay.negative %x : (tensor<2xf32>) -> tensor<?xf32>
    relay.yield %n : tensor<?xf32>
  }
  %2 = relay.if %c : tensor<i1> -> tensor<?xf32> {
    relay.yield %0 : tensor<?xf32>
  } else {
    relay.yield %y : tensor<?xf32>
  }
  func.return %1, %2 : tensor<?xf32>, tensor<?xf32>
}

// -----

/// Tuples and tuple_get_item carry the refined field types.
// CHECK-LABEL: @fold_tuple(%x: tensor<2xf32>) -> tensor<2xf32> {
//  CHECK-NEXT:   %0 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:   %t = relay.tuple %0, %x : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
//  CHECK-NEXT:   %1 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
//  CHECK-NEXT:   func.return %1 : tensor<2xf32>
func.func @fold_tuple(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  %t = relay.tuple %0, %x : (tensor<?xf32>, tensor<2xf32>) -> tuple<tensor<?xf32>, tensor<2xf32>>
  %1 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<?xf32>, tensor<2xf32>>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}

// -----

/// A composite's block arguments take its inputs' types; its result is its body's yield.
// CHECK-LABEL: @fold_composite(%x: tensor<2xf32>) -> tensor<2xf32> {
//  CHECK-NEXT:   %0 = relay.exp %x : tensor<2xf32>
//  CHECK-NEXT:   %1 = relay.composite "accel.relu" (%0) {PartitionedFromPattern = "nn.relu_"} : (tensor<2xf32>) -> tensor<2xf32> {
//  CHECK-NEXT:   ^bb0(%a: tensor<2xf32>):
//  CHECK-NEXT:     %r = relay.nn.relu %a : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %r : tensor<2xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %1 : tensor<2xf32>
func.func @fold_composite(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  %1 = relay.composite "accel.relu" (%0) {PartitionedFromPattern = "nn.relu_"} : (tensor<?xf32>) -> tensor<?xf32> {
  ^bb0(%a: tensor<?xf32>):
    %r = relay.nn.relu %a : tensor<?xf32>
    relay.yield %r : tensor<?xf32>
  }
  func.return %1 : tensor<?xf32>
}

// -----

/// Partitioned functions are typed too (typing is not an optimization).
// CHECK-LABEL: @fold_partitioned(%a: tensor<3xf32>) -> tensor<3xf32> attributes {Compiler = "accel", Inline = 1 : i32} {
//  CHECK-NEXT:   %0 = relay.nn.relu %a : tensor<3xf32>
func.func @fold_partitioned(%a: tensor<3xf32>) -> tensor<?xf32> attributes {Compiler = "accel", Inline = 1 : i32} {
  %0 = relay.nn.relu %a : (tensor<3xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

/// A declared static result is not a source: re-derived from a `?` parameter, it becomes `?`.
// CHECK-LABEL: @fold_relax(%x: tensor<?xf32>) -> tensor<?xf32> {
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<?xf32>
//  CHECK-NEXT:   func.return %0 : tensor<?xf32>
func.func @fold_relax(%x: tensor<?xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : (tensor<?xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Recursion: the call reads the declared `?` result; the refined signature is re-inferred until stable.
// CHECK-LABEL: @fold_recursive(%n: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
//  CHECK-NEXT:   %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
//  CHECK-NEXT:     relay.yield %n : tensor<2xf32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %r = func.call @fold_recursive(%n, %c) : (tensor<2xf32>, tensor<i1>) -> tensor<2xf32>
//  CHECK-NEXT:     %s = relay.add %r, %n : tensor<2xf32>
//  CHECK-NEXT:     relay.yield %s : tensor<2xf32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %0 : tensor<2xf32>
func.func @fold_recursive(%n: tensor<2xf32>, %c: tensor<i1>) -> tensor<?xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<?xf32> {
    relay.yield %n : tensor<2xf32>
  } else {
    %r = func.call @fold_recursive(%n, %c) : (tensor<2xf32>, tensor<i1>) -> tensor<?xf32>
    %s = relay.add %r, %n : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>
    relay.yield %s : tensor<?xf32>
  }
  func.return %0 : tensor<?xf32>
}

// -----

/// A value passed to a `?` parameter keeps the parameter's type (func.call needs equal types).
// CHECK-LABEL: @keep_call_param(%x: tensor<2xf32>) -> tensor<?xf32> {
//  CHECK-NEXT:   %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
//  CHECK-NEXT:   %1 = relay.negative %0 : tensor<?xf32>
//  CHECK-NEXT:   %2 = func.call @dynamic(%0) : (tensor<?xf32>) -> tensor<?xf32>
func.func @keep_call_param(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  %1 = relay.negative %0 : tensor<?xf32>
  %2 = func.call @dynamic(%0) : (tensor<?xf32>) -> tensor<?xf32>
  func.return %2 : tensor<?xf32>
}
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %0 = relay.exp %a : tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

/// Well-typed IR (a recursive function, a tuple-returning op, a multi-result call) is left as it is.
// CHECK-LABEL: @keep_well_typed(%n: tensor<f32>, %c: tensor<i1>, %v: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
//  CHECK-NEXT:   %0 = relay.if %c : tensor<i1> -> tensor<f32> {
//  CHECK-NEXT:     relay.yield %n : tensor<f32>
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %m = relay.negative %n : tensor<f32>
//  CHECK-NEXT:     %r, %s = func.call @keep_well_typed(%m, %c, %v) : (tensor<f32>, tensor<i1>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
//  CHECK-NEXT:     relay.yield %r : tensor<f32>
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %1 = relay.split %v {indices_or_sections = 2} : (tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
//  CHECK-NEXT:   func.return %0, %n : tensor<f32>, tensor<f32>
func.func @keep_well_typed(%n: tensor<f32>, %c: tensor<i1>, %v: tensor<4xf32>) -> (tensor<f32>, tensor<f32>) {
  %0 = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %n : tensor<f32>
  } else {
    %m = relay.negative %n : tensor<f32>
    %r, %s = func.call @keep_well_typed(%m, %c, %v) : (tensor<f32>, tensor<i1>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
    relay.yield %r : tensor<f32>
  }
  %1 = relay.split %v {indices_or_sections = 2} : (tensor<4xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  func.return %0, %n : tensor<f32>, tensor<f32>
}
