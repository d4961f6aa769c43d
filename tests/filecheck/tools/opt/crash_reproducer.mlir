/// --crash-reproducer writes the module as it was before the failing pass, with the command
/// that reproduces the failure; the error says where it went.
// RUN: rm -f %t.repro.mlir
// RUN: not xrelay-opt %s %test_passes -p test-tag,test-fail --crash-reproducer=%t.repro.mlir 2>&1 \
// RUN:   | filecheck %s --check-prefix=ERROR
// RUN: filecheck %s --check-prefix=REPRO < %t.repro.mlir
/// Running the reproducer as it says (plugins included) fails the same way, at its own lines.
// RUN: not xrelay-opt %t.repro.mlir -p test-fail --opt-level 3 %test_passes 2>&1 | filecheck %s --check-prefix=AGAIN
/// Failing pass options are kept in the reproducer's pipeline.
// RUN: not xrelay-opt %s %test_passes -p 'test-fail{kind=crash}' --crash-reproducer=%t.crash.mlir 2>&1 \
// RUN:   | filecheck %s --check-prefix=CRASH
// RUN: filecheck %s --check-prefix=CRASHREPRO < %t.crash.mlir
/// A verifier failure after a pass gets a reproducer too.
// RUN: not xrelay-opt %s %test_passes -p test-break-types --crash-reproducer=%t.verify.mlir 2>&1 \
// RUN:   | filecheck %s --check-prefix=VERIFY
// RUN: filecheck %s --check-prefix=VERIFYREPRO < %t.verify.mlir

// ERROR:      {{\A}}{{.*}}crash_reproducer.mlir:40:1: error: 'func.func' op test-fail: deliberate failure (in pass 'test-fail'){{$}}
// ERROR-NEXT: {{^}}func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {{[{]}}{{$}}
// ERROR-NEXT: {{^}}^{{$}}
// ERROR-NEXT: {{^}}note: crash reproducer written to {{.*}}.repro.mlir{{$}}

// REPRO:      {{\A}}// xrelay crash reproducer: pass 'TestFail' (test-fail) failed:
// REPRO:      // Reproduce with:
// REPRO-NEXT: //   xrelay-opt <this file> -p 'test-fail' --opt-level 3 --load-pass-plugin {{.*}}testlib/passes.py{{$}}
// REPRO-NEXT: builtin.module {
// REPRO-NEXT:   func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {tagged = "yes"} {
// REPRO-NOT:  half_done

// AGAIN: {{\A}}{{.*}}.repro.mlir:6:3: error: 'func.func' op test-fail: deliberate failure (in pass 'test-fail'){{$}}

// CRASH: note: crash reproducer written to {{.*}}.crash.mlir
// CRASH: error: internal error: pass 'test-fail' crashed: ValueError('test-fail: deliberate crash')
// CRASHREPRO: //   xrelay-opt <this file> -p 'test-fail{kind="crash"}' --opt-level 3 --load-pass-plugin

// VERIFY:      error: 'relay.add' op {{.*}} (after pass 'test-break-types')
// VERIFY:      error: 'func.return' op {{.*}} (after pass 'test-break-types')
// VERIFY:      {{^}}note: crash reproducer written to {{.*}}.verify.mlir
// VERIFYREPRO: //   xrelay-opt <this file> -p 'test-break-types' --opt-level 3 --load-pass-plugin
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
