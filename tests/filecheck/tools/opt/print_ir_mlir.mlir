/// MLIR's dump flags. --mlir-print-ir-after-all: one `// -----// IR Dump After <Name> (<flag>) //----- //`
/// header per pass, the whole module after it, a blank line; the tool's wrapper is not dumped.
// RUN: xrelay-opt %s -cse -dce --mlir-print-ir-after-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=ALL
// ALL:      {{\A}}// -----// IR Dump After CSE (cse) //----- //
// ALL-NEXT: builtin.module {
// ALL-NEXT:   func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
// ALL-NEXT:     %0 = relay.negative %a : tensor<4xf32>
// ALL-NEXT:     func.return %0 : tensor<4xf32>
// ALL-NEXT:   }
// ALL-NEXT: }
// ALL-EMPTY:
// ALL-NEXT: // -----// IR Dump After DCE (dce) //----- //
// ALL-NOT:  pipeline

/// The dumps re-parse: each header is a split marker.
// RUN: xrelay-opt %s -cse -dce --mlir-print-ir-before-all --mlir-print-ir-after-all 2>%t.dumps
// RUN: xrelay-opt %t.dumps --split-input-file | filecheck %s --check-prefix=REPARSE
// REPARSE-COUNT-4: func.func @main

/// --mlir-print-ir-after-change: the second cse changes nothing and is not dumped.
// RUN: xrelay-opt %s -cse -cse --mlir-print-ir-after-all --mlir-print-ir-after-change 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=CHANGE
// CHANGE:     IR Dump After CSE (cse)
// CHANGE-NOT: IR Dump

/// --mlir-print-ir-after-failure: the IR the failing pass left (before the rollback); in the
/// generic form when it does not verify.
// RUN: not xrelay-opt %s %test_passes -p cse,test-fail --mlir-print-ir-after-failure 2>&1 \
// RUN:   | filecheck %s --check-prefix=FAIL
// FAIL:      {{\A}}// -----// IR Dump After TestFail Failed (test-fail) //----- //
// FAIL-NEXT: builtin.module {
// FAIL-NEXT:   func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> attributes {half_done = "yes"} {
// FAIL:      error: 'func.func' op test-fail: deliberate failure (in pass 'test-fail')
// RUN: not xrelay-opt %s %test_passes -p test-break-types --mlir-print-ir-after-failure 2>&1 \
// RUN:   | filecheck %s --check-prefix=INVALID
// INVALID:      {{\A}}// -----// IR Dump After TestBreakTypes Failed (test-break-types) //----- //
// INVALID-NEXT: "builtin.module"() ({
// INVALID:      "relay.negative"(%a) : (tensor<4xf32>) -> tensor<7x7x7xf32>
// INVALID:      error: 'relay.negative' op inferred type

/// --mlir-print-ir-tree-dir: one file per dump, MLIR's naming (`<n>_<flag>.mlir` under the module's
/// folder), nothing on stderr; --mlir-print-ir-module-scope is accepted (dumps are always modules).
// RUN: rm -rf %t.tree
// RUN: xrelay-opt %s -cse -dce --mlir-print-ir-before=dce --mlir-print-ir-after-all \
// RUN:   --mlir-print-ir-module-scope --mlir-print-ir-tree-dir=%t.tree 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: {{.}}
// RUN: filecheck %s --check-prefix=TREE0 --input-file=%t.tree/builtin_module_no-symbol-name/0_cse.mlir
// TREE0:      {{\A}}// -----// IR Dump After CSE (cse) //----- //
// TREE0-NEXT: builtin.module {
// RUN: filecheck %s --check-prefix=TREE1 --input-file=%t.tree/builtin_module_no-symbol-name/1_dce.mlir
// TREE1: {{\A}}// -----// IR Dump Before DCE (dce) //----- //
// RUN: filecheck %s --check-prefix=TREE2 --input-file=%t.tree/builtin_module_no-symbol-name/2_dce.mlir
// TREE2: {{\A}}// -----// IR Dump After DCE (dce) //----- //

/// Named pipelines are dumped around their passes, which are dumped too.
// RUN: xrelay-opt %s -p 'optimize{opt-level=0 fuse=false}' --mlir-print-ir-after-all 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=NESTED
// NESTED:     IR Dump After SimplifyInference (simplify-inference)
// NESTED:     IR Dump After Optimize (optimize)
// NESTED-NOT: IR Dump

/// --print-ir-diff still works alongside.
// RUN: xrelay-opt %s -cse --print-ir-diff --mlir-print-ir-after=cse 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=DIFF
// DIFF: IR Dump After CSE (cse)
// DIFF: -{{.*}}relay.negative

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %a : tensor<4xf32>
  %1 = relay.negative %a : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
