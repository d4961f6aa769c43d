// RUN: xrelay-opt %s -p partition-graph --split-input-file | filecheck %s

/// One region: a function named tvmgen_default_<target>_<function>_<id> with TVM's four
/// attributes, parameters named <target>_<id>_i<k>, inserted before its caller.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<8x8xf32>, %accel_0_i1: tensor<8x8xf32>) -> tensor<8x8xf32>
//  CHECK-SAME:     attributes {Compiler = "accel", global_symbol = "tvmgen_default_accel_main_0", Primitive = 1 : i32, Inline = 1 : i32}
//  CHECK-NEXT:    %z = relay.add %accel_0_i0, %accel_0_i1
//  CHECK-NEXT:    func.return %z
//  CHECK-NEXT:  }
//  CHECK-NEXT:  func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>)
//  CHECK-NEXT:    %e = func.call @tvmgen_default_accel_main_0(%x, %y) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
//  CHECK-NEXT:    func.return %e
func.func @main(%x: tensor<8x8xf32>, %y: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<8x8xf32>
  %by = relay.compiler_begin %y {compiler = "accel"} : tensor<8x8xf32>
  %z = relay.add %bx, %by : tensor<8x8xf32>
  %e = relay.compiler_end %z {compiler = "accel"} : tensor<8x8xf32>
  func.return %e : tensor<8x8xf32>
}

// -----

/// Region ids are the ids of their first begin: a region with two begins takes 0 and 1,
/// so the next one is 2 (TVM's test_function_lifting: main_0, main_2).
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(
//       CHECK:  func.func @tvmgen_default_accel_main_2(%accel_2_i0: tensor<4xf32>)
//       CHECK:  func.func @main
//  CHECK-NEXT:    %[[A:.*]] = func.call @tvmgen_default_accel_main_0(%x, %y)
//  CHECK-NEXT:    %[[T:.*]] = relay.tanh %[[A]]
//  CHECK-NEXT:    %[[R:.*]] = func.call @tvmgen_default_accel_main_2(%[[T]])
//  CHECK-NEXT:    func.return %[[R]]
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %by = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %a = relay.add %bx, %by : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %t = relay.tanh %ea : tensor<4xf32>
  %bt = relay.compiler_begin %t {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %bt : tensor<4xf32>
  %er = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  func.return %er : tensor<4xf32>
}

// -----

/// Ids restart in each function; each function's regions go right before it.
// CHECK-LABEL: func.func @tvmgen_default_dnnl_f_0(%dnnl_0_i0: tensor<4xf32>)
//  CHECK-NEXT:    relay.exp
//       CHECK:  func.func @f(
//       CHECK:  func.func @tvmgen_default_dnnl_g_0(%dnnl_0_i0: tensor<4xf32>)
//  CHECK-NEXT:    relay.abs
//       CHECK:  func.func @g(
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "dnnl"} : tensor<4xf32>
  %r = relay.exp %b : tensor<4xf32>
  %e = relay.compiler_end %r {compiler = "dnnl"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "dnnl"} : tensor<4xf32>
  %r = relay.abs %b : tensor<4xf32>
  %e = relay.compiler_end %r {compiler = "dnnl"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

/// Two begins reading one value give one parameter (named after the first begin, k = 0);
/// the call passes the value once.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4xf32>) -> tensor<4xf32>
//  CHECK-NEXT:    %m = relay.multiply %accel_0_i0, %accel_0_i0
//       CHECK:    func.call @tvmgen_default_accel_main_0(%x) :
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %m = relay.multiply %b0, %b1 : tensor<4xf32>
  %e = relay.compiler_end %m {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

/// "default" annotations are dropped first: their ops stay in the caller and take no id.
// CHECK-LABEL: func.func @tvmgen_default_accel_main_0(%accel_0_i0: tensor<4xf32>)
//  CHECK-NEXT:    relay.nn.relu %accel_0_i0
//       CHECK:  func.func @main
//  CHECK-NEXT:    %t = relay.tanh %x
//  CHECK-NEXT:    %[[R:.*]] = func.call @tvmgen_default_accel_main_0(%t)
//  CHECK-NEXT:    func.return %[[R]]
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "default"} : tensor<4xf32>
  %t = relay.tanh %b0 : tensor<4xf32>
  %e0 = relay.compiler_end %t {compiler = "default"} : tensor<4xf32>
  %b1 = relay.compiler_begin %e0 {compiler = "accel"} : tensor<4xf32>
  %r = relay.nn.relu %b1 : tensor<4xf32>
  %e1 = relay.compiler_end %r {compiler = "accel"} : tensor<4xf32>
  func.return %e1 : tensor<4xf32>
}

// -----

/// TVM's test_extern_compiler_sanitized_ops: the function name is sanitized, the Compiler
/// attribute keeps the target as it is.
// CHECK-LABEL: func.func @tvmgen_default_unsanitary_name___main_0(
//  CHECK-SAME:     Compiler = "unsanitary-name++", global_symbol = "tvmgen_default_unsanitary_name___main_0"
//       CHECK:    func.call @tvmgen_default_unsanitary_name___main_0(%x)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "unsanitary-name++"} : tensor<4xf32>
  %r = relay.abs %b : tensor<4xf32>
  %e = relay.compiler_end %r {compiler = "unsanitary-name++"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

/// Kept as they are: a function without annotations, and a partitioned one (Compiler).
// CHECK-LABEL: func.func @keep_plain(
//  CHECK-NEXT:    relay.exp %x
//  CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @keep_partitioned(
//  CHECK-NEXT:    relay.compiler_begin
//  CHECK-NEXT:    relay.abs
//  CHECK-NEXT:    relay.compiler_end
//   CHECK-NOT:  func.func
func.func @keep_plain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func @keep_partitioned(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = relay.abs %0 : tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
