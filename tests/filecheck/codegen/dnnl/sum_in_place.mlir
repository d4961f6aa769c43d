// RUN: xrelay-opt %s --split-input-file -p 'partition-for{target=dnnl},optimize{opt-level=3},convert-relay-to-dnnl,plan-memory' -t c | filecheck %s

/// A residual block (conv, conv, conv + sum of the first result, relu): the sum post-op's
/// operand dies at it, so plan-memory places the result over it (both at arena + 4096) and the
/// run adds in place, with no copy.
// CHECK-LABEL: // ----- dnnl.c
//       CHECK: void xk_tvmgen_default_dnnl_main_0(unsigned char *arena, const float *p0, float *restrict o0) {
//       CHECK:     static const char what[] = "dnnl.conv2d #3 in @tvmgen_default_dnnl_main_0";
//  CHECK-NEXT:     /* sum in place */
//  CHECK-NEXT:     dnnl_exec_arg_t args[5] =
//   CHECK-NOT: memcpy(
//       CHECK: // ----- constants.bin
func.func @main(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w = relay.constant dense<0.01> : tensor<16x16x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<16xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %y = relay.nn.relu %1 : tensor<1x16x8x8xf32>
  %2 = relay.nn.conv2d %y, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %3 = relay.nn.relu %2 : tensor<1x16x8x8xf32>
  %4 = relay.nn.conv2d %3, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %5 = relay.nn.bias_add %4, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %6 = relay.add %5, %y : tensor<1x16x8x8xf32>
  %7 = relay.nn.relu %6 : tensor<1x16x8x8xf32>
  func.return %7 : tensor<1x16x8x8xf32>
}

// -----

/// The block's input %y is read again after the sum (multiply): the result gets its own
/// buffer and the sum operand is copied into it first (two planned buffers: no run-time test).
// CHECK-LABEL: // ----- dnnl.c
//       CHECK: void xk_tvmgen_default_dnnl_main_0(
//       CHECK:     static const char what[] = "dnnl.conv2d #3 in @tvmgen_default_dnnl_main_0";
//  CHECK-NEXT:     memcpy((float *)(arena + [[DST:[0-9]+]]), (float *)(arena + [[SUM:[0-9]+]]), 4096);
//  CHECK-NEXT:     dnnl_exec_arg_t args[5] =
//       CHECK:     /* dnnl.multiply */
func.func @main(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %w = relay.constant dense<0.01> : tensor<16x16x3x3xf32>
  %b = relay.constant dense<0.25> : tensor<16xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %y = relay.nn.relu %1 : tensor<1x16x8x8xf32>
  %2 = relay.nn.conv2d %y, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %3 = relay.nn.relu %2 : tensor<1x16x8x8xf32>
  %4 = relay.nn.conv2d %3, %w {padding = [1, 1, 1, 1]} : (tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x8xf32>
  %5 = relay.nn.bias_add %4, %b : (tensor<1x16x8x8xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
  %6 = relay.add %5, %y : tensor<1x16x8x8xf32>
  %7 = relay.nn.relu %6 : tensor<1x16x8x8xf32>
  %8 = relay.multiply %7, %y : tensor<1x16x8x8xf32>
  func.return %8 : tensor<1x16x8x8xf32>
}
