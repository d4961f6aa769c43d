/// --allow-unregistered-dialect keeps ops of unknown dialects, opaque, in generic form.
// RUN: xrelay-opt %s --allow-unregistered-dialect -p cse | filecheck %s
// CHECK-LABEL: func.func @opaque
// CHECK-NEXT:    %0 = "npu.conv"(%x) {tile = 4 : i64} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %1 = relay.exp %0 : tensor<2xf32>

/// Without it, an unknown op is a located parse error at its name (mlir-opt's words).
// RUN: not xrelay-opt %s 2>&1 | filecheck %s --check-prefix=ERR
// ERR: {{\A.*}}allow_unregistered_dialect.mlir:[[# @LINE + 5]]:8: error: 'npu.conv' op created with unregistered dialect (--allow-unregistered-dialect keeps it, opaque){{$}}
// ERR-NEXT: {{^}}  %0 = "npu.conv"(%x) {tile = 4 : i64} : (tensor<2xf32>) -> tensor<2xf32>{{$}}
// ERR-NEXT: {{^}}       ^{{$}}
// ERR-NOT: {{.}}
func.func @opaque(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "npu.conv"(%x) {tile = 4 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = relay.exp %0 : tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
