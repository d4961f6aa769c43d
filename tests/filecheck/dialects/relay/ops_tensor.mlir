// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// reshape: TVM's special values 0 (copy), -1 (infer), -2 (rest), -3 (merge), -4 (split).
// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %e: tensor<0x3xf32>) -> tensor<3x0xf32> {
  // CHECK-NEXT: %0 = relay.reshape %x {newshape = [0, -1]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  // CHECK-NEXT: %1 = relay.reshape %x {newshape = [-3, -2]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK-NEXT: %2 = relay.reshape %x {newshape = [2, -4, -1, 3, -2]} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
  // CHECK-NEXT: %3 = relay.reshape %e {newshape = [3, 0], allowzero = true} : (tensor<0x3xf32>) -> tensor<3x0xf32>
  // GENERIC: "relay.reshape"(%x) <{newshape = array<i64: 0, -1>, allowzero = false}> : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %0 = relay.reshape %x {newshape = [0, -1]} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = relay.reshape %x {newshape = [-3, -2]} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = relay.reshape %x {newshape = [2, -4, -1, 3, -2]} : (tensor<2x3x4xf32>) -> tensor<2x1x3x4xf32>
  %3 = relay.reshape %e {newshape = [3, 0], allowzero = true} : (tensor<0x3xf32>) -> tensor<3x0xf32>
  func.return %3 : tensor<3x0xf32>
}

// -----

/// reshape of a dynamic dim: a copied `?` stays `?` without spoiling the -1; -1 over `?` is `?`.
// CHECK-LABEL: func.func @reshape_dynamic
func.func @reshape_dynamic(%x: tensor<?x3x4xf32>) -> tensor<?xf32> {
  // CHECK-NEXT: %0 = relay.reshape %x {newshape = [0, -1]} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // CHECK-NEXT: %1 = relay.reshape %x {newshape = [-1]} : (tensor<?x3x4xf32>) -> tensor<?xf32>
  %0 = relay.reshape %x {newshape = [0, -1]} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %1 = relay.reshape %x {newshape = [-1]} : (tensor<?x3x4xf32>) -> tensor<?xf32>
  func.return %1 : tensor<?xf32>
}

// -----

/// transpose: explicit (also negative) axes, or none to reverse the dims.
// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  // CHECK-NEXT: %0 = relay.transpose %x {axes = [0, 2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  // CHECK-NEXT: %1 = relay.transpose %x {axes = [-1, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK-NEXT: %2 = relay.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  // GENERIC: "relay.transpose"(%x) <{axes = array<i64: 0, 2, 1>}>
  // GENERIC: "relay.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %0 = relay.transpose %x {axes = [0, 2, 1]} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %1 = relay.transpose %x {axes = [-1, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %2 = relay.transpose %x : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  func.return %2 : tensor<4x3x2xf32>
}

// -----

/// squeeze: without axis every static 1-dim goes (a `?` stays); expand_dims inserts 1-dims.
// CHECK-LABEL: func.func @squeeze_expand_dims
func.func @squeeze_expand_dims(%x: tensor<1x3x1x?xf32>) -> tensor<3x1x1x?xf32> {
  // CHECK-NEXT: %0 = relay.squeeze %x : (tensor<1x3x1x?xf32>) -> tensor<3x?xf32>
  // CHECK-NEXT: %1 = relay.squeeze %x {axis = [0, -2]} : (tensor<1x3x1x?xf32>) -> tensor<3x?xf32>
  // CHECK-NEXT: %2 = relay.squeeze %x {axis = [3]} : (tensor<1x3x1x?xf32>) -> tensor<1x3x1xf32>
  // CHECK-NEXT: %3 = relay.expand_dims %0 {axis = 1} : (tensor<3x?xf32>) -> tensor<3x1x?xf32>
  // CHECK-NEXT: %4 = relay.expand_dims %0 {axis = -2, num_newaxis = 2} : (tensor<3x?xf32>) -> tensor<3x1x1x?xf32>
  // CHECK-NEXT: %5 = relay.expand_dims %0 {axis = 0, num_newaxis = 0} : tensor<3x?xf32>
  // GENERIC: "relay.squeeze"(%x) : (tensor<1x3x1x?xf32>) -> tensor<3x?xf32>
  // GENERIC: "relay.expand_dims"(%0) <{axis = 1 : i64, num_newaxis = 1 : i64}>
  %0 = relay.squeeze %x : (tensor<1x3x1x?xf32>) -> tensor<3x?xf32>
  %1 = relay.squeeze %x {axis = [0, -2]} : (tensor<1x3x1x?xf32>) -> tensor<3x?xf32>
  %2 = relay.squeeze %x {axis = [3]} : (tensor<1x3x1x?xf32>) -> tensor<1x3x1xf32>
  %3 = relay.expand_dims %0 {axis = 1} : (tensor<3x?xf32>) -> tensor<3x1x?xf32>
  %4 = relay.expand_dims %0 {axis = -2, num_newaxis = 2} : (tensor<3x?xf32>) -> tensor<3x1x1x?xf32>
  %5 = relay.expand_dims %0 {axis = 0, num_newaxis = 0} : tensor<3x?xf32>
  func.return %4 : tensor<3x1x1x?xf32>
}

