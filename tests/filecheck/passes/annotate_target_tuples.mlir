// RUN: xrelay-opt %s -p 'annotate-target{targets=accel}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel include-non-call-ops=false}' --split-input-file | filecheck %s --check-prefix=CALLS

/// A tuple of two accel values, and a projection of it, take the target they agree on (TVM
/// test_tuple). Without include-non-call-ops neither is annotated: ends on the tuple's fields,
/// and the relu treats the projection as an input.
// CHECK-LABEL: @tuple_agrees
//       CHECK:   %b = relay.nn.relu
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "accel"}
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %b {compiler = "accel"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E2]] {compiler = "accel"}
//  CHECK-NEXT:   %t = relay.tuple %[[B1]], %[[B2]]
//  CHECK-NEXT:   %[[E3:.*]] = relay.compiler_end %t {compiler = "accel"}
//  CHECK-NEXT:   %[[B3:.*]] = relay.compiler_begin %[[E3]] {compiler = "accel"}
//  CHECK-NEXT:   %g = relay.tuple_get_item %[[B3]] {index = 1}
//  CHECK-NEXT:   %[[E4:.*]] = relay.compiler_end %g {compiler = "accel"}
//  CHECK-NEXT:   %[[B4:.*]] = relay.compiler_begin %[[E4]] {compiler = "accel"}
//  CHECK-NEXT:   %r = relay.nn.relu %[[B4]]
// CALLS-LABEL: @tuple_agrees
//       CALLS:   %b = relay.nn.relu
//  CALLS-NEXT:   %[[E1:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CALLS-NEXT:   %[[E2:.*]] = relay.compiler_end %b {compiler = "accel"}
//  CALLS-NEXT:   %t = relay.tuple %[[E1]], %[[E2]]
//  CALLS-NEXT:   %g = relay.tuple_get_item %t {index = 1}
//  CALLS-NEXT:   %[[B:.*]] = relay.compiler_begin %g {compiler = "accel"}
//  CALLS-NEXT:   %r = relay.nn.relu %[[B]]
//  CALLS-NEXT:   %[[E:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CALLS-NEXT:   func.return %[[E]]
func.func @tuple_agrees(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.nn.relu %x : tensor<4xf32>
  %b = relay.nn.relu %y : tensor<4xf32>
  %t = relay.tuple %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %g = relay.tuple_get_item %t {index = 1} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %r = relay.nn.relu %g : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

/// An accel field and an input (which counts as "default") disagree: the tuple is "default",
/// and as the returned value it gets an end. Without include-non-call-ops the returned tuple
/// gets none; each of the two edges from %a gets its own end.
// CHECK-LABEL: @tuple_disagrees
//       CHECK:   %[[E1:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "default"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %y {compiler = "default"}
//  CHECK-NEXT:   %[[E3:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:   %[[B3:.*]] = relay.compiler_begin %[[E3]] {compiler = "default"}
//  CHECK-NEXT:   %t = relay.tuple %[[B1]], %[[B2]], %[[B3]]
//  CHECK-NEXT:   %[[E:.*]] = relay.compiler_end %t {compiler = "default"}
//  CHECK-NEXT:   func.return %[[E]]
// CALLS-LABEL: @tuple_disagrees
//       CALLS:   %[[E1:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CALLS-NEXT:   %[[E2:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CALLS-NEXT:   %t = relay.tuple %[[E1]], %y, %[[E2]]
//  CALLS-NEXT:   func.return %t
func.func @tuple_disagrees(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>> {
  %a = relay.nn.relu %x : tensor<4xf32>
  %t = relay.tuple %a, %y, %a : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
  func.return %t : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>
}

// -----

/// batch_norm's tuple result: the projection follows its accel producer, or (without
/// include-non-call-ops) reads the producer's end and is a plain input of the relu.
// CHECK-LABEL: @batch_norm
//       CHECK:   %[[BN:.*]] = relay.nn.batch_norm
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %[[BN]] {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "accel"}
//  CHECK-NEXT:   %[[G:.*]] = relay.tuple_get_item %[[B1]] {index = 0}
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %[[G]] {compiler = "accel"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E2]] {compiler = "accel"}
//  CHECK-NEXT:   relay.nn.relu %[[B2]]
// CALLS-LABEL: @batch_norm
//       CALLS:   %[[BN:.*]] = relay.nn.batch_norm
//  CALLS-NEXT:   %[[E1:.*]] = relay.compiler_end %[[BN]] {compiler = "accel"}
//  CALLS-NEXT:   %[[G:.*]] = relay.tuple_get_item %[[E1]] {index = 0}
//  CALLS-NEXT:   %[[B:.*]] = relay.compiler_begin %[[G]] {compiler = "accel"}
//  CALLS-NEXT:   relay.nn.relu %[[B]]
func.func @batch_norm(%x: tensor<1x2x4x4xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x4x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x4x4xf32>
  func.return %2 : tensor<1x2x4x4xf32>
}
