// RUN: xrelay-opt %s -p fuse-ops --split-input-file | filecheck %s

/// TVM's test_fuse_simple: squeeze(exp(x + 1)) is one Primitive function; the scalar
/// constant is fused (defined inside), the caller keeps one call.
// CHECK-LABEL: func.func @fuse_simple(%x: tensor<10x20xf32>)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_add_exp_squeeze(%x) : (tensor<10x20xf32>) -> tensor<10x20xf32>
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_add_exp_squeeze(%p0: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {Primitive = 1 : i32}
// CHECK-NEXT:    %[[C:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %p0, %[[C]]
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[A]]
// CHECK-NEXT:    %[[S:.*]] = relay.squeeze %[[E]]
// CHECK-NEXT:    func.return %[[S]] : tensor<10x20xf32>
func.func @fuse_simple(%x: tensor<10x20xf32>) -> tensor<10x20xf32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<10x20xf32>, tensor<f32>) -> tensor<10x20xf32>
  %1 = relay.exp %0 : tensor<10x20xf32>
  %2 = relay.squeeze %1 : tensor<10x20xf32>
  func.return %2 : tensor<10x20xf32>
}

// -----

/// conv2d + bias_add + relu: OutEWiseFusable takes the ops after it (phase 0); the
/// tensor constants stay in the caller and are passed as parameters.
// CHECK-LABEL: func.func @fuse_conv2d_bias_relu(%x: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<5.000000e-01> : tensor<3x2x1x1xf32>
// CHECK-NEXT:    %[[B:.*]] = relay.constant dense<1.000000e+00> : tensor<3xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_nn_conv2d_nn_bias_add_nn_relu(%x, %[[W]], %[[B]])
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_nn_conv2d_nn_bias_add_nn_relu(%p0: tensor<1x2x4x4xf32>, %p1: tensor<3x2x1x1xf32>, %p2: tensor<3xf32>) -> tensor<1x3x4x4xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %p0, %p1
// CHECK-NEXT:    %[[BA:.*]] = relay.nn.bias_add %[[C]], %p2
// CHECK-NEXT:    %[[RE:.*]] = relay.nn.relu %[[BA]]
// CHECK-NEXT:    func.return %[[RE]]
func.func @fuse_conv2d_bias_relu(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<3x2x1x1xf32>
  %b = relay.constant dense<1.0> : tensor<3xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x3x4x4xf32>
  func.return %2 : tensor<1x3x4x4xf32>
}

// -----

/// A diamond of elementwise ops (x -> exp, x -> tanh, add) is one group: x is read once.
// CHECK-LABEL: func.func @fuse_diamond(%x: tensor<4x4xf32>)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_exp_tanh_add(%x)
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_exp_tanh_add(%p0: tensor<4x4xf32>)
// CHECK-NEXT:    %[[A:.*]] = relay.exp %p0
// CHECK-NEXT:    %[[B:.*]] = relay.tanh %p0
// CHECK-NEXT:    %[[C:.*]] = relay.add %[[A]], %[[B]]
// CHECK-NEXT:    func.return %[[C]]
func.func @fuse_diamond(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %a = relay.exp %x : tensor<4x4xf32>
  %b = relay.tanh %x : tensor<4x4xf32>
  %c = relay.add %a, %b : tensor<4x4xf32>
  func.return %c : tensor<4x4xf32>
}

// -----

/// Elementwise ops fuse into the reduction after them; the reduction does not take the
/// elementwise op after it (CommReduce nodes never fuse forward).
// CHECK-LABEL: func.func @fuse_reduce(%x: tensor<4x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = func.call @fused_exp_sum(%x) : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_sqrt(%[[S]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_exp_sum(%p0: tensor<4x8xf32>)
// CHECK-NEXT:    relay.exp %p0
// CHECK-NEXT:    relay.sum
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @fused_sqrt(%p0: tensor<4xf32>)
// CHECK-NEXT:    relay.sqrt %p0
// CHECK-NEXT:    func.return
func.func @fuse_reduce(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %a = relay.exp %x : tensor<4x8xf32>
  %s = relay.sum %a {axis = [1]} : (tensor<4x8xf32>) -> tensor<4xf32>
  %r = relay.sqrt %s : tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

/// TVM's test_concatenate (nn.pad for upsampling): the pool is alone (an injective op
/// follows it); pad, concatenate and the add are one group with two parameters.
// CHECK-LABEL: func.func @fuse_concatenate(%x: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[P:.*]] = func.call @fused_nn_max_pool2d(%x)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_nn_pad_concatenate_add(%[[P]], %x) : (tensor<1x2x2x2xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_nn_max_pool2d(%p0: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    relay.nn.max_pool2d %p0
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @fused_nn_pad_concatenate_add(%p0: tensor<1x2x2x2xf32>, %p1: tensor<1x2x4x4xf32>)
// CHECK-NEXT:    %[[PAD:.*]] = relay.nn.pad %p0
// CHECK-NEXT:    %[[CAT:.*]] = relay.concatenate %[[PAD]], %p1 {axis = 1}
// CHECK-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    relay.add %[[CAT]], %[[ONE]]
// CHECK-NEXT:    func.return
func.func @fuse_concatenate(%x: tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %1 = relay.nn.pad %0 {pad_width = [0, 0, 0, 0, 0, 2, 0, 2]} : (tensor<1x2x2x2xf32>) -> tensor<1x2x4x4xf32>
  %2 = relay.concatenate %1, %x {axis = 1} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %c = relay.constant dense<1.0> : tensor<f32>
  %3 = relay.add %2, %c : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
  func.return %3 : tensor<1x4x4x4xf32>
}

// -----

/// TVM's test_tuple_get_root: split and its projection are one function returning the
/// field; dense is a group of its own. A tuple returned as is stays in the caller.
// CHECK-LABEL: func.func @fuse_tuple_get_root(%x: tensor<1x6xf32>, %w: tensor<2x2xf32>)
// CHECK-NEXT:    %[[S:.*]] = func.call @fused_split(%x) : (tensor<1x6xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:    %[[D:.*]] = func.call @fused_nn_dense(%[[S]], %w)
// CHECK-NEXT:    %[[T:.*]] = relay.tuple %[[D]], %x
// CHECK-NEXT:    func.return %[[T]]
// CHECK-LABEL: func.func private @fused_split(%p0: tensor<1x6xf32>)
// CHECK-NEXT:    %[[SP:.*]] = relay.split %p0
// CHECK-NEXT:    %[[G:.*]] = relay.tuple_get_item %[[SP]] {index = 0}
// CHECK-NEXT:    func.return %[[G]] : tensor<1x2xf32>
// CHECK-LABEL: func.func private @fused_nn_dense(%p0: tensor<1x2xf32>, %p1: tensor<2x2xf32>)
func.func @fuse_tuple_get_root(%x: tensor<1x6xf32>, %w: tensor<2x2xf32>) -> tuple<tensor<1x2xf32>, tensor<1x6xf32>> {
  %0 = relay.split %x {indices_or_sections = 3, axis = 1} : (tensor<1x6xf32>) -> tuple<tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>>) -> tensor<1x2xf32>
  %2 = relay.nn.dense %1, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %3 = relay.tuple %2, %x : (tensor<1x2xf32>, tensor<1x6xf32>) -> tuple<tensor<1x2xf32>, tensor<1x6xf32>>
  func.return %3 : tuple<tensor<1x2xf32>, tensor<1x6xf32>>
}

