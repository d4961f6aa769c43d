// RUN: xrelay-opt %s -p convert-relay-to-accel --split-input-file --verify-diagnostics

/// An op accel has no kernel for.
func.func @no_kernel(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.tanh' op cannot be lowered to target 'accel': accel has no kernel for 'tanh'}}
  %0 = relay.tanh %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Every op accel cannot take is reported, not only the first.
func.func @two_errors(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.exp' op cannot be lowered to target 'accel': accel has no kernel for 'exp'}}
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  // expected-error@+1 {{'relay.if' op cannot be lowered to target 'accel': accel has no kernel for 'if'}}
  %2 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    relay.yield %1 : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %2 : tensor<4xf32>
}

// -----

/// A conv2d the accel predicate rejects: NHWC data.
func.func @conv2d_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.nn.conv2d' op cannot be lowered to target 'accel': the 'target.accel' predicate rejects this 'nn.conv2d' (types or attributes)}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  func.return %0 : tensor<1x6x6x4xf32>
}

// -----

/// A broadcasting add: accel's elementwise unit takes one shape only.
func.func @add_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.add' op cannot be lowered to target 'accel': the 'target.accel' predicate rejects this 'add' (types or attributes)}}
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

/// A relu on integers: the accelerator computes in float32.
func.func @relu_int(%a: tensor<4xi32>) -> tensor<4xi32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.nn.relu' op cannot be lowered to target 'accel': the 'target.accel' predicate rejects this 'nn.relu' (types or attributes)}}
  %0 = relay.nn.relu %a : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}

// -----

/// A composite whose name is not in accel's pattern table.
func.func @unknown_composite(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': accel has no kernel for composite 'accel.relu_relu'}}
  %0 = relay.composite "accel.relu_relu" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %1 = relay.nn.relu %i : tensor<4xf32>
    %2 = relay.nn.relu %1 : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

/// A composite whose body is not what its name says (tanh, not relu, on the conv2d).
func.func @composite_body(%x: tensor<1x3x4x4xf32>, %w: tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': the body of composite 'accel.conv2d_relu' is not nn.relu(nn.conv2d(...))}}
  %0 = relay.composite "accel.conv2d_relu" (%x, %w) : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32> {
  ^bb0(%i: tensor<1x3x4x4xf32>, %k: tensor<2x3x1x1xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x4x4xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
    %2 = relay.tanh %1 : tensor<1x2x4x4xf32>
    relay.yield %2 : tensor<1x2x4x4xf32>
  }
  func.return %0 : tensor<1x2x4x4xf32>
}

// -----

/// A composite body with an op besides its chain.
func.func @composite_extra_op(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': the body of composite 'accel.add_relu' is not nn.relu(add(...))}}
  %0 = relay.composite "accel.add_relu" (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%l: tensor<4xf32>, %r: tensor<4xf32>):
    %1 = relay.add %l, %r : tensor<4xf32>
    %2 = relay.nn.relu %1 : tensor<4xf32>
    %3 = relay.exp %l : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

/// A composite whose kernel the accel predicate rejects (NHWC conv2d inside conv2d_bias).
func.func @composite_predicate(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>, %b: tensor<2xf32>) -> tensor<1x4x4x2xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': the 'target.accel' predicate rejects this 'nn.conv2d' (types or attributes)}}
  %0 = relay.composite "accel.conv2d_bias" (%x, %w, %b) : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> {
  ^bb0(%i: tensor<1x4x4x3xf32>, %k: tensor<1x1x3x2xf32>, %c: tensor<2xf32>):
    %1 = relay.nn.conv2d %i, %k {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<1x4x4x2xf32>
    %2 = relay.nn.bias_add %1, %c {axis = 3} : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
    relay.yield %2 : tensor<1x4x4x2xf32>
  }
  func.return %0 : tensor<1x4x4x2xf32>
}

// -----

/// A composite adding its bias along another axis than the output channels.
func.func @composite_bias_axis(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': its bias is added along axis 2, not the output channels (axis 1)}}
  %0 = relay.composite "accel.conv2d_bias" (%x, %w, %b) : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%i: tensor<1x3x4x4xf32>, %k: tensor<4x3x1x1xf32>, %c: tensor<4xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.nn.bias_add %1, %c {axis = 2} : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    relay.yield %2 : tensor<1x4x4x4xf32>
  }
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// A composite whose bias is an add of a constant of one value per (C, H, W) element, not per
/// channel.
func.func @composite_add_bias_shape(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': its bias constant of shape (4, 2, 2) is not one value per output channel (axis 1) of the (1, 4, 2, 2) result}}
  %0 = relay.composite "accel.conv2d_bias" (%x, %w) : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%i: tensor<1x3x2x2xf32>, %k: tensor<4x3x1x1xf32>):
    %c = relay.constant dense<1.0> : tensor<4x2x2xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
    %2 = relay.add %1, %c : (tensor<1x4x2x2xf32>, tensor<4x2x2xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %2 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// A dense composite whose add bias has the output's shape (one value per element).
func.func @composite_add_bias_dense_shape(%x: tensor<2x8xf32>, %w: tensor<3x8xf32>) -> tensor<2x3xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': its bias constant of shape (2, 3) is not one value per output channel (axis 1) of the (2, 3) result}}
  %0 = relay.composite "accel.dense_bias" (%x, %w) : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<3x8xf32>):
    %c = relay.constant dense<1.0> : tensor<2x3xf32>
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<3x8xf32>) -> tensor<2x3xf32>
    %2 = relay.add %c, %1 : tensor<2x3xf32>
    relay.yield %2 : tensor<2x3xf32>
  }
  func.return %0 : tensor<2x3xf32>
}

