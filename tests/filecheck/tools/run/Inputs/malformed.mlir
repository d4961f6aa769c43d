func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x, : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
