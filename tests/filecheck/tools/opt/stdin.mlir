/// The input comes from stdin when no file (or `-`) is given.
// RUN: xrelay-opt < %s | filecheck %s
// RUN: cat %s | xrelay-opt - -p cse | filecheck %s
// CHECK-LABEL: func.func @from_stdin
// CHECK-NEXT:    func.return %x : tensor<2xf32>

/// Diagnostics for stdin input name `<stdin>`.
// RUN: not xrelay-opt < %S/Inputs/invalid.mlir 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{\A}}<stdin>:2:8: error: 'relay.add' op operand shapes (2) and (3) do not broadcast{{$}}
// ERR-NEXT: {{^}}  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// ERR-NEXT: {{^}}       ^{{$}}
// ERR-NEXT: {{^}}<stdin>:2:8: note: see current operation: %0 = "relay.add"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// ERR-NOT: {{.}}

/// Empty input is an empty module, as in mlir-opt.
// RUN: xrelay-opt < %S/Inputs/empty.mlir | filecheck %s --check-prefix=EMPTY
// EMPTY:      {{\A}}builtin.module {
// EMPTY-NEXT: }
func.func @from_stdin(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
