// RUN: not xrelay-opt %s --split-input-file 2>/dev/null | filecheck %s
// RUN: not xrelay-opt %s --split-input-file --print-op-generic 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: not xrelay-opt %s 2>&1 | filecheck %s --check-prefix=WHOLE

/// Each chunk is its own module; outputs are separated by `// -----`.
// CHECK-LABEL: func.func @first
// CHECK:       // -----
// CHECK-LABEL: func.func @second
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

// -----

func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

// -----

/// An error in one chunk is reported with its line in the file; the others still print.
// ERR: split_input_file.mlir:[[# @LINE + 2]]:3: error: 'relay.add' op operand shapes (2) and (3) do not broadcast
func.func @third(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

/// Without --split-input-file the whole file is one module: @first is defined once,
/// so the first failure is the same bad relay.add.
// WHOLE: error: 'relay.add' op operand shapes (2) and (3) do not broadcast
