// RUN: xrelay-opt %s --split-input-file -p myacc-fuse-matmul-relu | filecheck %s
// RUN: xrelay-opt %s --split-input-file -p MyaccFuseMatmulRelu | filecheck %s

/// relu(dense(x, w)) becomes one myacc.matmul_relu named as the relu.
// CHECK-LABEL: func.func @fused
// CHECK-NEXT: %r = myacc.matmul_relu %x, %w : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
// CHECK-NEXT: func.return %r : tensor<2x5xf32>
func.func @fused(%x: tensor<2x4xf32>, %w: tensor<5x4xf32>) -> tensor<2x5xf32> {
  %d = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  %r = relay.nn.relu %d : tensor<2x5xf32>
  func.return %r : tensor<2x5xf32>
}

// -----

/// Two in a chain: each fuses.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %r1 = myacc.matmul_relu %x, %w1 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: %r2 = myacc.matmul_relu %r1, %w2 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: func.return %r2
func.func @chain(%x: tensor<2x4xf32>, %w1: tensor<4x4xf32>, %w2: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %d1 = relay.nn.dense %x, %w1 : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  %r1 = relay.nn.relu %d1 : tensor<2x4xf32>
  %d2 = relay.nn.dense %r1, %w2 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %r2 = relay.nn.relu %d2 : tensor<2x3xf32>
  func.return %r2 : tensor<2x3xf32>
}

// -----

/// Negative: the dense is also returned (its result is still needed), so nothing fuses.
// CHECK-LABEL: func.func @dense_read_twice
// CHECK-NEXT: %d = relay.nn.dense %x, %w
// CHECK-NEXT: %r = relay.nn.relu %d
// CHECK-NOT: myacc.
func.func @dense_read_twice(%x: tensor<2x4xf32>, %w: tensor<5x4xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  %d = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  %r = relay.nn.relu %d : tensor<2x5xf32>
  func.return %d, %r : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

/// Negative: float16 is not a myacc kernel; a relu of something else is not either.
// CHECK-LABEL: func.func @not_kernels
// CHECK-NEXT: %d = relay.nn.dense %x, %w
// CHECK-NEXT: %r = relay.nn.relu %d
// CHECK-NEXT: %a = relay.add %y, %y
// CHECK-NEXT: %s = relay.nn.relu %a
// CHECK-NOT: myacc.
func.func @not_kernels(%x: tensor<2x4xf16>, %w: tensor<5x4xf16>, %y: tensor<3xf32>) -> (tensor<2x5xf16>, tensor<3xf32>) {
  %d = relay.nn.dense %x, %w : (tensor<2x4xf16>, tensor<5x4xf16>) -> tensor<2x5xf16>
  %r = relay.nn.relu %d : tensor<2x5xf16>
  %a = relay.add %y, %y : tensor<3xf32>
  %s = relay.nn.relu %a : tensor<3xf32>
  func.return %r, %s : tensor<2x5xf16>, tensor<3xf32>
}
