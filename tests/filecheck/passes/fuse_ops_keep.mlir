// RUN: xrelay-opt %s -p fuse-ops --split-input-file | filecheck %s

/// A function with Compiler and one already Primitive stay as they are; the annotations
/// and calls in main stay too; dropout (opaque) is alone in its function, and the
/// projection of its tuple fuses into the abs after it (the tuple is a parameter).
// CHECK-LABEL: func.func @keep_compiler(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"}
// CHECK-NEXT:    relay.exp %x
// CHECK-NEXT:    relay.tanh
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @keep_primitive(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Primitive = 1 : i32}
// CHECK-NEXT:    relay.exp %x
// CHECK-NEXT:    relay.tanh
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @main(%x: tensor<4xf32>)
// CHECK-NEXT:    %[[B:.*]] = relay.compiler_begin %x {compiler = "accel"}
// CHECK-NEXT:    %[[K:.*]] = func.call @keep_compiler(%[[B]])
// CHECK-NEXT:    %[[E:.*]] = relay.compiler_end %[[K]] {compiler = "accel"}
// CHECK-NEXT:    %[[D:.*]] = func.call @fused_nn_dropout(%[[E]]) : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
// CHECK-NEXT:    %[[A:.*]] = func.call @fused_abs(%[[D]]) : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
// CHECK-NEXT:    %[[P:.*]] = func.call @keep_primitive(%[[A]])
// CHECK-NEXT:    func.return %[[P]]
// CHECK-LABEL: func.func private @fused_nn_dropout(%p0: tensor<4xf32>)
// CHECK-NEXT:    relay.nn.dropout %p0
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @fused_abs(%p0: tuple<tensor<4xf32>, tensor<4xf32>>)
// CHECK-NEXT:    %[[G:.*]] = relay.tuple_get_item %p0 {index = 0}
// CHECK-NEXT:    relay.abs %[[G]]
// CHECK-NEXT:    func.return
func.func @keep_compiler(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.tanh %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @keep_primitive(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Primitive = 1 : i32} {
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.tanh %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = func.call @keep_compiler(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<4xf32>
  %3 = relay.nn.dropout %2 : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %4 = relay.tuple_get_item %3 {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  %5 = relay.abs %4 : tensor<4xf32>
  %6 = func.call @keep_primitive(%5) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %6 : tensor<4xf32>
}

// -----

/// A scalar constant read by two groups that cannot merge (each result is returned)
/// stays in the caller and is a parameter of both; the returned tuple stays too.
// CHECK-LABEL: func.func @keep_shared_constant(%x: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[C:.*]] = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[A:.*]] = func.call @fused_add(%x, %[[C]])
// CHECK-NEXT:    %[[P:.*]] = func.call @fused_nn_max_pool2d(%[[A]])
// CHECK-NEXT:    %[[M:.*]] = func.call @fused_multiply(%x, %[[C]])
// CHECK-NEXT:    %[[T:.*]] = relay.tuple %[[P]], %[[M]]
// CHECK-NEXT:    func.return %[[T]]
// CHECK-LABEL: func.func private @fused_add(%p0: tensor<1x2x4x4xf32>, %p1: tensor<f32>)
// CHECK-LABEL: func.func private @fused_nn_max_pool2d(%p0: tensor<1x2x4x4xf32>)
// CHECK-LABEL: func.func private @fused_multiply(%p0: tensor<1x2x4x4xf32>, %p1: tensor<f32>)
func.func @keep_shared_constant(%x: tensor<1x2x4x4xf32>) -> tuple<tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>> {
  %c = relay.constant dense<2.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.max_pool2d %0 {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %2 = relay.multiply %x, %c : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %3 = relay.tuple %1, %2 : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) -> tuple<tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>>
  func.return %3 : tuple<tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>>
}
