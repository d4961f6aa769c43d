// RUN: xrelay-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: xrelay-opt %s --split-input-file --verify-diagnostics 2>&1 >/dev/null | filecheck %s --check-prefix=QUIET --allow-empty

/// When every diagnostic is expected and every expectation met, the run succeeds,
/// prints nothing on stderr, and prints only the chunks that did not fail.
// QUIET-NOT: {{.}}
// CHECK:      {{\A}}// -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: // -----
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @fine

/// @+1 points at the next line.
func.func @plus_one(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{operand shapes (2) and (3) do not broadcast}}
  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// No designator: the comment's own line.
func.func @same_line(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32> // expected-error {{expected a floating-point operand}}
  func.return %0 : tensor<2xi32>
}

// -----

/// @-N points N lines up; @above at the nearest line above that is not an expectation.
func.func @above(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>

  // expected-error@-2 {{'relay.exp' op}}
  func.return %0 : tensor<2xi32>
}

// -----

func.func @above2(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.sqrt %x : tensor<2xi32>
  // expected-error@above {{'relay.sqrt' op}}
  func.return %0 : tensor<2xi32>
}

// -----

/// expected-error-re matches the {{...}} parts as regular expressions; @below
/// points at the nearest following line that is not an expectation.
func.func @regex(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error-re@below {{'relay.{{[a-z]+}}' op expected a floating-point operand, got i{{[0-9]+}}}}
  %0 = relay.sqrt %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// Parse errors are diagnostics too.
func.func @parse_error(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{custom op 'relay.nope' is unknown}}
  %0 = relay.nope %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// A chunk without errors and without expectations passes and is printed.
func.func @fine(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
