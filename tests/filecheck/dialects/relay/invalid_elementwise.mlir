// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'relay.add' op operand shapes (2, 3) and (4, 3) do not broadcast}}
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @dtype_mismatch(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.multiply' op operand element types differ: f32 vs i32}}
  %0 = relay.multiply %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @wrong_result(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'relay.subtract' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  %0 = relay.subtract %a, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @comparison_result(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.less' op inferred type(s) 'tensor<3xi1>' are incompatible}}
  %0 = relay.less %a, %b : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @float_only(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error@+1 {{'relay.exp' op expected a floating-point operand, got i32}}
  %0 = relay.exp %a : tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @clip_bounds(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.clip' op a_min (2.0) must not exceed a_max (1.0)}}
  %0 = relay.clip %a {a_min = 2.0, a_max = 1.0} : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @cast_dtype(%a: tensor<3xf32>) -> tensor<3xindex> {
  // expected-error@+1 {{'relay.cast' op unsupported dtype index}}
  %0 = relay.cast %a {dtype = index} : (tensor<3xf32>) -> tensor<3xindex>
  func.return %0 : tensor<3xindex>
}

// -----

func.func @not_a_tensor(%a: tuple<tensor<3xf32>>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.negative' op operand 'data' at position 0 does not verify}}
  %0 = relay.negative %a : (tuple<tensor<3xf32>>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @operand_count(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.add' op expected 2 operands, got 3}}
  %0 = relay.add %a, %a, %a : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @missing_property(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.clip' op property 'a_max' expected}}
  %0 = relay.clip %a {a_min = 0.0} : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @type_count(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{expected 2 operand types, got 1}}
  %0 = relay.add %a, %a : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @unknown_op(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{Operation relay.bogus is not registered}}
  %0 = relay.bogus %a : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
