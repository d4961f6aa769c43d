// RUN: xrelay-opt %s -p partition-graph --split-input-file | filecheck %s

/// TVM's test_mixed_single_multiple_outputs: several outputs are one relay.tuple in the
/// region's output order (relu's end is reached first), read back with tuple_get_item.
// CHECK-LABEL: func.func @tvmgen_default_test_target_main_0(%test_target_0_i0: tensor<10x10xf32>) -> tuple<tensor<10x10xf32>, tensor<10x10xf32>>
//  CHECK-NEXT:    %o1 = relay.abs %test_target_0_i0
//  CHECK-NEXT:    %o2 = relay.nn.relu %o1
//  CHECK-NEXT:    %[[T:.*]] = relay.tuple %o2, %o1
//  CHECK-NEXT:    func.return %[[T]]
//       CHECK:  func.func @tvmgen_default_test_target_main_1(%test_target_1_i0: tensor<10x10xf32>, %test_target_1_i1: tensor<10x10xf32>)
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[C:.*]] = func.call @tvmgen_default_test_target_main_0(%data)
//  CHECK-NEXT:    %ce3 = relay.tuple_get_item %[[C]] {index = 0}
//  CHECK-NEXT:    %ce2 = relay.tuple_get_item %[[C]] {index = 1}
//  CHECK-NEXT:    %x = relay.tanh %ce2
//  CHECK-NEXT:    %ce4 = func.call @tvmgen_default_test_target_main_1(%ce3, %x)
func.func @main(%data: tensor<10x10xf32>) -> tensor<10x10xf32> {
  %cb1 = relay.compiler_begin %data {compiler = "test_target"} : tensor<10x10xf32>
  %o1 = relay.abs %cb1 : tensor<10x10xf32>
  %ce2 = relay.compiler_end %o1 {compiler = "test_target"} : tensor<10x10xf32>
  %o2 = relay.nn.relu %o1 : tensor<10x10xf32>
  %ce3 = relay.compiler_end %o2 {compiler = "test_target"} : tensor<10x10xf32>
  %x = relay.tanh %ce2 : tensor<10x10xf32>
  %cb3 = relay.compiler_begin %ce3 {compiler = "test_target"} : tensor<10x10xf32>
  %cb4 = relay.compiler_begin %x {compiler = "test_target"} : tensor<10x10xf32>
  %o3 = relay.add %cb3, %cb4 : tensor<10x10xf32>
  %ce4 = relay.compiler_end %o3 {compiler = "test_target"} : tensor<10x10xf32>
  func.return %ce4 : tensor<10x10xf32>
}

// -----

/// TVM's test_duplicate_outputs: three ends on one value are one output, not a tuple.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:    %a = relay.abs %accel_0_i0
//  CHECK-NEXT:    func.return %a
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[A:.*]] = func.call @tvmgen_default_accel_main_0(%x)
//  CHECK-NEXT:    relay.nn.relu %[[A]]
//  CHECK-NEXT:    relay.tanh %[[A]]
//  CHECK-NEXT:    relay.log %[[A]]
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %e1 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %e2 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %e0 : tensor<4xf32>
  %t = relay.tanh %e1 : tensor<4xf32>
  %l = relay.log %e2 : tensor<4xf32>
  func.return %r, %t, %l : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

/// TVM's test_flatten_tuple_output, nested: the end of a tuple of tuples becomes ends of
/// its leaves (all of them, recursively), so the function returns a flat tuple of distinct
/// values (abs appears twice, it is returned once); the caller rebuilds the nesting.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
//  CHECK-NEXT:    %a = relay.abs %accel_0_i0
//  CHECK-NEXT:    %r = relay.nn.relu %accel_0_i0
//  CHECK-NEXT:    %[[T:.*]] = relay.tuple %a, %r
//  CHECK-NEXT:    func.return %[[T]]
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[C:.*]] = func.call @tvmgen_default_accel_main_0(%x)
//  CHECK-NEXT:    %[[G0:.*]] = relay.tuple_get_item %[[C]] {index = 0}
//  CHECK-NEXT:    %[[G1:.*]] = relay.tuple_get_item %[[C]] {index = 1}
//  CHECK-NEXT:    %[[I:.*]] = relay.tuple %[[G0]], %[[G1]]
//  CHECK-NEXT:    %[[O:.*]] = relay.tuple %[[I]], %[[G0]]
//  CHECK-NEXT:    func.return %[[O]]
func.func @main(%x: tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %r = relay.nn.relu %b : tensor<4xf32>
  %i = relay.tuple %a, %r : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %o = relay.tuple %i, %a : (tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>) -> tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>
  %e = relay.compiler_end %o {compiler = "accel"} : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>
  func.return %e : tuple<tuple<tensor<4xf32>, tensor<4xf32>>, tensor<4xf32>>
}

// -----

/// The call goes where its first output is needed: tanh reads abs before the region's last
/// op, so the call moves up; the rest keeps its order. Outputs come in the order their ends
/// are reached from the return (abs first).
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(
//       CHECK:    relay.tuple %a, %c
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[C:.*]] = func.call @tvmgen_default_accel_main_0(%x, %y)
//  CHECK-NEXT:    %ea = relay.tuple_get_item %[[C]] {index = 0}
//  CHECK-NEXT:    %u = relay.tanh %ea
//  CHECK-NEXT:    %ec = relay.tuple_get_item %[[C]] {index = 1}
//  CHECK-NEXT:    func.return %u, %ec
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %u = relay.tanh %ea : tensor<4xf32>
  %b1 = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %p = relay.exp %b1 : tensor<4xf32>
  %c = relay.add %a, %p : tensor<4xf32>
  %ec = relay.compiler_end %c {compiler = "accel"} : tensor<4xf32>
  func.return %u, %ec : tensor<4xf32>, tensor<4xf32>
}

// -----

/// A composite in a region moves into the function whole; a region in a relay.if branch is
/// called in that branch.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4xf32>, %accel_0_i1: tensor<4xf32>)
//  CHECK-NEXT:    %s = relay.composite "accel.add_relu" (%accel_0_i0, %accel_0_i1)
//  CHECK-NEXT:    ^bb0(%p0: tensor<4xf32>, %p1: tensor<4xf32>):
//  CHECK-NEXT:      relay.add %p0, %p1
//  CHECK-NEXT:      relay.nn.relu
//  CHECK-NEXT:      relay.yield
//  CHECK-NEXT:    }
//  CHECK-NEXT:    func.return %s
//       CHECK:  func.func @tvmgen_default_dnnl_main_2(%dnnl_2_i0: tensor<4xf32>)
//  CHECK-NEXT:    relay.exp %dnnl_2_i0
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[S:.*]] = func.call @tvmgen_default_accel_main_0(%x, %y)
//  CHECK-NEXT:    relay.if %c
//  CHECK-NEXT:      %[[E:.*]] = func.call @tvmgen_default_dnnl_main_2(%[[S]])
//  CHECK-NEXT:      relay.yield %[[E]]
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %s = relay.composite "accel.add_relu" (%b0, %b1) {PartitionedFromPattern = "add_nn.relu_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p0: tensor<4xf32>, %p1: tensor<4xf32>):
    %0 = relay.add %p0, %p1 : tensor<4xf32>
    %1 = relay.nn.relu %0 : tensor<4xf32>
    relay.yield %1 : tensor<4xf32>
  }
  %es = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %b2 = relay.compiler_begin %es {compiler = "dnnl"} : tensor<4xf32>
    %t = relay.exp %b2 : tensor<4xf32>
    %e = relay.compiler_end %t {compiler = "dnnl"} : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
