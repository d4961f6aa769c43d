// A built library prints what the interpreter prints: `--target c` (all on the host) and
// `--target accel,c` (the conv, bias and relu partitioned for accel, the rest on the
// host). The input is zeros, so the results are exact in both: relu(bias), 1 - that.
// RUN: xrelay-run %s --print-values | filecheck %s
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --print-values --target c | filecheck %s
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --print-values --target accel,c | filecheck %s
//       CHECK: {{\A}}output0: float32[1, 2, 2, 2] min=0 max=0.5 mean=0.25{{$}}
//  CHECK-NEXT: {{^\[\[\[\[}}0.  0. ]{{$}}
//  CHECK-NEXT: {{^}}   [0.  0. ]]{{$}}
// CHECK-EMPTY:
//  CHECK-NEXT: {{^  \[\[}}0.5 0.5]{{$}}
//  CHECK-NEXT: {{^}}   [0.5 0.5]]]]{{$}}
//  CHECK-NEXT: {{^}}output1: float32[1, 2, 2, 2] min=0.5 max=1 mean=0.75{{$}}
//  CHECK-NEXT: {{^\[\[\[\[}}1.  1. ]{{$}}
//  CHECK-NEXT: {{^}}   [1.  1. ]]{{$}}
// CHECK-EMPTY:
//  CHECK-NEXT: {{^  \[\[}}0.5 0.5]{{$}}
//  CHECK-NEXT: {{^}}   [0.5 0.5]]]]{{$}}
//   CHECK-NOT: {{.}}

/// `--repeat N` prints the outputs of the first run, then the timing of N more.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target c --repeat 3 | filecheck %s --check-prefix=REPEAT
//      REPEAT: {{\A}}output0: float32[1, 2, 2, 2] min=0 max=0.5 mean=0.25{{$}}
// REPEAT-NEXT: {{^}}output1: float32[1, 2, 2, 2] min=0.5 max=1 mean=0.75{{$}}
// REPEAT-NEXT: {{^}}time: median {{[0-9.e+-]+}} ms, min {{[0-9.e+-]+}} ms, 3 runs{{$}}
//  REPEAT-NOT: {{.}}

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
