/// --print-ir-before=NAMES / --print-ir-after=NAMES print the module (to stderr, so stdout stays
/// the result) around the named passes only; names are TVM names or flags.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-before=cse --print-ir-after=TestTag \
// RUN:   2>&1 >/dev/null | filecheck %s --check-prefix=NAMED
/// --print-ir-before-all / --print-ir-after-all (aliases of --mlir-print-ir-*) print around every
/// pass in MLIR's format, the tool's wrapper pipeline left out.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-before-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=BEFORE
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --print-ir-after-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=AFTER
/// Unknown names are an error.
// RUN: not xrelay-opt %s --print-ir-after=nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
/// The print-ir pass (TVM's PrintIR) prints with its header, wherever it is put.
// RUN: xrelay-opt %s %test_passes -p 'test-tag,print-ir{header=mid},cse' 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=PASS

// NAMED:      {{\A}}// -----// IR Dump After TestTag (test-tag) //----- //
// NAMED-NEXT: builtin.module {
// NAMED-NEXT:   func.func @main({{.*}}) -> tensor<4xf32> attributes {tagged = "yes"} {
// NAMED-COUNT-2: relay.add
// NAMED:      // -----// IR Dump Before CSE (cse) //----- //
// NAMED-COUNT-2: relay.add
// NAMED-NOT:  IR Dump

// BEFORE:      {{\A}}// -----// IR Dump Before TestTag (test-tag) //----- //
// BEFORE-NEXT: builtin.module {
// BEFORE-NEXT:   func.func @main({{.*}}) -> tensor<4xf32> {
// BEFORE:      // -----// IR Dump Before CSE (cse) //----- //
// BEFORE-NEXT: builtin.module {
// BEFORE-NEXT:   func.func @main({{.*}}) -> tensor<4xf32> attributes {tagged = "yes"} {
// BEFORE-NOT:  IR Dump

// AFTER:       {{\A}}// -----// IR Dump After TestTag (test-tag) //----- //
// AFTER:       // -----// IR Dump After CSE (cse) //----- //
// AFTER:       relay.multiply %0, %0
// AFTER-NOT:   IR Dump

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
