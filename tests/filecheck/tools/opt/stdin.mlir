// RUN: xrelay-opt < %s | filecheck %s
// RUN: cat %s | xrelay-opt - -p cse | filecheck %s
// RUN: not xrelay-opt < %S/Inputs/invalid.mlir 2>&1 | filecheck %s --check-prefix=ERR

/// Input from stdin; diagnostics then name <stdin>.
// CHECK-LABEL: func.func @from_stdin
// ERR: <stdin>:2:3: error: 'relay.add' op
func.func @from_stdin(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
