// RUN: not xrelay-opt %s --split-input-file --verify-diagnostics 2>&1 >/dev/null | filecheck %s

/// An expected error that is not produced fails the run; it is reported at the comment.
// CHECK: {{\A.*}}verify_diagnostics_fail.mlir:[[# @LINE + 3]]:6: error: expected error "this never happens" was not produced{{$}}
func.func @missing(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  // expected-error@above {{this never happens}}
  func.return %0 : tensor<2xf32>
}

// -----

/// A diagnostic nobody expected fails the run; it is reported where it was produced.
// CHECK-NEXT: {{^.*}}verify_diagnostics_fail.mlir:[[# @LINE + 2]]:8: error: unexpected error: 'relay.exp' op expected a floating-point operand, got i32{{$}}
func.func @unexpected(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// An expectation on the wrong line does not match the diagnostic: both are reported.
// CHECK-NEXT: {{^.*}}verify_diagnostics_fail.mlir:[[# @LINE + 4]]:8: error: unexpected error: 'relay.exp' op
// CHECK-NEXT: {{^.*}}verify_diagnostics_fail.mlir:[[# @LINE + 1]]:6: error: expected error "'relay.exp' op" was not produced{{$}}
  // expected-error@+1 {{'relay.exp' op}}
func.func @wrong_line(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// The severity must match: an error does not meet an expected-warning.
// CHECK-NEXT: unexpected error: 'relay.exp' op
// CHECK-NEXT: error: expected warning "'relay.exp' op" was not produced{{$}}
func.func @wrong_severity(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-warning@+1 {{'relay.exp' op}}
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// The message must contain the expected text.
// CHECK-NEXT: unexpected error: 'relay.exp' op expected a floating-point operand, got i32
// CHECK-NEXT: error: expected error "got f32" was not produced{{$}}
func.func @wrong_text(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{got f32}}
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// A regex expectation must match as a regex.
// CHECK-NEXT: unexpected error: 'relay.exp' op expected a floating-point operand, got i32
// CHECK-NEXT: error: expected error "got f{{.+}}" was not produced{{$}}
func.func @wrong_regex(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error-re@+1 {{got f{{[0-9]+}}}}
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// A parse error is checked like any other diagnostic.
// CHECK-NEXT: verify_diagnostics_fail.mlir:[[# @LINE + 3]]:8: error: unexpected error: custom op 'relay.nope' is unknown
// CHECK-NEXT: error: expected error "relay.bogus" was not produced{{$}}
func.func @bad_parse(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.nope %x : tensor<2xf32> // expected-error {{relay.bogus}}
  func.return %0 : tensor<2xf32>
}

// -----

/// Expectations are per chunk: one cannot point across `// -----` at the next chunk's error.
// CHECK-NEXT: verify_diagnostics_fail.mlir:[[# @LINE + 1]]:4: error: expected error "'relay.exp' op" was not produced{{$}}
// expected-error@+7 {{'relay.exp' op}}

// -----

// CHECK-NEXT: verify_diagnostics_fail.mlir:[[# @LINE + 2]]:8: error: unexpected error: 'relay.exp' op{{.*}}
func.func @across(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}
// CHECK-NOT: {{.}}
