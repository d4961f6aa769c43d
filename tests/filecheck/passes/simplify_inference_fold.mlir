// RUN: xrelay-opt %s -p 'simplify-inference{fold-constants=true}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'simplify-inference{fold-constants=true},fold-constant,dce' --split-input-file | filecheck %s --check-prefix=PIPE
// RUN: xrelay-opt %s -p 'simplify-inference,fold-constant,dce' --split-input-file | filecheck %s --check-prefix=PIPE

/// Constant parameters: scale and shift are emitted as the constants FoldConstant would
/// fold them to; the two scalars of the expansion stay, unused, for EliminateCommonSubexpr
/// and DeadCodeElimination. With FoldConstant and dce after it, the same IR as before.
// CHECK-LABEL: @folded
// CHECK-NEXT:    relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    relay.constant dense<1.000000e-02> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = relay.constant dense<{{\[\[\[}}7.4906427e-01]], {{\[\[}}3.9223228e+00]], {{\[\[}}4.9751857e-01]]]> : tensor<3x1x1xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %[[S]]
// CHECK-NEXT:    %[[T:.*]] = relay.constant dense<{{\[\[\[}}-1.2453213e-01]], {{\[\[}}-4.9223228e+00]], {{\[\[}}3.995037e+00]]]> : tensor<3x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[M]], %[[T]]
// CHECK-NEXT:    func.return %[[A]]
// PIPE-LABEL: @folded
// PIPE-NEXT:    %[[S:.*]] = relay.constant dense<{{\[\[\[}}7.4906427e-01]], {{\[\[}}3.9223228e+00]], {{\[\[}}4.9751857e-01]]]> : tensor<3x1x1xf32>
// PIPE-NEXT:    %[[M:.*]] = relay.multiply %x, %[[S]]
// PIPE-NEXT:    %[[T:.*]] = relay.constant dense<{{\[\[\[}}-1.2453213e-01]], {{\[\[}}-4.9223228e+00]], {{\[\[}}3.995037e+00]]]> : tensor<3x1x1xf32>
// PIPE-NEXT:    %[[A:.*]] = relay.add %[[M]], %[[T]]
// PIPE-NEXT:    func.return %[[A]]
func.func @folded(%x: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %g = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf32>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 0.01} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3x4x4xf32>
  func.return %1 : tensor<2x3x4x4xf32>
}

// -----

/// A parameter that is not a constant: the expansion, as without the option.
// CHECK-LABEL: @param_not_constant
// CHECK:         relay.sqrt
// CHECK:         relay.negative
func.func @param_not_constant(%x: tensor<2x3xf32>, %g: tensor<3xf32>) -> tensor<2x3xf32> {
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

/// All or nothing per function: one batch_norm cannot fold, so neither does the other
/// (EliminateCommonSubexpr could have shared their expansions).
// CHECK-LABEL: @one_fails_none_folds
// CHECK-COUNT-2: relay.sqrt
func.func @one_fails_none_folds(%x: tensor<2x3xf32>, %g: tensor<3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf32>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %c, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  %2 = relay.nn.batch_norm %1, %g, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %3 = relay.tuple_get_item %2 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}

// -----

/// Read by a multiply with a constant: SimplifyExpr would reassociate the folded form
/// before FoldScaleAxis, the expansion only after; so the expansion.
// CHECK-LABEL: @read_by_constant_multiply
// CHECK:         relay.sqrt
func.func @read_by_constant_multiply(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf32>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %c, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  %2 = relay.multiply %1, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}

// -----

/// The data is an add of a constant (a bias): the same reason.
// CHECK-LABEL: @data_from_constant_add
// CHECK:         relay.sqrt
func.func @data_from_constant_add(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf32>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %d = relay.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = relay.nn.batch_norm %d, %c, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

/// A shift of zeros (beta = mean = 0): SimplifyExpr would drop the add early; the expansion.
// CHECK-LABEL: @zero_shift
// CHECK:         relay.sqrt
func.func @zero_shift(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf32>
  %z = relay.constant dense<0.0> : tensor<3xf32>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %c, %z, %z, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

/// A folded constant equal to one already in the function (here the scale, 1/sqrt(0.24 +
/// 0.01) * 1 = 2): EliminateCommonSubexpr would merge them where the expansion kept them
/// apart; the expansion.
// CHECK-LABEL: @equals_an_existing_constant
// CHECK:         relay.sqrt
func.func @equals_an_existing_constant(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %one = relay.constant dense<1.0> : tensor<3xf32>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf32>
  %v = relay.constant dense<0.24> : tensor<3xf32>
  %two = relay.constant dense<2.0> : tensor<3xf32>
  %0 = relay.nn.batch_norm %x, %one, %b, %m, %v {epsilon = 0.01} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  func.return %1, %two : tensor<2x3xf32>, tensor<3xf32>
}

// -----

/// float16: the expansion (only float32 and float64 are folded here).
// CHECK-LABEL: @float16
// CHECK:         relay.sqrt
func.func @float16(%x: tensor<2x3xf16>) -> tensor<2x3xf16> {
  %c = relay.constant dense<[1.5, 2.0, 0.5]> : tensor<3xf16>
  %b = relay.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf16>
  %m = relay.constant dense<[0.5, 1.0, -2.0]> : tensor<3xf16>
  %v = relay.constant dense<[4.0, 0.25, 1.0]> : tensor<3xf16>
  %0 = relay.nn.batch_norm %x, %c, %b, %m, %v : (tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tuple<tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>>) -> tensor<2x3xf16>
  func.return %1 : tensor<2x3xf16>
}
