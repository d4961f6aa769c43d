// RUN: xrelay-opt %s --split-input-file -p plan-memory | filecheck %s
// RUN: xrelay-opt %s --split-input-file -p 'plan-memory{alignment=16}' | filecheck %s --check-prefix=ALIGN
// RUN: xrelay-opt %s --split-input-file -p 'partition-for{target=accel},optimize{opt-level=3},plan-memory' \
// RUN:   | filecheck %s --check-prefix=PIPE

/// After partition_for and optimize, main only calls: a two-output partition gives one
/// buffer per field of its call; the callees' regions share the bytes above main's.
// PIPE-LABEL: builtin.module attributes {xrelay.arena_size = 640 : i64, xrelay.alignment = 64 : i64}
// PIPE:         func.func @tvmgen_default_accel_main_0({{.*}}xrelay.arena_size = 0 : i64, xrelay.peak_live = 0 : i64, xrelay.arena_offset = 256 : i64}
// PIPE-NEXT:      relay.constant {xrelay.buffers = ["const"]}
// PIPE-NEXT:      relay.nn.conv2d {{.*}}xrelay.buffers = ["out:0"]
// PIPE-NEXT:      relay.nn.relu {{.*}}xrelay.buffers = ["out:1"]
// PIPE-NEXT:      relay.tuple {{.*}}xrelay.buffers = ["alias"]
// PIPE-NEXT:      func.return {xrelay.outputs = ["in_place", "in_place"]}
// PIPE:         func.func @main({{.*}}xrelay.arena_size = 256 : i64, xrelay.peak_live = 256 : i64, xrelay.arena_offset = 0 : i64}
// PIPE-NEXT:      func.call @tvmgen_default_accel_main_0(%x) {xrelay.buffers = {{\[}}[0 : i64, 128 : i64]]}
// PIPE-NEXT:      func.call @fused_tanh_sigmoid_maximum_exp({{.*}}xrelay.buffers = ["out:0"]
// PIPE-NEXT:      func.return {xrelay.outputs = ["in_place"]}
// PIPE:         func.func private @fused_tanh_sigmoid_maximum_exp({{.*}}xrelay.arena_size = 384 : i64, xrelay.peak_live = 384 : i64, xrelay.arena_offset = 256 : i64}
// PIPE-NEXT:      relay.tuple_get_item {{.*}}xrelay.buffers = ["alias"]
// PIPE-NEXT:      relay.tuple_get_item {{.*}}xrelay.buffers = ["alias"]
// PIPE-NEXT:      relay.tanh {{.*}}xrelay.buffers = [0 : i64]
// PIPE-NEXT:      relay.sigmoid {{.*}}xrelay.buffers = [128 : i64]
// PIPE-NEXT:      relay.maximum {{.*}}xrelay.buffers = [256 : i64]
// PIPE-NEXT:      relay.exp {{.*}}xrelay.buffers = ["out:0"]
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = relay.constant dense<0.5> : tensor<2x2x3x3xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %1 = relay.nn.relu %0 : tensor<1x2x4x4xf32>
  %2 = relay.tanh %0 : tensor<1x2x4x4xf32>
  %3 = relay.sigmoid %1 : tensor<1x2x4x4xf32>
  %4 = relay.maximum %2, %3 : tensor<1x2x4x4xf32>
  %5 = relay.exp %4 : tensor<1x2x4x4xf32>
  func.return %5 : tensor<1x2x4x4xf32>
}

// -----

/// A chain ping-pongs between two buffers; the last op writes the output in place.
/// Sizes round up to the alignment: 64 bytes by default, 16 with `alignment=16`.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 128 : i64, xrelay.alignment = 64 : i64}
// CHECK-NEXT:    func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> attributes {xrelay.arena_size = 128 : i64, xrelay.peak_live = 128 : i64, xrelay.arena_offset = 0 : i64}
// CHECK-NEXT:      relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.tanh %{{.*}} {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:      relay.sigmoid %{{.*}} {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.negative %{{.*}} {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:      relay.abs %{{.*}} {xrelay.buffers = ["out:0"]}
// CHECK-NEXT:      func.return {xrelay.outputs = ["in_place"]}
// ALIGN-LABEL: builtin.module attributes {xrelay.arena_size = 128 : i64, xrelay.alignment = 16 : i64}
// ALIGN-LABEL: builtin.module attributes {xrelay.arena_size = 32 : i64, xrelay.alignment = 16 : i64}
// ALIGN-NEXT:    func.func @main(%x: tensor<3xf32>)
// ALIGN-NEXT:      relay.exp %x {xrelay.buffers = [0 : i64]}
// ALIGN-NEXT:      relay.tanh %{{.*}} {xrelay.buffers = [16 : i64]}
// ALIGN-NEXT:      relay.sigmoid %{{.*}} {xrelay.buffers = [0 : i64]}
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %x : tensor<16xf32>
  %1 = relay.tanh %0 : tensor<16xf32>
  %2 = relay.sigmoid %1 : tensor<16xf32>
  %3 = relay.negative %2 : tensor<16xf32>
  %4 = relay.abs %3 : tensor<16xf32>
  func.return %4 : tensor<16xf32>
}