// -----

/// concatenate: variadic operands; a `?` on the axis makes the sum `?`, elsewhere a static dim wins.
// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %d: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK-NEXT: %0 = relay.concatenate %a, %b, %a {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  // CHECK-NEXT: %1 = relay.concatenate %a, %a {axis = -2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK-NEXT: %2 = relay.concatenate %a, %d : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT: %3 = relay.concatenate %d, %a {axis = 1} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  // CHECK-NEXT: %4 = relay.concatenate %a : tensor<2x3xf32>
  // GENERIC: "relay.concatenate"(%a, %b, %a) <{axis = 1 : i64}> : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  // GENERIC: "relay.concatenate"(%a, %d) <{axis = 0 : i64}>
  %0 = relay.concatenate %a, %b, %a {axis = 1} : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
  %1 = relay.concatenate %a, %a {axis = -2} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = relay.concatenate %a, %d : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %3 = relay.concatenate %d, %a {axis = 1} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %4 = relay.concatenate %a : tensor<2x3xf32>
  func.return %2 : tensor<?x3xf32>
}

// -----

/// split: into equal sections (an int) or at indices (a list); the result is a tuple.
// CHECK-LABEL: func.func @split
func.func @split(%x: tensor<6x5xf32>, %d: tensor<?x4xf32>) -> tensor<6x2xf32> {
  // CHECK-NEXT: %0 = relay.split %x {indices_or_sections = 3} : (tensor<6x5xf32>) -> tuple<tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>>
  // CHECK-NEXT: %1 = relay.split %x {indices_or_sections = [1, 3], axis = -1} : (tensor<6x5xf32>) -> tuple<tensor<6x1xf32>, tensor<6x2xf32>, tensor<6x2xf32>>
  // CHECK-NEXT: %2 = relay.split %d {indices_or_sections = 2} : (tensor<?x4xf32>) -> tuple<tensor<?x4xf32>, tensor<?x4xf32>>
  // CHECK-NEXT: %3 = relay.split %d {indices_or_sections = [1]} : (tensor<?x4xf32>) -> tuple<tensor<1x4xf32>, tensor<?x4xf32>>
  // CHECK-NEXT: %4 = relay.tuple_get_item %1 {index = 2}
  // GENERIC: "relay.split"(%x) <{indices_or_sections = 3 : i64, axis = 0 : i64}>
  // GENERIC: "relay.split"(%x) <{indices_or_sections = array<i64: 1, 3>, axis = -1 : i64}>
  %0 = relay.split %x {indices_or_sections = 3} : (tensor<6x5xf32>) -> tuple<tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>>
  %1 = relay.split %x {indices_or_sections = [1, 3], axis = -1} : (tensor<6x5xf32>) -> tuple<tensor<6x1xf32>, tensor<6x2xf32>, tensor<6x2xf32>>
  %2 = relay.split %d {indices_or_sections = 2} : (tensor<?x4xf32>) -> tuple<tensor<?x4xf32>, tensor<?x4xf32>>
  %3 = relay.split %d {indices_or_sections = [1]} : (tensor<?x4xf32>) -> tuple<tensor<1x4xf32>, tensor<?x4xf32>>
  %4 = relay.tuple_get_item %1 {index = 2} : (tuple<tensor<6x1xf32>, tensor<6x2xf32>, tensor<6x2xf32>>) -> tensor<6x2xf32>
  func.return %4 : tensor<6x2xf32>
}

// -----

