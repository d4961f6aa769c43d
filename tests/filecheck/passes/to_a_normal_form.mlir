// RUN: xrelay-opt %s -p to-a-normal-form | filecheck %s
// RUN: xrelay-opt %s -p ToANormalForm | filecheck %s

/// SSA form is A-normal already: every intermediate is a named value, operands are values.
/// Nothing changes, shared values included (no duplication, no reordering).
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %0 = relay.add %x, %x : tensor<4xf32>
//  CHECK-NEXT:   %1 = relay.multiply %0, %0 : tensor<4xf32>
//  CHECK-NEXT:   func.return %1
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %x, %x : tensor<4xf32>
  %1 = relay.multiply %0, %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
