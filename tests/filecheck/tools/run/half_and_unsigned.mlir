// bf16, f16 and uint64 through xrelay-run, interpreted and built: the input is zeros, so
// the results are exact. bf16 prints through float32 (numpy does not count it as a
// number); -0 in uint64 is 0, and 0 - 1 wraps to the largest uint64.
// RUN: xrelay-run %s --print-values | filecheck %s
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --print-values --target c | filecheck %s
//       CHECK: {{\A}}output0: bfloat16[3] min=-2 max=1.5 mean=0.166667{{$}}
//  CHECK-NEXT: {{^}}[1.5 1 -2]{{$}}
//  CHECK-NEXT: {{^}}output1: float16[3] min=0.0999756 max=0.0999756 mean=0.0999756{{$}}
//  CHECK-NEXT: {{^}}[0.1 0.1 0.1]{{$}}
//  CHECK-NEXT: {{^}}output2: uint64[3] min=1.84467e+19 max=1.84467e+19 mean=1.84467e+19{{$}}
//  CHECK-NEXT: {{^}}[18446744073709551615 18446744073709551615 18446744073709551615]{{$}}
//   CHECK-NOT: {{.}}
func.func @main(%x: tensor<3xbf16>, %h: tensor<3xf16>, %u: tensor<3xui64>) -> (tensor<3xbf16>, tensor<3xf16>, tensor<3xui64>) {
  %c = relay.constant dense<[1.5, 1.0, -2.0]> : tensor<3xbf16>
  %0 = relay.add %x, %c : tensor<3xbf16>
  %d = relay.constant dense<0.1> : tensor<f16>
  %1 = relay.add %h, %d : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  %one = relay.constant dense<1> : tensor<ui64>
  %2 = relay.subtract %u, %one : (tensor<3xui64>, tensor<ui64>) -> tensor<3xui64>
  func.return %0, %1, %2 : tensor<3xbf16>, tensor<3xf16>, tensor<3xui64>
}
