/// xrelay-run --load-plugin: a target defined by a plugin module (the example package
/// examples/myacc, written against xrelay.ext only) builds and runs, and computes what the
/// interpreter does. Loading it twice (and by entry point) is a no-op.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --load-plugin xrelay_myacc --load-plugin xrelay_myacc --target myacc,c --random --print-values --profile 2>&1 | filecheck %s --check-prefixes=CHECK,MYACC
// RUN: xrelay-run %s --random --print-values | filecheck %s
// CHECK: output0: float32[2, 4] min=0 max=1.31766 mean=0.704347
// CHECK-NEXT: {{\[\[}}0.         0.873387   0.83353394 0.5736786 ]
// CHECK-NEXT: {{ \[}}0.         1.1397544  1.3176554  0.8967686 ]]
// MYACC: tvmgen_default_myacc_main_0/myacc.matmul_relu#0      1

/// A target nothing defines is refused by name.
// RUN: not xrelay-run %s --target nosuchacc,c 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{\A}}xrelay-run: error: unsupported target 'nosuchacc': it has no code generator

/// A plugin that cannot be loaded is one line.
// RUN: not xrelay-run %s --load-plugin %t.missing.py 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: {{\A}}xrelay-run: error: cannot load plugin '{{.*}}.missing.py': no such file{{$}}
// MISSING-NOT: {{.}}

func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %c = relay.constant dense<-0.5> : tensor<f32>
  %a = relay.add %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %d = relay.nn.dense %a, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %r = relay.nn.relu %d : tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}
