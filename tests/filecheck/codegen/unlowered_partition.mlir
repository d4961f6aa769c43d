// A function partitioned for a target with a code generator is that target's in `-t c`: left
// unlowered (its lowering not run), each op the target does not take is a located error naming
// the op, the function and the target (exit status 1, no traceback), never host C.

// RUN: not xrelay-opt %s -p 'partition-for{target=accel},plan-memory' -t c 2>&1 | filecheck %s --check-prefix=ACCEL
// RUN: not xrelay-opt %s -p 'partition-for{target=dnnl},plan-memory' -t c 2>&1 | filecheck %s --check-prefix=DNNL
// RUN: xrelay-opt %s -p 'partition-for{target=accel},convert-relay-to-accel,plan-memory' -t c | filecheck %s --check-prefix=LOWERED

// ACCEL: {{\A}}{{.*}}unlowered_partition.mlir:[[# @LINE + 16]]:8: error: 'relay.nn.dense' op cannot be emitted for target 'accel': lower it with convert-relay-to-accel first (in function @tvmgen_default_accel_main_0, partitioned for 'accel')
// ACCEL-NEXT: {{^}}  %1 = relay.nn.dense %0, %w
// ACCEL-NEXT: {{^}}       ^{{$}}
// ACCEL-NOT: {{.}}

// DNNL: {{\A}}{{.*}}unlowered_partition.mlir:[[# @LINE + 11]]:8: error: 'relay.nn.dense' op cannot be emitted for target 'dnnl': lower it with convert-relay-to-dnnl first (in function @tvmgen_default_dnnl_main_0, partitioned for 'dnnl')
// DNNL-NEXT: {{^}}  %1 = relay.nn.dense %0, %w
// DNNL-NEXT: {{^}}       ^{{$}}
// DNNL-NOT: {{.}}

// LOWERED: // ----- accel.c
// LOWERED: /* accel.dense */
// LOWERED-NOT: relay.nn.dense

func.func @main(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %0 = relay.sigmoid %x : tensor<4x8xf32>
  %1 = relay.nn.dense %0, %w : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
  func.return %1 : tensor<4x6xf32>
}
