// RUN: xrelay-opt %s --split-input-file -p cse | filecheck %s --check-prefix=CSE
// RUN: xrelay-opt %s --split-input-file -p dce | filecheck %s --check-prefix=DCE
// RUN: xrelay-opt %s --split-input-file -p canonicalize | filecheck %s --check-prefix=CANON
// RUN: xrelay-opt %s --split-input-file -p cse,dce | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s --split-input-file | filecheck %s --check-prefix=NONE

/// cse merges two identical relay.add; dce and no pipeline keep both (both are used).
// CSE-LABEL:  func.func @cse_duplicate_add
// CSE-NEXT:     %0 = relay.add %a, %b : tensor<4xf32>
// CSE-NEXT:     %1 = relay.multiply %0, %0 : tensor<4xf32>
// CSE-NEXT:     func.return %1
// DCE-LABEL:  func.func @cse_duplicate_add
// DCE-COUNT-2:  relay.add %a, %b
// NONE-LABEL: func.func @cse_duplicate_add
// NONE-COUNT-2: relay.add %a, %b
func.func @cse_duplicate_add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// cse keeps ops that differ in an attribute or in operand order.
// CSE-LABEL:  func.func @keep_different
// CSE-COUNT-2:  relay.clip %a
// CSE:          relay.subtract %a, %b
// CSE-NEXT:     relay.subtract %b, %a
func.func @keep_different(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.clip %a {a_min = 0.0, a_max = 1.0} : tensor<4xf32>
  %1 = relay.clip %a {a_min = 0.0, a_max = 2.0} : tensor<4xf32>
  %2 = relay.subtract %a, %b : tensor<4xf32>
  %3 = relay.subtract %b, %a : tensor<4xf32>
  %4 = relay.add %0, %1 : tensor<4xf32>
  %5 = relay.add %2, %3 : tensor<4xf32>
  %6 = relay.add %4, %5 : tensor<4xf32>
  func.return %6 : tensor<4xf32>
}

// -----

/// cse does not merge BYOC annotations (not pure: each marks its own region boundary).
// CSE-LABEL:  func.func @keep_annotations
// CSE-COUNT-2:  relay.compiler_begin %a {compiler = "accel"}
func.func @keep_annotations(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %1 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// dce and canonicalize remove an unused pure op (and a chain of them) but keep the
/// unused BYOC annotation; without a pipeline everything stays.
// DCE-LABEL:   func.func @dce_dead_ops
// DCE-NOT:       relay.exp
// DCE-NOT:       relay.nn.relu
// DCE:           relay.compiler_begin %a
// DCE-NEXT:      func.return %a
// CANON-LABEL: func.func @dce_dead_ops
// CANON-NOT:     relay.exp
// CANON-NOT:     relay.nn.relu
// CANON:         relay.compiler_begin %a
// CANON-NEXT:    func.return %a
// BOTH-LABEL:  func.func @dce_dead_ops
// BOTH-NOT:      relay.exp
// BOTH:          relay.compiler_begin %a
// NONE-LABEL:  func.func @dce_dead_ops
// NONE:          relay.exp
// NONE:          relay.nn.relu
func.func @dce_dead_ops(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %a : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  %2 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  func.return %a : tensor<4xf32>
}

// -----

/// A used op survives dce and canonicalize.
// DCE-LABEL:   func.func @keep_used
// DCE-NEXT:      %0 = relay.exp %a
// DCE-NEXT:      func.return %0
// CANON-LABEL: func.func @keep_used
// CANON-NEXT:    %0 = relay.exp %a
// CANON-NEXT:    func.return %0
func.func @keep_used(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %a : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

/// cse then dce: the duplicate is merged, and the dead op that used it is removed.
// BOTH-LABEL:  func.func @cse_then_dce
// BOTH-NEXT:     %0 = relay.negative %a
// BOTH-NEXT:     func.return %0
func.func @cse_then_dce(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %a : tensor<4xf32>
  %1 = relay.negative %a : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
