/// -p takes TVM's pass names as well as the flags, options included: each pipeline below prints
/// what its flag spelling prints.
// RUN: xrelay-opt %s -p FoldConstant | filecheck %s --check-prefix=FOLD
// RUN: xrelay-opt %s -p fold-constant | filecheck %s --check-prefix=FOLD
// FOLD:      %[[C:.*]] = relay.constant dense<2.000000e+00> : tensor<2xf32>
// FOLD-NEXT: %[[S:.*]] = relay.add %x, %[[C]] : tensor<2xf32>
// FOLD-NEXT: %[[T:.*]] = relay.add %x, %[[C]] : tensor<2xf32>

// RUN: xrelay-opt %s -p 'FoldConstant,EliminateCommonSubexpr' | filecheck %s --check-prefix=CSE
// RUN: xrelay-opt %s -p 'fold-constant,eliminate-common-subexpr' | filecheck %s --check-prefix=CSE
// CSE:      %[[C:.*]] = relay.constant dense<2.000000e+00> : tensor<2xf32>
// CSE-NEXT: %[[S:.*]] = relay.add %x, %[[C]] : tensor<2xf32>
// CSE-NEXT: %{{.*}} = relay.multiply %[[S]], %[[S]] : tensor<2xf32>

// RUN: xrelay-opt %s -p 'FuseOps{fuse-opt-level=0}' | filecheck %s --check-prefix=FUSE0
// RUN: xrelay-opt %s -p 'FuseOps{fuse-opt-level=2}' | filecheck %s --check-prefix=FUSE2
// FUSE0-COUNT-4: func.call @fused_
// FUSE0-NOT: func.call
// FUSE2-COUNT-1: func.call @fused_
// FUSE2-NOT: func.call

/// A bad option of a TVM-named pass is reported like the flag's; an unknown name stays unknown.
// RUN: not xrelay-opt %s -p 'FuseOps{no-such-option=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: {{\A}}error: pass 'fuse-ops' has no option 'no-such-option'; its options are: fuse-opt-level{{$}}
// RUN: not xrelay-opt %s -p 'FoldConstants' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{\A}}error: unknown pass 'FoldConstants'

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = relay.constant dense<1.0> : tensor<2xf32>
  %d = relay.add %c, %c : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %s = relay.add %x, %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = relay.add %x, %d : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %m = relay.multiply %s, %t : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %m : tensor<2xf32>
}
