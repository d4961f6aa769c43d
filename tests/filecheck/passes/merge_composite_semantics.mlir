// RUN: echo 'from xrelay.passes.byoc_registry import register_pattern_table as r; from xrelay.passes.dataflow_pattern import is_op as o, is_constant as k, is_tuple_get_item as g, wildcard as w; a, b = w(), w(); r("test", lambda: [("test.bn_relu", o("nn.relu")(g(o("nn.batch_norm")(w(), w(), w(), w(), w()), 0))), ("test.add_sub_mul", (a + b) * (a - b)), ("test.conv_const_relu", o("nn.relu")(o("nn.conv2d")(w(), k()))), ("test.add_add", o("add")(o("add")(w(), w()), w()))])' > %t.tables.py
// RUN: xrelay-opt %s --load-pass-plugin %t.tables.py -p 'merge-composite{pattern-table=test}' --split-input-file | filecheck %s

/// A tuple_get_item in a pattern is named with its index: nn.batch_norm_TupleGetItem0_nn.relu_.
// CHECK-LABEL: func.func @bn_relu
// CHECK-NEXT:    %[[R:.*]] = relay.composite "test.bn_relu" (%x, %g, %b, %m, %v) {PartitionedFromPattern = "nn.batch_norm_TupleGetItem0_nn.relu_"}
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[BN:.*]] = relay.nn.batch_norm
// CHECK-NEXT:      %[[T:.*]] = relay.tuple_get_item %[[BN]] {index = 0}
// CHECK-NEXT:      %[[RE:.*]] = relay.nn.relu %[[T]]
// CHECK-NEXT:      relay.yield %[[RE]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
func.func @bn_relu(%x: tensor<1x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %m: tensor<8xf32>, %v: tensor<8xf32>) -> tensor<1x8xf32> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x8xf32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<1x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x8xf32>
  func.return %2 : tensor<1x8xf32>
}

// -----

/// Reused wildcards bind one value: (x+y)*(x-y) merges (two inputs), (x+y)*(x-z) does not.
// CHECK-LABEL: func.func @reused_wildcards
// CHECK-NEXT:    %[[M:.*]] = relay.composite "test.add_sub_mul" (%x, %y) {PartitionedFromPattern = "add_subtract_multiply_"}
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>):
// CHECK-NEXT:      %[[A:.*]] = relay.add %[[X]], %[[Y]]
// CHECK-NEXT:      %[[S:.*]] = relay.subtract %[[X]], %[[Y]]
// CHECK-NEXT:      %[[P:.*]] = relay.multiply %[[A]], %[[S]]
// CHECK-NEXT:      relay.yield %[[P]]
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[A2:.*]] = relay.add %x, %y
// CHECK-NEXT:    %[[S2:.*]] = relay.subtract %x, %z
// CHECK-NEXT:    %[[P2:.*]] = relay.multiply %[[A2]], %[[S2]]
// CHECK-NEXT:    func.return %[[M]], %[[P2]]
func.func @reused_wildcards(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = relay.add %x, %y : tensor<4xf32>
  %1 = relay.subtract %x, %y : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  %3 = relay.add %x, %y : tensor<4xf32>
  %4 = relay.subtract %x, %z : tensor<4xf32>
  %5 = relay.multiply %3, %4 : tensor<4xf32>
  func.return %2, %5 : tensor<4xf32>, tensor<4xf32>
}

// -----

/// A constant matched by is_constant() is embedded in the body and leaves the function.
// CHECK-LABEL: func.func @embedded_constant
// CHECK-NEXT:    %[[R:.*]] = relay.composite "test.conv_const_relu" (%x) {PartitionedFromPattern = "nn.conv2d_nn.relu_"}
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<1x2x4x4xf32>):
// CHECK-NEXT:      %[[W:.*]] = relay.constant dense<5.000000e-01> : tensor<2x2x1x1xf32>
// CHECK-NEXT:      %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]]
// CHECK-NEXT:      relay.nn.relu %[[C]]
// CHECK-NEXT:      relay.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]]
func.func @embedded_constant(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x2x4x4xf32>
  func.return %1 : tensor<1x2x4x4xf32>
}

// -----

/// The match at %2 is rejected (its inner add %1 is also returned) and claims nothing,
/// so the match at %1 still forms, as in TVM.
// CHECK-LABEL: func.func @rejected_match_claims_nothing
// CHECK-NEXT:    %[[AA:.*]] = relay.composite "test.add_add" (%x, %y, %z) {PartitionedFromPattern = "add_add_"}
// CHECK:         %[[R:.*]] = relay.add %[[AA]], %q
// CHECK-NEXT:    func.return %[[R]], %[[AA]]
func.func @rejected_match_claims_nothing(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>, %q: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = relay.add %x, %y : tensor<4xf32>
  %1 = relay.add %0, %z : tensor<4xf32>
  %2 = relay.add %1, %q : tensor<4xf32>
  func.return %2, %1 : tensor<4xf32>, tensor<4xf32>
}
