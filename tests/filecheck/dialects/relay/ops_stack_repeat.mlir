// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// stack: at the front (the default axis), at the end with a negative axis, a `?` dim.
// CHECK-LABEL: func.func @stack
func.func @stack(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %z: tensor<?x3xi8>) -> tensor<2x2x3xf32> {
  // CHECK-NEXT: %0 = relay.stack %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  // CHECK-NEXT: %1 = relay.stack %x, %y, %x {axis = -1} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x3xf32>
  // CHECK-NEXT: %2 = relay.stack %z {axis = 1} : (tensor<?x3xi8>) -> tensor<?x1x3xi8>
  // GENERIC: "relay.stack"(%x, %y) <{axis = 0 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  // GENERIC: "relay.stack"(%x, %y, %x) <{axis = -1 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x3xf32>
  // GENERIC: "relay.stack"(%z) <{axis = 1 : i64}> : (tensor<?x3xi8>) -> tensor<?x1x3xi8>
  %0 = relay.stack %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2x3xf32>
  %1 = relay.stack %x, %y, %x {axis = -1} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x3xf32>
  %2 = relay.stack %z {axis = 1} : (tensor<?x3xi8>) -> tensor<?x1x3xi8>
  func.return %0 : tensor<2x2x3xf32>
}

// -----

/// repeat: the last axis by a negative index, the first, a `?` dim stays `?`.
// CHECK-LABEL: func.func @repeat
func.func @repeat(%x: tensor<2x3xf32>, %z: tensor<?x3xi32>) -> tensor<2x9xf32> {
  // CHECK-NEXT: %0 = relay.repeat %x {repeats = 3, axis = -1} : (tensor<2x3xf32>) -> tensor<2x9xf32>
  // CHECK-NEXT: %1 = relay.repeat %x {repeats = 1, axis = 0} : tensor<2x3xf32>
  // CHECK-NEXT: %2 = relay.repeat %z {repeats = 2, axis = 0} : tensor<?x3xi32>
  // GENERIC: "relay.repeat"(%x) <{repeats = 3 : i64, axis = -1 : i64}> : (tensor<2x3xf32>) -> tensor<2x9xf32>
  %0 = relay.repeat %x {repeats = 3, axis = -1} : (tensor<2x3xf32>) -> tensor<2x9xf32>
  %1 = relay.repeat %x {repeats = 1, axis = 0} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = relay.repeat %z {repeats = 2, axis = 0} : (tensor<?x3xi32>) -> tensor<?x3xi32>
  func.return %0 : tensor<2x9xf32>
}
