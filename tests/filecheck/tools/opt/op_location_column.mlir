// RUN: xrelay-opt %s --split-input-file --verify-diagnostics %test_passes -p 'test-warn{op="relay.exp"}'
// RUN: not xrelay-opt %s --split-input-file %test_passes -p 'test-warn{op="relay.exp"}' 2>&1 >/dev/null | filecheck %s
// RUN: not xrelay-opt %s --split-input-file --mlir-print-debuginfo 2>/dev/null | filecheck %s --check-prefix=LOC
// RUN: not xrelay-opt %s --split-input-file --mlir-print-debuginfo 2>/dev/null | xrelay-opt --split-input-file --mlir-print-debuginfo | filecheck %s --check-prefix=LOC

/// An op is located at its name token, as mlir-opt locates it (`parseCustomOperation`,
/// `parseGenericOperation`): after its results in the custom form, at the quoted name in
/// the generic form, at the first token of an op without results. Verifier errors, their
/// caret and note, pass warnings and printed `loc(...)` (which reads back unchanged) use it.

// CHECK: {{\A.*}}op_location_column.mlir:[[# @LINE + 9]]:8: error: 'relay.add' op operand shapes (2) and (3) do not broadcast{{$}}
// CHECK-NEXT: {{^}}  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 6]]:8: note: see current operation: %0 = "relay.add"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 7]]:20: error: 'relay.exp' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'{{$}}
// CHECK-NEXT: {{^}}  %a_long_result = "relay.exp"(%x) : (tensor<2xf32>) -> tensor<3xf32>{{$}}
// CHECK-NEXT: {{^}}                   ^{{$}}
func.func @custom_and_generic(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.add' op operand shapes (2) and (3) do not broadcast}}
  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  // expected-error@+1 {{'relay.exp' op inferred type(s) 'tensor<2xf32>' are incompatible}}
  %a_long_result = "relay.exp"(%x) : (tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// Without results the name is the first token; nested, it is further right.
// CHECK: {{^.*}}op_location_column.mlir:[[# @LINE + 10]]:15: error: 'relay.exp' op inferred type(s)
// CHECK-NEXT: {{^}}    %nested = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>{{$}}
// CHECK-NEXT: {{^}}              ^{{$}}
// CHECK: {{^.*}}op_location_column.mlir:[[# @LINE + 13]]:3: error: 'func.return' op Expected arguments to have the same types as the function output types
// CHECK-NEXT: {{^}}  func.return %x : tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}  ^{{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 10]]:3: note: see current operation: "func.return"(%x) : (tensor<2xf32>) -> (){{$}}
func.func @no_result(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<3xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    // expected-error@+1 {{'relay.exp' op inferred type(s) 'tensor<2xf32>' are incompatible}}
    %nested = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  // expected-error@+1 {{'func.return' op Expected arguments to have the same types}}
  func.return %x : tensor<2xf32>
}

// -----

/// Several results, listed or counted (`%r:2`): the name after them.
// CHECK: {{^.*}}op_location_column.mlir:[[# @LINE + 12]]:12: error: 'func.call' op result type mismatch: expected result type tensor<2xf32>, but provided tensor<3xf32> for result number 1{{$}}
// CHECK-NEXT: {{^}}  %p, %q = func.call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>){{$}}
// CHECK-NEXT: {{^}}           ^{{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 9]]:12: note: see current operation: %p, %q = "func.call"(%x) <{callee = @pair}> : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>){{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 10]]:10: error: 'func.call' op result type mismatch
// CHECK-NEXT: {{^}}  %r:2 = func.call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>){{$}}
// CHECK-NEXT: {{^}}         ^{{$}}
func.func @pair(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  func.return %x, %x : tensor<2xf32>, tensor<2xf32>
}
func.func @multi(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'func.call' op result type mismatch}}
  %p, %q = func.call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  // expected-error@+1 {{'func.call' op result type mismatch}}
  %r:2 = func.call @pair(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<3xf32>)
  func.return %p : tensor<2xf32>
}

// -----

/// A pass warning is located at the op's name too; so is its printed `loc(...)`, which
/// reads back unchanged.
// CHECK: {{^.*}}op_location_column.mlir:[[# @LINE + 11]]:8: warning: test-warn: a relay.exp{{$}}
// CHECK-NEXT: {{^}}  %0 = relay.exp %x : tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 10]]:12: warning: test-warn: a relay.exp{{$}}
// CHECK-NEXT: {{^}}  %later = "relay.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}           ^{{$}}
// LOC: %0 = relay.exp %x : tensor<2xf32> loc("{{.*}}op_location_column.mlir":[[# @LINE + 5]]:8)
// LOC-NEXT: %later = relay.exp %0 : tensor<2xf32> loc("{{.*}}op_location_column.mlir":[[# @LINE + 6]]:12)
// LOC-NEXT: func.return %later : tensor<2xf32> loc("{{.*}}op_location_column.mlir":[[# @LINE + 6]]:3)
func.func @warned(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-warning@+1 {{test-warn: a relay.exp}}
  %0 = relay.exp %x : tensor<2xf32>
  // expected-warning@+1 {{test-warn: a relay.exp}}
  %later = "relay.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %later : tensor<2xf32>
}

// -----

/// An op its parser reads but cannot build is reported at its name too.
// CHECK-NEXT: {{^.*}}op_location_column.mlir:[[# @LINE + 6]]:8: error: 'relay.add' op expected 2 operands, got 1{{$}}
// CHECK-NEXT: {{^}}  %0 = relay.add %x : tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}       ^{{$}}
// CHECK-NOT: {{.}}
func.func @unbuilt(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.add' op expected 2 operands, got 1}}
  %0 = relay.add %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
