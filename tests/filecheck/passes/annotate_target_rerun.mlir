// RUN: xrelay-opt %s -p 'annotate-target{targets=accel},annotate-target{targets=accel}' --split-input-file | filecheck %s
/// Idempotent: two runs print exactly what one run prints.
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel}' --split-input-file > %t.once
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel},annotate-target{targets=accel}' --split-input-file > %t.twice
// RUN: diff %t.once %t.twice
/// Additive: accel then dnnl re-decides only what got "default", giving what accel,dnnl gives.
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel},annotate-target{targets=dnnl}' --split-input-file > %t.additive
// RUN: xrelay-opt %s -p 'annotate-target{targets=accel,dnnl}' --split-input-file > %t.both
// RUN: diff %t.additive %t.both
// RUN: filecheck %s --check-prefix=ADD < %t.additive

/// TVM test_multiple_runs, with a tuple: the second run adds no annotation. With dnnl next,
/// the broadcasting adds (default under accel) go to dnnl, and so does the stale "default"
/// end of the first run on %s; the tuple of a dnnl and an accel value stays "default".
// CHECK-LABEL: @multiple_runs
//  CHECK-NEXT:   %[[B0:.*]] = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %a1 = relay.nn.relu %[[B0]]
//  CHECK-NEXT:   %[[E1:.*]] = relay.compiler_end %a1 {compiler = "accel"}
//  CHECK-NEXT:   %[[B1:.*]] = relay.compiler_begin %[[E1]] {compiler = "default"}
//  CHECK-NEXT:   %a2 = relay.abs %[[B1]]
//  CHECK-NEXT:   %[[E2:.*]] = relay.compiler_end %a1 {compiler = "accel"}
//  CHECK-NEXT:   %[[B2:.*]] = relay.compiler_begin %[[E2]] {compiler = "accel"}
//  CHECK-NEXT:   %a3 = relay.nn.relu %[[B2]]
//  CHECK-NEXT:   %[[E3:.*]] = relay.compiler_end %a2 {compiler = "default"}
//  CHECK-NEXT:   %[[B3:.*]] = relay.compiler_begin %[[E3]] {compiler = "default"}
//  CHECK-NEXT:   %[[B4:.*]] = relay.compiler_begin %b {compiler = "default"}
//  CHECK-NEXT:   %s = relay.add %[[B3]], %[[B4]]
//  CHECK-NEXT:   %[[E5:.*]] = relay.compiler_end %s {compiler = "default"}
//  CHECK-NEXT:   %[[B5:.*]] = relay.compiler_begin %[[E5]] {compiler = "default"}
//  CHECK-NEXT:   %[[E6:.*]] = relay.compiler_end %a3 {compiler = "accel"}
//  CHECK-NEXT:   %[[B6:.*]] = relay.compiler_begin %[[E6]] {compiler = "default"}
//  CHECK-NEXT:   %t = relay.tuple %[[B5]], %[[B6]]
//  CHECK-NEXT:   %[[E7:.*]] = relay.compiler_end %t {compiler = "default"}
//  CHECK-NEXT:   %[[B7:.*]] = relay.compiler_begin %[[E7]] {compiler = "default"}
//  CHECK-NEXT:   %g = relay.tuple_get_item %[[B7]]
//  CHECK-NEXT:   %[[E8:.*]] = relay.compiler_end %g {compiler = "default"}
//  CHECK-NEXT:   %[[B8:.*]] = relay.compiler_begin %[[E8]] {compiler = "default"}
//  CHECK-NEXT:   %[[B9:.*]] = relay.compiler_begin %b {compiler = "default"}
//  CHECK-NEXT:   %o = relay.add %[[B8]], %[[B9]]
//  CHECK-NEXT:   %[[E9:.*]] = relay.compiler_end %o {compiler = "default"}
//  CHECK-NEXT:   func.return %[[E9]]
// ADD-LABEL: @multiple_runs
//       ADD:   %a3 = relay.nn.relu
//  ADD-NEXT:   %[[E3:.*]] = relay.compiler_end %a2 {compiler = "default"}
//  ADD-NEXT:   %[[B3:.*]] = relay.compiler_begin %[[E3]] {compiler = "dnnl"}
//  ADD-NEXT:   %[[B4:.*]] = relay.compiler_begin %b {compiler = "dnnl"}
//  ADD-NEXT:   %s = relay.add %[[B3]], %[[B4]]
//  ADD-NEXT:   %[[E5:.*]] = relay.compiler_end %s {compiler = "dnnl"}
//  ADD-NEXT:   %[[B5:.*]] = relay.compiler_begin %[[E5]] {compiler = "default"}
//       ADD:   %t = relay.tuple
//  ADD-NEXT:   relay.compiler_end %t {compiler = "default"}
//       ADD:   %o = relay.add
//  ADD-NEXT:   relay.compiler_end %o {compiler = "dnnl"}
func.func @multiple_runs(%x: tensor<10x5xf32>, %b: tensor<5xf32>) -> tensor<10x5xf32> {
  %a1 = relay.nn.relu %x : tensor<10x5xf32>
  %a2 = relay.abs %a1 : tensor<10x5xf32>
  %a3 = relay.nn.relu %a1 : tensor<10x5xf32>
  %s = relay.add %a2, %b : (tensor<10x5xf32>, tensor<5xf32>) -> tensor<10x5xf32>
  %t = relay.tuple %s, %a3 : (tensor<10x5xf32>, tensor<10x5xf32>) -> tuple<tensor<10x5xf32>, tensor<10x5xf32>>
  %g = relay.tuple_get_item %t {index = 0} : (tuple<tensor<10x5xf32>, tensor<10x5xf32>>) -> tensor<10x5xf32>
  %o = relay.add %g, %b : (tensor<10x5xf32>, tensor<5xf32>) -> tensor<10x5xf32>
  func.return %o : tensor<10x5xf32>
}

// -----

/// An op whose first operand is a non-default begin (here written by hand) is kept as it is;
/// an op behind a "default" begin is re-decided, and its begin and end change in place.
// CHECK-LABEL: @keep_annotated
//  CHECK-NEXT:   %0 = relay.compiler_begin %x {compiler = "dnnl"}
//  CHECK-NEXT:   %1 = relay.nn.relu %0
//  CHECK-NEXT:   %2 = relay.compiler_end %1 {compiler = "dnnl"}
//  CHECK-NEXT:   %3 = relay.compiler_begin %2 {compiler = "accel"}
//  CHECK-NEXT:   %4 = relay.nn.relu %3
//  CHECK-NEXT:   %5 = relay.compiler_end %4 {compiler = "accel"}
//  CHECK-NEXT:   func.return %5
// ADD-LABEL: @keep_annotated
//       ADD:   relay.compiler_begin %2 {compiler = "accel"}
func.func @keep_annotated(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %x {compiler = "dnnl"} : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "dnnl"} : tensor<4xf32>
  %3 = relay.compiler_begin %2 {compiler = "default"} : tensor<4xf32>
  %4 = relay.nn.relu %3 : tensor<4xf32>
  %5 = relay.compiler_end %4 {compiler = "default"} : tensor<4xf32>
  func.return %5 : tensor<4xf32>
}
