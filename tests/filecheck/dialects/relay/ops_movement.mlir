// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// broadcast_to (numpy rules to a static shape), tile (shorter of shape and reps padded with 1s), reverse, trilu (upper by default, k = 0).
// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<2x3x4xf32>, %s: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  // CHECK-NEXT: %0 = relay.broadcast_to %s {shape = [2, 3, 4]} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %1 = relay.tile %x {reps = [2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  // CHECK-NEXT: %2 = relay.tile %x {reps = [2, 1, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<2x2x3x0xf32>
  // CHECK-NEXT: %3 = relay.reverse %x {axis = -1} : tensor<2x3x4xf32>
  // CHECK-NEXT: %4 = relay.trilu %x : tensor<2x3x4xf32>
  // CHECK-NEXT: %5 = relay.trilu %x {k = -1, upper = false} : tensor<2x3x4xf32>
  // GENERIC: %0 = "relay.broadcast_to"(%s) <{shape = array<i64: 2, 3, 4>}> : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // GENERIC: %1 = "relay.tile"(%x) <{reps = array<i64: 2, 1>}> : (tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  // GENERIC: %2 = "relay.tile"(%x) <{reps = array<i64: 2, 1, 1, 0>}> : (tensor<2x3x4xf32>) -> tensor<2x2x3x0xf32>
  // GENERIC: %3 = "relay.reverse"(%x) <{axis = -1 : i64}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: %4 = "relay.trilu"(%x) <{k = 0 : i64, upper = true}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  // GENERIC: %5 = "relay.trilu"(%x) <{k = -1 : i64, upper = false}> : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %0 = relay.broadcast_to %s {shape = [2, 3, 4]} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = relay.tile %x {reps = [2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  %2 = relay.tile %x {reps = [2, 1, 1, 0]} : (tensor<2x3x4xf32>) -> tensor<2x2x3x0xf32>
  %3 = relay.reverse %x {axis = -1} : tensor<2x3x4xf32>
  %4 = relay.trilu %x : tensor<2x3x4xf32>
  %5 = relay.trilu %x {k = -1, upper = false} : tensor<2x3x4xf32>
  func.return %5 : tensor<2x3x4xf32>
}

// -----

