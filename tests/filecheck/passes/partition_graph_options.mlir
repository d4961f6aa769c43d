// RUN: xrelay-opt %s -p partition-graph | filecheck %s --check-prefix BIND
// RUN: xrelay-opt %s -p 'partition-graph{bind-constants=false}' | filecheck %s --check-prefix NOBIND
// RUN: xrelay-opt %s -p 'partition-graph{mod-name=mynet}' | filecheck %s --check-prefix MOD

/// TVM's test_constant_propagation and test_constant_tuples: with bind_constants (the
/// default) a constant input, or a tuple of constants, is copied into the function and is
/// no parameter; without, both are parameters and stay in the caller. mod_name names the
/// functions tvmgen_<mod_name>_...

// BIND-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i1: tensor<2x2xf32>) -> tensor<2x2xf32>
//  BIND-NEXT:    %w = relay.constant dense<1.000000e+00> : tensor<2x2xf32>
//  BIND-NEXT:    %[[C0:.*]] = relay.constant dense<2.000000e+00> : tensor<2x2xf32>
//  BIND-NEXT:    %[[C1:.*]] = relay.constant dense<3.000000e+00> : tensor<2x2xf32>
//  BIND-NEXT:    %[[T:.*]] = relay.tuple %[[C0]], %[[C1]]
//  BIND-NEXT:    %s = relay.add %w, %accel_0_i1
//  BIND-NEXT:    %g = relay.tuple_get_item %[[T]] {index = 1}
//  BIND-NEXT:    %m = relay.multiply %s, %g
//  BIND-NEXT:    func.return %m
//       BIND:  func.func @main(%y: tensor<2x2xf32>)
//  BIND-NEXT:    %[[R:.*]] = func.call @tvmgen_default_accel_main_0(%y)
//  BIND-NEXT:    relay.log %[[R]]

// NOBIND-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<2x2xf32>, %accel_0_i1: tensor<2x2xf32>, %accel_0_i2: tuple<tensor<2x2xf32>, tensor<2x2xf32>>)
//   NOBIND-NOT:    relay.constant
//       NOBIND:  func.func @main(%y: tensor<2x2xf32>)
//  NOBIND-NEXT:    %w = relay.constant
//  NOBIND-NEXT:    %c0 = relay.constant
//  NOBIND-NEXT:    %c1 = relay.constant
//  NOBIND-NEXT:    %t = relay.tuple %c0, %c1
//  NOBIND-NEXT:    func.call @tvmgen_default_accel_main_0(%w, %y, %t)

// MOD-LABEL: func.func @tvmgen_mynet_accel_main_0(
//  MOD-SAME:     global_symbol = "tvmgen_mynet_accel_main_0"
//       MOD:    func.call @tvmgen_mynet_accel_main_0(%y)
func.func @main(%y: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %w = relay.constant dense<1.0> : tensor<2x2xf32>
  %c0 = relay.constant dense<2.0> : tensor<2x2xf32>
  %c1 = relay.constant dense<3.0> : tensor<2x2xf32>
  %t = relay.tuple %c0, %c1 : (tensor<2x2xf32>, tensor<2x2xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xf32>>
  %bw = relay.compiler_begin %w {compiler = "accel"} : tensor<2x2xf32>
  %by = relay.compiler_begin %y {compiler = "accel"} : tensor<2x2xf32>
  %s = relay.add %bw, %by : tensor<2x2xf32>
  %bt = relay.compiler_begin %t {compiler = "accel"} : tuple<tensor<2x2xf32>, tensor<2x2xf32>>
  %g = relay.tuple_get_item %bt {index = 1} : (tuple<tensor<2x2xf32>, tensor<2x2xf32>>) -> tensor<2x2xf32>
  %m = relay.multiply %s, %g : tensor<2x2xf32>
  %e = relay.compiler_end %m {compiler = "accel"} : tensor<2x2xf32>
  %l = relay.log %e : tensor<2x2xf32>
  func.return %l : tensor<2x2xf32>
}
