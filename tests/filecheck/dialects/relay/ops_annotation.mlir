// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// annotation.stop_fusion: identity on a tensor of any dtype and shape (`?` dims kept).
// CHECK-LABEL: func.func @stop_fusion
func.func @stop_fusion(%x: tensor<2x3xf32>, %y: tensor<?x4xi8>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = relay.annotation.stop_fusion %x : tensor<2x3xf32>
  // CHECK-NEXT: %1 = relay.annotation.stop_fusion %y : tensor<?x4xi8>
  // GENERIC: "relay.annotation.stop_fusion"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "relay.annotation.stop_fusion"(%y) : (tensor<?x4xi8>) -> tensor<?x4xi8>
  %0 = relay.annotation.stop_fusion %x : tensor<2x3xf32>
  %1 = relay.annotation.stop_fusion %y : tensor<?x4xi8>
  func.return %0 : tensor<2x3xf32>
}