// -----

/// A composite whose add bias is one of its inputs, not a constant of its body: its values
/// are not known at compile time.
func.func @composite_add_bias_input(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': its bias is added by 'add' but is not a relay.constant of its body}}
  %0 = relay.composite "accel.conv2d_bias" (%b, %x, %w) : (tensor<4x1x1xf32>, tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%c: tensor<4x1x1xf32>, %i: tensor<1x3x2x2xf32>, %k: tensor<4x3x1x1xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
    %2 = relay.add %c, %1 : (tensor<4x1x1xf32>, tensor<1x4x2x2xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %2 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// A bias composite whose body adds something else than a bias to the conv2d (a subtract).
func.func @composite_bias_op(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': the body of composite 'accel.conv2d_bias_relu' is not nn.relu(nn.bias_add(nn.conv2d(...), ...) or add(nn.conv2d(...), constant))}}
  %0 = relay.composite "accel.conv2d_bias_relu" (%x, %w) : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {
  ^bb0(%i: tensor<1x3x2x2xf32>, %k: tensor<4x3x1x1xf32>):
    %c = relay.constant dense<1.0> : tensor<4x1x1xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
    %2 = relay.subtract %1, %c : (tensor<1x4x2x2xf32>, tensor<4x1x1xf32>) -> tensor<1x4x2x2xf32>
    %3 = relay.nn.relu %2 : tensor<1x4x2x2xf32>
    relay.yield %3 : tensor<1x4x2x2xf32>
  }
  func.return %0 : tensor<1x4x2x2xf32>
}

// -----

/// A batch_norm the accel predicate rejects (axis 3).
func.func @batch_norm_axis(%x: tensor<1x2x2x4xf32>, %g: tensor<4xf32>) -> tensor<1x2x2x4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.nn.batch_norm' op cannot be lowered to target 'accel': the 'target.accel' predicate rejects this 'nn.batch_norm' (types or attributes)}}
  %bn = relay.nn.batch_norm %x, %g, %g, %g, %g {axis = 3} : (tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>>
  %n = relay.tuple_get_item %bn {index = 0} : (tuple<tensor<1x2x2x4xf32>, tensor<4xf32>, tensor<4xf32>>) -> tensor<1x2x2x4xf32>
  func.return %n : tensor<1x2x2x4xf32>
}

// -----

/// A call inside an accel function: the accelerator runs kernels, not calls.
func.func @callee(%x: tensor<4xf32>) -> tensor<4xf32> {
  func.return %x : tensor<4xf32>
}
func.func @calls(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'func.call' op cannot be lowered to target 'accel': accel has no kernel for 'func.call'}}
  %0 = func.call @callee(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// A clip composite whose body ends in a relu instead is rejected with the chain it wants.
func.func @clip_composite_with_relu(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'accel': the body of composite 'accel.dense_clip' is not clip(nn.dense(...))}}
  %0 = relay.composite "accel.dense_clip" (%x, %w) : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<4x8xf32>):
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<4x8xf32>) -> tensor<2x4xf32>
    %2 = relay.nn.relu %1 : tensor<2x4xf32>
    relay.yield %2 : tensor<2x4xf32>
  }
  func.return %0 : tensor<2x4xf32>
}