// -----

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = relay.exp %x : tensor<3xf32>
  %1 = relay.tanh %0 : tensor<3xf32>
  %2 = relay.sigmoid %1 : tensor<3xf32>
  %3 = relay.abs %2 : tensor<3xf32>
  func.return %3 : tensor<3xf32>
}

// -----

/// A diamond: both branches are live at the join, and so is their source until the
/// second branch reads it: three buffers.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 192 : i64
// CHECK:           relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.tanh %{{.*}} {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:      relay.sigmoid %{{.*}} {xrelay.buffers = [128 : i64]}
// CHECK-NEXT:      relay.add %{{.*}} {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.abs %{{.*}} {xrelay.buffers = ["out:0"]}
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %x : tensor<16xf32>
  %1 = relay.tanh %0 : tensor<16xf32>
  %2 = relay.sigmoid %0 : tensor<16xf32>
  %3 = relay.add %1, %2 : tensor<16xf32>
  %4 = relay.abs %3 : tensor<16xf32>
  func.return %4 : tensor<16xf32>
}

// -----

/// Best fit: the small buffers go into the hole the large one leaves (largest first).
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 320 : i64
// CHECK:           relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.sum %{{.*}} {xrelay.buffers = [256 : i64]}
// CHECK-NEXT:      relay.exp %{{.*}} {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.add %{{.*}} {xrelay.buffers = ["out:0"]}
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %0 = relay.exp %x : tensor<64xf32>
  %1 = relay.sum %0 : (tensor<64xf32>) -> tensor<f32>
  %2 = relay.exp %1 : tensor<f32>
  %3 = relay.add %2, %x : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
  func.return %3 : tensor<64xf32>
}

// -----

/// Reshape-like ops are aliases: they take no storage and keep their source live while
/// they are used (%0 and %2 are both live at the add). A returned alias puts its source
/// in the output buffer.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 128 : i64
// CHECK:           relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.reshape %{{.*}} {newshape = [16], xrelay.buffers = ["alias"]}
// CHECK-NEXT:      relay.tanh %x {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:      relay.reshape %{{.*}} {newshape = [16], xrelay.buffers = ["alias"]}
// CHECK-NEXT:      relay.add %{{.*}} {xrelay.buffers = ["out:0"]}
// CHECK-NEXT:      relay.expand_dims %{{.*}} {axis = 0, xrelay.buffers = ["alias"]}
// CHECK-NEXT:      func.return {xrelay.outputs = ["in_place"]}
func.func @main(%x: tensor<4x4xf32>) -> tensor<1x16xf32> {
  %0 = relay.exp %x : tensor<4x4xf32>
  %1 = relay.reshape %0 {newshape = [16]} : (tensor<4x4xf32>) -> tensor<16xf32>
  %2 = relay.tanh %x : tensor<4x4xf32>
  %3 = relay.reshape %2 {newshape = [16]} : (tensor<4x4xf32>) -> tensor<16xf32>
  %4 = relay.add %1, %3 : tensor<16xf32>
  %5 = relay.expand_dims %4 {axis = 0} : (tensor<16xf32>) -> tensor<1x16xf32>
  func.return %5 : tensor<1x16xf32>
}

// -----

