// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// The fast math ops: float unary ops, and softmax with its axis (default -1).
// CHECK-LABEL: func.func @fast
func.func @fast(%x: tensor<2x3xf32>, %h: tensor<4xf16>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = relay.fast_exp %x : tensor<2x3xf32>
  // CHECK-NEXT: %1 = relay.fast_tanh %h : tensor<4xf16>
  // CHECK-NEXT: %2 = relay.fast_erf %x : tensor<2x3xf32>
  // CHECK-NEXT: %3 = relay.nn.fast_softmax %x : tensor<2x3xf32>
  // CHECK-NEXT: %4 = relay.nn.fast_softmax %x {axis = 0} : tensor<2x3xf32>
  // GENERIC: "relay.fast_exp"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "relay.fast_tanh"(%h) : (tensor<4xf16>) -> tensor<4xf16>
  // GENERIC: "relay.fast_erf"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "relay.nn.fast_softmax"(%x) <{axis = -1 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // GENERIC: "relay.nn.fast_softmax"(%x) <{axis = 0 : i64}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = relay.fast_exp %x : tensor<2x3xf32>
  %1 = relay.fast_tanh %h : tensor<4xf16>
  %2 = relay.fast_erf %x : tensor<2x3xf32>
  %3 = relay.nn.fast_softmax %x : tensor<2x3xf32>
  %4 = relay.nn.fast_softmax %x {axis = 0} : tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
