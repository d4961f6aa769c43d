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
  // expected-error@+1 {{custom op 'relay.bogus' is unknown}}
  %0 = relay.bogus %a : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @mod_of_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.mod' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.mod %a, %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @bitwise_of_floats(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.bitwise_and' op expected an integer or boolean operand, got f32}}
  %0 = relay.bitwise_and %a, %a : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @logical_of_integers(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error@+1 {{'relay.logical_not' op expected a boolean operand, got i32}}
  %0 = relay.logical_not %a : tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @shift_of_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.left_shift' op expected an integer operand, got i1}}
  %0 = relay.left_shift %a, %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @isnan_of_integers(%a: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.isnan' op expected a floating-point operand, got i32}}
  %0 = relay.isnan %a : (tensor<3xi32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @where_condition(%c: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.where' op expected an i1 condition, got f32}}
  %0 = relay.where %c, %x, %x : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @where_shapes(%c: tensor<3xi1>, %x: tensor<2x1xf32>, %y: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'relay.where' op operand shapes (3), (2, 1), (4) do not broadcast}}
  %0 = relay.where %c, %x, %y : (tensor<3xi1>, tensor<2x1xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @where_dtypes(%c: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.where' op operand element types differ: f32 vs i32}}
  %0 = relay.where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

/// Arithmetic with no boolean form refuses i1 (add is `or`, multiply `and`).
func.func @subtract_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.subtract' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.subtract %a, %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @divide_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.divide' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.divide %a, %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @power_booleans(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.power' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.power %a, %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @negative_boolean(%a: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error@+1 {{'relay.negative' op expected a numeric (not boolean) operand, got i1}}
  %0 = relay.negative %a : tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
