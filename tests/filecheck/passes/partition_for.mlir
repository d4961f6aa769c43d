// RUN: xrelay-opt %s -p 'partition-for{target=accel}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'partition-for{target=dnnl mod-name=net}' --split-input-file | filecheck %s --check-prefix=DNNL
// RUN: xrelay-opt %s -p 'partition-for{target=accel merge-regions=false}' --split-input-file | filecheck %s --check-prefix=NOMERGE

/// conv2d+bias_add+relu becomes an accel composite in its own function; tanh stays
/// on the host and cuts the graph; the residual add of equal shapes goes to accel.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<1x3x8x8xf32>, %accel_0_i1: tensor<4x3x3x3xf32>, %accel_0_i2: tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK-SAME:    attributes {Compiler = "accel", global_symbol = "tvmgen_default_accel_main_0", Primitive = 1 : i32, Inline = 1 : i32}
// CHECK-NEXT:    %0 = relay.composite "accel.conv2d_bias_relu" (%accel_0_i0, %accel_0_i1, %accel_0_i2) {PartitionedFromPattern = "nn.conv2d_nn.bias_add_nn.relu_"}
// CHECK:         func.return %0
// CHECK-LABEL: func.func @tvmgen_default_accel_main_3(%accel_3_i0: tensor<1x4x8x8xf32>, %accel_3_i1: tensor<1x4x8x8xf32>)
// CHECK-NEXT:    %0 = relay.add %accel_3_i0, %accel_3_i1
// CHECK-NEXT:    func.return %0
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = func.call @tvmgen_default_accel_main_0(%x, %w, %b)
// CHECK-NEXT:    %1 = relay.tanh %0
// CHECK-NEXT:    %2 = func.call @tvmgen_default_accel_main_3(%1, %0)
// CHECK-NEXT:    func.return %2

// dnnl: the same structure, named after the module name.
// DNNL-LABEL: func.func @tvmgen_net_dnnl_main_0
// DNNL:         relay.composite "dnnl.conv2d_bias_relu"
// DNNL-LABEL: func.func @tvmgen_net_dnnl_main_3
// DNNL-LABEL: func.func @main
// DNNL-NEXT:    func.call @tvmgen_net_dnnl_main_0
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.bias_add %0, %b : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32>
  %3 = relay.tanh %2 : tensor<1x4x8x8xf32>
  %4 = relay.add %3, %2 : tensor<1x4x8x8xf32>
  func.return %4 : tensor<1x4x8x8xf32>
}

// -----

/// Two supported ops in a row merge into one function; without merging each is its own.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4x4xf32>, %accel_0_i1: tensor<4x4xf32>)
// CHECK-NEXT:    %0 = relay.multiply %accel_0_i0, %accel_0_i1
// CHECK-NEXT:    %1 = relay.nn.relu %0
// CHECK-NEXT:    func.return %1
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = func.call @tvmgen_default_accel_main_0(%x, %y)
// CHECK-NEXT:    func.return %0

// NOMERGE-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4x4xf32>,
// NOMERGE-NEXT:    relay.multiply
// NOMERGE-LABEL: func.func @tvmgen_default_accel_main_2
// NOMERGE-NEXT:    relay.nn.relu
// NOMERGE-LABEL: func.func @main
// NOMERGE-NEXT:    %0 = func.call @tvmgen_default_accel_main_0(%x, %y)
// NOMERGE-NEXT:    %1 = func.call @tvmgen_default_accel_main_2(%0)
func.func @main(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = relay.multiply %x, %y : tensor<4x4xf32>
  %1 = relay.nn.relu %0 : tensor<4x4xf32>
  func.return %1 : tensor<4x4xf32>
}

// -----

/// Nothing a target takes (integer ops): the module is left as it was.
// CHECK-LABEL: func.func @main(%x: tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %0 = relay.add %x, %x : tensor<4xi32>
// CHECK-NEXT:    func.return %0
// CHECK-NOT:   func.func
func.func @main(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = relay.add %x, %x : tensor<4xi32>
  func.return %0 : tensor<4xi32>
}
