/// --required-pass runs a pass whatever the opt level; names and flags both work.
// RUN: xrelay-opt %s %test_passes -p test-tag --opt-level 0 --required-pass test-tag \
// RUN:   | filecheck %s --check-prefix=TAGGED
// RUN: xrelay-opt %s %test_passes -p test-tag --opt-level 0 --required-pass TestTag \
// RUN:   | filecheck %s --check-prefix=TAGGED
/// Disabled wins over required (TVM's PassEnabled).
// RUN: xrelay-opt %s %test_passes -p test-tag --required-pass TestTag --disabled-pass test-tag \
// RUN:   | filecheck %s --check-prefix=PLAIN
/// A pass's own `required` passes run before it (test-needs-tag requires TestTag), even at a
/// level that would skip them when listed: dependencies are not gated.
// RUN: xrelay-opt %s %test_passes -p test-needs-tag --opt-level 0 --print-ir-before-all 2>&1 \
// RUN:   | filecheck %s --check-prefix=DEPENDENCY
/// Unknown names are errors, not silently ignored (TVM ignores them).
// RUN: not xrelay-opt %s --required-pass nope 2>&1 | filecheck %s --check-prefix=UNKNOWN
/// A dependency cycle is reported before any pass runs.
// RUN: not xrelay-opt %s %test_passes -p test-cycle-a 2>&1 | filecheck %s --check-prefix=CYCLE

// TAGGED: func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {tagged = "yes"}
// PLAIN:  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {

// DEPENDENCY:      // -----// IR Dump Before TestTag (test-tag) //----- //
// DEPENDENCY:      // -----// IR Dump Before TestNeedsTag (test-needs-tag) //----- //
// DEPENDENCY-NEXT: builtin.module {
// DEPENDENCY-NEXT: func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {tagged = "yes"}

// UNKNOWN: {{\A}}error: --required-pass: unknown pass 'nope' (see --list-passes){{$}}
// CYCLE:   {{\A}}error: pass dependency cycle: TestCycleA -> TestCycleB -> TestCycleA{{$}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
