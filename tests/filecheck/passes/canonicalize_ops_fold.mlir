// RUN: xrelay-opt %s -p 'canonicalize-ops{fold-constants=true}' --split-input-file | filecheck %s
// RUN: xrelay-opt %s -p 'canonicalize-ops{fold-constants=true},fold-constant' --split-input-file | filecheck %s --check-prefix=PIPE
// RUN: xrelay-opt %s -p 'canonicalize-ops,fold-constant' --split-input-file | filecheck %s --check-prefix=PIPE

/// A constant bias: widened straight into the constant FoldConstant would fold the
/// expand_dims to; the bias, now unused, is erased. With FoldConstant after, the same IR.
// CHECK-LABEL: @constant_bias
// CHECK-NEXT:    %[[B:.*]] = relay.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %x, %[[B]]
// CHECK-NEXT:    func.return %[[A]]
// PIPE-LABEL: @constant_bias
// PIPE-NEXT:    %[[B:.*]] = relay.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
// PIPE-NEXT:    %[[A:.*]] = relay.add %x, %[[B]]
// PIPE-NEXT:    func.return %[[A]]
func.func @constant_bias(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = relay.nn.bias_add %x, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  func.return %0 : tensor<1x2x3x3xf32>
}

// -----

/// A bias that is no constant: the expand_dims, as without the option.
// CHECK-LABEL: @variable_bias
// CHECK-NEXT:    %[[E:.*]] = relay.expand_dims %b {axis = 1, num_newaxis = 2}
// CHECK-NEXT:    relay.add %x, %[[E]]
func.func @variable_bias(%x: tensor<1x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %0 = relay.nn.bias_add %x, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  func.return %0 : tensor<1x2x3x3xf32>
}

// -----

/// A bias constant read elsewhere too stays for that reader.
// CHECK-LABEL: @shared_bias
// CHECK-NEXT:    %b = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT:    relay.constant dense<{{\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]]> : tensor<2x1x1xf32>
func.func @shared_bias(%x: tensor<1x2x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<2xf32>) {
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = relay.nn.bias_add %x, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  func.return %0, %b : tensor<1x2x3x3xf32>, tensor<2xf32>
}

// -----

/// float16: the expand_dims (only float32 and float64 are widened here).
// CHECK-LABEL: @float16_bias
// CHECK:         relay.expand_dims
func.func @float16_bias(%x: tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xf16> {
  %b = relay.constant dense<[1.0, 2.0]> : tensor<2xf16>
  %0 = relay.nn.bias_add %x, %b : (tensor<1x2x3x3xf16>, tensor<2xf16>) -> tensor<1x2x3x3xf16>
  func.return %0 : tensor<1x2x3x3xf16>
}
