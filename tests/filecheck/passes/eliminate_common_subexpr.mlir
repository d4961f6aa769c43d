// RUN: xrelay-opt %s -p eliminate-common-subexpr --split-input-file | filecheck %s

/// TVM's test_simple: two `relu(x) + 1.0` become one; the two scalar constants merge first.
// CHECK-LABEL: @fold_simple
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<1x16xf32>
//  CHECK-NEXT:   %c0 = relay.constant dense<1.000000e+00> : tensor<f32>
//  CHECK-NEXT:   %1 = relay.add %0, %c0 : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
//  CHECK-NEXT:   %2 = relay.add %1, %1 : tensor<1x16xf32>
//  CHECK-NEXT:   func.return %2 : tensor<1x16xf32>
func.func @fold_simple(%x: tensor<1x16xf32>) -> tensor<1x16xf32> {
  %0 = relay.nn.relu %x : tensor<1x16xf32>
  %1 = relay.nn.relu %x : tensor<1x16xf32>
  %c0 = relay.constant dense<1.0> : tensor<f32>
  %2 = relay.add %0, %c0 : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %c1 = relay.constant dense<1.0> : tensor<f32>
  %3 = relay.add %1, %c1 : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %4 = relay.add %2, %3 : tensor<1x16xf32>
  func.return %4 : tensor<1x16xf32>
}

// -----

/// TVM's test_tuple_get_time: `BN[0]` twice is one tuple_get_item (same tuple, same index).
// CHECK-LABEL: @fold_tuple_get_item
//  CHECK-NEXT:   %bn = relay.nn.batch_norm
//  CHECK-NEXT:   %0 = relay.tuple_get_item %bn {index = 0}
//  CHECK-NEXT:   %1 = relay.add %0, %0 : tensor<1x16x1x1xf32>
//  CHECK-NEXT:   func.return %1
func.func @fold_tuple_get_item(%x: tensor<1x16x1x1xf32>, %v: tensor<16xf32>) -> tensor<1x16x1x1xf32> {
  %bn = relay.nn.batch_norm %x, %v, %v, %v, %v : (tensor<1x16x1x1xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tuple<tensor<1x16x1x1xf32>, tensor<16xf32>, tensor<16xf32>>
  %0 = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x16x1x1xf32>, tensor<16xf32>, tensor<16xf32>>) -> tensor<1x16x1x1xf32>
  %1 = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x16x1x1xf32>, tensor<16xf32>, tensor<16xf32>>) -> tensor<1x16x1x1xf32>
  %2 = relay.add %0, %1 : tensor<1x16x1x1xf32>
  func.return %2 : tensor<1x16x1x1xf32>
}

// -----

