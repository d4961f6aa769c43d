// RUN: not xrelay-opt %s --split-input-file 2>/dev/null | filecheck %s
// RUN: not xrelay-opt %s --split-input-file 2>&1 >/dev/null | filecheck %s --check-prefix=ERR
// RUN: not xrelay-opt %s 2>&1 | filecheck %s --check-prefix=WHOLE

/// Each chunk is its own module; one output per chunk, separated by `// -----`
/// (a failed chunk's output is empty, so outputs line up with chunks, as in mlir-opt).
// CHECK:      {{\A}}builtin.module {
// CHECK-NEXT:   func.func @first
// CHECK:      {{^}}// -----{{$}}
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @second
// CHECK:      {{^}}// -----{{$}}
// CHECK-NEXT: {{^}}// -----{{$}}
// CHECK-NEXT: {{^}}// -----{{$}}
// CHECK-NEXT: builtin.module {
// CHECK-NEXT: }
// CHECK-NEXT: {{^}}// -----{{$}}
// CHECK-NEXT: builtin.module {
// CHECK-NEXT:   func.func @first
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

// -----

func.func @second(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

// -----

/// An error in one chunk is reported with its line in the whole file, and the
/// next chunks are still processed; the run fails.
/// As mlir-opt: the source line, a caret, and the op as a note.
// ERR: {{\A.*}}split_input_file.mlir:[[# @LINE + 5]]:8: error: 'relay.add' op operand shapes (2) and (3) do not broadcast
// ERR-NEXT: {{^}}  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>{{$}}
// ERR-NEXT: {{^}}       ^{{$}}
// ERR-NEXT: split_input_file.mlir:[[# @LINE + 2]]:8: note: see current operation: %0 = "relay.add"(%x, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
func.func @third(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  %0 = relay.add %x, %y : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// Parse errors are located in the whole file too.
// ERR-NEXT: split_input_file.mlir:[[# @LINE + 4]]:8: error: custom op 'relay.nope' is unknown
// ERR-NEXT: {{^}}  %0 = relay.nope %x : tensor<2xf32>{{$}}
// ERR-NEXT: {{^}}       ^{{$}}
func.func @fourth(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.nope %x : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
// ERR-NOT: {{.}}

// -----

/// A chunk of only comments is an empty module, as in mlir-opt.

// -----

/// A symbol defined in another chunk does not clash: chunks are independent.
func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

/// Without --split-input-file the whole file is one module: parsing fails first.
// WHOLE: {{\A.*}}split_input_file.mlir:[[# @LINE - 17]]:8: error: custom op 'relay.nope' is unknown
// WHOLE-NEXT: {{^}}  %0 = relay.nope %x : tensor<2xf32>{{$}}
// WHOLE-NEXT: {{^}}       ^{{$}}
// WHOLE-NOT: {{.}}