/// depth_to_space in DCR (default) and CRD order; space_to_depth in NCHW and NHWC.
// CHECK-LABEL: func.func @space
func.func @space(%x: tensor<1x8x2x3xf32>, %y: tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32> {
  // CHECK-NEXT: %0 = relay.nn.depth_to_space %x {block_size = 2} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK-NEXT: %1 = relay.nn.depth_to_space %x {block_size = 2, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // CHECK-NEXT: %2 = relay.nn.space_to_depth %y {block_size = 2} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  // CHECK-NEXT: %3 = relay.nn.space_to_depth %y {block_size = 2, layout = "NHWC"} : (tensor<1x2x4x6xf32>) -> tensor<1x1x2x24xf32>
  // GENERIC: %0 = "relay.nn.depth_to_space"(%x) <{block_size = 2 : i64, layout = "NCHW", mode = "DCR"}> : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // GENERIC: %1 = "relay.nn.depth_to_space"(%x) <{block_size = 2 : i64, layout = "NCHW", mode = "CRD"}> : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  // GENERIC: %2 = "relay.nn.space_to_depth"(%y) <{block_size = 2 : i64, layout = "NCHW"}> : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  // GENERIC: %3 = "relay.nn.space_to_depth"(%y) <{block_size = 2 : i64, layout = "NHWC"}> : (tensor<1x2x4x6xf32>) -> tensor<1x1x2x24xf32>
  %0 = relay.nn.depth_to_space %x {block_size = 2} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %1 = relay.nn.depth_to_space %x {block_size = 2, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  %2 = relay.nn.space_to_depth %y {block_size = 2} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  %3 = relay.nn.space_to_depth %y {block_size = 2, layout = "NHWC"} : (tensor<1x2x4x6xf32>) -> tensor<1x1x2x24xf32>
  func.return %0 : tensor<1x2x4x6xf32>
}

// -----

/// gather (shape of indices), gather_nd with the index tuple on the first axis (and batch_dims), scatter_elements, scatter_nd (update by default).
// CHECK-LABEL: func.func @indexing
func.func @indexing(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>, %n: tensor<1x5xi32>, %v: tensor<5x4xf32>, %b: tensor<1x3xi64>) -> tensor<3x4xf32> {
  // CHECK-NEXT: %0 = relay.gather %x, %i {axis = 1} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // CHECK-NEXT: %1 = relay.gather_nd %x, %n : (tensor<3x4xf32>, tensor<1x5xi32>) -> tensor<5x4xf32>
  // CHECK-NEXT: %2 = relay.gather_nd %x, %b {batch_dims = 1} : (tensor<3x4xf32>, tensor<1x3xi64>) -> tensor<3xf32>
  // CHECK-NEXT: %3 = relay.scatter_elements %x, %i, %u {axis = 1, reduction = "add"} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  // CHECK-NEXT: %4 = relay.scatter_nd %x, %n, %v {mode = "max"} : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  // CHECK-NEXT: %5 = relay.scatter_nd %x, %n, %v : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  // GENERIC: %0 = "relay.gather"(%x, %i) <{axis = 1 : i64}> : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  // GENERIC: %1 = "relay.gather_nd"(%x, %n) <{batch_dims = 0 : i64}> : (tensor<3x4xf32>, tensor<1x5xi32>) -> tensor<5x4xf32>
  // GENERIC: %2 = "relay.gather_nd"(%x, %b) <{batch_dims = 1 : i64}> : (tensor<3x4xf32>, tensor<1x3xi64>) -> tensor<3xf32>
  // GENERIC: %3 = "relay.scatter_elements"(%x, %i, %u) <{axis = 1 : i64, reduction = "add"}> : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  // GENERIC: %4 = "relay.scatter_nd"(%x, %n, %v) <{mode = "max"}> : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  // GENERIC: %5 = "relay.scatter_nd"(%x, %n, %v) <{mode = "update"}> : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  %0 = relay.gather %x, %i {axis = 1} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  %1 = relay.gather_nd %x, %n : (tensor<3x4xf32>, tensor<1x5xi32>) -> tensor<5x4xf32>
  %2 = relay.gather_nd %x, %b {batch_dims = 1} : (tensor<3x4xf32>, tensor<1x3xi64>) -> tensor<3xf32>
  %3 = relay.scatter_elements %x, %i, %u {axis = 1, reduction = "add"} : (tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x4xf32>
  %4 = relay.scatter_nd %x, %n, %v {mode = "max"} : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  %5 = relay.scatter_nd %x, %n, %v : (tensor<3x4xf32>, tensor<1x5xi32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  func.return %5 : tensor<3x4xf32>
}

// -----

/// one_hot: the new axis of size depth at axis (default -1, last).
// CHECK-LABEL: func.func @one_hot
func.func @one_hot(%i: tensor<2x3xi32>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<2x4x3xf32> {
  // CHECK-NEXT: %0 = relay.one_hot %i, %on, %off {depth = 4, axis = 1, dtype = f32} : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x4x3xf32>
  // CHECK-NEXT: %1 = relay.one_hot %i, %on, %off {depth = 4, dtype = f32} : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>
  // GENERIC: %0 = "relay.one_hot"(%i, %on, %off) <{depth = 4 : i64, axis = 1 : i64, dtype = f32}> : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x4x3xf32>
  // GENERIC: %1 = "relay.one_hot"(%i, %on, %off) <{depth = 4 : i64, axis = -1 : i64, dtype = f32}> : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>
  %0 = relay.one_hot %i, %on, %off {depth = 4, axis = 1, dtype = f32} : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x4x3xf32>
  %1 = relay.one_hot %i, %on, %off {depth = 4, dtype = f32} : (tensor<2x3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x4x3xf32>
}

// -----

/// cumsum / cumprod (no axis: flattened; dtype; exclusive), arange with static f64 bounds, shape_of and ndarray_size (int32 by default).
// CHECK-LABEL: func.func @scan
func.func @scan(%x: tensor<2x3xi8>) -> tensor<6xi8> {
  // CHECK-NEXT: %0 = relay.cumsum %x : (tensor<2x3xi8>) -> tensor<6xi8>
  // CHECK-NEXT: %1 = relay.cumsum %x {axis = 1, dtype = i32, exclusive = true} : (tensor<2x3xi8>) -> tensor<2x3xi32>
  // CHECK-NEXT: %2 = relay.cumprod %x {axis = -2} : tensor<2x3xi8>
  // CHECK-NEXT: %3 = relay.arange {stop = 5.0, dtype = i32} : tensor<5xi32>
  // CHECK-NEXT: %4 = relay.arange {start = 1.0, stop = 2.0, step = 0.25, dtype = f32} : tensor<4xf32>
  // CHECK-NEXT: %5 = relay.shape_of %x : (tensor<2x3xi8>) -> tensor<2xi32>
  // CHECK-NEXT: %6 = relay.shape_of %x {dtype = i64} : (tensor<2x3xi8>) -> tensor<2xi64>
  // CHECK-NEXT: %7 = relay.ndarray_size %x : (tensor<2x3xi8>) -> tensor<i32>
  // GENERIC: %0 = "relay.cumsum"(%x) <{exclusive = false}> : (tensor<2x3xi8>) -> tensor<6xi8>
  // GENERIC: %1 = "relay.cumsum"(%x) <{axis = 1 : i64, dtype = i32, exclusive = true}> : (tensor<2x3xi8>) -> tensor<2x3xi32>
  // GENERIC: %2 = "relay.cumprod"(%x) <{axis = -2 : i64, exclusive = false}> : (tensor<2x3xi8>) -> tensor<2x3xi8>
  // GENERIC: %3 = "relay.arange"() <{start = 0.000000e+00 : f64, stop = 5.000000e+00 : f64, step = 1.000000e+00 : f64, dtype = i32}> : () -> tensor<5xi32>
  // GENERIC: %4 = "relay.arange"() <{start = 1.000000e+00 : f64, stop = 2.000000e+00 : f64, step = 2.500000e-01 : f64, dtype = f32}> : () -> tensor<4xf32>
  // GENERIC: %5 = "relay.shape_of"(%x) <{dtype = i32}> : (tensor<2x3xi8>) -> tensor<2xi32>
  // GENERIC: %6 = "relay.shape_of"(%x) <{dtype = i64}> : (tensor<2x3xi8>) -> tensor<2xi64>
  // GENERIC: %7 = "relay.ndarray_size"(%x) <{dtype = i32}> : (tensor<2x3xi8>) -> tensor<i32>
  %0 = relay.cumsum %x : (tensor<2x3xi8>) -> tensor<6xi8>
  %1 = relay.cumsum %x {axis = 1, dtype = i32, exclusive = true} : (tensor<2x3xi8>) -> tensor<2x3xi32>
  %2 = relay.cumprod %x {axis = -2} : tensor<2x3xi8>
  %3 = relay.arange {stop = 5.0 : f64, dtype = i32} : () -> tensor<5xi32>
  %4 = relay.arange {start = 1.0 : f64, stop = 2.0 : f64, step = 0.25 : f64, dtype = f32} : () -> tensor<4xf32>
  %5 = relay.shape_of %x : (tensor<2x3xi8>) -> tensor<2xi32>
  %6 = relay.shape_of %x {dtype = i64} : (tensor<2x3xi8>) -> tensor<2xi64>
  %7 = relay.ndarray_size %x : (tensor<2x3xi8>) -> tensor<i32>
  func.return %0 : tensor<6xi8>
}
