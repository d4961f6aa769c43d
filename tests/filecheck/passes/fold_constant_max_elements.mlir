// RUN: xrelay-opt %s -p fold-constant | filecheck %s --check-prefix=DEFAULT
// RUN: xrelay-opt %s -p fold-constant -c relay.FoldConstant.max_elements=6 | filecheck %s --check-prefix=SIX
// RUN: xrelay-opt %s -p fold-constant -c relay.FoldConstant.max_elements=5 | filecheck %s --check-prefix=FIVE
// RUN: xrelay-opt %s -p fold-constant -c relay.FoldConstant.max_elements=-1 | filecheck %s --check-prefix=DEFAULT

/// `relay.FoldConstant.max_elements` bounds the elements of a folded result: the broadcast
/// to 2x3 (6 elements) folds under the default, under a bound of 6 and with no bound (-1);
/// with 5 it stays, while the 3-element add before it still folds.
// DEFAULT-LABEL: @broadcast
//  DEFAULT-NEXT:   %[[K:[^ ]+]] = relay.constant dense<{{\[}}[3.000000e+00, 4.000000e+00, 5.000000e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00]]> : tensor<2x3xf32>
//  DEFAULT-NEXT:   func.return %[[K]]
// SIX-LABEL: @broadcast
//  SIX-NEXT:   %[[K:[^ ]+]] = relay.constant {{.*}} : tensor<2x3xf32>
//  SIX-NEXT:   func.return %[[K]]
// FIVE-LABEL: @broadcast
//  FIVE-NEXT:   %[[R:[^ ]+]] = relay.constant dense<1.000000e+00> : tensor<2x3xf32>
//  FIVE-NEXT:   %[[S:[^ ]+]] = relay.constant dense<[2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<3xf32>
//  FIVE-NEXT:   %[[B:[^ ]+]] = relay.add %[[R]], %[[S]] : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
//  FIVE-NEXT:   func.return %[[B]]
func.func @broadcast() -> tensor<2x3xf32> {
  %rows = relay.constant dense<1.0> : tensor<2x3xf32>
  %a = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %s = relay.add %a, %one : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %b = relay.add %rows, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %b : tensor<2x3xf32>
}
