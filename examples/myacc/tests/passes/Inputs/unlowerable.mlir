// A function partitioned for myacc by hand, holding an op myacc has no kernel for.
func.func @part(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {Compiler = "myacc"} {
  %r = relay.nn.relu %x : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
