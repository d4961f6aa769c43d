// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// annotation.stop_fusion: the result has the data's type.
func.func @stop_fusion_type(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.annotation.stop_fusion' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf16>'}}
  %0 = "relay.annotation.stop_fusion"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf16>
  func.return
}

// -----

/// annotation.stop_fusion: the data is a tensor (TVM's identity relation also takes a tuple).
func.func @stop_fusion_tuple(%x: tensor<2xf32>) {
  %t = relay.tuple %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  // expected-error@+1 {{'relay.annotation.stop_fusion' op operand 'data' at position 0 does not verify: tuple<tensor<2xf32>, tensor<2xf32>> should be of base attribute tensor}}
  %0 = "relay.annotation.stop_fusion"(%t) : (tuple<tensor<2xf32>, tensor<2xf32>>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  func.return
}
