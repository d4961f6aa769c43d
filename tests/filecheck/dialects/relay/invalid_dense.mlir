// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// Dense literals: values out of their element type's range, bit patterns that
/// do not fit, and literals whose shape is not the type's are located errors.

func.func @f32_overflow() -> tensor<2xf32> {
  // expected-error@+1 {{float literal 1.0e39 is out of range for f32}}
  %0 = relay.constant dense<[1.0, 1.0e39]> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @f32_splat_overflow() -> tensor<2xf32> {
  // expected-error@+1 {{float literal -1.0e39 is out of range for f32}}
  %0 = relay.constant dense<-1.0e39> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @f16_overflow() -> tensor<1xf16> {
  // expected-error@+1 {{float literal 65520.0 is out of range for f16}}
  %0 = relay.constant dense<[65520.0]> : tensor<1xf16>
  func.return %0 : tensor<1xf16>
}

// -----

func.func @f64_overflow() -> tensor<1xf64> {
  // expected-error@+1 {{float literal 1.0e309 is out of range for f64}}
  %0 = relay.constant dense<[1.0e309]> : tensor<1xf64>
  func.return %0 : tensor<1xf64>
}

// -----

func.func @hex_too_wide() -> tensor<1xf32> {
  // expected-error@+1 {{hexadecimal float constant 0x7FC000000 is wider than 32 bits}}
  %0 = relay.constant dense<[0x7FC000000]> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

func.func @hex_minus() -> tensor<1xf16> {
  // expected-error@+1 {{hexadecimal float literal should not have a leading minus}}
  %0 = relay.constant dense<[-0x7C00]> : tensor<1xf16>
  func.return %0 : tensor<1xf16>
}

// -----

func.func @bool_as_float() -> tensor<1xf32> {
  // expected-error@+1 {{expected a float literal, got 'true'}}
  %0 = relay.constant dense<[true]> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

// -----

func.func @i8_overflow() -> tensor<2xi8> {
  // expected-error@+1 {{integer 300 is out of range for i8 [-128, 256)}}
  %0 = relay.constant dense<[1, 300]> : tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

func.func @i64_overflow() -> tensor<1xi64> {
  // expected-error@+1 {{integer 18446744073709551616 is out of range for i64}}
  %0 = relay.constant dense<[18446744073709551616]> : tensor<1xi64>
  func.return %0 : tensor<1xi64>
}

// -----

func.func @unsigned_negative() -> tensor<1xui8> {
  // expected-error@+1 {{integer -1 is out of range for ui8 [0, 256)}}
  %0 = relay.constant dense<[-1]> : tensor<1xui8>
  func.return %0 : tensor<1xui8>
}

// -----

func.func @float_as_int() -> tensor<1xi32> {
  // expected-error@+1 {{expected an integer literal, got 1.5}}
  %0 = relay.constant dense<[1.5]> : tensor<1xi32>
  func.return %0 : tensor<1xi32>
}

// -----

func.func @bool_as_int() -> tensor<1xi32> {
  // expected-error@+1 {{boolean values are only allowed for i1}}
  %0 = relay.constant dense<[false]> : tensor<1xi32>
  func.return %0 : tensor<1xi32>
}

// -----

func.func @shape_mismatch() -> tensor<2x2xf32> {
  // expected-error@+1 {{inferred shape of elements literal ([1, 2]) does not match type ([2, 2])}}
  %0 = relay.constant dense<[[1.0, 2.0]]> : tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @ragged() -> tensor<2x2xf32> {
  // expected-error@+1 {{Tensor literal has inconsistent ranks between elements}}
  %0 = relay.constant dense<[[1.0, 2.0], [3.0]]> : tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

/// A hex blob (`dense<"0x...">`: the raw little-endian bytes) must be hex, whole
/// bytes, and the type's size or one element's (a splat).

func.func @blob_digit() -> tensor<2xf32> {
  // expected-error@+1 {{invalid hex digit in a dense hex blob}}
  %0 = relay.constant dense<"0x0000803F0000004Z"> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

/// bf16: beyond the largest (3.3895314e38, rounding up past it) is out of range;
/// its bit patterns are 16 bits wide.
func.func @bf16_overflow() -> tensor<1xbf16> {
  // expected-error@+1 {{float literal 3.40e38 is out of range for bf16}}
  %0 = relay.constant dense<[3.40e38]> : tensor<1xbf16>
  func.return %0 : tensor<1xbf16>
}

// -----

func.func @blob_odd() -> tensor<2xf32> {
  // expected-error@+1 {{odd number of hex digits}}
  %0 = relay.constant dense<"0x0000803F0000004"> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @blob_size() -> tensor<3xf32> {
  // expected-error@+1 {{hex blob holds 8 bytes, tensor<3xf32> needs 12 (or 4 for a splat)}}
  %0 = relay.constant dense<"0x0000803F00000040"> : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @blob_splat() -> tensor<3xf32> {
  %0 = relay.constant dense<"0x0000803F"> : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @bf16_hex_too_wide() -> tensor<1xbf16> {
  // expected-error@+1 {{hexadecimal float constant 0x7FC00000 is wider than 16 bits}}
  %0 = relay.constant dense<[0x7FC00000]> : tensor<1xbf16>
  func.return %0 : tensor<1xbf16>
}

// -----

/// `index` elements are 64-bit: xDSL would fail packing this one (found by fuzz-text).
func.func @index_overflow() -> tensor<index> {
  // expected-error@+1 {{integer -9223372036854775809 is out of range for index}}
  %0 = relay.constant dense<-9223372036854775809> : tensor<index>
  func.return %0 : tensor<index>
}

// -----

/// A hex float attribute wider than its type: xDSL raised OverflowError (found by fuzz-text).
func.func @hex_float_attr_overflow() -> tensor<1xf32> {
  // expected-error@+1 {{hexadecimal literal 0xFFFFFFFFFFFFFFFFFF has more bits than its float type}}
  %0 = relay.arange {stop = 0xFFFFFFFFFFFFFFFFFF : f64} : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}
