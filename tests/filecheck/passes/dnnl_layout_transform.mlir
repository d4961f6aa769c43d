// RUN: xrelay-opt %s -p convert-relay-to-dnnl --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'partition-for{target=dnnl}' --split-input-file | filecheck %s --check-prefix=PART

/// dnnl takes `layout_transform` between NCHW and NHWC (4-D float32): the transforms dnnl's
/// prelude leaves at a model's edges run as oneDNN reorders inside the partitions. One that
/// only moves axes of extent 1 is a `relay.reshape` (the same bytes): no primitive at all.
// CHECK-LABEL: func.func @edges
//  CHECK-NEXT:   %0 = dnnl.reorder %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
//  CHECK-NEXT:   %1 = dnnl.relu %0 : tensor<1x4x4x3xf32>
//  CHECK-NEXT:   %2 = dnnl.reorder %1 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
//  CHECK-NEXT:   %3 = relay.reshape %v {newshape = [1, 1, 1, 8]} : (tensor<1x8x1x1xf32>) -> tensor<1x1x1x8xf32>
//  CHECK-NEXT:   func.return %2, %3
func.func @edges(%x: tensor<1x3x4x4xf32>, %v: tensor<1x8x1x1xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x1x1x8xf32>) attributes {Compiler = "dnnl"} {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x3x4x4xf32>) -> tensor<1x4x4x3xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x4x3xf32>
  %2 = relay.layout_transform %1 {src_layout = "NHWC", dst_layout = "NCHW"} : (tensor<1x4x4x3xf32>) -> tensor<1x3x4x4xf32>
  %3 = relay.layout_transform %v {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x1x1xf32>) -> tensor<1x1x1x8xf32>
  func.return %2, %3 : tensor<1x3x4x4xf32>, tensor<1x1x1x8xf32>
}

// -----

/// Partitioning: the NCHW <-> NHWC transforms join the dnnl region; a transform to another
/// layout (CHWN), or a blocked one (NCHW4c), stays on the host.
// PART-LABEL: func.func @tvmgen_default_dnnl_main_0
//  PART-NEXT:   relay.layout_transform %{{.*}} {src_layout = "NCHW", dst_layout = "NHWC"}
//  PART-NEXT:   relay.nn.relu
//  PART-NEXT:   func.return
// PART-LABEL: func.func @main
//       PART:   relay.layout_transform %{{.*}} {src_layout = "NHWC", dst_layout = "CHWN"}
//       PART:   relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"}
func.func @main(%x: tensor<1x8x4x4xf32>) -> (tensor<8x4x4x1xf32>, tensor<1x2x4x4x4xf32>) {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x4x8xf32>
  %2 = relay.layout_transform %1 {src_layout = "NHWC", dst_layout = "CHWN"} : (tensor<1x4x4x8xf32>) -> tensor<8x4x4x1xf32>
  %3 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  func.return %2, %3 : tensor<8x4x4x1xf32>, tensor<1x2x4x4x4xf32>
}
