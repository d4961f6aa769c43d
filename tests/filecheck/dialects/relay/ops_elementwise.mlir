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

// -----

/// Trigonometry and rounding keep the float operand type; the float tests give i1.
// CHECK-LABEL: func.func @float_math
func.func @float_math(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xi1>) {
  // CHECK-NEXT: %0 = relay.sin %x : tensor<4xf32>
  // CHECK-NEXT: relay.cos
  // CHECK-NEXT: relay.tan
  // CHECK-NEXT: relay.asin
  // CHECK-NEXT: relay.acos
  // CHECK-NEXT: relay.atan
  // CHECK-NEXT: relay.sinh
  // CHECK-NEXT: relay.cosh
  // CHECK-NEXT: relay.asinh
  // CHECK-NEXT: relay.acosh
  // CHECK-NEXT: relay.atanh
  // CHECK-NEXT: relay.trunc
  // CHECK-NEXT: relay.round
  // CHECK-NEXT: relay.sign %{{.*}} : tensor<4xf32>
  // CHECK-NEXT: %14 = relay.isnan %13 : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: %15 = relay.isinf %13 : (tensor<4xf32>) -> tensor<4xi1>
  // CHECK-NEXT: %16 = relay.isfinite %13 : (tensor<4xf32>) -> tensor<4xi1>
  // GENERIC: "relay.sin"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // GENERIC: "relay.isnan"(%13) : (tensor<4xf32>) -> tensor<4xi1>
  %0 = relay.sin %x : tensor<4xf32>
  %1 = relay.cos %0 : tensor<4xf32>
  %2 = relay.tan %1 : tensor<4xf32>
  %3 = relay.asin %2 : tensor<4xf32>
  %4 = relay.acos %3 : tensor<4xf32>
  %5 = relay.atan %4 : tensor<4xf32>
  %6 = relay.sinh %5 : tensor<4xf32>
  %7 = relay.cosh %6 : tensor<4xf32>
  %8 = relay.asinh %7 : tensor<4xf32>
  %9 = relay.acosh %8 : tensor<4xf32>
  %10 = relay.atanh %9 : tensor<4xf32>
  %11 = relay.trunc %10 : tensor<4xf32>
  %12 = relay.round %11 : tensor<4xf32>
  %13 = relay.sign %12 : tensor<4xf32>
  %14 = relay.isnan %13 : (tensor<4xf32>) -> tensor<4xi1>
  %15 = relay.isinf %13 : (tensor<4xf32>) -> tensor<4xi1>
  %16 = relay.isfinite %13 : (tensor<4xf32>) -> tensor<4xi1>
  func.return %13, %16 : tensor<4xf32>, tensor<4xi1>
}

// -----

/// Integer modulo, floored and truncated division, bitwise ops and shifts broadcast.
// CHECK-LABEL: func.func @integer_binary
func.func @integer_binary(%a: tensor<2x3xi32>, %b: tensor<3xi32>) -> tensor<2x3xi32> {
  // CHECK-NEXT: %0 = relay.mod %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: %1 = relay.floor_mod %0, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK-NEXT: relay.floor_divide
  // CHECK-NEXT: relay.trunc_divide
  // CHECK-NEXT: relay.bitwise_and
  // CHECK-NEXT: relay.bitwise_or
  // CHECK-NEXT: relay.bitwise_xor
  // CHECK-NEXT: relay.left_shift
  // CHECK-NEXT: relay.right_shift
  // CHECK-NEXT: %9 = relay.bitwise_not %8 : tensor<2x3xi32>
  // CHECK-NEXT: %10 = relay.sign %9 : tensor<2x3xi32>
  // GENERIC: "relay.mod"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = relay.mod %a, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = relay.floor_mod %0, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %2 = relay.floor_divide %1, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %3 = relay.trunc_divide %2, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %4 = relay.bitwise_and %3, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %5 = relay.bitwise_or %4, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %6 = relay.bitwise_xor %5, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %7 = relay.left_shift %6, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %8 = relay.right_shift %7, %b : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %9 = relay.bitwise_not %8 : tensor<2x3xi32>
  %10 = relay.sign %9 : tensor<2x3xi32>
  func.return %10 : tensor<2x3xi32>
}

// -----

/// Logical ops take and give i1; where broadcasts its three operands.
// CHECK-LABEL: func.func @logical_where
func.func @logical_where(%p: tensor<3xi1>, %q: tensor<2x1xi1>, %x: tensor<2x1xf32>, %y: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: %0 = relay.logical_and %p, %q : (tensor<3xi1>, tensor<2x1xi1>) -> tensor<2x3xi1>
  // CHECK-NEXT: relay.logical_or
  // CHECK-NEXT: relay.logical_xor
  // CHECK-NEXT: %3 = relay.logical_not %2 : tensor<2x3xi1>
  // CHECK-NEXT: %4 = relay.where %3, %x, %y : (tensor<2x3xi1>, tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // GENERIC: "relay.where"(%3, %x, %y) : (tensor<2x3xi1>, tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = relay.logical_and %p, %q : (tensor<3xi1>, tensor<2x1xi1>) -> tensor<2x3xi1>
  %1 = relay.logical_or %0, %q : (tensor<2x3xi1>, tensor<2x1xi1>) -> tensor<2x3xi1>
  %2 = relay.logical_xor %1, %p : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %3 = relay.logical_not %2 : tensor<2x3xi1>
  %4 = relay.where %3, %x, %y : (tensor<2x3xi1>, tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %4 : tensor<2x3xf32>
}