/// A tuple-typed result has one buffer per field; tuple and tuple_get_item are aliases;
/// a returned tuple's fields are the outputs, a parameter among them is copied.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 192 : i64
// CHECK:           relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.split %{{.*}} {indices_or_sections = 2, xrelay.buffers = {{\[}}[64 : i64, 128 : i64]]}
// CHECK-NEXT:      relay.tuple_get_item %{{.*}} {index = 0, xrelay.buffers = ["alias"]}
// CHECK-NEXT:      relay.tuple_get_item %{{.*}} {index = 1, xrelay.buffers = ["alias"]}
// CHECK-NEXT:      relay.add %{{.*}} {xrelay.buffers = ["out:0"]}
// CHECK-NEXT:      relay.tuple %{{.*}} {xrelay.buffers = ["alias"]}
// CHECK-NEXT:      func.return {xrelay.outputs = ["in_place", "copy"]}
func.func @main(%x: tensor<4x4xf32>) -> tuple<tensor<2x4xf32>, tensor<4x4xf32>> {
  %0 = relay.exp %x : tensor<4x4xf32>
  %1 = relay.split %0 {indices_or_sections = 2} : (tensor<4x4xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xf32>>
  %2 = relay.tuple_get_item %1 {index = 0} : (tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4xf32>
  %3 = relay.tuple_get_item %1 {index = 1} : (tuple<tensor<2x4xf32>, tensor<2x4xf32>>) -> tensor<2x4xf32>
  %4 = relay.add %2, %3 : tensor<2x4xf32>
  %5 = relay.tuple %4, %x : (tensor<2x4xf32>, tensor<4x4xf32>) -> tuple<tensor<2x4xf32>, tensor<4x4xf32>>
  func.return %5 : tuple<tensor<2x4xf32>, tensor<4x4xf32>>
}

// -----

/// Returned parameters and constants are copied, and so is a value returned twice
/// (the first output holds it); nothing is left for the arena.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 0 : i64
// CHECK:           relay.constant {xrelay.buffers = ["const"]}
// CHECK-NEXT:      relay.add %x, %{{.*}} {xrelay.buffers = ["out:2"]}
// CHECK-NEXT:      func.return {xrelay.outputs = ["copy", "copy", "in_place", "copy"]}
func.func @main(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %c = relay.constant dense<1.0> : tensor<16xf32>
  %0 = relay.add %x, %c : tensor<16xf32>
  func.return %x, %c, %0, %0 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// -----

/// relay.if: %0, read in a branch, is live until the if ends; branch values are planned
/// in the function's arena and each branch reuses the other's bytes.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 256 : i64
// CHECK:           relay.exp %x {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      relay.if %c : tensor<i1> -> tensor<16xf32> attributes {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:        relay.tanh %x {xrelay.buffers = [128 : i64]}
// CHECK-NEXT:        relay.add %{{.*}} {xrelay.buffers = [192 : i64]}
// CHECK:             relay.sigmoid %x {xrelay.buffers = [128 : i64]}
// CHECK:           relay.negative %{{.*}} {xrelay.buffers = ["out:0"]}
func.func @main(%x: tensor<16xf32>, %c: tensor<i1>) -> tensor<16xf32> {
  %0 = relay.exp %x : tensor<16xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<16xf32> {
    %t = relay.tanh %x : tensor<16xf32>
    %u = relay.add %t, %0 : tensor<16xf32>
    relay.yield %u : tensor<16xf32>
  } else {
    %e = relay.sigmoid %x : tensor<16xf32>
    relay.yield %e : tensor<16xf32>
  }
  %2 = relay.negative %1 : tensor<16xf32>
  func.return %2 : tensor<16xf32>
}

// -----

/// Every function with a body reachable from main is planned once; a callee's region
/// starts above its callers' (@h above @f), callees of one caller share theirs.
/// Declarations and unreachable functions are left alone.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 320 : i64
// CHECK:         func.func @main({{.*}}xrelay.arena_size = 128 : i64, xrelay.peak_live = 128 : i64, xrelay.arena_offset = 0 : i64}
// CHECK-NEXT:      func.call @f(%x) {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      func.call @g(%{{.*}}) {xrelay.buffers = [64 : i64]}
// CHECK-NEXT:      func.call @f(%{{.*}}) {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      func.call @ext(%{{.*}}) {xrelay.buffers = ["out:0"]}
// CHECK:         func.func private @f({{.*}}xrelay.arena_size = 128 : i64, xrelay.peak_live = 128 : i64, xrelay.arena_offset = 128 : i64}
// CHECK:         func.func private @g({{.*}}xrelay.arena_offset = 128 : i64}
// CHECK:         func.func private @h({{.*}}xrelay.arena_size = 64 : i64, xrelay.peak_live = 64 : i64, xrelay.arena_offset = 256 : i64}
// CHECK:         func.func private @ext(tensor<16xf32>) -> tensor<16xf32>{{$}}
// CHECK-NEXT:    func.func private @unused(%p: tensor<16xf32>) -> tensor<16xf32> {
// CHECK-NEXT:      relay.exp %p : tensor<16xf32>
func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {
  %0 = func.call @f(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %1 = func.call @g(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = func.call @f(%1) : (tensor<16xf32>) -> tensor<16xf32>
  %3 = func.call @ext(%2) : (tensor<16xf32>) -> tensor<16xf32>
  func.return %3 : tensor<16xf32>
}
func.func private @f(%p: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %p : tensor<16xf32>
  %1 = func.call @h(%0) : (tensor<16xf32>) -> tensor<16xf32>
  %2 = relay.tanh %1 : tensor<16xf32>
  func.return %2 : tensor<16xf32>
}
func.func private @g(%p: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %p : tensor<16xf32>
  %1 = relay.tanh %0 : tensor<16xf32>
  %2 = relay.sigmoid %1 : tensor<16xf32>
  func.return %2 : tensor<16xf32>
}
func.func private @h(%p: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %p : tensor<16xf32>
  %1 = relay.tanh %0 : tensor<16xf32>
  func.return %1 : tensor<16xf32>
}
func.func private @ext(%p: tensor<16xf32>) -> tensor<16xf32>
func.func private @unused(%p: tensor<16xf32>) -> tensor<16xf32> {
  %0 = relay.exp %p : tensor<16xf32>
  func.return %0 : tensor<16xf32>
}

// -----

/// A composite body's arguments alias the composite's operands; its ops are planned
/// in the function's arena, live inside the composite.
// CHECK-LABEL: builtin.module attributes {xrelay.arena_size = 384 : i64
// CHECK:           relay.composite "accel.conv2d_relu" (%x, %{{.*}}) {xrelay.buffers = [0 : i64]}
// CHECK-NEXT:      ^bb0(
// CHECK-NEXT:        relay.nn.conv2d {{.*}}xrelay.buffers = [128 : i64]
// CHECK-NEXT:        relay.nn.relu {{.*}}xrelay.buffers = [256 : i64]
// CHECK:           relay.nn.max_pool2d {{.*}}xrelay.buffers = ["out:0"]
func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> attributes {Compiler = "accel"} {
  %w = relay.constant dense<0.5> : tensor<2x2x3x3xf32>
  %0 = relay.composite "accel.conv2d_relu" (%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%i: tensor<1x2x4x4xf32>, %k: tensor<2x2x3x3xf32>):
    %1 = relay.nn.conv2d %i, %k {padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
    %2 = relay.nn.relu %1 : tensor<1x2x4x4xf32>
    relay.yield %2 : tensor<1x2x4x4xf32>
  }
  %3 = relay.nn.max_pool2d %0 {pool_size = [3, 3], padding = [1, 1, 1, 1]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %3 : tensor<1x2x4x4xf32>
}

// -----

/// A call of a view function (one parameter, a body that only reshapes it) is an alias of its
/// argument: no buffer, no copy; the exp after it reads the tanh's buffer. A call of a function
/// that also computes is not.
// CHECK-LABEL: func.func @main(%x: tensor<1x2x2x2xf32>) -> tensor<8xf32>
// CHECK-NEXT:    relay.tanh {{.*}}xrelay.buffers = [0 : i64]
// CHECK-NEXT:    func.call @flatten({{.*}}xrelay.buffers = ["alias"]
// CHECK-NEXT:    relay.exp {{.*}}xrelay.buffers = [64 : i64]
// CHECK-NEXT:    func.call @flatten_neg({{.*}}xrelay.buffers = ["out:0"]
// CHECK:       func.func private @flatten
// CHECK-NEXT:    relay.nn.batch_flatten {{.*}}xrelay.buffers = ["alias"]
// CHECK-NEXT:    relay.reshape {{.*}}xrelay.buffers = ["alias"]
// CHECK-NEXT:    func.return {xrelay.outputs = ["copy"]}
func.func @main(%x: tensor<1x2x2x2xf32>) -> tensor<8xf32> {
  %0 = relay.tanh %x : tensor<1x2x2x2xf32>
  %1 = func.call @flatten(%0) : (tensor<1x2x2x2xf32>) -> tensor<8xf32>
  %2 = relay.exp %1 : tensor<8xf32>
  %3 = func.call @flatten_neg(%2) : (tensor<8xf32>) -> tensor<8xf32>
  func.return %3 : tensor<8xf32>
}
func.func private @flatten(%p: tensor<1x2x2x2xf32>) -> tensor<8xf32> attributes {Primitive = 1 : i32} {
  %0 = relay.nn.batch_flatten %p : (tensor<1x2x2x2xf32>) -> tensor<1x8xf32>
  %1 = relay.reshape %0 {newshape = [8]} : (tensor<1x8xf32>) -> tensor<8xf32>
  func.return %1 : tensor<8xf32>
}
func.func private @flatten_neg(%p: tensor<8xf32>) -> tensor<8xf32> attributes {Primitive = 1 : i32} {
  %0 = relay.negative %p : tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
