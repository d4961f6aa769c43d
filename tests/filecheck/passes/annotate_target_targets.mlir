// RUN: xrelay-opt %s -p 'annotate-target{targets=dnnl}' --split-input-file | filecheck %s --check-prefix=DNNL
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel,dnnl}' --split-input-file | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s -p 'annotate-target{targets=dnnl,accel}' --split-input-file | filecheck %s --check-prefix=REV

/// Both targets take relu, only dnnl takes a broadcasting add: the first target in the list wins.
// DNNL-LABEL: @first_match_wins
//  DNNL-NEXT:   relay.compiler_begin %x {compiler = "dnnl"}
//  DNNL-NEXT:   %r = relay.nn.relu
//  DNNL-NEXT:   relay.compiler_end %r {compiler = "dnnl"}
//  DNNL-NEXT:   relay.compiler_begin %{{.*}} {compiler = "dnnl"}
//  DNNL-NEXT:   relay.compiler_begin %b {compiler = "dnnl"}
//  DNNL-NEXT:   %a = relay.add
//  DNNL-NEXT:   relay.compiler_end %a {compiler = "dnnl"}
// BOTH-LABEL: @first_match_wins
//  BOTH-NEXT:   relay.compiler_begin %x {compiler = "accel"}
//  BOTH-NEXT:   %r = relay.nn.relu
//  BOTH-NEXT:   relay.compiler_end %r {compiler = "accel"}
//  BOTH-NEXT:   relay.compiler_begin %{{.*}} {compiler = "dnnl"}
//  BOTH-NEXT:   relay.compiler_begin %b {compiler = "dnnl"}
//  BOTH-NEXT:   %a = relay.add
//  BOTH-NEXT:   relay.compiler_end %a {compiler = "dnnl"}
// REV-LABEL: @first_match_wins
//  REV-NEXT:   relay.compiler_begin %x {compiler = "dnnl"}
//  REV-NEXT:   %r = relay.nn.relu
//  REV-NEXT:   relay.compiler_end %r {compiler = "dnnl"}
func.func @first_match_wins(%x: tensor<1x4xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  %r = relay.nn.relu %x : tensor<1x4xf32>
  %a = relay.add %r, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %a : tensor<1x4xf32>
}

// -----

/// max_pool2d has an accel predicate and no dnnl one: "default" unless accel is listed.
// DNNL-LABEL: @accel_only
//  DNNL-NEXT:   relay.compiler_begin %x {compiler = "default"}
//  DNNL-NEXT:   %p = relay.nn.max_pool2d
//  DNNL-NEXT:   relay.compiler_end %p {compiler = "default"}
// BOTH-LABEL: @accel_only
//  BOTH-NEXT:   relay.compiler_begin %x {compiler = "accel"}
//  BOTH-NEXT:   %p = relay.nn.max_pool2d
//  BOTH-NEXT:   relay.compiler_end %p {compiler = "accel"}
// REV-LABEL: @accel_only
//  REV-NEXT:   relay.compiler_begin %x {compiler = "accel"}
//  REV-NEXT:   %p = relay.nn.max_pool2d
//  REV-NEXT:   relay.compiler_end %p {compiler = "accel"}
func.func @accel_only(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> {
  %p = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return %p : tensor<1x2x2x2xf32>
}

// -----

/// A composite goes to the target before the first `.` of its name if that target is listed,
/// else "default" (a name without `.` too); its body is not annotated.
// DNNL-LABEL: @composites
//  DNNL-NEXT:   relay.compiler_begin %x {compiler = "default"}
//  DNNL-NEXT:   relay.compiler_begin %w {compiler = "default"}
//  DNNL-NEXT:   relay.composite "accel.conv2d_relu"
//  DNNL-NEXT:   ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
//  DNNL-NEXT:     %c = relay.nn.conv2d %i, %k
//  DNNL-NEXT:     %r = relay.nn.relu %c
//  DNNL-NEXT:     relay.yield %r
//  DNNL-NEXT:   }
//  DNNL-NEXT:   relay.compiler_end %{{.*}} {compiler = "default"}
//  DNNL-NEXT:   relay.compiler_begin %{{.*}} {compiler = "dnnl"}
//  DNNL-NEXT:   relay.composite "dnnl.relu"
//       DNNL:   relay.compiler_end %{{.*}} {compiler = "dnnl"}
//  DNNL-NEXT:   relay.compiler_begin %{{.*}} {compiler = "default"}
//  DNNL-NEXT:   relay.composite "exp"
//       DNNL:   relay.compiler_end %{{.*}} {compiler = "default"}
// BOTH-LABEL: @composites
//  BOTH-NEXT:   relay.compiler_begin %x {compiler = "accel"}
//  BOTH-NEXT:   relay.compiler_begin %w {compiler = "accel"}
//  BOTH-NEXT:   relay.composite "accel.conv2d_relu"
//  BOTH-NEXT:   ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
//  BOTH-NEXT:     %c = relay.nn.conv2d %i, %k
//       BOTH:   relay.compiler_end %{{.*}} {compiler = "accel"}
//  BOTH-NEXT:   relay.compiler_begin %{{.*}} {compiler = "dnnl"}
//  BOTH-NEXT:   relay.composite "dnnl.relu"
//       BOTH:   relay.compiler_end %{{.*}} {compiler = "dnnl"}
//  BOTH-NEXT:   relay.compiler_begin %{{.*}} {compiler = "default"}
//  BOTH-NEXT:   relay.composite "exp"
// REV-LABEL: @composites
//  REV-NEXT:   relay.compiler_begin %x {compiler = "accel"}
func.func @composites(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.composite "accel.conv2d_relu" (%x, %w) {PartitionedFromPattern = "nn.conv2d_nn.relu_"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x3x8x8xf32>, %k: tensor<4x3x3x3xf32>):
    %c = relay.nn.conv2d %i, %k : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %r = relay.nn.relu %c : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  %1 = relay.composite "dnnl.relu" (%0) {PartitionedFromPattern = "nn.relu_"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x4x6x6xf32>):
    %r = relay.nn.relu %i : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  %2 = relay.composite "exp" (%1) {PartitionedFromPattern = "exp_"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  ^bb0(%i: tensor<1x4x6x6xf32>):
    %r = relay.exp %i : tensor<1x4x6x6xf32>
    relay.yield %r : tensor<1x4x6x6xf32>
  }
  func.return %2 : tensor<1x4x6x6xf32>
}
