// RUN: xrelay-opt %s -p simplify-expr --split-input-file | filecheck %s

/// TVM's test_nested_sequential_with_scoping graph (its reverse_reshape as the plain
/// reshape it amounts to): the three reshapes collapse into one to the final shape.
// CHECK-LABEL: @fold_reshape_chain
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %x, %w
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %[[C]] {newshape = [32, 16, 16]} : (tensor<1x32x16x16xf32>) -> tensor<32x16x16xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_reshape_chain(%x: tensor<1x16x16x16xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<32x16x16xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x16x16xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x16x16xf32>
  %1 = relay.reshape %0 {newshape = [1, 16, -1]} : (tensor<1x32x16x16xf32>) -> tensor<1x16x512xf32>
  %2 = relay.reshape %1 {newshape = [4, 8, -1, 16]} : (tensor<1x16x512xf32>) -> tensor<4x8x16x16xf32>
  %3 = relay.reshape %2 {newshape = [32, 16, -1]} : (tensor<4x8x16x16xf32>) -> tensor<32x16x16xf32>
  func.return %3 : tensor<32x16x16xf32>
}

// -----

/// batch_flatten, expand_dims, squeeze and reshape chain into one reshape.
// CHECK-LABEL: @fold_reshape_like_chain
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %x {newshape = [4, 6]} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_reshape_like_chain(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %1 = relay.expand_dims %0 {axis = 0} : (tensor<2x12xf32>) -> tensor<1x2x12xf32>
  %2 = relay.squeeze %1 {axis = [0]} : (tensor<1x2x12xf32>) -> tensor<2x12xf32>
  %3 = relay.reshape %2 {newshape = [4, 6]} : (tensor<2x12xf32>) -> tensor<4x6xf32>
  func.return %3 : tensor<4x6xf32>
}

// -----

/// A chain back to the input's shape collapses, then the identity reshape vanishes.
// CHECK-LABEL: @fold_reshape_round_trip
// CHECK-NEXT:    func.return %x : tensor<2x3xf32>
func.func @fold_reshape_round_trip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.reshape %x {newshape = [6]} : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = relay.expand_dims %0 {axis = 0} : (tensor<6xf32>) -> tensor<1x6xf32>
  %2 = relay.reshape %1 {newshape = [2, 3]} : (tensor<1x6xf32>) -> tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}

// -----

