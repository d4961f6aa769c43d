// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// Constants: splat, list, scalar, integer and boolean values.
// CHECK-LABEL: func.func @constants
func.func @constants() -> tensor<2x2xi32> {
  // CHECK-NEXT: relay.constant dense<5.000000e-01> : tensor<4xf32>
  // CHECK-NEXT: relay.constant dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>
  // CHECK-NEXT: relay.constant dense<2.500000e+00> : tensor<f32>
  // CHECK-NEXT: relay.constant dense<[true, false]> : tensor<2xi1>
  // GENERIC: "relay.constant"() <{value = dense<5.000000e-01> : tensor<4xf32>}> : () -> tensor<4xf32>
  %a = relay.constant dense<0.5> : tensor<4xf32>
  %b = relay.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c = relay.constant dense<2.5> : tensor<f32>
  %d = relay.constant dense<[true, false]> : tensor<2xi1>
  func.return %b : tensor<2x2xi32>
}

// -----

/// A tuple and its fields; a function may return a tuple.
// CHECK-LABEL: func.func @tuples
func.func @tuples(%a: tensor<2xf32>, %b: tensor<3xi8>) -> tuple<tensor<3xi8>, tensor<2xf32>> {
  // CHECK-NEXT: %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<3xi8>) -> tuple<tensor<2xf32>, tensor<3xi8>>
  // CHECK-NEXT: %0 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<2xf32>, tensor<3xi8>>) -> tensor<3xi8>
  // CHECK-NEXT: %1 = relay.tuple %0, %a : (tensor<3xi8>, tensor<2xf32>) -> tuple<tensor<3xi8>, tensor<2xf32>>
  // CHECK-NEXT: func.return %1 : tuple<tensor<3xi8>, tensor<2xf32>>
  // GENERIC: "relay.tuple_get_item"(%t) <{index = 1 : i64}>
  %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<3xi8>) -> tuple<tensor<2xf32>, tensor<3xi8>>
  %0 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<2xf32>, tensor<3xi8>>) -> tensor<3xi8>
  %1 = relay.tuple %0, %a : (tensor<3xi8>, tensor<2xf32>) -> tuple<tensor<3xi8>, tensor<2xf32>>
  func.return %1 : tuple<tensor<3xi8>, tensor<2xf32>>
}

// -----

/// An empty tuple.
// CHECK-LABEL: func.func @empty_tuple
func.func @empty_tuple() -> tuple<> {
  // CHECK-NEXT: %0 = relay.tuple : tuple<>
  %0 = relay.tuple : tuple<>
  func.return %0 : tuple<>
}

// -----

/// relay.if: branches read values of the enclosing function.
// CHECK-LABEL: func.func @if_else
func.func @if_else(%c: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NEXT: %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
  // CHECK-NEXT:   %1 = relay.exp %x : tensor<2xf32>
  // CHECK-NEXT:   relay.yield %1 : tensor<2xf32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   relay.yield %x : tensor<2xf32>
  // CHECK-NEXT: }
  // GENERIC: %0 = "relay.if"(%c) ({
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    %1 = relay.exp %x : tensor<2xf32>
    relay.yield %1 : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

/// BYOC annotations and a composite region.
// CHECK-LABEL: func.func @byoc
func.func @byoc(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // CHECK-NEXT: %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  // CHECK-NEXT: %1 = relay.composite "accel.add_relu" (%0, %0) {PartitionedFromPattern = "add_nn.relu_"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  // CHECK-NEXT: ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
  // CHECK-NEXT:   %2 = relay.add %a, %b : tensor<1x4xf32>
  // CHECK-NEXT:   %3 = relay.nn.relu %2 : tensor<1x4xf32>
  // CHECK-NEXT:   relay.yield %3 : tensor<1x4xf32>
  // CHECK-NEXT: }
  // CHECK-NEXT: %{{.*}} = relay.compiler_end %1 {compiler = "accel"} : tensor<1x4xf32>
  // GENERIC: "relay.composite"(%0, %0) <{composite = "accel.add_relu"}> ({
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<1x4xf32>
  %1 = relay.composite "accel.add_relu" (%0, %0) {PartitionedFromPattern = "add_nn.relu_"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
    %2 = relay.add %a, %b : tensor<1x4xf32>
    %3 = relay.nn.relu %2 : tensor<1x4xf32>
    relay.yield %3 : tensor<1x4xf32>
  }
  %4 = relay.compiler_end %1 {compiler = "accel"} : tensor<1x4xf32>
  func.return %4 : tensor<1x4xf32>
}

// -----

/// Functions call each other (recursion allowed) and carry Relay attributes.
// CHECK-LABEL: func.func @countdown
// CHECK-SAME: attributes {Primitive = 1 : i32, global_symbol = "countdown"}
func.func @countdown(%n: tensor<i32>) -> tensor<i32> attributes {Primitive = 1 : i32, global_symbol = "countdown"} {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<i32> {
    relay.yield %n : tensor<i32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : tensor<i32>
    // CHECK: func.call @countdown(%m) : (tensor<i32>) -> tensor<i32>
    %c = func.call @countdown(%m) : (tensor<i32>) -> tensor<i32>
    relay.yield %c : tensor<i32>
  }
  func.return %r : tensor<i32>
}
