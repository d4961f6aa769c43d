/// xrelay-run --load-plugin: a target defined by a plugin file (tests/testlib/myacc.py, written
/// against xrelay.ext only) builds and runs, and computes what the interpreter does.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --load-plugin %S/../../../testlib/myacc.py --load-plugin %S/../../../testlib/myacc.py --target myacc,c --random --print-values --profile 2>&1 | filecheck %s --check-prefixes=CHECK,MYACC
// RUN: xrelay-run %s --random --print-values | filecheck %s
// CHECK: output0: float32[2, 3] min=0 max=0.140423 mean=0.0234038
// CHECK-NEXT: {{\[\[}}0.         0.         0.14042264]
// CHECK-NEXT: {{ \[}}0.         0.         0.        ]]
// MYACC: tvmgen_default_myacc_main_0/myacc.relu#0      1

/// Without the plugin, the target is unknown.
// RUN: not xrelay-run %s --target myacc,c 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{\A}}xrelay-run: error: unsupported target 'myacc': it has no code generator

/// A plugin that cannot be loaded is one line.
// RUN: not xrelay-run %s --load-plugin %t.missing.py 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING: {{\A}}xrelay-run: error: cannot load plugin '{{.*}}.missing.py': no such file{{$}}
// MISSING-NOT: {{.}}

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = relay.constant dense<-0.5> : tensor<f32>
  %a = relay.add %x, %c : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %r = relay.nn.relu %a : tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