/// layout_transform: permutations (NCHW/NHWC, OIHW/HWIO) and blocked layouts (NCHW16c, OIHW4i4o).
// CHECK-LABEL: func.func @layout_transform
func.func @layout_transform(%x: tensor<1x32x4x5xf32>, %w: tensor<16x32x3x3xf32>, %d: tensor<?x8x4x4xf32>) -> tensor<?x2x4x4x4xf32> {
  // CHECK-NEXT: %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x32x4x5xf32>) -> tensor<1x4x5x32xf32>
  // CHECK-NEXT: %1 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW16c"} : (tensor<1x32x4x5xf32>) -> tensor<1x2x4x5x16xf32>
  // CHECK-NEXT: %2 = relay.layout_transform %1 {src_layout = "NCHW16c", dst_layout = "NHWC"} : (tensor<1x2x4x5x16xf32>) -> tensor<1x4x5x32xf32>
  // CHECK-NEXT: %3 = relay.layout_transform %1 {src_layout = "NCHW16c", dst_layout = "NCHW8c"} : (tensor<1x2x4x5x16xf32>) -> tensor<1x4x4x5x8xf32>
  // CHECK-NEXT: %4 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "HWIO"} : (tensor<16x32x3x3xf32>) -> tensor<3x3x32x16xf32>
  // CHECK-NEXT: %5 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "OIHW4i4o"} : (tensor<16x32x3x3xf32>) -> tensor<4x8x3x3x4x4xf32>
  // CHECK-NEXT: %6 = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<?x8x4x4xf32>) -> tensor<?x2x4x4x4xf32>
  // GENERIC: "relay.layout_transform"(%x) <{src_layout = "NCHW", dst_layout = "NHWC"}>
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x32x4x5xf32>) -> tensor<1x4x5x32xf32>
  %1 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW16c"} : (tensor<1x32x4x5xf32>) -> tensor<1x2x4x5x16xf32>
  %2 = relay.layout_transform %1 {src_layout = "NCHW16c", dst_layout = "NHWC"} : (tensor<1x2x4x5x16xf32>) -> tensor<1x4x5x32xf32>
  %3 = relay.layout_transform %1 {src_layout = "NCHW16c", dst_layout = "NCHW8c"} : (tensor<1x2x4x5x16xf32>) -> tensor<1x4x4x5x8xf32>
  %4 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "HWIO"} : (tensor<16x32x3x3xf32>) -> tensor<3x3x32x16xf32>
  %5 = relay.layout_transform %w {src_layout = "OIHW", dst_layout = "OIHW4i4o"} : (tensor<16x32x3x3xf32>) -> tensor<4x8x3x3x4x4xf32>
  %6 = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<?x8x4x4xf32>) -> tensor<?x2x4x4x4xf32>
  func.return %6 : tensor<?x2x4x4x4xf32>
}

// -----

/// strided_slice: leading axes, negative strides, explicit axes, size mode; a `?` dim stays `?`.
// CHECK-LABEL: func.func @strided_slice
func.func @strided_slice(%x: tensor<4x6xf32>, %d: tensor<?x6xf32>) -> tensor<?x2xf32> {
  // CHECK-NEXT: %0 = relay.strided_slice %x {begin = [1], end = [3]} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  // CHECK-NEXT: %1 = relay.strided_slice %x {begin = [0, -1], end = [4, -7], strides = [2, -2]} : (tensor<4x6xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %2 = relay.strided_slice %x {begin = [1], end = [100], axes = [1]} : (tensor<4x6xf32>) -> tensor<4x5xf32>
  // CHECK-NEXT: %3 = relay.strided_slice %x {begin = [1, 2], end = [-1, 3], slice_mode = "size"} : (tensor<4x6xf32>) -> tensor<3x3xf32>
  // CHECK-NEXT: %4 = relay.strided_slice %d {begin = [0, 2], end = [1, 4]} : (tensor<?x6xf32>) -> tensor<?x2xf32>
  // GENERIC: "relay.strided_slice"(%x) <{begin = array<i64: 1>, end = array<i64: 3>, slice_mode = "end"}>
  %0 = relay.strided_slice %x {begin = [1], end = [3]} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %1 = relay.strided_slice %x {begin = [0, -1], end = [4, -7], strides = [2, -2]} : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %2 = relay.strided_slice %x {begin = [1], end = [100], axes = [1]} : (tensor<4x6xf32>) -> tensor<4x5xf32>
  %3 = relay.strided_slice %x {begin = [1, 2], end = [-1, 3], slice_mode = "size"} : (tensor<4x6xf32>) -> tensor<3x3xf32>
  %4 = relay.strided_slice %d {begin = [0, 2], end = [1, 4]} : (tensor<?x6xf32>) -> tensor<?x2xf32>
  func.return %4 : tensor<?x2xf32>
}

