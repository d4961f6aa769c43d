// RUN: xrelay-opt %s -p simplify-expr --split-input-file | filecheck %s

/// x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 with scalar constants all become x; the
/// constants, left unused, are erased.
// CHECK-LABEL: @fold_scalar_identities
// CHECK-NEXT:    func.return %x : tensor<2x3xf32>
func.func @fold_scalar_identities(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = relay.add %zero, %0 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.subtract %1, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %3 = relay.multiply %2, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %4 = relay.multiply %one, %3 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = relay.divide %4, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %5 : tensor<2x3xf32>
}

// -----

/// Non-scalar constants count when every element is the identity (here per-channel
/// ones and a full tensor of integer zeros), and so do relay.zeros, zeros_like, ones_like.
// CHECK-LABEL: @fold_tensor_identities
// CHECK-NEXT:    func.return %x, %y : tensor<2x3xf32>, tensor<4xi32>
func.func @fold_tensor_identities(%x: tensor<2x3xf32>, %y: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  %ones = relay.constant dense<1.0> : tensor<3xf32>
  %zeros = relay.constant dense<0> : tensor<4xi32>
  %0 = relay.multiply %x, %ones : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = relay.zeros {shape = [2, 3], dtype = f32} : () -> tensor<2x3xf32>
  %2 = relay.add %1, %0 : tensor<2x3xf32>
  %3 = relay.ones_like %2 : tensor<2x3xf32>
  %4 = relay.divide %2, %3 : tensor<2x3xf32>
  %5 = relay.add %y, %zeros : tensor<4xi32>
  %6 = relay.zeros_like %5 : tensor<4xi32>
  %7 = relay.subtract %5, %6 : tensor<4xi32>
  func.return %4, %7 : tensor<2x3xf32>, tensor<4xi32>
}

// -----

/// x * ones that broadcasts x to a larger shape is not an identity: it stays.
// CHECK-LABEL: @keep_broadcasting_identity
// CHECK-NEXT:    %[[ONES:.*]] = relay.constant dense<1.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    %[[ZEROS:.*]] = relay.zeros
// CHECK-NEXT:    %[[A:.*]] = relay.multiply %x, %[[ONES]] : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[B:.*]] = relay.add %[[ZEROS]], %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[A]], %[[B]]
func.func @keep_broadcasting_identity(%x: tensor<3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<4x3xf32>) {
  %ones = relay.constant dense<1.0> : tensor<2x3xf32>
  %zeros = relay.zeros {shape = [4, 1], dtype = f32} : () -> tensor<4x1xf32>
  %0 = relay.multiply %x, %ones : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = relay.add %zeros, %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<4x3xf32>
}

// -----

/// 0 - x and 1 / x are not identities; neither is x * c with a c not all ones.
// CHECK-LABEL: @keep_non_identities
// CHECK-NEXT:    %[[Z:.*]] = relay.constant dense<0.000000e+00>
// CHECK-NEXT:    %[[O:.*]] = relay.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[C:.*]] = relay.constant dense<[1.000000e+00, 2.000000e+00, 1.000000e+00]>
// CHECK-NEXT:    %[[A:.*]] = relay.subtract %[[Z]], %x
// CHECK-NEXT:    %[[B:.*]] = relay.divide %[[O]], %[[A]]
// CHECK-NEXT:    %[[D:.*]] = relay.multiply %[[B]], %[[C]]
// CHECK-NEXT:    func.return %[[D]]
func.func @keep_non_identities(%x: tensor<3xf32>) -> tensor<3xf32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %c = relay.constant dense<[1.0, 2.0, 1.0]> : tensor<3xf32>
  %0 = relay.subtract %zero, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.divide %one, %0 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = relay.multiply %1, %c : tensor<3xf32>
  func.return %2 : tensor<3xf32>
}

// -----

/// An identity constant that something else still reads is kept for that use.
// CHECK-LABEL: @fold_identity_keep_shared_constant
// CHECK-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[S:.*]] = relay.subtract %x, %[[ONE]]
// CHECK-NEXT:    func.return %x, %[[S]]
func.func @fold_identity_keep_shared_constant(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %one = relay.constant dense<1.0> : tensor<3xf32>
  %0 = relay.multiply %x, %one : tensor<3xf32>
  %1 = relay.subtract %x, %one : tensor<3xf32>
  func.return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

/// A cast to the input's dtype vanishes; a real cast stays.
// CHECK-LABEL: @fold_identity_cast
// CHECK-NEXT:    %[[C:.*]] = relay.cast %x {dtype = f16} : (tensor<3xf32>) -> tensor<3xf16>
// CHECK-NEXT:    func.return %x, %[[C]]
func.func @fold_identity_cast(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf16>) {
  %0 = relay.cast %x {dtype = f32} : tensor<3xf32>
  %1 = relay.cast %0 {dtype = f16} : (tensor<3xf32>) -> tensor<3xf16>
  func.return %0, %1 : tensor<3xf32>, tensor<3xf16>
}

// -----

/// Identities exposed by other rewrites go too: x * 1 of a collapsed reshape round trip.
// CHECK-LABEL: @fold_to_fixpoint
// CHECK-NEXT:    func.return %x : tensor<2x3xf32>
func.func @fold_to_fixpoint(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %one = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.reshape %x {newshape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = relay.reshape %0 {newshape = [2, 3]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %2 = relay.transpose %1 {axes = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = relay.transpose %2 {axes = [1, 0]} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %4 = relay.multiply %3, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %4 : tensor<2x3xf32>
}
