/// --load-pass-plugin imports a Python file that registers passes; its passes then work in -p.
// RUN: xrelay-opt %s %test_passes -p test-tag | filecheck %s
/// A missing file or a plugin that raises is a clear usage error.
// RUN: not xrelay-opt %s --load-pass-plugin %t.missing.py 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: echo 'raise RuntimeError("broken plugin")' > %t.broken.py
// RUN: not xrelay-opt %s --load-pass-plugin %t.broken.py 2>&1 | filecheck %s --check-prefix=BROKEN
/// Without the plugin its passes are unknown.
// RUN: not xrelay-opt %s -p test-tag 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK: attributes {tagged = "yes"}
// MISSING: {{\A}}error: cannot load plugin '{{.*}}.missing.py': no such file{{$}}
// BROKEN: {{\A}}error: cannot load plugin '{{.*}}.broken.py': RuntimeError: broken plugin (at {{.*}}.broken.py:1){{$}}
// UNKNOWN: {{\A}}error: unknown pass 'test-tag'; available passes:
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  func.return %a : tensor<4xf32>
}
