// RUN: xrelay-opt %s -p merge-compiler-regions --split-input-file | filecheck %s

/// TVM's test_diamond_graph_fanouts: abs and relu merge (the begin/end pair between them
/// goes), the add does not, since it also reads tanh, which reads abs through "default".
// CHECK-LABEL: @diamond
//  CHECK-NEXT:   %cb1 = relay.compiler_begin %data {compiler = "test"}
//  CHECK-NEXT:   %o1 = relay.abs %cb1
//  CHECK-NEXT:   %ce2 = relay.compiler_end %o1 {compiler = "test"}
//  CHECK-NEXT:   %cb3 = relay.compiler_begin %ce2 {compiler = "default"}
//  CHECK-NEXT:   %o2 = relay.nn.relu %o1
//  CHECK-NEXT:   %ce3 = relay.compiler_end %o2 {compiler = "test"}
//  CHECK-NEXT:   %x = relay.tanh %cb3
//  CHECK-NEXT:   %ce4 = relay.compiler_end %x {compiler = "default"}
//  CHECK-NEXT:   %cb4 = relay.compiler_begin %ce3 {compiler = "test"}
//  CHECK-NEXT:   %cb5 = relay.compiler_begin %ce4 {compiler = "test"}
//  CHECK-NEXT:   %o3 = relay.add %cb4, %cb5
//  CHECK-NEXT:   %ce5 = relay.compiler_end %o3 {compiler = "test"}
//  CHECK-NEXT:   func.return %ce5
func.func @diamond(%data: tensor<10x10xf32>) -> tensor<10x10xf32> {
  %cb1 = relay.compiler_begin %data {compiler = "test"} : tensor<10x10xf32>
  %o1 = relay.abs %cb1 : tensor<10x10xf32>
  %ce1 = relay.compiler_end %o1 {compiler = "test"} : tensor<10x10xf32>
  %ce2 = relay.compiler_end %o1 {compiler = "test"} : tensor<10x10xf32>
  %cb2 = relay.compiler_begin %ce1 {compiler = "test"} : tensor<10x10xf32>
  %cb3 = relay.compiler_begin %ce2 {compiler = "default"} : tensor<10x10xf32>
  %o2 = relay.nn.relu %cb2 : tensor<10x10xf32>
  %ce3 = relay.compiler_end %o2 {compiler = "test"} : tensor<10x10xf32>
  %x = relay.tanh %cb3 : tensor<10x10xf32>
  %ce4 = relay.compiler_end %x {compiler = "default"} : tensor<10x10xf32>
  %cb4 = relay.compiler_begin %ce3 {compiler = "test"} : tensor<10x10xf32>
  %cb5 = relay.compiler_begin %ce4 {compiler = "test"} : tensor<10x10xf32>
  %o3 = relay.add %cb4, %cb5 : tensor<10x10xf32>
  %ce5 = relay.compiler_end %o3 {compiler = "test"} : tensor<10x10xf32>
  func.return %ce5 : tensor<10x10xf32>
}

// -----

/// A chain of one target becomes one region: only the outer annotations stay.
// CHECK-LABEL: @chain_merged
//  CHECK-NEXT:   %b0 = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %a = relay.abs %b0
//  CHECK-NEXT:   %r = relay.nn.relu %a
//  CHECK-NEXT:   %t = relay.exp %r
//  CHECK-NEXT:   %e2 = relay.compiler_end %t {compiler = "accel"}
//  CHECK-NEXT:   func.return %e2
func.func @chain_merged(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %t = relay.exp %b2 : tensor<4xf32>
  %e2 = relay.compiler_end %t {compiler = "accel"} : tensor<4xf32>
  func.return %e2 : tensor<4xf32>
}

// -----

