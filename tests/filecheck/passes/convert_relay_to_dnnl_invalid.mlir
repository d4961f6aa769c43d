// RUN: xrelay-opt %s -p convert-relay-to-dnnl --split-input-file --verify-diagnostics

/// An op dnnl has no primitive for.
func.func @no_primitive(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.exp' op cannot be lowered to target 'dnnl': dnnl has no primitive for 'exp'}}
  %0 = relay.exp %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// Every op dnnl cannot take is reported, not only the first; nothing is rewritten.
func.func @two_errors(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.exp' op cannot be lowered to target 'dnnl': dnnl has no primitive for 'exp'}}
  %0 = relay.exp %x : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  // expected-error@+1 {{'relay.sqrt' op cannot be lowered to target 'dnnl': dnnl has no primitive for 'sqrt'}}
  %2 = relay.sqrt %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// A tanh alone: dnnl's table takes it as a post-op only (no 'target.dnnl' predicate).
func.func @tanh_alone(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.tanh' op cannot be lowered to target 'dnnl': no 'target.dnnl' predicate is registered for 'tanh'}}
  %0 = relay.tanh %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// A subtract whose lhs is the broadcast operand: oneDNN broadcasts its second source only.
func.func @subtract_lhs_broadcast(%x: tensor<3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.subtract' op cannot be lowered to target 'dnnl': the 'target.dnnl' predicate rejects this 'subtract' (types or attributes)}}
  %0 = relay.subtract %x, %y : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

/// float64 operands: the predicates take float32 only.
func.func @relu_f64(%x: tensor<4xf64>) -> tensor<4xf64> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.nn.relu' op cannot be lowered to target 'dnnl': the 'target.dnnl' predicate rejects this 'nn.relu' (types or attributes)}}
  %0 = relay.nn.relu %x : tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

/// A composite whose name is not of dnnl's table.
func.func @unknown_composite(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'dnnl': dnnl has no primitive for composite 'dnnl.relu_relu'}}
  %0 = relay.composite "dnnl.relu_relu" (%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %1 = relay.nn.relu %i : tensor<4xf32>
    %2 = relay.nn.relu %1 : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

/// A composite whose body is not the chain its name says (a relu where a tanh should be).
func.func @body_mismatch(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) -> tensor<2x5xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'dnnl': the body of composite 'dnnl.dense_tanh' is not tanh(nn.dense(...))}}
  %0 = relay.composite "dnnl.dense_tanh" (%x, %w) : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32> {
  ^bb0(%i: tensor<2x8xf32>, %k: tensor<5x8xf32>):
    %1 = relay.nn.dense %i, %k : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
    %2 = relay.nn.relu %1 : tensor<2x5xf32>
    relay.yield %2 : tensor<2x5xf32>
  }
  func.return %0 : tensor<2x5xf32>
}

// -----

/// A bias added by `add` that does not hold one value per output channel: (C,) on an NCHW
/// conv2d broadcasts along W.
func.func @bias_not_per_channel(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'dnnl': its bias of shape (4) is not one value per output channel (axis 1) of the (1, 4, 4, 4) result}}
  %0 = relay.composite "dnnl.conv2d_bias" (%x, %w) : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%i: tensor<1x3x6x6xf32>, %k: tensor<4x3x3x3xf32>):
    %c = relay.constant dense<1.0> : tensor<4xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.add %1, %c : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    relay.yield %2 : tensor<1x4x4x4xf32>
  }
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// A bias_add along another axis than the output channels.
func.func @bias_add_axis(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'dnnl': its bias is added along axis 2, not the output channels (axis 1)}}
  %0 = relay.composite "dnnl.conv2d_bias" (%x, %w, %b) : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%i: tensor<1x3x4x4xf32>, %k: tensor<4x3x1x1xf32>, %c: tensor<4xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.nn.bias_add %1, %c {axis = 2} : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    relay.yield %2 : tensor<1x4x4x4xf32>
  }
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// A sum operand that broadcasts: oneDNN's sum post-op adds a tensor of the output's shape.
func.func @sum_broadcast(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x1x1xf32>, %b: tensor<4xf32>, %s: tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.composite' op cannot be lowered to target 'dnnl': its sum operand of type tensor<1x4x1x1xf32> is not of the tensor<1x4x4x4xf32> the kernel computes}}
  %0 = relay.composite "dnnl.conv2d_bias_sum" (%x, %w, %b, %s) : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>, tensor<4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32> {
  ^bb0(%i: tensor<1x3x4x4xf32>, %k: tensor<4x3x1x1xf32>, %c: tensor<4xf32>, %t: tensor<1x4x1x1xf32>):
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x4x4xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x4x4xf32>
    %2 = relay.nn.bias_add %1, %c : (tensor<1x4x4x4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
    %3 = relay.add %2, %t : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    relay.yield %3 : tensor<1x4x4x4xf32>
  }
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// A broadcast oneDNN's jit binary kernels do not have (along axes 1 and 2, not one axis).
func.func @add_broadcast(%x: tensor<2x2x3xf32>, %y: tensor<2x1x1xf32>) -> tensor<2x2x3xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.add' op cannot be lowered to target 'dnnl': the 'target.dnnl' predicate rejects this 'add' (types or attributes)}}
  %0 = relay.add %x, %y : (tensor<2x2x3xf32>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
  func.return %0 : tensor<2x2x3xf32>
}

// -----

/// An NCHW pool: oneDNN's NCHW pooling is a slow fallback (and seed 004 keeps it on the host).
func.func @nchw_pool(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32> attributes {Compiler = "dnnl"} {
  // expected-error@+1 {{'relay.nn.max_pool2d' op cannot be lowered to target 'dnnl': the 'target.dnnl' predicate rejects this 'nn.max_pool2d' (types or attributes)}}
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}
