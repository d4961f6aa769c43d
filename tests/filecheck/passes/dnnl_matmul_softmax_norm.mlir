// RUN: xrelay-opt %s --split-input-file -p 'partition-for{target=dnnl},convert-relay-to-dnnl' | filecheck %s

/// What dnnl takes of a transformer's ops: batch_matmul (TVM's x @ y^T) and 2-D / 3-D
/// matmul (a batch of 1 broadcast) become oneDNN matmuls; a 4-D matmul stays on the host.
// CHECK-LABEL: func.func @tvmgen_default_dnnl_main_0
//  CHECK-NEXT:   %0 = dnnl.batch_matmul %dnnl_0_i0, %dnnl_0_i1 : (tensor<4x5x8xf32>, tensor<4x6x8xf32>) -> tensor<4x5x6xf32>
// CHECK-LABEL: func.func @tvmgen_default_dnnl_main_2
//  CHECK-NEXT:   %0 = dnnl.matmul %dnnl_2_i0, %dnnl_2_i1 : (tensor<2x5x7xf32>, tensor<1x7x3xf32>) -> tensor<2x5x3xf32>
// CHECK-LABEL: func.func @main
//       CHECK:   %2 = relay.matmul %c, %d : (tensor<2x2x5x7xf32>, tensor<2x2x7x3xf32>) -> tensor<2x2x5x3xf32>
func.func @main(%q: tensor<4x5x8xf32>, %k: tensor<4x6x8xf32>, %a: tensor<2x5x7xf32>, %b: tensor<1x7x3xf32>, %c: tensor<2x2x5x7xf32>, %d: tensor<2x2x7x3xf32>) -> (tensor<4x5x6xf32>, tensor<2x5x3xf32>, tensor<2x2x5x3xf32>) {
  %0 = relay.nn.batch_matmul %q, %k : (tensor<4x5x8xf32>, tensor<4x6x8xf32>) -> tensor<4x5x6xf32>
  %1 = relay.matmul %a, %b : (tensor<2x5x7xf32>, tensor<1x7x3xf32>) -> tensor<2x5x3xf32>
  %2 = relay.matmul %c, %d : (tensor<2x2x5x7xf32>, tensor<2x2x7x3xf32>) -> tensor<2x2x5x3xf32>
  func.return %0, %1, %2 : tensor<4x5x6xf32>, tensor<2x5x3xf32>, tensor<2x2x5x3xf32>
}

// -----

/// softmax and layer_norm along the last axis become oneDNN's; along another axis they stay
/// on the host.
// CHECK-LABEL: func.func @tvmgen_default_dnnl_main_0
//  CHECK-NEXT:   %0 = dnnl.softmax %dnnl_0_i0 {axis = 1} : tensor<4x8xf32>
// CHECK-LABEL: func.func @tvmgen_default_dnnl_main_1
//  CHECK-NEXT:   %0 = dnnl.layer_norm %dnnl_1_i0, %dnnl_1_i1, %dnnl_1_i2 : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-LABEL: func.func @main
//       CHECK:   %1 = relay.nn.softmax %x {axis = 0} : tensor<4x8xf32>
//       CHECK:   %3 = relay.nn.layer_norm %x, %h, %h {axis = 0} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>
func.func @main(%x: tensor<4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>, %h: tensor<4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = relay.nn.softmax %x {axis = 1} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = relay.nn.softmax %x {axis = 0} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = relay.nn.layer_norm %x, %g, %b : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %3 = relay.nn.layer_norm %x, %h, %h {axis = 0} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  func.return %0, %1, %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