/// Two siblings of one target reading a "default" producer are not merged with each other
/// (no producer -> consumer edge between them): the function is unchanged.
// CHECK-LABEL: @siblings_kept
//  CHECK-NEXT:   relay.compiler_begin %x {compiler = "default"}
//  CHECK-NEXT:   relay.tanh
//  CHECK-NEXT:   relay.compiler_end
//  CHECK-NEXT:   relay.compiler_end
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.abs
//  CHECK-NEXT:   relay.compiler_end
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.nn.relu
//  CHECK-NEXT:   relay.compiler_end
//  CHECK-NEXT:   func.return
func.func @siblings_kept(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %b0 = relay.compiler_begin %x {compiler = "default"} : tensor<4xf32>
  %t = relay.tanh %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %t {compiler = "default"} : tensor<4xf32>
  %e1 = relay.compiler_end %t {compiler = "default"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b1 : tensor<4xf32>
  %e2 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b2 : tensor<4xf32>
  %e3 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  func.return %e2, %e3 : tensor<4xf32>, tensor<4xf32>
}

// -----

/// Restrictions are inherited: abs -> tanh (dnnl) -> exp -> add and abs -> add. exp merges
/// into add, abs does not (the path through dnnl would come back into the region).
// CHECK-LABEL: @inherited_restriction
//       CHECK:   %a = relay.abs
//  CHECK-NEXT:   relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   relay.compiler_end %a {compiler = "accel"}
//       CHECK:   %t = relay.tanh
//       CHECK:   %[[BT:.*]] = relay.compiler_begin %{{.*}} {compiler = "accel"}
//  CHECK-NEXT:   %p = relay.exp %[[BT]]
//  CHECK-NEXT:   %[[BA:.*]] = relay.compiler_begin %{{.*}} {compiler = "accel"}
//  CHECK-NEXT:   %s = relay.add %p, %[[BA]]
//  CHECK-NEXT:   relay.compiler_end %s {compiler = "accel"}
func.func @inherited_restriction(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %e1 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "dnnl"} : tensor<4xf32>
  %t = relay.tanh %b1 : tensor<4xf32>
  %e2 = relay.compiler_end %t {compiler = "dnnl"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e2 {compiler = "accel"} : tensor<4xf32>
  %p = relay.exp %b2 : tensor<4xf32>
  %e3 = relay.compiler_end %p {compiler = "accel"} : tensor<4xf32>
  %b3 = relay.compiler_begin %e3 {compiler = "accel"} : tensor<4xf32>
  %b4 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %b3, %b4 : tensor<4xf32>
  %e4 = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e4 : tensor<4xf32>
}

// -----

/// "default" is a target like any other here: consecutive default regions merge.
// CHECK-LABEL: @default_merged
//  CHECK-NEXT:   %b0 = relay.compiler_begin %x {compiler = "default"}
//  CHECK-NEXT:   %a = relay.tanh %b0
//  CHECK-NEXT:   %r = relay.exp %a
//  CHECK-NEXT:   %e1 = relay.compiler_end %r {compiler = "default"}
//  CHECK-NEXT:   func.return %e1
func.func @default_merged(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "default"} : tensor<4xf32>
  %a = relay.tanh %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "default"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "default"} : tensor<4xf32>
  %r = relay.exp %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "default"} : tensor<4xf32>
  func.return %e1 : tensor<4xf32>
}

// -----

/// A region in a relay.if branch is never merged with one outside it, and the consumer of
/// the if does not merge with the producer the branch reads (that would be a cycle).
// CHECK-LABEL: @if_branches
//       CHECK:   %r = relay.nn.relu
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[IF:.*]] = relay.if %c
//  CHECK-NEXT:     %[[B:.*]] = relay.compiler_begin %[[E1]] {compiler = "accel"}
//  CHECK-NEXT:     %a = relay.abs %[[B]]
//       CHECK:   relay.compiler_begin %[[IF]] {compiler = "accel"}
//  CHECK-NEXT:   relay.compiler_begin %[[E2]] {compiler = "accel"}
//  CHECK-NEXT:   relay.add
func.func @if_branches(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  %i = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
    %a = relay.abs %b1 : tensor<4xf32>
    %e2 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
    relay.yield %e2 : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  %b2 = relay.compiler_begin %i {compiler = "accel"} : tensor<4xf32>
  %b3 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %b2, %b3 : tensor<4xf32>
  %e3 = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e3 : tensor<4xf32>
}

// -----

/// An op in no region between two regions (a tuple left unannotated) keeps them apart
/// when the consumer also reads the producer directly (TVM merges them into a cycle).
// CHECK-LABEL: @unannotated_between
//       CHECK:   relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   relay.tuple
//  CHECK-NEXT:   relay.tuple_get_item
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.add
func.func @unannotated_between(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %e1 = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %t = relay.tuple %e0, %x : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %g = relay.tuple_get_item %t {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %b1 = relay.compiler_begin %g {compiler = "accel"} : tensor<4xf32>
  %b2 = relay.compiler_begin %e1 {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %b1, %b2 : tensor<4xf32>
  %e2 = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e2 : tensor<4xf32>
}

// -----

/// A function without annotations and a partitioned one (Compiler) are left alone.
// CHECK-LABEL: @keep_plain
//  CHECK-NEXT:   relay.exp %x
//  CHECK-LABEL: @keep_partitioned
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.abs
//  CHECK-NEXT:   relay.compiler_end
//  CHECK-NEXT:   relay.compiler_begin
//  CHECK-NEXT:   relay.exp
//  CHECK-NEXT:   relay.compiler_end
func.func @keep_plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @keep_partitioned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = relay.abs %0 : tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<4xf32>
  %3 = relay.compiler_begin %2 {compiler = "accel"} : tensor<4xf32>
  %4 = relay.exp %3 : tensor<4xf32>
  %5 = relay.compiler_end %4 {compiler = "accel"} : tensor<4xf32>
  func.return %5 : tensor<4xf32>
}
