/// A named pipeline (an XdslPipelinePass) takes options on the command line and runs as the
/// Sequential it builds: its passes are gated, timed and verified one by one.
// RUN: xrelay-opt %s %test_passes -p 'test-pipeline{value=x}' | filecheck %s
// RUN: xrelay-opt %s %test_passes -p test-pipeline --time-passes 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=TIME
/// Gating applies inside it: test-tag (opt_level 1) is skipped at --opt-level 0, cse still runs.
// RUN: xrelay-opt %s %test_passes -p test-pipeline --opt-level 0 | filecheck %s --check-prefix=GATED
// RUN: xrelay-opt %test_passes --list-passes | filecheck %s --check-prefix=LIST

// CHECK:      func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> attributes {tagged = "x"} {
// CHECK-NEXT:   %0 = relay.add %a, %a : tensor<4xf32>
// CHECK-NEXT:   %1 = relay.multiply %0, %0 : tensor<4xf32>

// TIME:      {{\A}}pipeline: {{.*}}
// TIME-NEXT: {{^}}	TestPipeline: {{.*}}
// TIME-NEXT: {{^}}		TestTag: {{.*}}
// TIME-NEXT: {{^}}		CSE: {{.*}}

// GATED:      func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
// GATED-NEXT:   %0 = relay.add %a, %a : tensor<4xf32>
// GATED-NEXT:   %1 = relay.multiply %0, %0 : tensor<4xf32>

// LIST:      {{^}}test-pipeline (TestPipeline): sequential pass, opt_level 0{{$}}
// LIST-NEXT: {{^}}    Tag the functions with `value`, then run cse (a named pipeline with an option).
// LIST-NEXT: {{^}}    option value: str = piped{{$}}
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  %1 = relay.add %a, %a : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
