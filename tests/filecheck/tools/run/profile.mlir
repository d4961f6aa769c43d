// `--profile` builds with the option `profile` and ends with the time of every kernel:
// the whole run (`main`), each call it makes (named after the callee) and, under the
// accel function's call, each accel kernel (`<function>/<op>#<n>`). Siblings are
// printed longest first, so their order is not checked; the counts are the --repeat runs.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target accel,c --repeat 3 --profile | filecheck %s
//       CHECK: {{\A}}output0: float32[1, 2, 2, 2] min=0 max=0.5 mean=0.25{{$}}
//  CHECK-NEXT: {{^}}output1: float32[1, 2, 2, 2] min=0.5 max=1 mean=0.75{{$}}
//  CHECK-NEXT: {{^}}time: median {{[0-9.e+-]+}} ms, min {{[0-9.e+-]+}} ms, 3 runs{{$}}
//  CHECK-NEXT: {{^}}profile: 3 runs{{$}}
//  CHECK-NEXT: {{^}}kernel{{ +}}calls  total ms  mean us  % of run{{$}}
//  CHECK-NEXT: {{^}}main{{ +}}3{{ +[0-9.]+ +[0-9.]+ +}}100.0%{{$}}
//   CHECK-DAG: {{^  }}tvmgen_default_accel_main_0{{ +}}3{{ +[0-9.]+ +[0-9.]+ +[0-9.]+}}%{{$}}
//   CHECK-DAG: {{^    }}tvmgen_default_accel_main_0/accel.conv2d#0{{ +}}3{{ +[0-9.]+ +[0-9.]+ +[0-9.]+}}%{{$}}
//   CHECK-DAG: {{^  }}fused_subtract{{ +}}3{{ +[0-9.]+ +[0-9.]+ +[0-9.]+}}%{{$}}
//   CHECK-NOT: {{.}}

/// Without --repeat the table covers the one run; `--target c` runs FuseOps' groups.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target c --profile | filecheck %s --check-prefix=HOST
//      HOST: {{^}}profile: 1 run{{$}}
// HOST-NEXT: {{^}}kernel{{ +}}calls  total ms  mean us  % of run{{$}}
// HOST-NEXT: {{^}}main{{ +}}1{{ +[0-9.]+ +[0-9.]+ +}}100.0%{{$}}
//  HOST-DAG: {{^  }}fused_nn_conv2d_add_nn_relu{{ +}}1{{ .*}}%{{$}}
//  HOST-DAG: {{^  }}fused_subtract{{ +}}1{{ .*}}%{{$}}
//  HOST-NOT: {{.}}

/// The interpreter has no kernels to time.
// RUN: not xrelay-run %s --profile 2>&1 | filecheck %s --check-prefix=NOTARGET
//     NOTARGET: {{\A}}xrelay-run: error: --profile needs --target{{$}}
// NOTARGET-NOT: {{.}}

func.func @main(%x: tensor<1x3x2x2xf32>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) {
  %w = relay.constant dense<0.25> : tensor<2x3x1x1xf32>
  %b = relay.constant dense<[-0.5, 0.5]> : tensor<2xf32>
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x2x2xf32>, tensor<2x3x1x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x2x2x2xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x2x2xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %3 = relay.subtract %one, %2 : (tensor<f32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %2, %3 : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>
}
