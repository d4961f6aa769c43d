// RUN: xrelay-opt %s -p inline --split-input-file --verify-diagnostics

/// Recursion among functions marked `Inline` cannot be inlined: the error names the cycle.
// expected-error@+1 {{'func.func' op cannot be inlined: recursion among functions marked Inline: @even -> @odd -> @even (in pass 'inline')}}
func.func @even(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> attributes {Inline = 1 : i32} {
  %0 = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    %r = func.call @odd(%x, %c) : (tensor<f32>, tensor<i1>) -> tensor<f32>
    relay.yield %r : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
func.func @odd(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> attributes {Inline = 1 : i32} {
  %0 = func.call @even(%x, %c) : (tensor<f32>, tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
func.func @main(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %0 = func.call @even(%x, %c) : (tensor<f32>, tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

/// A function marked `Inline` that calls itself.
func.func @main(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> {
  %0 = func.call @self(%x, %c) : (tensor<f32>, tensor<i1>) -> tensor<f32>
  func.return %0 : tensor<f32>
}
// expected-error@+1 {{'func.func' op cannot be inlined: recursion among functions marked Inline: @self -> @self}}
func.func @self(%x: tensor<f32>, %c: tensor<i1>) -> tensor<f32> attributes {Inline = 1 : i32} {
  %0 = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    %r = func.call @self(%x, %c) : (tensor<f32>, tensor<i1>) -> tensor<f32>
    relay.yield %r : tensor<f32>
  }
  func.return %0 : tensor<f32>
}
