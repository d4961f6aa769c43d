// RUN: xrelay-opt %s -p 'annotate-target{targets=accel}' --split-input-file | filecheck %s

/// relay.if is not annotated: its condition and the annotated value its branches read get an
/// end before it (one per value), each branch is a scope of its own where that end is an
/// input, yielded values get ends, and the if's result is an input of its consumer.
// CHECK-LABEL: @if_else
//       CHECK:   %c = relay.less
//  CHECK-NEXT:   %[[B:.*]] = relay.compiler_begin %x {compiler = "accel"}
//  CHECK-NEXT:   %r = relay.nn.relu %[[B]]
//  CHECK-NEXT:   %[[EC:.*]] = relay.compiler_end %c {compiler = "default"}
//  CHECK-NEXT:   %[[ER:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[IF:.*]] = relay.if %[[EC]] : tensor<i1> -> tensor<4xf32> {
//  CHECK-NEXT:     %[[B1:.*]] = relay.compiler_begin %[[ER]] {compiler = "accel"}
//  CHECK-NEXT:     %[[B2:.*]] = relay.compiler_begin %[[ER]] {compiler = "accel"}
//  CHECK-NEXT:     %a = relay.add %[[B1]], %[[B2]]
//  CHECK-NEXT:     %[[EA:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:     relay.yield %[[EA]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     %[[B3:.*]] = relay.compiler_begin %[[ER]] {compiler = "default"}
//  CHECK-NEXT:     %t = relay.tanh %[[B3]]
//  CHECK-NEXT:     %[[ET:.*]] = relay.compiler_end %t {compiler = "default"}
//  CHECK-NEXT:     relay.yield %[[ET]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   %[[BI:.*]] = relay.compiler_begin %[[IF]] {compiler = "accel"}
//  CHECK-NEXT:   %[[ER2:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   %[[BR:.*]] = relay.compiler_begin %[[ER2]] {compiler = "accel"}
//  CHECK-NEXT:   relay.multiply %[[BI]], %[[BR]]
func.func @if_else(%x: tensor<4xf32>, %y: tensor<f32>) -> tensor<4xf32> {
  %z = relay.constant dense<0.0> : tensor<f32>
  %c = relay.less %y, %z : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = relay.nn.relu %x : tensor<4xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %a = relay.add %r, %r : tensor<4xf32>
    relay.yield %a : tensor<4xf32>
  } else {
    %t = relay.tanh %r : tensor<4xf32>
    relay.yield %t : tensor<4xf32>
  }
  %1 = relay.multiply %0, %r : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// Nested ifs: a value of the function read in the inner if gets its end before the outer
/// one; a value of the outer branch gets its end before the inner if; yielded inputs and
/// a block argument condition get none.
// CHECK-LABEL: @nested_if
//       CHECK:   %r = relay.nn.relu
//  CHECK-NEXT:   %[[ER:.*]] = relay.compiler_end %r {compiler = "accel"}
//  CHECK-NEXT:   relay.if %c : tensor<i1> -> tensor<4xf32> {
//  CHECK-NEXT:     %[[BX:.*]] = relay.compiler_begin %x {compiler = "default"}
//  CHECK-NEXT:     %e = relay.exp %[[BX]]
//  CHECK-NEXT:     %[[EE:.*]] = relay.compiler_end %e {compiler = "default"}
//  CHECK-NEXT:     %[[IN:.*]] = relay.if %d : tensor<i1> -> tensor<4xf32> {
//  CHECK-NEXT:       %[[B1:.*]] = relay.compiler_begin %[[ER]] {compiler = "accel"}
//  CHECK-NEXT:       %[[B2:.*]] = relay.compiler_begin %[[EE]] {compiler = "accel"}
//  CHECK-NEXT:       %a = relay.add %[[B1]], %[[B2]]
//  CHECK-NEXT:       %[[EA:.*]] = relay.compiler_end %a {compiler = "accel"}
//  CHECK-NEXT:       relay.yield %[[EA]]
//  CHECK-NEXT:     } else {
//  CHECK-NEXT:       relay.yield %x
//  CHECK-NEXT:     }
//  CHECK-NEXT:     relay.yield %[[IN]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %[[ER]]
//  CHECK-NEXT:   }
func.func @nested_if(%x: tensor<4xf32>, %c: tensor<i1>, %d: tensor<i1>) -> tensor<4xf32> {
  %r = relay.nn.relu %x : tensor<4xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %e = relay.exp %x : tensor<4xf32>
    %1 = relay.if %d : tensor<i1> -> tensor<4xf32> {
      %a = relay.add %r, %e : tensor<4xf32>
      relay.yield %a : tensor<4xf32>
    } else {
      relay.yield %x : tensor<4xf32>
    }
    relay.yield %1 : tensor<4xf32>
  } else {
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
