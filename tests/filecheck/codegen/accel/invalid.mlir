// RUN: xrelay-opt %s --split-input-file -p plan-memory -t c --verify-diagnostics

/// An op with no accel kernel, in a function lowered for accel: the error names op and target.
func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = accel.relu %a : tensor<4xf32>
  // expected-error@+1 {{'relay.nn.softmax' op cannot be emitted for target 'accel'}}
  %1 = relay.nn.softmax %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// A relay op accel has a kernel for, left unlowered: the error says which pass lowers it.
func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = accel.relu %a : tensor<4xf32>
  // expected-error@+1 {{'relay.add' op cannot be emitted for target 'accel': lower it with convert-relay-to-accel first}}
  %1 = relay.add %0, %a : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// A composite of accel's pattern table, left unlowered.
func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = accel.relu %a : tensor<4xf32>
  // expected-error@+1 {{'relay.composite' op cannot be emitted for target 'accel': lower it with convert-relay-to-accel first}}
  %1 = relay.composite "accel.add_relu" (%0, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>, %j: tensor<4xf32>):
    %s = relay.add %i, %j : tensor<4xf32>
    %r = relay.nn.relu %s : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// accel kernels are float32 only.
func.func @part(%a: tensor<4xf64>) -> tensor<4xf64> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'accel.relu' op cannot emit type 'tensor<4xf64>' for target 'accel'}}
  %0 = accel.relu %a : tensor<4xf64>
  func.return %0 : tensor<4xf64>
}
func.func @main(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = func.call @part(%x) : (tensor<4xf64>) -> tensor<4xf64>
  func.return %0 : tensor<4xf64>
}

// -----

/// An accel function calls nothing: calls are host code.
func.func @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = accel.relu %a : tensor<4xf32>
  // expected-error@+1 {{'func.call' op cannot be emitted for target 'accel'}}
  %1 = func.call @helper(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// A Winograd convolution whose transformed input would not fit a thread's stack scratch
/// (`accel-winograd` never makes one; a hand-written op can).
func.func @part(%x: tensor<1x128x8x64xf32>, %u: tensor<6x6x16x128xf32>) -> tensor<1x16x8x64xf32> attributes {Compiler = "accel"} {
  // expected-error@+1 {{'accel.conv2d_winograd' op cannot be emitted for target 'accel': 128 input channels need 324 KiB of stack scratch at tile 4, more than 112 KiB}}
  %y = accel.conv2d_winograd %x, %u {padding = [1, 1, 1, 1], tile = 4} : (tensor<1x128x8x64xf32>, tensor<6x6x16x128xf32>) -> tensor<1x16x8x64xf32>
  func.return %y : tensor<1x16x8x64xf32>
}
func.func @main(%x: tensor<1x128x8x64xf32>, %u: tensor<6x6x16x128xf32>) -> tensor<1x16x8x64xf32> {
  %y = func.call @part(%x, %u) : (tensor<1x128x8x64xf32>, tensor<6x6x16x128xf32>) -> tensor<1x16x8x64xf32>
  func.return %y : tensor<1x16x8x64xf32>
}
