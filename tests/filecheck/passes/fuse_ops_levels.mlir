// RUN: xrelay-opt %s -p fuse-ops | filecheck %s
// RUN: xrelay-opt %s -p 'fuse-ops{fuse-opt-level=0}' | filecheck %s --check-prefix LEVEL0
// RUN: xrelay-opt %s -p fuse-ops --opt-level 0 | filecheck %s --check-prefix LEVEL0
// RUN: xrelay-opt %s -p fuse-ops -c relay.FuseOps.max_depth=2 | filecheck %s --check-prefix DEPTH2

/// One chain under three settings. By default (opt level 3) the chain is one group and
/// the unused tanh a group of its own, called for nothing (as TVM would if it kept it).
// CHECK-LABEL: func.func @chain(%x: tensor<4xf32>)
// CHECK-NEXT:    %[[R:.*]] = func.call @fused_add_exp_exp_exp_exp(%x)
// CHECK-NEXT:    func.call @fused_tanh(%x)
// CHECK-NEXT:    func.return %[[R]]
// CHECK-LABEL: func.func private @fused_add_exp_exp_exp_exp(%p0: tensor<4xf32>)
// CHECK-NEXT:    relay.constant
// CHECK-NEXT:    relay.add
// CHECK-COUNT-4: relay.exp
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func private @fused_tanh(%p0: tensor<4xf32>)

/// fuse_opt_level 0 (given, or read from a context at opt level 0): one op per function;
/// the scalar constant, alone in its group, stays in the caller and is a parameter.
// LEVEL0-LABEL: func.func @chain(%x: tensor<4xf32>)
// LEVEL0-NEXT:    %[[C:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// LEVEL0-NEXT:    %[[A:.*]] = func.call @fused_add(%x, %[[C]]) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// LEVEL0-NEXT:    %[[E0:.*]] = func.call @fused_exp(%[[A]])
// LEVEL0-NEXT:    %[[E1:.*]] = func.call @fused_exp_1(%[[E0]])
// LEVEL0-NEXT:    %[[E2:.*]] = func.call @fused_exp_2(%[[E1]])
// LEVEL0-NEXT:    %[[E3:.*]] = func.call @fused_exp_3(%[[E2]])
// LEVEL0-NEXT:    func.call @fused_tanh(%x)
// LEVEL0-NEXT:    func.return %[[E3]]
// LEVEL0-LABEL: func.func private @fused_add(%p0: tensor<4xf32>, %p1: tensor<f32>)
// LEVEL0-NEXT:    relay.add %p0, %p1
// LEVEL0-NEXT:    func.return

/// relay.FuseOps.max_depth = 2: TVM's count (the constant counts) cuts the chain in pairs.
// DEPTH2-LABEL: func.func @chain(%x: tensor<4xf32>)
// DEPTH2-NEXT:    %[[A:.*]] = func.call @fused_add(%x)
// DEPTH2-NEXT:    %[[B:.*]] = func.call @fused_exp_exp(%[[A]])
// DEPTH2-NEXT:    %[[C:.*]] = func.call @fused_exp_exp_1(%[[B]])
// DEPTH2-NEXT:    func.call @fused_tanh(%x)
// DEPTH2-NEXT:    func.return %[[C]]
// DEPTH2-LABEL: func.func private @fused_add(%p0: tensor<4xf32>)
// DEPTH2-NEXT:    relay.constant
// DEPTH2-NEXT:    relay.add %p0
// DEPTH2-NEXT:    func.return
func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.add %x, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  %2 = relay.exp %1 : tensor<4xf32>
  %3 = relay.exp %2 : tensor<4xf32>
  %4 = relay.exp %3 : tensor<4xf32>
  %d = relay.tanh %x : tensor<4xf32>
  func.return %4 : tensor<4xf32>
}