// -----

/// The branches of an if are fused on their own: the call stays in the branch and the
/// value read from outside becomes a parameter.
// CHECK-LABEL: func.func @fuse_if_branch(%c: tensor<i1>, %x: tensor<4xf32>)
// CHECK-NEXT:    %[[A:.*]] = func.call @fused_negative(%x)
// CHECK-NEXT:    %[[R:.*]] = relay.if %c
// CHECK-NEXT:      %[[T:.*]] = func.call @fused_exp_tanh(%[[A]])
// CHECK-NEXT:      relay.yield %[[T]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      relay.yield %[[A]]
// CHECK:       func.func private @fused_exp_tanh(%p0: tensor<4xf32>)
// CHECK:       func.func private @fused_negative(%p0: tensor<4xf32>)
func.func @fuse_if_branch(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = relay.negative %x : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %e = relay.exp %a : tensor<4xf32>
    %t = relay.tanh %e : tensor<4xf32>
    relay.yield %t : tensor<4xf32>
  } else {
    relay.yield %a : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}

// -----

/// TVM's test_stop_fusion: `annotation.stop_fusion` between add and exp is a barrier, so
/// add and exp land in two functions (negative: no fusion across it); the annotation
/// itself is removed, exp's function reads add's call directly (TVM's expected graph).
// CHECK-LABEL: func.func @stop_fusion(%x: tensor<10x20xf32>)
// CHECK-NEXT:    %[[A:.*]] = func.call @fused_add(%x) : (tensor<10x20xf32>) -> tensor<10x20xf32>
// CHECK-NEXT:    %[[E:.*]] = func.call @fused_exp(%[[A]]) : (tensor<10x20xf32>) -> tensor<10x20xf32>
// CHECK-NEXT:    func.return %[[E]]
// CHECK-LABEL: func.func private @fused_add(%p0: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {Primitive = 1 : i32}
// CHECK-NEXT:    %[[C:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S:.*]] = relay.add %p0, %[[C]]
// CHECK-NEXT:    func.return %[[S]] : tensor<10x20xf32>
// CHECK-LABEL: func.func private @fused_exp(%p0: tensor<10x20xf32>) -> tensor<10x20xf32> attributes {Primitive = 1 : i32}
// CHECK-NEXT:    %[[X:.*]] = relay.exp %p0
// CHECK-NEXT:    func.return %[[X]] : tensor<10x20xf32>
// CHECK-NOT:     stop_fusion
func.func @stop_fusion(%x: tensor<10x20xf32>) -> tensor<10x20xf32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<10x20xf32>, tensor<f32>) -> tensor<10x20xf32>
  %1 = relay.annotation.stop_fusion %0 : tensor<10x20xf32>
  %2 = relay.exp %1 : tensor<10x20xf32>
  func.return %2 : tensor<10x20xf32>
}

// -----

/// The same graph without the barrier (positive): add and exp are one function. A
/// stop_fusion on a parameter that the function returns as well is removed too.
// CHECK-LABEL: func.func @no_stop_fusion(%x: tensor<10x20xf32>)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_add_exp(%x) : (tensor<10x20xf32>) -> tensor<10x20xf32>
// CHECK-NEXT:    func.return %[[R]], %x : tensor<10x20xf32>, tensor<10x20xf32>
// CHECK-LABEL: func.func private @fused_add_exp(%p0: tensor<10x20xf32>)
// CHECK-NOT:     stop_fusion
func.func @no_stop_fusion(%x: tensor<10x20xf32>) -> (tensor<10x20xf32>, tensor<10x20xf32>) {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<10x20xf32>, tensor<f32>) -> tensor<10x20xf32>
  %1 = relay.exp %0 : tensor<10x20xf32>
  %2 = relay.annotation.stop_fusion %x : tensor<10x20xf32>
  func.return %1, %2 : tensor<10x20xf32>, tensor<10x20xf32>
}
