// RUN: xrelay-opt %s -o %t
// RUN: filecheck %s --input-file=%t
// A failing run (unknown pass) leaves the file written before untouched:
// RUN: not xrelay-opt %s -p nope -o %t
// RUN: filecheck %s --input-file=%t
// And so does a run on invalid input:
// RUN: not xrelay-opt %S/Inputs/invalid.mlir -o %t
// RUN: filecheck %s --input-file=%t

/// -o writes the module to the file.
// CHECK-LABEL: func.func @written
// CHECK-NEXT:    relay.exp %x : tensor<2xf32>
func.func @written(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
