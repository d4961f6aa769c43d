/// xrelay-run builds for myacc with no load flag (entry point) and prints what the
/// interpreter prints; the profile shows both kernels ran in the myacc partition.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target myacc,c --random --print-values --profile | filecheck %s --check-prefixes=CHECK,PROFILE
// RUN: xrelay-run %s --random --print-values | filecheck %s
// CHECK: output0: float32[2, 4] min=0 max=0.126516 mean=0.0225881
// CHECK-NEXT: {{\[\[}}0.         0.         0.         0.        ]
// CHECK-NEXT: {{ \[}}0.         0.12651584 0.         0.05418879]]
// PROFILE-DAG: tvmgen_default_myacc_main_0/myacc.matmul_relu#0      1
// PROFILE-DAG: tvmgen_default_myacc_main_0/myacc.gelu#0      1

func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %d = relay.nn.dense %x, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %r = relay.nn.relu %d : tensor<2x4xf32>
  %h = relay.constant dense<0.5> : tensor<f32>
  %xh = relay.multiply %r, %h : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %c = relay.constant dense<1.41421356> : tensor<f32>
  %s = relay.divide %r, %c : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %e = relay.erf %s : tensor<2x4xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %p = relay.add %e, %one : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %g = relay.multiply %xh, %p : tensor<2x4xf32>
  func.return %g : tensor<2x4xf32>
}
