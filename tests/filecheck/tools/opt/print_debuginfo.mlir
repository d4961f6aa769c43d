// RUN: xrelay-opt %s --mlir-print-debuginfo | filecheck %s
// RUN: xrelay-opt %s --print-debuginfo --mlir-print-local-scope | xrelay-opt --mlir-print-debuginfo | filecheck %s
// RUN: xrelay-opt %s --mlir-print-debuginfo --print-op-generic | xrelay-opt --mlir-print-debuginfo | filecheck %s
// RUN: xrelay-opt %s --mlir-print-debuginfo --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --mlir-print-debuginfo --mlir-print-local-scope | filecheck %s --check-prefix=MLIR
// RUN: xrelay-opt %s | filecheck %s --check-prefix=PLAIN
// RUN: xrelay-opt %s --mlir-print-debuginfo | sed 's/kernel_size = \[3, 3\]/kernel_size = [3, 2]/' | not xrelay-opt 2>&1 | filecheck %s --check-prefix=ERROR
// RUN: xrelay-opt %s --mlir-print-debuginfo | sed 's/%2 = relay.nn.relu %1/%2 = relay.nn.softmax %1 {axis = 9}/' | not xrelay-opt 2>&1 | filecheck %s --check-prefix=FUSED

/// `--mlir-print-debuginfo` (`--print-debuginfo`) prints every op's and block
/// argument's location, always inline (`--mlir-print-local-scope` is accepted and
/// changes nothing); the text reads back with the same locations (custom and generic
/// form, through mlir-opt-19 too), so errors in piped text name the first file.

// CHECK: func.func @main(%x: tensor<1x3x8x8xf32> loc("{{.*}}print_debuginfo.mlir":29:17), %w: tensor<4x3x3x3xf32> loc("{{.*}}print_debuginfo.mlir":29:42)) -> tensor<1x4x8x8xf32> {
// CHECK-NEXT: %0 = relay.nn.conv2d %x, %w {{.*}} loc("{{.*}}print_debuginfo.mlir":30:8)
// CHECK-NEXT: %1 = relay.nn.relu %0 : tensor<1x4x8x8xf32> loc("named")
// CHECK-NEXT: %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32> loc(fused["x.py":3:4, "y":1:1])
// CHECK-NEXT: %3 = relay.nn.relu %2 : tensor<1x4x8x8xf32> loc(unknown)
// CHECK-NEXT: func.return %3 : tensor<1x4x8x8xf32> loc("{{.*}}print_debuginfo.mlir":34:3)
// CHECK-NEXT: } loc("{{.*}}print_debuginfo.mlir":29:1)

// MLIR: "relay.nn.relu"(%1) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> loc(fused["x.py":3:4, "y":1:1])

// PLAIN-NOT: loc(

// ERROR: {{^}}{{.*}}print_debuginfo.mlir:30:8: error: 'relay.nn.conv2d' op kernel_size [3, 2] does not match weight kernel [3, 3]
// FUSED: {{^}}x.py:3:4: error: 'relay.nn.softmax' op

func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1], kernel_size = [3, 3]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x8x8xf32> loc("named")
  %2 = relay.nn.relu %1 : tensor<1x4x8x8xf32> loc(fused["x.py":3:4, "y":1:1])
  %3 = relay.nn.relu %2 : tensor<1x4x8x8xf32> loc(unknown)
  func.return %3 : tensor<1x4x8x8xf32>
}
