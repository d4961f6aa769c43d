/// --print-ir-diff prints a unified diff (on stderr) for each pass that changed the IR, and
/// nothing for the passes that did not.
// RUN: xrelay-opt %s %test_passes -p test-tag,dce,cse --print-ir-diff 2>&1 >/dev/null \
// RUN:   | filecheck %s
/// A dependency that runs is diffed like any other pass; a no-op pass shows nothing.
// RUN: xrelay-opt %s %test_passes -p test-needs-tag --print-ir-diff 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=DEPENDENCY

// CHECK:      {{\A}}// ----- IR changed by pass 'test-tag' -----
// CHECK-NEXT: --- before test-tag
// CHECK-NEXT: +++ after test-tag
// CHECK-NEXT: @@ -1,5 +1,5 @@
// CHECK-NEXT:  builtin.module {
// CHECK-NEXT: -  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT: +  func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {tagged = "yes"} {
// CHECK-NOT:  'dce'
// CHECK:      // ----- IR changed by pass 'cse' -----
// CHECK:      -    %1 = relay.add %a, %b : tensor<4xf32>
// CHECK:      +    %1 = relay.multiply %0, %0 : tensor<4xf32>
// CHECK-NOT:  IR changed

// DEPENDENCY:     {{\A}}// ----- IR changed by pass 'test-tag' -----
// DEPENDENCY-NOT: IR changed
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
