// RUN: xrelay-opt %s --split-input-file -p 'partition-for{target=myacc}' | filecheck %s

/// The pattern table: relu(dense) and an erf GELU become composites of one myacc function;
/// the subtract stays on the host.
// CHECK-LABEL: func.func @tvmgen_default_myacc_main_0
// CHECK-SAME: Compiler = "myacc"
// CHECK: relay.composite "myacc.dense_relu"
// CHECK: relay.nn.dense
// CHECK-NEXT: relay.nn.relu
// CHECK: relay.composite "myacc.gelu"
// CHECK: relay.erf
// CHECK-LABEL: func.func @main
// CHECK-NEXT: func.call @tvmgen_default_myacc_main_0(%x, %w)
// CHECK-NEXT: relay.subtract
func.func @main(%x: tensor<3x8xf32>, %w: tensor<5x8xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %d = relay.nn.dense %x, %w : (tensor<3x8xf32>, tensor<5x8xf32>) -> tensor<3x5xf32>
  %r = relay.nn.relu %d : tensor<3x5xf32>
  %h = relay.constant dense<0.5> : tensor<f32>
  %xh = relay.multiply %r, %h : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %c = relay.constant dense<0.70710678> : tensor<f32>
  %s = relay.multiply %r, %c : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %e = relay.erf %s : tensor<3x5xf32>
  %p = relay.add %one, %e : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %g = relay.multiply %xh, %p : tensor<3x5xf32>
  %o = relay.subtract %g, %b : tensor<3x5xf32>
  func.return %o : tensor<3x5xf32>
}

// -----

/// GELU's other order, (x * (erf(x / sqrt(2)) + 1)) * 0.5, is a GELU too.
// CHECK-LABEL: func.func @tvmgen_default_myacc_main_0
// CHECK: relay.composite "myacc.gelu" (%myacc_0_i0)
// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.constant dense<1.41421356> : tensor<f32>
  %s = relay.divide %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = relay.erf %s : tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %p = relay.add %e, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %xp = relay.multiply %x, %p : tensor<4xf32>
  %h = relay.constant dense<0.5> : tensor<f32>
  %g = relay.multiply %xp, %h : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  func.return %g : tensor<4xf32>
}

// -----

/// Negative: the shape of a GELU with another constant (0.6 inside the erf) is not one,
/// nor is a float16 relu(dense): nothing is offloaded.
// CHECK-LABEL: func.func @main
// CHECK-NOT: myacc
// CHECK-NOT: relay.composite
func.func @main(%x: tensor<4xf32>, %y: tensor<2x4xf16>, %w: tensor<3x4xf16>) -> (tensor<4xf32>, tensor<2x3xf16>) {
  %h = relay.constant dense<0.5> : tensor<f32>
  %xh = relay.multiply %x, %h : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = relay.constant dense<0.6> : tensor<f32>
  %s = relay.multiply %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = relay.erf %s : tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %p = relay.add %one, %e : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %g = relay.multiply %xh, %p : tensor<4xf32>
  %d = relay.nn.dense %y, %w : (tensor<2x4xf16>, tensor<3x4xf16>) -> tensor<2x3xf16>
  %r = relay.nn.relu %d : tensor<2x3xf16>
  func.return %g, %r : tensor<4xf32>, tensor<2x3xf16>
}

// -----

/// Negative: GELU's shape over two different inputs, y * 0.5 * (1 + erf(z / sqrt(2))).
// CHECK-LABEL: func.func @main
// CHECK-NOT: myacc
// CHECK-NOT: relay.composite
func.func @main(%y: tensor<4xf32>, %z: tensor<4xf32>) -> tensor<4xf32> {
  %h = relay.constant dense<0.5> : tensor<f32>
  %yh = relay.multiply %y, %h : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %c = relay.constant dense<0.70710678> : tensor<f32>
  %s = relay.multiply %z, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = relay.erf %s : tensor<4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %p = relay.add %one, %e : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %g = relay.multiply %yh, %p : tensor<4xf32>
  func.return %g : tensor<4xf32>
}
