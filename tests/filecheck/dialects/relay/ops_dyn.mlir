// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// The dynamic ops: a shape operand read at run time, `?` dims, the rank from the shape's length.
// CHECK-LABEL: func.func @dyn
func.func @dyn(%x: tensor<2x3x4xf32>, %s: tensor<2xi32>, %a: tensor<1xi64>, %r: tensor<3xi32>, %b: tensor<4xi64>, %f: tensor<i32>, %p: tensor<3x2xi32>, %v: tensor<f32>) {
  // CHECK-NEXT: %0 = relay.dyn.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  // CHECK-NEXT: %1 = relay.dyn.reshape %x, %s {allowzero = true} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  // CHECK-NEXT: %2 = relay.dyn.squeeze %x, %a : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  // CHECK-NEXT: %3 = relay.dyn.tile %x, %b : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // CHECK-NEXT: %4 = relay.dyn.broadcast_to %x, %b : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // CHECK-NEXT: %5 = relay.dyn.zeros %r {dtype = i64} : (tensor<3xi32>) -> tensor<?x?x?xi64>
  // CHECK-NEXT: %6 = relay.dyn.ones %r {dtype = f32} : (tensor<3xi32>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %7 = relay.dyn.full %f, %s : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xi32>
  // CHECK-NEXT: %8 = relay.dyn.full %f, %s {dtype = f32} : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xf32>
  // CHECK-NEXT: %9 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  // CHECK-NEXT: %10 = relay.dyn.nn.pad %x, %p, %v {pad_mode = "edge"} : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  // GENERIC: %0 = "relay.dyn.reshape"(%x, %s) <{allowzero = false}> : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  // GENERIC: %1 = "relay.dyn.reshape"(%x, %s) <{allowzero = true}> : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  // GENERIC: %2 = "relay.dyn.squeeze"(%x, %a) : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  // GENERIC: %3 = "relay.dyn.tile"(%x, %b) : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // GENERIC: %4 = "relay.dyn.broadcast_to"(%x, %b) : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  // GENERIC: %5 = "relay.dyn.zeros"(%r) <{dtype = i64}> : (tensor<3xi32>) -> tensor<?x?x?xi64>
  // GENERIC: %6 = "relay.dyn.ones"(%r) <{dtype = f32}> : (tensor<3xi32>) -> tensor<?x?x?xf32>
  // GENERIC: %7 = "relay.dyn.full"(%f, %s) : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xi32>
  // GENERIC: %8 = "relay.dyn.full"(%f, %s) <{dtype = f32}> : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xf32>
  // GENERIC: %9 = "relay.dyn.nn.pad"(%x, %p, %v) <{pad_mode = "constant"}> : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  // GENERIC: %10 = "relay.dyn.nn.pad"(%x, %p, %v) <{pad_mode = "edge"}> : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %1 = relay.dyn.reshape %x, %s {allowzero = true} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %2 = relay.dyn.squeeze %x, %a : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %3 = relay.dyn.tile %x, %b : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %4 = relay.dyn.broadcast_to %x, %b : (tensor<2x3x4xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %5 = relay.dyn.zeros %r {dtype = i64} : (tensor<3xi32>) -> tensor<?x?x?xi64>
  %6 = relay.dyn.ones %r {dtype = f32} : (tensor<3xi32>) -> tensor<?x?x?xf32>
  %7 = relay.dyn.full %f, %s : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xi32>
  %8 = relay.dyn.full %f, %s {dtype = f32} : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xf32>
  %9 = relay.dyn.nn.pad %x, %p, %v : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  %10 = relay.dyn.nn.pad %x, %p, %v {pad_mode = "edge"} : (tensor<2x3x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<?x?x?xf32>
  func.return
}

// -----

/// dyn.topk: k read at run time (a scalar or a [1] tensor); the kept axis is `?`.
// CHECK-LABEL: func.func @dyn_topk
func.func @dyn_topk(%x: tensor<2x3x4xf32>, %k: tensor<i32>, %k1: tensor<1xi64>) {
  // CHECK-NEXT: %0 = relay.dyn.topk %x, %k : (tensor<2x3x4xf32>, tensor<i32>) -> tuple<tensor<2x3x?xf32>, tensor<2x3x?xi32>>
  // CHECK-NEXT: %1 = relay.dyn.topk %x, %k1 {axis = 1, ret_type = "indices", is_ascend = true, dtype = i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x?x4xi64>
  // GENERIC: %0 = "relay.dyn.topk"(%x, %k) <{axis = -1 : i64, ret_type = "both", is_ascend = false, dtype = i32}> : (tensor<2x3x4xf32>, tensor<i32>) -> tuple<tensor<2x3x?xf32>, tensor<2x3x?xi32>>
  // GENERIC: %1 = "relay.dyn.topk"(%x, %k1) <{axis = 1 : i64, ret_type = "indices", is_ascend = true, dtype = i64}> : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x?x4xi64>
  %0 = relay.dyn.topk %x, %k : (tensor<2x3x4xf32>, tensor<i32>) -> tuple<tensor<2x3x?xf32>, tensor<2x3x?xi32>>
  %1 = relay.dyn.topk %x, %k1 {axis = 1, ret_type = "indices", is_ascend = true, dtype = i64} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x?x4xi64>
  func.return
}
