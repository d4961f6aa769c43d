// RUN: xrelay-opt %s -p simplify-expr --split-input-file | filecheck %s

/// The conv + bias + batch_norm shift chain CanonicalizeOps and SimplifyInference
/// leave: two adds of per-channel constants become one add of their sum; the old
/// constants, left unused, are erased.
// CHECK-LABEL: @fold_add_chain
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %w
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<[{{\[}}[1.500000e+00]], {{\[}}[2.250000e+00]]]> : tensor<2x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[K]] : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_add_chain(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %b = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %s = relay.constant dense<[[[0.5]], [[0.25]]]> : tensor<2x1x1xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.add %0, %b : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %2 = relay.add %1, %s : (tensor<1x2x4x4xf32>, tensor<2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %3 = relay.nn.relu %2 : tensor<1x2x4x4xf32>
  func.return %3 : tensor<1x2x4x4xf32>
}

// -----

/// Constants on the left of either op match too; the new op puts x first.
// CHECK-LABEL: @fold_chains_either_order
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<5.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %x, %[[K]] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    %[[L:.*]] = relay.constant dense<6.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %[[L]] : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %[[A]], %[[M]]
func.func @fold_chains_either_order(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %two = relay.constant dense<2.0> : tensor<f32>
  %three = relay.constant dense<3.0> : tensor<f32>
  %0 = relay.add %two, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %1 = relay.add %three, %0 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = relay.multiply %x, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = relay.multiply %three, %2 : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %1, %3 : tensor<3xf32>, tensor<3xf32>
}

// -----

/// A chain of three multiplies folds to one; constants of different shapes combine
/// to their broadcast shape (here 2x1 and 3 to 2x3).
// CHECK-LABEL: @fold_multiply_chain_broadcast
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<{{\[}}[2.000000e+00, 4.000000e+00, 6.000000e+00], [4.000000e+00, 8.000000e+00, 1.200000e+01]]> : tensor<2x3xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %[[K]] : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @fold_multiply_chain_broadcast(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %rows = relay.constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %cols = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.multiply %x, %rows : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %1 = relay.multiply %0, %cols : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = relay.multiply %two, %1 : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}

// -----

/// (x + c1) * c2 becomes x * c2 + c1 * c2, with the constants in either order.
// CHECK-LABEL: @switch_add_multiply
// CHECK-NEXT:    %[[C2:.*]] = relay.constant dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<[2.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %[[C2]] : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[M]], %[[K]] : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK-NEXT:    func.return %[[A]]
func.func @switch_add_multiply(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %c1 = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %c2 = relay.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %0 = relay.add %c1, %x : (tensor<2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = relay.multiply %c2, %0 : (tensor<2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return %1 : tensor<4x2xf32>
}

// -----

/// Switching exposes adjacent multiplies and adds: ((x + 1) * 2 + 3) * 4 is x * 8 + 20.
// CHECK-LABEL: @switch_then_fold
// CHECK-NEXT:    %[[TWENTY:.*]] = relay.constant dense<2.000000e+01> : tensor<f32>
// CHECK-NEXT:    %[[EIGHT:.*]] = relay.constant dense<8.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %[[EIGHT]]
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[M]], %[[TWENTY]]
// CHECK-NEXT:    func.return %[[A]]
func.func @switch_then_fold(%x: tensor<3xf32>) -> tensor<3xf32> {
  %one = relay.constant dense<1.0> : tensor<f32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %three = relay.constant dense<3.0> : tensor<f32>
  %four = relay.constant dense<4.0> : tensor<f32>
  %0 = relay.add %x, %one : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = relay.multiply %0, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = relay.add %1, %three : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = relay.multiply %2, %four : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %3 : tensor<3xf32>
}

// -----

/// Integer constants wrap as numpy does (100 + 100 in i8 is -56); a sum of 0 is then
/// an identity and vanishes.
// CHECK-LABEL: @fold_integer_wraps
// CHECK-NEXT:    %[[K:.*]] = relay.constant dense<-56> : tensor<i8>
// CHECK-NEXT:    %[[A:.*]] = relay.add %x, %[[K]] : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
// CHECK-NEXT:    func.return %[[A]], %y
func.func @fold_integer_wraps(%x: tensor<4xi8>, %y: tensor<4xi32>) -> (tensor<4xi8>, tensor<4xi32>) {
  %c = relay.constant dense<100> : tensor<i8>
  %p = relay.constant dense<7> : tensor<i32>
  %m = relay.constant dense<-7> : tensor<i32>
  %0 = relay.add %x, %c : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  %1 = relay.add %0, %c : (tensor<4xi8>, tensor<i8>) -> tensor<4xi8>
  %2 = relay.add %y, %p : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %3 = relay.add %2, %m : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  func.return %1, %3 : tensor<4xi8>, tensor<4xi32>
}

// -----

/// x a constant too: left to FoldConstant.
// CHECK-LABEL: @keep_constant_x
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    func.return
func.func @keep_constant_x() -> tensor<3xf32> {
  %a = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.add %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = relay.add %0, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %1 : tensor<3xf32>
}

// -----

/// An inner add or multiply something else reads stays, and so does the outer op:
/// rewriting would compute the inner one twice.
// CHECK-LABEL: @keep_shared_inner
// CHECK-NEXT:    %c = relay.constant
// CHECK-NEXT:    %[[A:.*]] = relay.add %x, %c :
// CHECK-NEXT:    %[[B:.*]] = relay.add %[[A]], %c :
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[A]], %c :
// CHECK-NEXT:    %[[N:.*]] = relay.multiply %x, %c :
// CHECK-NEXT:    %[[P:.*]] = relay.multiply %[[N]], %c :
// CHECK-NEXT:    func.return %[[B]], %[[M]], %[[N]], %[[P]]
func.func @keep_shared_inner(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %1 = relay.add %0, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %2 = relay.multiply %0, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = relay.multiply %x, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %4 = relay.multiply %3, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

/// Only relay.constant counts as a constant, not a parameter (a relay.full of a
/// constant becomes that constant first: FullElementwise, simplify_expr_tvm.mlir).
// CHECK-LABEL: @keep_non_constant_operands
// CHECK-NEXT:    %[[C:.*]] = relay.constant
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %x, %k
// CHECK-NEXT:    %[[N:.*]] = relay.multiply %[[M]], %[[C]]
// CHECK-NEXT:    %[[P:.*]] = relay.add %x, %k
// CHECK-NEXT:    %[[Q:.*]] = relay.multiply %[[P]], %[[C]]
// CHECK-NEXT:    func.return %[[N]], %[[Q]]
func.func @keep_non_constant_operands(%x: tensor<3xf32>, %k: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %c = relay.constant dense<2.0> : tensor<f32>
  %2 = relay.multiply %x, %k : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %3 = relay.multiply %2, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %4 = relay.add %x, %k : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %5 = relay.multiply %4, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %3, %5 : tensor<3xf32>, tensor<3xf32>
}

// -----

/// A result declared `?` where the combined constant fixes the dim (x + (c1 + c2)
/// infers tensor<4xf32>) would change the type; constants that do not broadcast
/// together (4 and 5, each fine with x's `?`) cannot be combined. Both stay.
// CHECK-LABEL: @keep_type_changing
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.add %x, %c1 : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
// CHECK-NEXT:    relay.add %{{.*}}, %c4 : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
// CHECK-NEXT:    relay.add %x, %c4 : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
// CHECK-NEXT:    relay.add %{{.*}}, %c5 : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>
// CHECK-NEXT:    func.return
func.func @keep_type_changing(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %c1 = relay.constant dense<1.0> : tensor<1xf32>
  %c4 = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %c5 = relay.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>
  %0 = relay.add %x, %c1 : (tensor<?xf32>, tensor<1xf32>) -> tensor<?xf32>
  %1 = relay.add %0, %c4 : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  %2 = relay.add %x, %c4 : (tensor<?xf32>, tensor<4xf32>) -> tensor<?xf32>
  %3 = relay.add %2, %c5 : (tensor<?xf32>, tensor<5xf32>) -> tensor<?xf32>
  func.return %1, %3 : tensor<?xf32>, tensor<?xf32>
}
