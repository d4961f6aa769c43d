/// -c key=value sets a registered config option, converted to the option's type.
// RUN: not xrelay-opt %s %test_passes -p test-tag -c testing.immutable_module=true 2>&1 \
// RUN:   | filecheck %s --check-prefix=IMMUTABLE
/// A pass that changes nothing passes the same check.
// RUN: xrelay-opt %s %test_passes -p dce -c testing.immutable_module=true | filecheck %s --check-prefix=OK
/// transform.transactional=false keeps no snapshots (faster); failures still report.
// RUN: not xrelay-opt %s %test_passes -p test-fail -c transform.transactional=false 2>&1 \
// RUN:   | filecheck %s --check-prefix=FAIL
/// Unknown keys, ill-typed values and malformed items are usage errors naming the key.
// RUN: not xrelay-opt %s -c no.such.key=1 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not xrelay-opt %s -c transform.transactional=maybe 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not xrelay-opt %s -c transform.transactional 2>&1 | filecheck %s --check-prefix=FORM

// IMMUTABLE: {{\A}}error: pass 'test-tag' failed: Immutable module has been modified in pass: TestTag{{$}}
// OK: func.func @f
// FAIL: error: 'func.func' op test-fail: deliberate failure (in pass 'test-fail')
// UNKNOWN: {{\A}}error: unknown config option 'no.such.key'; registered options: {{.*}}testing.immutable_module, transform.crash_reproducer, transform.resolve_required, transform.transactional{{$}}
// TYPE: {{\A}}error: config option 'transform.transactional' expects bool, got 'maybe'{{$}}
// FORM: {{\A}}error: -c expects KEY=VALUE, got 'transform.transactional'{{$}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
