// RUN: xrelay-opt %s --split-input-file -p cse | filecheck %s --check-prefix=CSE
// RUN: xrelay-opt %s --split-input-file -p dce | filecheck %s --check-prefix=DCE
// RUN: xrelay-opt %s --split-input-file -p cse,dce | filecheck %s --check-prefix=BOTH

/// cse merges two identical relay.add ops; dce alone keeps both (both are used).
// CSE-LABEL: func.func @duplicate_add
// CSE-NEXT:    %0 = relay.add %a, %b : tensor<4xf32>
// CSE-NEXT:    %1 = relay.multiply %0, %0 : tensor<4xf32>
// DCE-LABEL: func.func @duplicate_add
// DCE-COUNT-2: relay.add
func.func @duplicate_add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// Ops with different attributes are not merged.
// CSE-LABEL: func.func @keep_different_attrs
// CSE-COUNT-2: relay.clip
func.func @keep_different_attrs(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.clip %a {a_min = 0.0, a_max = 1.0} : tensor<4xf32>
  %1 = relay.clip %a {a_min = 0.0, a_max = 2.0} : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// dce removes an unused pure op but keeps BYOC annotations (no Pure trait).
// DCE-LABEL: func.func @dead_op
// DCE-NOT:     relay.exp
// DCE:         relay.compiler_begin
// DCE:         func.return %a
// BOTH-LABEL: func.func @dead_op
// BOTH-NOT:    relay.exp
func.func @dead_op(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %a : tensor<4xf32>
  %1 = relay.compiler_begin %a {compiler = "accel"} : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