/// A pair back to the input's type is the input at once, also when the inner op has
/// another reader (it stays for it); a pair to a new shape is one reshape.
// CHECK-LABEL: @fold_reshape_pair_to_input_type
// CHECK-NEXT:    %[[E:.*]] = relay.expand_dims %x {axis = 0}
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %x {newshape = [3, 2]}
// CHECK-NEXT:    func.return %x, %[[E]], %[[R]]
func.func @fold_reshape_pair_to_input_type(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<1x2x3xf32>, tensor<3x2xf32>) {
  %0 = relay.expand_dims %x {axis = 0, num_newaxis = 1} : (tensor<2x3xf32>) -> tensor<1x2x3xf32>
  %1 = relay.squeeze %0 {axis = [0]} : (tensor<1x2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.reshape %0 {newshape = [3, 2]} : (tensor<1x2x3xf32>) -> tensor<3x2xf32>
  func.return %1, %0, %2 : tensor<2x3xf32>, tensor<1x2x3xf32>, tensor<3x2xf32>
}

// -----

/// Reshape-like ops that keep the type vanish: reshape to the same static shape,
/// squeeze of no 1-dim, expand_dims by 0 axes, batch_flatten of a matrix (even with `?`);
/// a squeeze of a `?` dim stays (at run time it drops the dim if it is 1).
// CHECK-LABEL: @fold_identity_reshapes
// CHECK-NEXT:    %[[S:.*]] = relay.squeeze %y : tensor<?x5xf32>
// CHECK-NEXT:    func.return %x, %[[S]]
func.func @fold_identity_reshapes(%x: tensor<2x3xf32>, %y: tensor<?x5xf32>) -> (tensor<2x3xf32>, tensor<?x5xf32>) {
  %0 = relay.reshape %x {newshape = [2, -1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = relay.squeeze %0 : tensor<2x3xf32>
  %2 = relay.expand_dims %1 {axis = 1, num_newaxis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = relay.nn.batch_flatten %y : tensor<?x5xf32>
  %4 = relay.squeeze %3 : tensor<?x5xf32>
  func.return %2, %4 : tensor<2x3xf32>, tensor<?x5xf32>
}

// -----

/// A reshape chain ending in a dynamic shape stays, and so does a reshape of a dynamic
/// tensor to its own type (an equal type with `?` does not prove the same shape).
// CHECK-LABEL: @keep_dynamic_reshapes
// CHECK-NEXT:    %[[A:.*]] = relay.reshape %x {newshape = [-1]}
// CHECK-NEXT:    %[[B:.*]] = relay.reshape %[[A]] {newshape = [-1, 2]}
// CHECK-NEXT:    %[[C:.*]] = relay.reshape %y {newshape = [-1, 4]} : tensor<?x4xf32>
// CHECK-NEXT:    func.return %[[B]], %[[C]]
func.func @keep_dynamic_reshapes(%x: tensor<?x4xf32>, %y: tensor<?x4xf32>) -> (tensor<?x2xf32>, tensor<?x4xf32>) {
  %0 = relay.reshape %x {newshape = [-1]} : (tensor<?x4xf32>) -> tensor<?xf32>
  %1 = relay.reshape %0 {newshape = [-1, 2]} : (tensor<?xf32>) -> tensor<?x2xf32>
  %2 = relay.reshape %y {newshape = [-1, 4]} : tensor<?x4xf32>
  func.return %1, %2 : tensor<?x2xf32>, tensor<?x4xf32>
}

// -----

/// A chain from a dynamic input to a static shape still collapses (as TVM: only the
/// final shape must be static).
// CHECK-LABEL: @fold_dynamic_input_static_result
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %x {newshape = [2, 4]} : (tensor<?x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_dynamic_input_static_result(%x: tensor<?x4xf32>) -> tensor<2x4xf32> {
  %0 = relay.reshape %x {newshape = [-1]} : (tensor<?x4xf32>) -> tensor<?xf32>
  %1 = relay.reshape %0 {newshape = [2, 4]} : (tensor<?xf32>) -> tensor<2x4xf32>
  func.return %1 : tensor<2x4xf32>
}

// -----

/// The first reshape has another use: it stays for that use, and the second is
/// rewritten from the original input (a reshape copies nothing, so nothing is redone).
// CHECK-LABEL: @fold_reshape_shared_intermediate
// CHECK-NEXT:    %[[A:.*]] = relay.reshape %x {newshape = [6]}
// CHECK-NEXT:    %[[B:.*]] = relay.reshape %x {newshape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[A]]
// CHECK-NEXT:    func.return %[[B]], %[[E]]
func.func @fold_reshape_shared_intermediate(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<6xf32>) {
  %0 = relay.reshape %x {newshape = [6]} : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = relay.reshape %0 {newshape = [3, 2]} : (tensor<6xf32>) -> tensor<3x2xf32>
  %2 = relay.exp %0 : tensor<6xf32>
  func.return %1, %2 : tensor<3x2xf32>, tensor<6xf32>
}

// -----

/// A single reshape-like op that changes the shape is left as it is.
// CHECK-LABEL: @keep_single_reshape_like
// CHECK-NEXT:    relay.expand_dims %x {axis = 0}
// CHECK-NEXT:    relay.nn.batch_flatten %x
// CHECK-NEXT:    func.return
func.func @keep_single_reshape_like(%x: tensor<2x3x4xf32>) -> (tensor<1x2x3x4xf32>, tensor<2x12xf32>) {
  %0 = relay.expand_dims %x {axis = 0} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %1 = relay.nn.batch_flatten %x : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  func.return %0, %1 : tensor<1x2x3x4xf32>, tensor<2x12xf32>
}

// -----

/// Identity transposes vanish: explicit identity axes, and a rank-1 reversal.
// CHECK-LABEL: @fold_identity_transpose
// CHECK-NEXT:    func.return %x, %y
func.func @fold_identity_transpose(%x: tensor<2x?x4xf32>, %y: tensor<5xf32>) -> (tensor<2x?x4xf32>, tensor<5xf32>) {
  %0 = relay.transpose %x {axes = [0, 1, -1]} : tensor<2x?x4xf32>
  %1 = relay.transpose %y : tensor<5xf32>
  func.return %0, %1 : tensor<2x?x4xf32>, tensor<5xf32>
}

// -----

/// Two transposes composing to the identity vanish; two others become one transpose.
// CHECK-LABEL: @fold_transpose_pairs
// CHECK-NEXT:    %[[T:.*]] = relay.transpose %x {axes = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    func.return %x, %[[T]]
func.func @fold_transpose_pairs(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = relay.transpose %x {axes = [1, 2, 0]} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = relay.transpose %0 {axes = [2, 0, 1]} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %2 = relay.transpose %x {axes = [1, 0, 2]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %3 = relay.transpose %2 : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  func.return %1, %3 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

/// A transpose that is not the identity stays.
// CHECK-LABEL: @keep_transpose
// CHECK-NEXT:    %[[T:.*]] = relay.transpose %x {axes = [1, 0]}
// CHECK-NEXT:    func.return %[[T]]
func.func @keep_transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = relay.transpose %x {axes = [1, 0]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

/// layout_transform A->A vanishes, A->B->A vanishes, A->B->C becomes A->C (blocked too).
// CHECK-LABEL: @fold_layout_transforms
// CHECK-NEXT:    %[[AC:.*]] = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"}
// CHECK-NEXT:    func.return %x, %x, %[[AC]]
func.func @fold_layout_transforms(%x: tensor<1x8x2x2xf32>) -> (tensor<1x8x2x2xf32>, tensor<1x8x2x2xf32>, tensor<1x2x2x8xf32>) {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW"} : tensor<1x8x2x2xf32>
  %1 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x2x2x4xf32>
  %2 = relay.layout_transform %1 {src_layout = "NCHW4c", dst_layout = "NCHW"} : (tensor<1x2x2x2x4xf32>) -> tensor<1x8x2x2xf32>
  %3 = relay.layout_transform %1 {src_layout = "NCHW4c", dst_layout = "NHWC"} : (tensor<1x2x2x2x4xf32>) -> tensor<1x2x2x8xf32>
  func.return %0, %2, %3 : tensor<1x8x2x2xf32>, tensor<1x8x2x2xf32>, tensor<1x2x2x8xf32>
}

// -----

/// Two layout transforms that only permute dims are permutations, chained or not: one
/// transpose with the composed axes (TVM's SimplifyTranspose), blocked layouts too.
// CHECK-LABEL: @fold_permuting_layout_transforms
// CHECK-NEXT:    %[[T:.*]] = relay.transpose %x {axes = [0, 3, 1, 2]}
// CHECK-NEXT:    %[[U:.*]] = relay.transpose %y {axes = [0, 3, 1, 2, 4]}
// CHECK-NEXT:    func.return %[[T]], %[[U]]
func.func @fold_permuting_layout_transforms(%x: tensor<2x2x2x2xf32>, %y: tensor<1x2x2x2x4xf32>) -> (tensor<2x2x2x2xf32>, tensor<1x2x2x2x4xf32>) {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : tensor<2x2x2x2xf32>
  %1 = relay.layout_transform %0 {src_layout = "NCHW", dst_layout = "NHWC"} : tensor<2x2x2x2xf32>
  %2 = relay.layout_transform %y {src_layout = "NCHW4c", dst_layout = "NHWC4c"} : tensor<1x2x2x2x4xf32>
  %3 = relay.layout_transform %2 {src_layout = "NCHW4c", dst_layout = "NHWC4c"} : tensor<1x2x2x2x4xf32>
  func.return %1, %3 : tensor<2x2x2x2xf32>, tensor<1x2x2x2x4xf32>
}

// -----

/// A partitioned function (Compiler) is skipped, as by TVM's FunctionPass.
// CHECK-LABEL: @keep_external
// CHECK-NEXT:    relay.reshape %x
// CHECK-NEXT:    relay.reshape
func.func @keep_external(%x: tensor<2x3xf32>) -> tensor<3x2xf32> attributes {Compiler = "accel"} {
  %0 = relay.reshape %x {newshape = [6]} : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = relay.reshape %0 {newshape = [3, 2]} : (tensor<6xf32>) -> tensor<3x2xf32>
  func.return %1 : tensor<3x2xf32>
}
