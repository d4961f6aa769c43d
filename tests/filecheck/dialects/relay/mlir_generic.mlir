// RUN: xrelay-opt %s --split-input-file --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --split-input-file | filecheck %s
// mlir-opt-19 is a required test tool (Debian's mlir-19-tools): if it is missing, this test
// fails ("command not found"); it is never skipped.

/// Real MLIR accepts our generic form: properties, dense constants, tuples, regions, and
/// func.call between two functions (func is a dialect MLIR knows, so it checks the call).
// CHECK-LABEL: func.func @main
// CHECK: "relay.constant"() <{value = dense<{{.*}}> : tensor<4x3x3x3xf32>}> : () -> tensor<4x3x3x3xf32>
// CHECK: "relay.add"(%{{.*}}, %{{.*}}) : (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
// CHECK: "relay.nn.conv2d"(%{{.*}}, %{{.*}}) <{{{.*}}padding = array<i64: 1, 1, 1, 1>{{.*}}}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK: "relay.tuple"(%{{.*}}, %{{.*}}) : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tuple<tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>>
// CHECK: "relay.tuple_get_item"(%{{.*}}) <{index = 0 : i64}>
// CHECK: "relay.if"(%{{.*}}) ({
// CHECK: "relay.yield"
// CHECK: "relay.composite"(%{{.*}}) <{composite = "accel.relu"}> ({
// CHECK: "relay.compiler_begin"(%{{.*}}) <{compiler = "accel"}>
// CHECK: call @helper(%{{.*}}) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK-LABEL: func.func @helper
// CHECK-SAME: attributes {Compiler = "accel", Primitive = 1 : i32}
func.func @main(%x: tensor<1x3x8x8xf32>, %c: tensor<i1>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %s = relay.add %x, %x : tensor<1x3x8x8xf32>
  %0 = relay.nn.conv2d %s, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %t = relay.tuple %0, %w : (tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>) -> tuple<tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>>
  %g = relay.tuple_get_item %t {index = 0} : (tuple<tensor<1x4x8x8xf32>, tensor<4x3x3x3xf32>>) -> tensor<1x4x8x8xf32>
  %r = relay.if %c : tensor<i1> -> tensor<1x4x8x8xf32> {
    relay.yield %g : tensor<1x4x8x8xf32>
  } else {
    %n = relay.negative %g : tensor<1x4x8x8xf32>
    relay.yield %n : tensor<1x4x8x8xf32>
  }
  %k = relay.composite "accel.relu" (%r) {PartitionedFromPattern = "nn.relu_"} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  ^bb0(%i: tensor<1x4x8x8xf32>):
    %q = relay.nn.relu %i : tensor<1x4x8x8xf32>
    relay.yield %q : tensor<1x4x8x8xf32>
  }
  %b = relay.compiler_begin %k {compiler = "accel"} : tensor<1x4x8x8xf32>
  %h = func.call @helper(%b) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  func.return %h : tensor<1x4x8x8xf32>
}
func.func @helper(%y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> attributes {Compiler = "accel", Primitive = 1 : i32} {
  func.return %y : tensor<1x4x8x8xf32>
}

// -----

/// Attribute values of every kind relay uses.
// CHECK-LABEL: func.func @attrs
// CHECK: "relay.clip"(%{{.*}}) <{a_max = 6.000000e+00 : f64, a_min = 0.000000e+00 : f64}>
// CHECK: "relay.cast"(%{{.*}}) <{dtype = f16}>
func.func @attrs(%x: tensor<?x4xf32>) -> tensor<?x4xf16> {
  %0 = relay.clip %x {a_min = 0.0, a_max = 6.0} : tensor<?x4xf32>
  %1 = relay.cast %0 {dtype = f16} : (tensor<?x4xf32>) -> tensor<?x4xf16>
  func.return %1 : tensor<?x4xf16>
}
