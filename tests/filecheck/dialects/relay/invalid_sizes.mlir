// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// A tensor may hold at most 2^63-1 bytes (PTRDIFF_MAX: generated C indexes with int64).
/// 2^30 x 2^32 f32 elements are 2^64 bytes: an error on the op, before type inference.
func.func @zeros_too_big(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{'relay.zeros' op result type tensor<1073741824x4294967296xf32> has 2^64 bytes; a tensor may hold at most 2^63-1 bytes}}
  %z = relay.zeros {shape = [1073741824, 4294967296], dtype = f32} : tensor<1073741824x4294967296xf32>
  func.return %x : tensor<1xf32>
}

// -----

/// 2^61 f32 elements are 2^63 bytes: one byte over the limit.
func.func @one_over(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{'relay.zeros' op result type tensor<2305843009213693952xf32> has 2^63 bytes; a tensor may hold at most 2^63-1 bytes}}
  %z = relay.zeros {shape = [2305843009213693952], dtype = f32} : tensor<2305843009213693952xf32>
  func.return %x : tensor<1xf32>
}

// -----

/// Bytes count the element width: 2^62 f16 elements are 2^63 bytes too.
func.func @element_width(%x: tensor<4611686018427387904xf16>) -> tensor<1xf32> {
  %z = relay.zeros {shape = [1], dtype = f32} : tensor<1xf32>
  func.return %z : tensor<1xf32>
}
// expected-error@-4 {{'func.func' op argument #0 type tensor<4611686018427387904xf16> has 2^63 bytes; a tensor may hold at most 2^63-1 bytes}}

// -----

/// An element count whose product overflows int64 is caught on the function's signature.
// expected-error@+1 {{'func.func' op argument #1 type tensor<99999999999x99999999999xf32> has 39999999999200000000004 bytes; a tensor may hold at most 2^63-1 bytes}}
func.func @signature(%x: tensor<1xf32>, %big: tensor<99999999999x99999999999xf32>) -> tensor<1xf32> {
  func.return %x : tensor<1xf32>
}

// -----

/// A result of the signature, as a field of a tuple.
// expected-error@+1 {{'func.func' op result #0 type tuple<tensor<1xf32>, tensor<4294967296x4294967296xi8>>: field tensor<4294967296x4294967296xi8> has 2^64 bytes; a tensor may hold at most 2^63-1 bytes}}
func.func private @tuple_result() -> tuple<tensor<1xf32>, tensor<4294967296x4294967296xi8>>

// -----

/// A dimension over 2^63-1 is an error even when another dim is 0 (the tensor is empty,
/// but its shape cannot be written in C).
// expected-error@+1 {{'func.func' op argument #0 type tensor<0x99999999999999999999xf32> has a dimension of 99999999999999999999; a dimension may be at most 2^63-1}}
func.func @huge_dim(%x: tensor<0x99999999999999999999xf32>) -> tensor<1xf32> {
  %z = relay.zeros {shape = [1], dtype = f32} : tensor<1xf32>
  func.return %z : tensor<1xf32>
}

// -----

/// A dynamic dim is skipped (counted as 1): the static dims alone are already too many
/// bytes. The size is checked before the type is inferred.
func.func @dynamic(%s: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error@+1 {{'relay.exp' op result type tensor<?x2305843009213693952x4xf32> has 2^65 bytes; a tensor may hold at most 2^63-1 bytes}}
  %b = relay.exp %s : (tensor<?x3xf32>) -> tensor<?x2305843009213693952x4xf32>
  func.return %s : tensor<?x3xf32>
}

// -----

/// Kernel dialects share the check: an accel op's result.
func.func @accel_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'accel.relu' op result type tensor<4294967296x4294967296xf32> has 2^66 bytes; a tensor may hold at most 2^63-1 bytes}}
  %0 = accel.relu %x : (tensor<4xf32>) -> tensor<4294967296x4294967296xf32>
  func.return %x : tensor<4xf32>
}

// -----

/// And a dnnl op's.
func.func @dnnl_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'dnnl.relu' op result type tensor<4294967296x4294967296xf32> has 2^66 bytes; a tensor may hold at most 2^63-1 bytes}}
  %0 = dnnl.relu %x : (tensor<4xf32>) -> tensor<4294967296x4294967296xf32>
  func.return %x : tensor<4xf32>
}
