// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// Binary ops print `: T` when operand and result types agree.
// CHECK-LABEL: func.func @binary_same_type
func.func @binary_same_type(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = relay.add %a, %b : tensor<2x3xf32>
  // CHECK-NEXT: %1 = relay.subtract %0, %b : tensor<2x3xf32>
  // CHECK-NEXT: %2 = relay.multiply %1, %b : tensor<2x3xf32>
  // CHECK-NEXT: %3 = relay.divide %2, %b : tensor<2x3xf32>
  // CHECK-NEXT: %4 = relay.power %3, %b : tensor<2x3xf32>
  // CHECK-NEXT: %5 = relay.maximum %4, %b : tensor<2x3xf32>
  // CHECK-NEXT: %6 = relay.minimum %5, %b : tensor<2x3xf32>
  // GENERIC: "relay.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = relay.add %a, %b : tensor<2x3xf32>
  %1 = relay.subtract %0, %b : tensor<2x3xf32>
  %2 = relay.multiply %1, %b : tensor<2x3xf32>
  %3 = relay.divide %2, %b : tensor<2x3xf32>
  %4 = relay.power %3, %b : tensor<2x3xf32>
  %5 = relay.maximum %4, %b : tensor<2x3xf32>
  %6 = relay.minimum %5, %b : tensor<2x3xf32>
  func.return %6 : tensor<2x3xf32>
}

// -----

/// Broadcasting with a dynamic dim prints the functional type.
// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%a: tensor<?x1x3xf32>, %b: tensor<4x1xf32>) -> tensor<?x4x3xf32> {
  // CHECK-NEXT: %0 = relay.add %a, %b : (tensor<?x1x3xf32>, tensor<4x1xf32>) -> tensor<?x4x3xf32>
  %0 = relay.add %a, %b : (tensor<?x1x3xf32>, tensor<4x1xf32>) -> tensor<?x4x3xf32>
  func.return %0 : tensor<?x4x3xf32>
}

// -----

/// Comparisons produce i1 tensors.
// CHECK-LABEL: func.func @comparisons
func.func @comparisons(%a: tensor<3xi32>, %b: tensor<1xi32>) -> tensor<3xi1> {
  // CHECK-NEXT: relay.equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  // CHECK-NEXT: relay.not_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  // CHECK-NEXT: relay.less %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  // CHECK-NEXT: relay.less_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  // CHECK-NEXT: relay.greater %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  // CHECK-NEXT: relay.greater_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %0 = relay.equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %1 = relay.not_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %2 = relay.less %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %3 = relay.less_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %4 = relay.greater %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  %5 = relay.greater_equal %a, %b : (tensor<3xi32>, tensor<1xi32>) -> tensor<3xi1>
  func.return %5 : tensor<3xi1>
}

// -----

/// Unary math keeps the operand type.
// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: relay.negative %x : tensor<4xf32>
  // CHECK-NEXT: relay.abs
  // CHECK-NEXT: relay.exp
  // CHECK-NEXT: relay.log
  // CHECK-NEXT: relay.sqrt
  // CHECK-NEXT: relay.rsqrt
  // CHECK-NEXT: relay.tanh
  // CHECK-NEXT: relay.sigmoid
  // CHECK-NEXT: relay.erf
  // CHECK-NEXT: relay.floor
  // CHECK-NEXT: relay.ceil %{{.*}} : tensor<4xf32>
  %0 = relay.negative %x : tensor<4xf32>
  %1 = relay.abs %0 : tensor<4xf32>
  %2 = relay.exp %1 : tensor<4xf32>
  %3 = relay.log %2 : tensor<4xf32>
  %4 = relay.sqrt %3 : tensor<4xf32>
  %5 = relay.rsqrt %4 : tensor<4xf32>
  %6 = relay.tanh %5 : tensor<4xf32>
  %7 = relay.sigmoid %6 : tensor<4xf32>
  %8 = relay.erf %7 : tensor<4xf32>
  %9 = relay.floor %8 : tensor<4xf32>
  %10 = relay.ceil %9 : tensor<4xf32>
  func.return %10 : tensor<4xf32>
}

// -----

/// clip and cast carry their attributes; floats print in a parseable form.
// CHECK-LABEL: func.func @clip_cast
func.func @clip_cast(%x: tensor<4xf32>) -> tensor<4xf16> {
  // CHECK-NEXT: %0 = relay.clip %x {a_min = -1.5, a_max = 6.0} : tensor<4xf32>
  // CHECK-NEXT: %1 = relay.cast %0 {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  // GENERIC: "relay.clip"(%x) <{a_min = -1.500000e+00 : f64, a_max = 6.000000e+00 : f64}>
  // GENERIC: "relay.cast"(%0) <{dtype = f16}>
  %0 = relay.clip %x {a_min = -1.5, a_max = 6.0} : tensor<4xf32>
  %1 = relay.cast %0 {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  func.return %1 : tensor<4xf16>
}

// -----

/// Discardable attributes survive beside properties.
// CHECK-LABEL: func.func @extra_attribute
func.func @extra_attribute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK-NEXT: relay.exp %x {tag = "hot"} : tensor<4xf32>
  %0 = relay.exp %x {tag = "hot"} : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
