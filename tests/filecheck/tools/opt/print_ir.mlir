/// --print-ir-before=NAMES / --print-ir-after=NAMES print the module (to stderr, so stdout stays
/// the result) around the named passes only; names are TVM names or flags.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-before=cse --print-ir-after=TestTag \
// RUN:   2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
/// --print-ir-before-all / --print-ir-after-all print around every pass, the pipeline included,
/// with TVM's PassInfo line.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-before-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=BEFORE
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-after-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=AFTER
/// Unknown names are an error.
// RUN: not xrelay-opt %s --print-ir-after=nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
/// The print-ir pass (TVM's PrintIR) prints with its header, wherever it is put.
// RUN: xrelay-opt %s %test_passes -p 'test-tag,print-ir{header=mid},cse' 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=PASS

// NAMED:      {{\A}}Print IR after: TestTag
// NAMED-NEXT: builtin.module {
// NAMED-NEXT:   func.func @main({{.*}}) -> tensor<4xf32> attributes {tagged = "yes"} {
// NAMED-COUNT-2: relay.add
// NAMED:      Print IR before: CSE
// NAMED-COUNT-2: relay.add
// NAMED-NOT:  Print IR

// BEFORE:      {{\A}}Before Running Pass: The meta data of the pass - pass name: pipeline, opt_level: 0, required passes: []
// BEFORE-EMPTY:
// BEFORE-NEXT: builtin.module {
// BEFORE:      Before Running Pass: The meta data of the pass - pass name: TestTag, opt_level: 1, required passes: []
// BEFORE:      func.func @main({{.*}}) -> tensor<4xf32> {
// BEFORE:      Before Running Pass: The meta data of the pass - pass name: CSE, opt_level: 0, required passes: []
// BEFORE:      func.func @main({{.*}}) -> tensor<4xf32> attributes {tagged = "yes"} {
// BEFORE-NOT:  Running Pass

// AFTER:       {{\A}}After Running Pass: The meta data of the pass - pass name: TestTag
// AFTER:       After Running Pass: The meta data of the pass - pass name: CSE
// AFTER:       relay.multiply %0, %0
// AFTER:       After Running Pass: The meta data of the pass - pass name: pipeline

// UNKNOWN: error: --print-ir-after: unknown pass 'nope' (see --list-passes)

// PASS:      {{\A}}PrintIR(mid):
// PASS-NEXT: builtin.module {
// PASS-NEXT:   func.func @main({{.*}}) -> tensor<4xf32> attributes {tagged = "yes"} {
// PASS-NEXT:     relay.add
// PASS-NEXT:     relay.add
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