// -----

/// take: flattened (no axis), along an axis, with batch dims and another mode.
// CHECK-LABEL: func.func @take
func.func @take(%x: tensor<4x5xf32>, %i: tensor<2x3xi32>, %b: tensor<4x2xi64>) -> tensor<4x2xf32> {
  // CHECK-NEXT: %0 = relay.take %x, %i : (tensor<4x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  // CHECK-NEXT: %1 = relay.take %x, %i {axis = 1} : (tensor<4x5xf32>, tensor<2x3xi32>) -> tensor<4x2x3xf32>
  // CHECK-NEXT: %2 = relay.take %x, %b {axis = -1, batch_dims = 1, mode = "wrap"} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  // GENERIC: "relay.take"(%x, %i) <{batch_dims = 0 : i64, mode = "clip"}>
  %0 = relay.take %x, %i : (tensor<4x5xf32>, tensor<2x3xi32>) -> tensor<2x3xf32>
  %1 = relay.take %x, %i {axis = 1} : (tensor<4x5xf32>, tensor<2x3xi32>) -> tensor<4x2x3xf32>
  %2 = relay.take %x, %b {axis = -1, batch_dims = 1, mode = "wrap"} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  func.return %2 : tensor<4x2xf32>
}

// -----

/// Creation ops: zeros/ones/full take no tensor to copy; the _like forms copy the operand type.
// CHECK-LABEL: func.func @creation
func.func @creation(%x: tensor<2x?xi32>, %v: tensor<f32>) -> tensor<2x?xi32> {
  // CHECK-NEXT: %0 = relay.zeros {shape = [2, 3], dtype = f32} : tensor<2x3xf32>
  // CHECK-NEXT: %1 = relay.ones {shape = [3], dtype = i8} : tensor<3xi8>
  // CHECK-NEXT: %2 = relay.full %v {shape = [4]} : (tensor<f32>) -> tensor<4xf32>
  // CHECK-NEXT: %3 = relay.full %v {shape = [4], dtype = f16} : (tensor<f32>) -> tensor<4xf16>
  // CHECK-NEXT: %4 = relay.full_like %x, %v : (tensor<2x?xi32>, tensor<f32>) -> tensor<2x?xi32>
  // CHECK-NEXT: %5 = relay.zeros_like %x : tensor<2x?xi32>
  // CHECK-NEXT: %6 = relay.ones_like %5 : tensor<2x?xi32>
  // GENERIC: "relay.zeros"() <{shape = array<i64: 2, 3>, dtype = f32}> : () -> tensor<2x3xf32>
  %0 = relay.zeros {shape = [2, 3], dtype = f32} : tensor<2x3xf32>
  %1 = relay.ones {shape = [3], dtype = i8} : tensor<3xi8>
  %2 = relay.full %v {shape = [4]} : (tensor<f32>) -> tensor<4xf32>
  %3 = relay.full %v {shape = [4], dtype = f16} : (tensor<f32>) -> tensor<4xf16>
  %4 = relay.full_like %x, %v : (tensor<2x?xi32>, tensor<f32>) -> tensor<2x?xi32>
  %5 = relay.zeros_like %x : tensor<2x?xi32>
  %6 = relay.ones_like %5 : tensor<2x?xi32>
  func.return %6 : tensor<2x?xi32>
}

// -----

/// Empty integer lists round-trip (a scalar result).
// CHECK-LABEL: func.func @empty_lists
// CHECK-NEXT: relay.zeros {shape = [], dtype = f32} : tensor<f32>
// CHECK-NEXT: relay.reshape %x {newshape = []} : (tensor<1x1xf32>) -> tensor<f32>
func.func @empty_lists(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = relay.zeros {shape = [], dtype = f32} : tensor<f32>
  %1 = relay.reshape %x {newshape = []} : (tensor<1x1xf32>) -> tensor<f32>
  func.return %1 : tensor<f32>
}
