// RUN: xrelay-opt %s -p lambda-lift | filecheck %s
// RUN: xrelay-opt %s -p lambda-lift | xrelay-opt | filecheck %s

/// SSA is already in the form TVM's pass makes (passes/normal_form.py): a shared value stays
/// one value, a branch reads its enclosing block's values, calls stay calls of module
/// functions, and nothing is added or removed.
// CHECK-LABEL: func.func @main
//  CHECK-NEXT:   %[[S:[^ ]+]] = relay.add %x, %x
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.constant
//  CHECK-NEXT:   %[[P:[^ ]+]] = relay.greater %[[S]], %[[C]]
//  CHECK-NEXT:   %[[R:[^ ]+]] = relay.if %[[P]]
//  CHECK-NEXT:     %[[T:[^ ]+]] = func.call @double(%[[S]])
//  CHECK-NEXT:     relay.yield %[[T]]
//  CHECK-NEXT:   } else {
//  CHECK-NEXT:     relay.yield %[[S]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   func.return %[[R]]
// CHECK-LABEL: func.func private @double
//  CHECK-NEXT:   relay.add %p, %p
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %s = relay.add %x, %x : tensor<f32>
  %c = relay.constant dense<1.0> : tensor<f32>
  %p = relay.greater %s, %c : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %r = relay.if %p : tensor<i1> -> tensor<f32> {
    %t = func.call @double(%s) : (tensor<f32>) -> tensor<f32>
    relay.yield %t : tensor<f32>
  } else {
    relay.yield %s : tensor<f32>
  }
  func.return %r : tensor<f32>
}
func.func private @double(%p: tensor<f32>) -> tensor<f32> {
  %0 = relay.add %p, %p : tensor<f32>
  func.return %0 : tensor<f32>
}
