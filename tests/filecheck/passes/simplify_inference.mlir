// RUN: xrelay-opt %s -p simplify-inference --split-input-file | filecheck %s

/// batch_norm(...)[0] on axis 1 of a 4-D tensor: TVM's ops, scale and shift widened by
/// expand_dims {axis = 1, num_newaxis = 2}; the batch_norm and its projection are gone.
// CHECK-LABEL: @fold_bn_axis1
// CHECK-SAME:    (%x: tensor<2x3x4x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>)
// CHECK-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[EPS:.*]] = relay.constant dense<1.000000e-02> : tensor<f32>
// CHECK-NEXT:    %[[VE:.*]] = relay.add %v, %[[EPS]]
// CHECK-NEXT:    %[[SQ:.*]] = relay.sqrt %[[VE]] : tensor<3xf32>
// CHECK-NEXT:    %[[INV:.*]] = relay.divide %[[ONE]], %[[SQ]]
// CHECK-NEXT:    %[[SC:.*]] = relay.multiply %[[INV]], %g : tensor<3xf32>
// CHECK-NEXT:    %[[SCW:.*]] = relay.expand_dims %[[SC]] {axis = 1, num_newaxis = 2} : (tensor<3xf32>) -> tensor<3x1x1xf32>
// CHECK-NEXT:    %[[MUL:.*]] = relay.multiply %x, %[[SCW]]
// CHECK-NEXT:    %[[NEG:.*]] = relay.negative %m : tensor<3xf32>
// CHECK-NEXT:    %[[NS:.*]] = relay.multiply %[[NEG]], %[[SC]] : tensor<3xf32>
// CHECK-NEXT:    %[[SH:.*]] = relay.add %[[NS]], %b : tensor<3xf32>
// CHECK-NEXT:    %[[SHW:.*]] = relay.expand_dims %[[SH]] {axis = 1, num_newaxis = 2} : (tensor<3xf32>) -> tensor<3x1x1xf32>
// CHECK-NEXT:    %[[OUT:.*]] = relay.add %[[MUL]], %[[SHW]] : (tensor<2x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<2x3x4x5xf32>
// CHECK-NEXT:    func.return %[[OUT]] : tensor<2x3x4x5xf32>
func.func @fold_bn_axis1(%x: tensor<2x3x4x5xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 0.01} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3x4x5xf32>
  func.return %1 : tensor<2x3x4x5xf32>
}

// -----

/// axis -1 is the last dim: no expand_dims; without scale and center there is no gamma
/// multiply and no beta add; the constants take the data's dtype (epsilon rounded to f16).
// CHECK-LABEL: @fold_bn_last_axis_no_scale_no_center
// CHECK-NEXT:    %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f16>
// CHECK-NEXT:    %[[EPS:.*]] = relay.constant dense<1.001360e-05> : tensor<f16>
// CHECK-NEXT:    %[[VE:.*]] = relay.add %v, %[[EPS]]
// CHECK-NEXT:    %[[SQ:.*]] = relay.sqrt %[[VE]]
// CHECK-NEXT:    %[[INV:.*]] = relay.divide %[[ONE]], %[[SQ]]
// CHECK-NEXT:    %[[MUL:.*]] = relay.multiply %x, %[[INV]] : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    %[[NEG:.*]] = relay.negative %m
// CHECK-NEXT:    %[[SH:.*]] = relay.multiply %[[NEG]], %[[INV]] : tensor<3xf16>
// CHECK-NEXT:    %[[OUT:.*]] = relay.add %[[MUL]], %[[SH]] : (tensor<2x3xf16>, tensor<3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    func.return %[[OUT]]
// CHECK-NOT:   relay.nn.batch_norm
func.func @fold_bn_last_axis_no_scale_no_center(%x: tensor<2x3xf16>, %g: tensor<3xf16>, %b: tensor<3xf16>, %m: tensor<3xf16>, %v: tensor<3xf16>) -> tensor<2x3xf16> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v {axis = -1, center = false, scale = false} : (tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tuple<tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf16>, tensor<3xf16>, tensor<3xf16>>) -> tensor<2x3xf16>
  func.return %1 : tensor<2x3xf16>
}

// -----

/// axis 0 of a 3-D tensor widens by 2 new axes; two [0] projections share one expansion.
// CHECK-LABEL: @fold_bn_axis0_two_projections
// CHECK-COUNT-2: relay.expand_dims %{{.*}} {axis = 1, num_newaxis = 2} : (tensor<4xf32>) -> tensor<4x1x1xf32>
// CHECK:         %[[OUT:.*]] = relay.add %{{.*}}, %{{.*}} : (tensor<4x2x3xf32>, tensor<4x1x1xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.multiply %[[OUT]], %[[OUT]] : tensor<4x2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_bn_axis0_two_projections(%x: tensor<4x2x3xf32>, %p: tensor<4xf32>) -> tensor<4x2x3xf32> {
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p {axis = 0} : (tensor<4x2x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4x2x3xf32>, tensor<4xf32>, tensor<4xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<4x2x3xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4x2x3xf32>
  %2 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<4x2x3xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<4x2x3xf32>
  %3 = relay.multiply %1, %2 : tensor<4x2x3xf32>
  func.return %3 : tensor<4x2x3xf32>
}

