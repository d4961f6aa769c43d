// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// einsum: batch matmul, an implicit output (letters sorted), a diagonal under '...', one scalar operand.
// CHECK-LABEL: func.func @einsum
func.func @einsum(%a: tensor<5x2x3xf32>, %b: tensor<5x3x4xf32>, %d: tensor<5x3x3xf32>, %s: tensor<f32>) -> tensor<f32> {
  // CHECK-NEXT: %0 = relay.einsum %a, %b {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  // CHECK-NEXT: %1 = relay.einsum %a {equation = "ikj"} : (tensor<5x2x3xf32>) -> tensor<5x3x2xf32>
  // CHECK-NEXT: %2 = relay.einsum %d {equation = "...ii->...i"} : (tensor<5x3x3xf32>) -> tensor<5x3xf32>
  // CHECK-NEXT: %3 = relay.einsum %s {equation = "->"} : tensor<f32>
  // GENERIC: "relay.einsum"(%a, %b) <{equation = "bij, bjk -> bik"}>
  %0 = relay.einsum %a, %b {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %1 = relay.einsum %a {equation = "ikj"} : (tensor<5x2x3xf32>) -> tensor<5x3x2xf32>
  %2 = relay.einsum %d {equation = "...ii->...i"} : (tensor<5x3x3xf32>) -> tensor<5x3xf32>
  %3 = relay.einsum %s {equation = "->"} : tensor<f32>
  func.return %3 : tensor<f32>
}