/// Different indices into the same tuple are different values.
// CHECK-LABEL: @keep_tuple_get_item_index
//  CHECK-NEXT:   relay.tuple_get_item %t {index = 0}
//  CHECK-NEXT:   relay.tuple_get_item %t {index = 1}
func.func @keep_tuple_get_item_index(%t: tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32> {
  %0 = relay.tuple_get_item %t {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %1 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// TVM's test_tuple_arg: once the fields merge, the two concatenates read the same values.
// CHECK-LABEL: @fold_concatenate
//  CHECK-NEXT:   %0 = relay.nn.relu %x
//  CHECK-NEXT:   %c = relay.constant
//  CHECK-NEXT:   %1 = relay.add %0, %c
//  CHECK-NEXT:   %c0 = relay.constant
//  CHECK-NEXT:   %2 = relay.concatenate %1, %c0
//  CHECK-NEXT:   %3 = relay.add %2, %2 : tensor<2x16xf32>
//  CHECK-NEXT:   func.return %3
func.func @fold_concatenate(%x: tensor<1x16xf32>) -> tensor<2x16xf32> {
  %0 = relay.nn.relu %x : tensor<1x16xf32>
  %1 = relay.nn.relu %x : tensor<1x16xf32>
  %c = relay.constant dense<1.0> : tensor<f32>
  %2 = relay.add %0, %c : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %3 = relay.add %1, %c : (tensor<1x16xf32>, tensor<f32>) -> tensor<1x16xf32>
  %c0 = relay.constant dense<1.0> : tensor<1x16xf32>
  %4 = relay.concatenate %2, %c0 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
  %5 = relay.concatenate %3, %c0 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<2x16xf32>
  %6 = relay.add %4, %5 : tensor<2x16xf32>
  func.return %6 : tensor<2x16xf32>
}

// -----

/// Two relay.tuple with the same fields are one tuple, so the items of both merge too.
// CHECK-LABEL: @fold_tuple
//  CHECK-NEXT:   %t = relay.tuple %a, %b
//  CHECK-NEXT:   %0 = relay.tuple_get_item %t {index = 1}
//  CHECK-NEXT:   %1 = relay.add %0, %0
//  CHECK-NEXT:   func.return %1
func.func @fold_tuple(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %t = relay.tuple %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %u = relay.tuple %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %0 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %1 = relay.tuple_get_item %u {index = 1} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// Equal tensor constants merge (not only scalars); a different value or dtype does not.
// CHECK-LABEL: @fold_equal_constants
//  CHECK-NEXT:   %a = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
//  CHECK-NEXT:   %c = relay.constant dense<[1.000000e+00, 3.000000e+00]> : tensor<2xf32>
//  CHECK-NEXT:   %d = relay.constant dense<[1, 2]> : tensor<2xi32>
//  CHECK-NEXT:   %0 = relay.multiply %x, %a : tensor<2xf32>
//  CHECK-NEXT:   %1 = relay.add %0, %0 : tensor<2xf32>
//  CHECK-NEXT:   %2 = relay.add %1, %c : tensor<2xf32>
//  CHECK-NEXT:   func.return %2, %d
func.func @fold_equal_constants(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %a = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c = relay.constant dense<[1.0, 3.0]> : tensor<2xf32>
  %d = relay.constant dense<[1, 2]> : tensor<2xi32>
  %0 = relay.multiply %x, %a : tensor<2xf32>
  %1 = relay.multiply %x, %b : tensor<2xf32>
  %2 = relay.add %0, %1 : tensor<2xf32>
  %3 = relay.add %2, %c : tensor<2xf32>
  func.return %3, %d : tensor<2xf32>, tensor<2xi32>
}

// -----

/// Ops that differ in a property, an operand, or operand order stay apart.
// CHECK-LABEL: @keep_different
//  CHECK-NEXT:   relay.clip %a {a_min = 0.0, a_max = 1.0}
//  CHECK-NEXT:   relay.clip %a {a_min = 0.0, a_max = 2.0}
//  CHECK-NEXT:   relay.subtract %a, %b
//  CHECK-NEXT:   relay.subtract %b, %a
//  CHECK-NEXT:   relay.exp %a
//  CHECK-NEXT:   relay.exp %b
func.func @keep_different(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.clip %a {a_min = 0.0, a_max = 1.0} : tensor<4xf32>
  %1 = relay.clip %a {a_min = 0.0, a_max = 2.0} : tensor<4xf32>
  %2 = relay.subtract %a, %b : tensor<4xf32>
  %3 = relay.subtract %b, %a : tensor<4xf32>
  %4 = relay.exp %a : tensor<4xf32>
  %5 = relay.exp %b : tensor<4xf32>
  %6 = relay.add %0, %1 : tensor<4xf32>
  %7 = relay.add %2, %3 : tensor<4xf32>
  %8 = relay.add %4, %5 : tensor<4xf32>
  %9 = relay.add %6, %7 : tensor<4xf32>
  %10 = relay.add %9, %8 : tensor<4xf32>
  func.return %10 : tensor<4xf32>
}

// -----

/// A discardable attribute is part of what makes two ops equal.
// CHECK-LABEL: @keep_different_attributes
//  CHECK-NEXT:   relay.exp %a {tag = "one"}
//  CHECK-NEXT:   relay.exp %a {tag = "two"}
//  CHECK-NEXT:   relay.add
func.func @keep_different_attributes(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %a {tag = "one"} : tensor<4xf32>
  %1 = relay.exp %a {tag = "two"} : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// A chain merges link by link: the later duplicate of each op reads merged operands.
// CHECK-LABEL: @fold_chain
//  CHECK-NEXT:   %0 = relay.exp %a
//  CHECK-NEXT:   %1 = relay.nn.relu %0
//  CHECK-NEXT:   %2 = relay.nn.softmax %1
//  CHECK-NEXT:   %3 = relay.multiply %2, %2
//  CHECK-NEXT:   func.return %3
func.func @fold_chain(%a: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = relay.exp %a : tensor<2x4xf32>
  %1 = relay.nn.relu %0 : tensor<2x4xf32>
  %2 = relay.nn.softmax %1 : tensor<2x4xf32>
  %3 = relay.exp %a : tensor<2x4xf32>
  %4 = relay.nn.relu %3 : tensor<2x4xf32>
  %5 = relay.nn.softmax %4 : tensor<2x4xf32>
  %6 = relay.multiply %2, %5 : tensor<2x4xf32>
  func.return %6 : tensor<2x4xf32>
}