// -----

/// Fields 1 and 2 (moving mean and variance) become the moving_mean and moving_var
/// operands, as the op computes at inference; nothing reads the batch_norm any more.
// CHECK-LABEL: @fold_bn_mean_var_fields
// CHECK-NOT:     relay.nn.batch_norm
// CHECK-NOT:     relay.tuple_get_item
// CHECK:         %[[T:.*]] = relay.tuple %{{.*}}, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK-NEXT:    func.return %[[T]]
func.func @fold_bn_mean_var_fields(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  %2 = relay.tuple_get_item %0 {index = 1} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %3 = relay.tuple_get_item %0 {index = 2} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  %4 = relay.tuple %1, %2, %3 : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  func.return %4 : tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
}

// -----

/// Only the variance field is read: it is moving_var, and the batch_norm goes with the
/// x + 1 that only fed it.
// CHECK-LABEL: @fold_bn_var_only
// CHECK-NEXT:    func.return %v : tensor<3xf32>
func.func @fold_bn_var_only(%x: tensor<2x3xf32>, %p: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<3xf32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = relay.nn.batch_norm %0, %p, %p, %p, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %2 = relay.tuple_get_item %1 {index = 2} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<3xf32>
  func.return %2 : tensor<3xf32>
}

// -----

/// The whole tuple is also returned: its [0] is rewritten, the batch_norm stays for that use.
// CHECK-LABEL: @keep_bn_for_whole_tuple_use
// CHECK:         %[[OUT:.*]] = relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[BN:.*]] = relay.nn.batch_norm %x, %g, %b, %m, %v
// CHECK-NEXT:    %[[T:.*]] = relay.tuple %[[OUT]], %[[BN]]
// CHECK-NOT:     relay.tuple_get_item
func.func @keep_bn_for_whole_tuple_use(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tuple<tensor<2x3xf32>, tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>> {
  %0 = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
  %2 = relay.tuple %1, %0 : (tensor<2x3xf32>, tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tuple<tensor<2x3xf32>, tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>>
  func.return %2 : tuple<tensor<2x3xf32>, tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>>
}

// -----

/// A dynamic dim on axis with a static gamma: x * scale would be static, so nothing changes.
// CHECK-LABEL: @keep_bn_dynamic_channels
// CHECK-NEXT:    %[[BN:.*]] = relay.nn.batch_norm %x, %p, %p, %p, %p
// CHECK-NEXT:    %[[R:.*]] = relay.tuple_get_item %[[BN]] {index = 0}
// CHECK-NEXT:    func.return %[[R]] : tensor<2x?xf32>
func.func @keep_bn_dynamic_channels(%x: tensor<2x?xf32>, %p: tensor<3xf32>) -> tensor<2x?xf32> {
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<2x?xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x?xf32>, tensor<3xf32>, tensor<3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x?xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x?xf32>
  func.return %1 : tensor<2x?xf32>
}

// -----

/// dropout(x)[0] is x: the dropout and its projection are gone.
// CHECK-LABEL: @fold_dropout
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %x : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @fold_dropout(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.nn.dropout %x {rate = 0.25} : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  %2 = relay.nn.relu %1 : tensor<2x3xf32>
  func.return %2 : tensor<2x3xf32>
}

// -----

/// The dropout mask is read: the dropout stays for it, [0] still becomes the input.
// CHECK-LABEL: @keep_dropout_for_mask
// CHECK-NEXT:    %[[D:.*]] = relay.nn.dropout %x
// CHECK-NEXT:    %[[MASK:.*]] = relay.tuple_get_item %[[D]] {index = 1}
// CHECK-NEXT:    %[[R:.*]] = relay.add %x, %[[MASK]] : tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @keep_dropout_for_mask(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.nn.dropout %x : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  %2 = relay.tuple_get_item %0 {index = 1} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  %3 = relay.add %1, %2 : tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}

// -----

/// A partitioned function (Compiler) is skipped, as by TVM's FunctionPass.
// CHECK-LABEL: @keep_external
// CHECK-NEXT:    relay.nn.dropout %x
// CHECK-NEXT:    relay.tuple_get_item
func.func @keep_external(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {Compiler = "accel"} {
  %0 = relay.nn.dropout %x : (tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<2x3xf32>, tensor<2x3xf32>>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

/// A batch_norm in a relay.if branch is rewritten in place, inside the branch.
// CHECK-LABEL: @fold_bn_in_branch
// CHECK:         relay.if %c
// CHECK-NOT:     relay.nn.batch_norm
// CHECK:         %[[OUT:.*]] = relay.add %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    relay.yield %[[OUT]]
// CHECK:         relay.yield %x
func.func @fold_bn_in_branch(%c: tensor<i1>, %x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<2x3xf32> {
    %1 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>
    %2 = relay.tuple_get_item %1 {index = 0} : (tuple<tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>>) -> tensor<2x3xf32>
    relay.yield %2 : tensor<2x3xf32>
  } else {
    relay.yield %x : tensor<2x3xf32>
  }
  func.return %0 : tensor<2x3xf32>
}
