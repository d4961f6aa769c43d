// RUN: xrelay-opt %s -p 'annotate-target{targets=accel}' --split-input-file | filecheck %s

/// One accel op: each operand gets its own begin, the returned value an end.
// CHECK-LABEL: @single_op
//  CHECK-NEXT:   %[[BX:.*]] = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
//  CHECK-NEXT:   %[[BY:.*]] = relay.compiler_begin %y {compiler = "accel"} : tensor<1x4xf32>
//  CHECK-NEXT:   %[[A:.*]] = relay.add %[[BX]], %[[BY]] : tensor<1x4xf32>
//  CHECK-NEXT:   %[[E:.*]] = relay.compiler_end %[[A]] {compiler = "accel"} : tensor<1x4xf32>
//  CHECK-NEXT:   func.return %[[E]] : tensor<1x4xf32>
func.func @single_op(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.add %x, %y : tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

/// accel -> default -> accel: ops no target takes are "default", and annotated as such.
// CHECK-LABEL: @chain
//  CHECK-NEXT:   %[[B0:.*]] = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %[[R0:.*]] = relay.nn.relu %[[B0]]
//  CHECK-NEXT:   %[[E0:.*]] = relay.compiler_end %[[R0]] {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E0]] {compiler = "default"}
//  CHECK-NEXT:   %[[X:.*]] = relay.exp %[[B1]]
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %[[X]] {compiler = "default"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E1]] {compiler = "accel"}
//  CHECK-NEXT:   %[[R1:.*]] = relay.nn.relu %[[B2]]
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %[[R1]] {compiler = "accel"}
//  CHECK-NEXT:   func.return %[[E2]]
func.func @chain(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = relay.nn.relu %x : tensor<1x4xf32>
  %1 = relay.exp %0 : tensor<1x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x4xf32>
  func.return %2 : tensor<1x4xf32>
}

// -----

/// Fan-out: a value read by two ops gets one end per consumer edge (TVM test_multiple_ends).
// CHECK-LABEL: @fan_out
//  CHECK-NEXT:   %[[B0:.*]] = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %r = relay.nn.relu %[[B0]]
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "default"}
//  CHECK-NEXT:   %a = relay.abs %[[B1]]
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E2]] {compiler = "default"}
//  CHECK-NEXT:   %b = relay.abs %[[B2]]
//  CHECK-NEXT:   %[[E3:.*]] = relay.compiler_end %a {compiler = "default"}
//  CHECK-NEXT:   %[[B3:.*]] = relay.compiler_begin %[[E3]] {compiler = "accel"}
//  CHECK-NEXT:   %[[E4:.*]] = relay.compiler_end %b {compiler = "default"}
//  CHECK-NEXT:   %[[B4:.*]] = relay.compiler_begin %[[E4]] {compiler = "accel"}
//  CHECK-NEXT:   %s = relay.add %[[B3]], %[[B4]]
//  CHECK-NEXT:   %[[E5:.*]] = relay.compiler_end %s {compiler = "accel"}
//  CHECK-NEXT:   func.return %[[E5]]
func.func @fan_out(%x: tensor<10x10xf32>) -> tensor<10x10xf32> {
  %r = relay.nn.relu %x : tensor<10x10xf32>
  %a = relay.abs %r : tensor<10x10xf32>
  %b = relay.abs %r : tensor<10x10xf32>
  %s = relay.add %a, %b : tensor<10x10xf32>
  func.return %s : tensor<10x10xf32>
}

// -----

/// One op reading a value twice: two edges, so two ends and two begins.
// CHECK-LABEL: @same_value_twice
//       CHECK:   %r = relay.nn.relu
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "accel"}
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E2]] {compiler = "accel"}
//  CHECK-NEXT:   %m = relay.multiply %[[B1]], %[[B2]]
func.func @same_value_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.nn.relu %x : tensor<4xf32>
  %m = relay.multiply %r, %r : tensor<4xf32>
  func.return %m : tensor<4xf32>
}

