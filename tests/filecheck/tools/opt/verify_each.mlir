/// Without --verify-each, the module is verified after each -p pass: a pass that breaks the IR
/// while running another pass inside itself is blamed as a whole.
// RUN: not xrelay-opt %s %test_passes -p test-nested-break 2>&1 | filecheck %s --check-prefix=OUTER
/// --verify-each verifies after every pass, nested ones too, and names the one that broke it.
// RUN: not xrelay-opt %s %test_passes -p test-nested-break --verify-each 2>&1 \
// RUN:   | filecheck %s --check-prefix=INNER
/// A pipeline that keeps the IR valid passes.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --verify-each | filecheck %s --check-prefix=OK
/// --disable-verify lets broken IR through.
// RUN: xrelay-opt %s %test_passes -p test-break-types --disable-verify | filecheck %s --check-prefix=BROKEN

// OUTER: {{\A}}{{.*}}verify_each.mlir:32:8: error: 'relay.add' op inferred type(s) 'tensor<4xf32>' are incompatible with return type(s) of operation 'tensor<7x7x7xf32>' (after pass 'test-nested-break'){{$}}
// OUTER-NEXT: {{^}}  %0 = relay.add %a, %a : tensor<4xf32>{{$}}
// OUTER-NEXT: {{^}}       ^{{$}}
/// Every op that fails is reported (the return of the changed value too).
// OUTER-NEXT: verify_each.mlir:33:3: error: 'func.return' op Expected arguments to have the same types as the function output types
// OUTER-NEXT: {{^}}  func.return %0 : tensor<4xf32>{{$}}
// OUTER-NEXT: {{^}}  ^{{$}}
// OUTER-NOT: {{.}}

// INNER: {{\A}}{{.*}}verify_each.mlir:32:8: error: 'relay.add' op {{.*}} (after pass 'test-break-types'){{$}}
// INNER-NEXT: {{^}}  %0 = relay.add %a, %a : tensor<4xf32>{{$}}
// INNER-NEXT: {{^}}       ^{{$}}
// INNER-NEXT: verify_each.mlir:33:3: error: 'func.return' op
// INNER-NEXT: {{^}}  func.return
// INNER-NEXT: {{^}}  ^{{$}}
// INNER-NOT: {{.}}

// OK: func.func @f
// BROKEN: relay.add %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<7x7x7xf32>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
