// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// max_pool1d / avg_pool1d: padding, ceil_mode with count_include_pad, dilation in NWC with a `?` batch, integer data.
// CHECK-LABEL: func.func @pool1d
func.func @pool1d(%x: tensor<2x3x9xf32>, %y: tensor<?x8x2xf16>, %i: tensor<1x2x7xi32>) -> tensor<2x3x5xf32> {
  // CHECK-NEXT: %0 = relay.nn.max_pool1d %x {pool_size = [3], strides = [2], padding = [1, 1]} : (tensor<2x3x9xf32>) -> tensor<2x3x5xf32>
  // CHECK-NEXT: %1 = relay.nn.avg_pool1d %x {count_include_pad = true, pool_size = [2], strides = [3], padding = [0, 1], ceil_mode = true} : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  // CHECK-NEXT: %2 = relay.nn.max_pool1d %y {pool_size = [2], dilation = [2], layout = "NWC"} : (tensor<?x8x2xf16>) -> tensor<?x6x2xf16>
  // CHECK-NEXT: %3 = relay.nn.avg_pool1d %i {pool_size = [2], padding = [1]} : (tensor<1x2x7xi32>) -> tensor<1x2x8xi32>
  // GENERIC: "relay.nn.max_pool1d"(%x) <{pool_size = array<i64: 3>, strides = array<i64: 2>, dilation = array<i64: 1>, padding = array<i64: 1, 1>, layout = "NCW", ceil_mode = false}> : (tensor<2x3x9xf32>) -> tensor<2x3x5xf32>
  // GENERIC: "relay.nn.avg_pool1d"(%x) <{count_include_pad = true, pool_size = array<i64: 2>, strides = array<i64: 3>, dilation = array<i64: 1>, padding = array<i64: 0, 1>, layout = "NCW", ceil_mode = true}> : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  // GENERIC: "relay.nn.max_pool1d"(%y) <{pool_size = array<i64: 2>, strides = array<i64: 1>, dilation = array<i64: 2>, padding = array<i64: 0, 0>, layout = "NWC", ceil_mode = false}> : (tensor<?x8x2xf16>) -> tensor<?x6x2xf16>
  // GENERIC: "relay.nn.avg_pool1d"(%i) <{count_include_pad = false, pool_size = array<i64: 2>, strides = array<i64: 1>, dilation = array<i64: 1>, padding = array<i64: 1>, layout = "NCW", ceil_mode = false}> : (tensor<1x2x7xi32>) -> tensor<1x2x8xi32>
  %0 = relay.nn.max_pool1d %x {pool_size = [3], strides = [2], padding = [1, 1]} : (tensor<2x3x9xf32>) -> tensor<2x3x5xf32>
  %1 = relay.nn.avg_pool1d %x {pool_size = [2], strides = [3], padding = [0, 1], ceil_mode = true, count_include_pad = true} : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  %2 = relay.nn.max_pool1d %y {pool_size = [2], dilation = [2], layout = "NWC"} : (tensor<?x8x2xf16>) -> tensor<?x6x2xf16>
  %3 = relay.nn.avg_pool1d %i {pool_size = [2], padding = [1]} : (tensor<1x2x7xi32>) -> tensor<1x2x8xi32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

/// max_pool3d / avg_pool3d: ceil_mode, 6-value asymmetric padding, NDHWC with `?` dims.
// CHECK-LABEL: func.func @pool3d
func.func @pool3d(%x: tensor<1x2x5x6x4xf32>, %y: tensor<?x4x?x6x2xf32>) -> tensor<1x2x3x3x2xf32> {
  // CHECK-NEXT: %0 = relay.nn.max_pool3d %x {pool_size = [2, 2, 2], strides = [2, 2, 2], ceil_mode = true} : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x3x3x2xf32>
  // CHECK-NEXT: %1 = relay.nn.avg_pool3d %x {count_include_pad = true, pool_size = [2, 3, 2], strides = [1, 2, 3], padding = [1, 0, 1, 0, 2, 1]} : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x5x3x2xf32>
  // CHECK-NEXT: %2 = relay.nn.avg_pool3d %y {pool_size = [3, 3, 1], padding = [1], layout = "NDHWC"} : (tensor<?x4x?x6x2xf32>) -> tensor<?x4x?x8x2xf32>
  // GENERIC: "relay.nn.max_pool3d"(%x) <{pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>, dilation = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0>, layout = "NCDHW", ceil_mode = true}> : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x3x3x2xf32>
  // GENERIC: "relay.nn.avg_pool3d"(%x) <{count_include_pad = true, pool_size = array<i64: 2, 3, 2>, strides = array<i64: 1, 2, 3>, dilation = array<i64: 1, 1, 1>, padding = array<i64: 1, 0, 1, 0, 2, 1>, layout = "NCDHW", ceil_mode = false}> : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x5x3x2xf32>
  // GENERIC: "relay.nn.avg_pool3d"(%y) <{count_include_pad = false, pool_size = array<i64: 3, 3, 1>, strides = array<i64: 1, 1, 1>, dilation = array<i64: 1, 1, 1>, padding = array<i64: 1>, layout = "NDHWC", ceil_mode = false}> : (tensor<?x4x?x6x2xf32>) -> tensor<?x4x?x8x2xf32>
  %0 = relay.nn.max_pool3d %x {pool_size = [2, 2, 2], strides = [2, 2, 2], ceil_mode = true} : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x3x3x2xf32>
  %1 = relay.nn.avg_pool3d %x {pool_size = [2, 3, 2], strides = [1, 2, 3], padding = [1, 0, 1, 0, 2, 1], count_include_pad = true} : (tensor<1x2x5x6x4xf32>) -> tensor<1x2x5x3x2xf32>
  %2 = relay.nn.avg_pool3d %y {pool_size = [3, 3, 1], padding = [1], layout = "NDHWC"} : (tensor<?x4x?x6x2xf32>) -> tensor<?x4x?x8x2xf32>
  func.return %0 : tensor<1x2x3x3x2xf32>
}
