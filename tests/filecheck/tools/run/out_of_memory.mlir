// A result the interpreter cannot allocate (2^50 bytes): one located line, exit status 1.
// RUN: not xrelay-run %s 2>&1 | filecheck %s
//     CHECK: {{\A.*}}out_of_memory.mlir:7:8: error: 'relay.zeros' op cannot allocate 1125899906842624 bytes for its result (out of memory){{$}}
// CHECK-NOT: {{.}}

func.func @main() -> tensor<16777216x16777216xf32> {
  %z = relay.zeros {shape = [16777216, 16777216], dtype = f32} : tensor<16777216x16777216xf32>
  func.return %z : tensor<16777216x16777216xf32>
}
