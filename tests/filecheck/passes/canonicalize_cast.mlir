// RUN: xrelay-opt %s -p canonicalize-cast --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p CanonicalizeCast --split-input-file | filecheck %s

/// An upcast read by two elementwise ops: the second reader gets its own copy.
// CHECK-LABEL: @two_readers
//  CHECK-NEXT:   %[[C:[^ ]+]] = relay.cast %x {dtype = i32}
//  CHECK-NEXT:   %[[A:[^ ]+]] = relay.add %[[C]], %b
//  CHECK-NEXT:   %[[C2:[^ ]+]] = relay.cast %x {dtype = i32}
//  CHECK-NEXT:   %[[M:[^ ]+]] = relay.multiply %[[C2]], %b
//  CHECK-NEXT:   %[[S:[^ ]+]] = relay.add %[[A]], %[[M]]
func.func @two_readers(%x: tensor<4xi8>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %c = relay.cast %x {dtype = i32} : (tensor<4xi8>) -> tensor<4xi32>
  %a = relay.add %c, %b : tensor<4xi32>
  %m = relay.multiply %c, %b : tensor<4xi32>
  %s = relay.add %a, %m : tensor<4xi32>
  func.return %s : tensor<4xi32>
}

// -----

/// Not copied: a downcast, and an upcast whose second reader is not elementwise (a sum).
// CHECK-LABEL: @kept
//  CHECK-NEXT:   %[[D:[^ ]+]] = relay.cast %y {dtype = i8}
//  CHECK-NEXT:   relay.negative %[[D]]
//  CHECK-NEXT:   relay.negative %[[D]]
//  CHECK-NEXT:   %[[U:[^ ]+]] = relay.cast %x {dtype = f32}
//  CHECK-NEXT:   relay.exp %[[U]]
//  CHECK-NEXT:   relay.sum %[[U]]
//   CHECK-NOT:   relay.cast
func.func @kept(%x: tensor<4xf16>, %y: tensor<4xi32>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xf32>, tensor<f32>) {
  %d = relay.cast %y {dtype = i8} : (tensor<4xi32>) -> tensor<4xi8>
  %n1 = relay.negative %d : tensor<4xi8>
  %n2 = relay.negative %d : tensor<4xi8>
  %u = relay.cast %x {dtype = f32} : (tensor<4xf16>) -> tensor<4xf32>
  %e = relay.exp %u : tensor<4xf32>
  %s = relay.sum %u : (tensor<4xf32>) -> tensor<f32>
  func.return %n1, %n2, %e, %s : tensor<4xi8>, tensor<4xi8>, tensor<4xf32>, tensor<f32>
}
