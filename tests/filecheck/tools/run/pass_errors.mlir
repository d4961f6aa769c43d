// An error a pass of the build raises on the module is the module's error: located,
// naming the pass, exit status 1 (not an internal error).
// RUN: not env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target c 2>&1 | filecheck %s
//     CHECK: {{\A.*}}pass_errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: {{.*}}cannot plan memory for a tensor of dynamic shape tensor<?x2xf32> (in pass 'plan-memory'){{$}}
// CHECK-NOT: {{.}}

func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {
  %0 = relay.exp %x : tensor<?x2xf32>
  func.return %0 : tensor<?x2xf32>
}
