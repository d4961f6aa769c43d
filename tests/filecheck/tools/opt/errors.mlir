// RUN: not xrelay-opt %S/Inputs/malformed.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not xrelay-opt %S/Inputs/invalid.mlir 2>&1 | filecheck %s --check-prefix=VERIFY
// RUN: not xrelay-opt %s -p nope 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not xrelay-opt %s -p 'canonicalize{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not xrelay-opt %s -p 'cse{a=1,b=2}' 2>&1 | filecheck %s --check-prefix=PIPELINE
// RUN: not xrelay-opt %s --no-such-flag 2>&1 | filecheck %s --check-prefix=FLAG
// RUN: not xrelay-opt %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not xrelay-opt %s -t nope 2>&1 | filecheck %s --check-prefix=TARGET

/// Every user error is one located line on stderr, exit code 1, no traceback.
// PARSE: malformed.mlir:2:{{[0-9]+}}: error: {{.+}}
// PARSE-NOT: Traceback
// VERIFY: invalid.mlir:2:3: error: 'relay.add' op operand shapes (2) and (3) do not broadcast
// VERIFY-NOT: Traceback
// PASS: error: unknown pass 'nope'; available passes: canonicalize, cse, dce
// OPTION: error: bad options for pass 'canonicalize': Provided arguments ["bogus"] not found
// PIPELINE: error: malformed pass pipeline 'cse{a=1,b=2}' at column 10
// FLAG: error: unrecognized arguments: --no-such-flag; options are: {{.*}}--passes
// MISSING: error: cannot open '{{.*}}does-not-exist.mlir': No such file or directory
// TARGET: error: unknown target 'nope'; available targets: mlir

func.func @ok(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
