/// --opt-level gates the -p passes as TVM's Sequential does: test-tag has opt_level 1.
// RUN: xrelay-opt %s %test_passes -p test-tag --opt-level 0 | filecheck %s --check-prefix=SKIP
// RUN: xrelay-opt %s %test_passes -p test-tag --opt-level 1 | filecheck %s --check-prefix=TAG
/// Without --opt-level the level is 3 (tvmc's default), so every listed pass runs.
// RUN: xrelay-opt %s %test_passes -p test-tag | filecheck %s --check-prefix=TAG
/// Passes of level 0 always run.
// RUN: xrelay-opt %s %test_passes -p test-tag,test-perturb-numerics --opt-level 0 \
// RUN:   | filecheck %s --check-prefix=LEVEL0
/// A bad level is a usage error.
// RUN: not xrelay-opt %s --opt-level x 2>&1 | filecheck %s --check-prefix=BAD

// SKIP-LABEL: func.func @f
// SKIP-NOT:   tagged
// SKIP:       relay.add

// TAG-LABEL:  func.func @f
// TAG-SAME:   attributes {tagged = "yes"}

// LEVEL0-LABEL: func.func @f
// LEVEL0-NOT:   tagged
// LEVEL0:       relay.subtract

// BAD: error: argument --opt-level: invalid int value: 'x'
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
