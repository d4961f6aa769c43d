// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// @+1 points at the next line.
func.func @plus_one(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{operand shapes (2) and (3) do not broadcast}}
  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// No designator: the comment's own line; @above skips other expected-* lines.
func.func @same_line(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32> // expected-error {{expected a floating-point operand}}
  func.return %0 : tensor<2xi32>
}

// -----

func.func @above(%x: tensor<2xi32>) -> tensor<2xi32> {
  %0 = relay.exp %x : tensor<2xi32>
  // expected-error@above {{'relay.exp' op}}
  func.return %0 : tensor<2xi32>
}

// -----

/// Regex matching with expected-error-re.
func.func @regex(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error-re@below {{'relay.{{[a-z]+}}' op expected a floating-point operand, got i{{[0-9]+}}}}
  %0 = relay.sqrt %x : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

/// Parse errors are diagnostics too.
func.func @parse_error(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{Operation relay.nope is not registered}}
  %0 = relay.nope %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// A chunk without errors and without expectations passes.
func.func @fine(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
