// RUN: xrelay-opt %s -p 'partition-for{target=myacc},convert-relay-to-myacc' | filecheck %s
// RUN: not xrelay-opt %S/Inputs/unlowerable.mlir -p convert-relay-to-myacc 2>&1 | filecheck %s --check-prefix=ERROR

/// The lowering patterns: each composite of a myacc function becomes its kernel, reading
/// the composite's inputs; the host function is untouched.
// CHECK-LABEL: func.func @tvmgen_default_myacc_main_0
// CHECK-NEXT: %r = myacc.matmul_relu %myacc_0_i0, %myacc_0_i1 : (tensor<3x8xf32>, tensor<5x8xf32>) -> tensor<3x5xf32>
// CHECK-NEXT: %g = myacc.gelu %r : tensor<3x5xf32>
// CHECK-NEXT: func.return %g : tensor<3x5xf32>
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

/// An op of a myacc function that no pattern lowers is a located error.
// ERROR: unlowerable.mlir:3:8: error: 'relay.nn.relu' op cannot be lowered to target 'myacc': myacc has no kernel for 'nn.relu' (in pass 'convert-relay-to-myacc')
