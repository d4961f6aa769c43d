/// -o writes the module to the file.
// RUN: xrelay-opt %s -o %t
// RUN: filecheck %s --input-file=%t

/// A failing run (unknown pass) leaves the file written before untouched.
// RUN: not xrelay-opt %s -p nope -o %t
// RUN: filecheck %s --input-file=%t

/// So does a run on invalid input...
// RUN: not xrelay-opt %S/Inputs/invalid.mlir -o %t
// RUN: filecheck %s --input-file=%t

/// ...and a split run where only some chunks fail: nothing partial is written.
// RUN: not xrelay-opt %S/Inputs/split_one_bad.mlir --split-input-file -o %t
// RUN: filecheck %s --input-file=%t

/// A failing run does not create a file that did not exist.
// RUN: rm -f %t.new
// RUN: not xrelay-opt %S/Inputs/invalid.mlir -o %t.new
// RUN: not ls %t.new

/// `-o -` is stdout.
// RUN: xrelay-opt %s -o - | filecheck %s

// CHECK-LABEL: func.func @written
// CHECK-NEXT:    relay.exp %x : tensor<2xf32>
func.func @written(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
