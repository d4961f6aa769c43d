// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// Every operand must be defined before its use (MLIR's dominance rule).

func.func @use_before_def(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.add' op operand #1 does not dominate this use (it is defined at line 8)}}
  %1 = relay.add %a, %0 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %0 = relay.exp %a : tensor<2xf32>
  func.return %1 : tensor<2xf32>
}

// -----

func.func @region_uses_later_value(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %a : tensor<2xf32>
  } else {
    // expected-error@+1 {{'relay.yield' op operand #0 does not dominate this use}}
    relay.yield %late : tensor<2xf32>
  }
  %late = relay.exp %a : tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @region_uses_own_result(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
    // expected-error@+1 {{'relay.yield' op operand #0 does not dominate this use}}
    relay.yield %r : tensor<2xf32>
  } else {
    relay.yield %a : tensor<2xf32>
  }
  func.return %r : tensor<2xf32>
}

// -----

func.func @return_before_def(%a: tensor<2xf32>) -> tensor<2xf32> {
  %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  // expected-error@-1 {{'relay.tuple' op operand #1 does not dominate this use}}
  %b = relay.exp %a : tensor<2xf32>
  func.return %b : tensor<2xf32>
}
