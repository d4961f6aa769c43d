// RUN: xrelay-opt %s --opt-level 4 -p fast-math | filecheck %s
// RUN: xrelay-opt %s -p FastMath 2>&1 | filecheck %s --check-prefix=SKIPPED

/// exp, tanh, erf and softmax (its axis kept) become the fast variants; log and
/// log_softmax have none and stay.
// CHECK-LABEL: @math
//  CHECK-NEXT:   %0 = relay.fast_exp %x : tensor<2x3xf32>
//  CHECK-NEXT:   %1 = relay.fast_tanh %0 : tensor<2x3xf32>
//  CHECK-NEXT:   %2 = relay.fast_erf %1 : tensor<2x3xf32>
//  CHECK-NEXT:   %3 = relay.nn.fast_softmax %2 {axis = 0} : tensor<2x3xf32>
//  CHECK-NEXT:   %4 = relay.log %3 : tensor<2x3xf32>
//  CHECK-NEXT:   %5 = relay.nn.log_softmax %4 : tensor<2x3xf32>
//  CHECK-NEXT:   func.return %5
/// Opt level 4: skipped at the default level 3.
// SKIPPED: warning: pass 'fast-math' is skipped: its opt_level 4 is above --opt-level 3
// SKIPPED: relay.exp %x
func.func @math(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.exp %x : tensor<2x3xf32>
  %1 = relay.tanh %0 : tensor<2x3xf32>
  %2 = relay.erf %1 : tensor<2x3xf32>
  %3 = relay.nn.softmax %2 {axis = 0} : tensor<2x3xf32>
  %4 = relay.log %3 : tensor<2x3xf32>
  %5 = relay.nn.log_softmax %4 : tensor<2x3xf32>
  func.return %5 : tensor<2x3xf32>
}
