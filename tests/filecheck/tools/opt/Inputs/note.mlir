func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+2 {{inferred type(s) 'tensor<2xf32>' are incompatible}}
  // expected-note@+1 {{see current operation: %0 = "relay.exp"}}
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<3xf32>
  func.return %x : tensor<2xf32>
}
