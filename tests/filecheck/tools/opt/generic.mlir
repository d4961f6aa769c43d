// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=PRINT
// RUN: xrelay-opt %s --split-input-file -t 'mlir{generic=true}' | filecheck %s --check-prefix=PRINT
// RUN: XRELAY_ROUNDTRIP
// RUN: XRELAY_GENERIC_ROUNDTRIP

/// --print-op-generic (or -t 'mlir{generic=true}') prints every op in MLIR's generic
/// form, with all properties, defaults included.
// PRINT:      "builtin.module"() ({
// PRINT-NEXT:   "func.func"() <{sym_name = "conv", function_type = (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>}> ({
// PRINT-NEXT:   ^bb0(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>):
// PRINT-NEXT:     %0 = "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NCHW", kernel_layout = "OIHW"}> : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
// PRINT-NEXT:     "func.return"(%0) : (tensor<1x4x4x4xf32>) -> ()

/// The generic form parses back to the custom form (XRELAY_ROUNDTRIP)...
// CHECK-LABEL: func.func @conv
// CHECK-NEXT:    %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT:    func.return %0 : tensor<1x4x4x4xf32>

/// ...and to itself (XRELAY_GENERIC_ROUNDTRIP).
// GENERIC:      "func.func"() <{sym_name = "conv"
// GENERIC:        %0 = "relay.nn.conv2d"(%x, %w) <{strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, groups = 1 : i64, data_layout = "NCHW", kernel_layout = "OIHW"}>
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %0 = relay.nn.conv2d %x, %w {strides = [2, 2], padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  func.return %0 : tensor<1x4x4x4xf32>
}

// -----

/// Region ops and discardable attributes print generically too.
// PRINT:      %0 = "relay.composite"(%a) <{composite = "accel.relu"}> ({
// PRINT-NEXT: ^bb0(%i: tensor<4xf32>):
// PRINT-NEXT:   %r = "relay.nn.relu"(%i) : (tensor<4xf32>) -> tensor<4xf32>
// PRINT-NEXT:   "relay.yield"(%r) : (tensor<4xf32>) -> ()
// PRINT-NEXT: }) {PartitionedFromPattern = "nn.relu_"} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-LABEL: func.func @composite
// CHECK-NEXT:    relay.composite "accel.relu" (%a) {PartitionedFromPattern = "nn.relu_"} : (tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:    ^bb0(%i: tensor<4xf32>):
// GENERIC:     "relay.composite"(%a) <{composite = "accel.relu"}> ({
// GENERIC:     }) {PartitionedFromPattern = "nn.relu_"} : (tensor<4xf32>) -> tensor<4xf32>
func.func @composite(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.composite "accel.relu" (%a) {PartitionedFromPattern = "nn.relu_"} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %r = relay.nn.relu %i : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
