// RUN: xrelay-opt %s -p annotate-spans --mlir-print-debuginfo | filecheck %s
// RUN: xrelay-opt %s -p AnnotateSpans | filecheck %s --check-prefix=PLAIN

/// Every op, the function's parameters and the module are located at their line (and
/// column: an op's name, after its results) of the module as printed without debug info;
/// the `} else {` line is skipped.
// CHECK:      func.func @main(%x: tensor<4xf32> loc("GeneratedSource":2:19), %c: tensor<i1> loc("GeneratedSource":2:38))
// CHECK-NEXT:   %0 = relay.add %x, %x : tensor<4xf32> loc("GeneratedSource":3:10)
// CHECK-NEXT:   %1 = relay.if %c : tensor<i1> -> tensor<4xf32> {
// CHECK-NEXT:     %2 = relay.exp %0 : tensor<4xf32> loc("GeneratedSource":5:12)
// CHECK-NEXT:     relay.yield %2 : tensor<4xf32> loc("GeneratedSource":6:7)
// CHECK-NEXT:   } else {
// CHECK-NEXT:     relay.yield %0 : tensor<4xf32> loc("GeneratedSource":8:7)
// CHECK-NEXT:   } loc("GeneratedSource":4:10)
// CHECK-NEXT:   func.return %1 : tensor<4xf32> loc("GeneratedSource":10:5)
// CHECK-NEXT: } loc("GeneratedSource":2:3)
// CHECK-NEXT: } loc("GeneratedSource":1:1)

/// Nothing but locations changes: without debug info the module prints as before.
// PLAIN:      %0 = relay.add %x, %x : tensor<4xf32>
// PLAIN-NOT:  loc(
// PLAIN:      func.return %1 : tensor<4xf32>
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.add %x, %x : tensor<4xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %2 = relay.exp %0 : tensor<4xf32>
    relay.yield %2 : tensor<4xf32>
  } else {
    relay.yield %0 : tensor<4xf32>
  }
  func.return %1 : tensor<4xf32>
}
