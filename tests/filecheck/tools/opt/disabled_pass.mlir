/// --disabled-pass skips a -p pass, by TVM name or by flag; several may be given.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --disabled-pass TestTag | filecheck %s --check-prefix=NOTAG
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --disabled-pass test-tag,CSE | filecheck %s --check-prefix=NONE
// RUN: xrelay-opt %s %test_passes -p test-tag,cse --disabled-pass test-tag --disabled-pass cse \
// RUN:   | filecheck %s --check-prefix=NONE
/// Without it both run.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse | filecheck %s --check-prefix=BOTH
// RUN: not xrelay-opt %s --disabled-pass fold-nothing 2>&1 | filecheck %s --check-prefix=UNKNOWN

// NOTAG:       func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
// NOTAG-COUNT-1: relay.add
// NOTAG-NOT:   relay.add

// NONE:        func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
// NONE-COUNT-2: relay.add

// BOTH:        attributes {tagged = "yes"}
// BOTH-COUNT-1: relay.add
// BOTH-NOT:    relay.add

// UNKNOWN: error: --disabled-pass: unknown pass 'fold-nothing' (see --list-passes)
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  %1 = relay.add %a, %a : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
