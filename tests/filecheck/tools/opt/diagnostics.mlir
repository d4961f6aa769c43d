// RUN: xrelay-opt %s --split-input-file --verify-diagnostics
// RUN: not xrelay-opt %s --split-input-file 2>&1 | filecheck %s
// RUN: xrelay-opt %S/Inputs/note.mlir --verify-diagnostics --mlir-print-op-on-diagnostic
// RUN: not xrelay-opt %S/Inputs/note.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=NONOTE
// NONOTE: note.mlir:3:6: error: expected note "see current operation: %0 = "relay.exp"" was not produced

/// Diagnostics as mlir-opt prints them: `file:line:col: error: msg` (an op: at its name), the
/// line, a caret, for a verifier error the op as a note, values named as its function prints
/// them (not under --verify-diagnostics, as mlir-opt). Every op that fails is reported.

// CHECK: {{^}}{{.*}}diagnostics.mlir:23:22: error: use of undeclared SSA value name{{$}}
// CHECK-NEXT: {{^}}  %0 = relay.add %x, %y : tensor<2xf32>{{$}}
// CHECK-NEXT: {{^}}                     ^{{$}}
// CHECK-NEXT: {{^}}{{.*}}diagnostics.mlir:32:8: error: Dialect `npu' not found for custom op 'npu.conv'{{$}}
// CHECK: {{^}}{{.*}}diagnostics.mlir:41:8: error: 'relay.add' op Expected 2 operands, but got 1{{$}}
// CHECK: {{^}}{{.*}}diagnostics.mlir:43:8: error: 'relay.exp' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'{{$}}
// CHECK: {{^}}{{.*}}diagnostics.mlir:43:8: note: see current operation: %1 = "relay.exp"(%x) : (tensor<2xf32>) -> tensor<3xf32>{{$}}
// CHECK: {{^}}{{.*}}diagnostics.mlir:45:8: error: 'relay.cast' op expected a type (such as f32), got "float32"{{$}}

/// An undefined value is reported at its use (so `@+1` can point at it).
func.func @undefined(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = relay.add %x, %y : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// An unknown op is reported at its name.
func.func @unknown(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error-re@+1 {{Dialect `npu' not found for custom op '{{[a-z.]+}}'}}
  %0 = npu.conv %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// Every op that fails to verify, in order; messages name no xDSL class.
func.func @several(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@below {{Expected 2 operands, but got 1}}
  %0 = "relay.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error@+1 {{inferred type(s) 'tensor<2xf32>' are incompatible}}
  %1 = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>
  // expected-error@+1 {{expected a type (such as f32), got "float32"}}
  %2 = "relay.cast"(%x) <{dtype = "float32"}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return %x : tensor<2xf32>
}