// -----

/// Several returned values: one end per func.return operand, a repeated value included.
// CHECK-LABEL: @returns
//       CHECK:   %e = relay.exp
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %e {compiler = "default"}
//  CHECK-NEXT:   %[[E3:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   func.return %[[E1]], %[[E2]], %[[E3]]
func.func @returns(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %r = relay.nn.relu %x : tensor<4xf32>
  %e = relay.exp %x : tensor<4xf32>
  func.return %r, %e, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

/// Constants and zero-operand ops (TVM's zeros) are inputs: begins on them, never an end.
// CHECK-LABEL: @inputs
//  CHECK-NEXT:   %c = relay.constant
//  CHECK-NEXT:   %z = relay.zeros
//  CHECK-NEXT:   %[[BX:.*]] = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %[[BC:.*]] = relay.compiler_begin %c {compiler = "accel"}
//  CHECK-NEXT:   %[[A:.*]] = relay.add %[[BX]], %[[BC]]
//  CHECK-NEXT:   %[[E:.*]] = relay.compiler_end %[[A]] {compiler = "accel"}
//  CHECK-NEXT:   %[[BA:.*]] = relay.compiler_begin %[[E]] {compiler = "accel"}
//  CHECK-NEXT:   %[[BZ:.*]] = relay.compiler_begin %z {compiler = "accel"}
//  CHECK-NEXT:   relay.add %[[BA]], %[[BZ]]
func.func @inputs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.constant dense<1.0> : tensor<4xf32>
  %z = relay.zeros {shape = [4], dtype = f32} : tensor<4xf32>
  %0 = relay.add %x, %c : tensor<4xf32>
  %1 = relay.add %0, %z : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// accel's predicates read types: a broadcasting add and a float16 relu stay "default".
// CHECK-LABEL: @rejected_by_predicate
//  CHECK-NEXT:   relay.compiler_begin %x {compiler = "default"}
//  CHECK-NEXT:   relay.compiler_begin %b {compiler = "default"}
//  CHECK-NEXT:   relay.add
//  CHECK-NEXT:   relay.compiler_begin %h {compiler = "default"}
//  CHECK-NEXT:   relay.nn.relu
//   CHECK-NOT:   "accel"
func.func @rejected_by_predicate(%x: tensor<1x4xf32>, %b: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<1x4xf32>, tensor<4xf16>) {
  %0 = relay.add %x, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %1 = relay.nn.relu %h : tensor<4xf16>
  func.return %0, %1 : tensor<1x4xf32>, tensor<4xf16>
}

// -----

/// A func.call is "default"; the callee is annotated as a function of its own.
// CHECK-LABEL: @callee
//  CHECK-NEXT:   relay.compiler_begin %x {compiler = "accel"}
// CHECK-LABEL: @caller
//  CHECK-NEXT:   %[[B:.*]] = relay.compiler_begin %x {compiler = "default"}
//  CHECK-NEXT:   %[[C:.*]] = func.call @callee(%[[B]])
//  CHECK-NEXT:   %[[E:.*]] = relay.compiler_end %[[C]] {compiler = "default"}
//  CHECK-NEXT:   func.return %[[E]]
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @caller(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// keep: a partitioned function (Compiler) is skipped, as TVM's function passes skip it.
// CHECK-LABEL: @keep_partitioned
//  CHECK-NEXT:   %0 = relay.nn.relu %x : tensor<4xf32>
//  CHECK-NEXT:   func.return %0 : tensor<4xf32>
func.func private @keep_partitioned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel", Primitive = 1 : i32} {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// keep: nothing to annotate when a function only returns inputs.
// CHECK-LABEL: @keep_inputs_only
//  CHECK-NEXT:   %c = relay.constant
//  CHECK-NEXT:   func.return %x, %c
func.func @keep_inputs_only(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c = relay.constant dense<1.0> : tensor<4xf32>
  func.return %x, %c : tensor<4xf32>, tensor<4xf32>
}
