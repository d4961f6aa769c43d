// RUN: XRELAY_ROUNDTRIP
// RUN: XRELAY_GENERIC_ROUNDTRIP
// RUN: xrelay-opt %s --split-input-file --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --split-input-file | filecheck %s --check-prefix=MLIR
// RUN: xrelay-opt %s --split-input-file --print-op-generic | mlir-opt-19 --allow-unregistered-dialect --split-input-file --mlir-print-op-generic | xrelay-opt --split-input-file | filecheck %s --check-prefix=BACK
// RUN: xrelay-opt %s --split-input-file | xrelay-opt --split-input-file --dense-resources-if-larger 0 | filecheck %s --check-prefix=ALL
// RUN: sed -n '/^\/\/ -----/q;p' %s | xrelay-run --print-values | filecheck %s --check-prefix=VALUES

/// MLIR's `dense_resource<name>`: the constant's bytes are in the file's trailing
/// `{-# dialect_resources #-}` section (hex: a 4-byte little-endian alignment, then
/// the elements). It reads into the same constant as `dense<...>` and prints back
/// under its name, in the custom and the generic form; mlir-opt-19 reads it too.

// CHECK-LABEL: func.func @main
// CHECK: %w = relay.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK: %b = relay.constant dense_resource<bias> : tensor<2x3xf32>
// CHECK: relay.add %0, %b
// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-NEXT: bias: "0x04000000000080BF0000803F000000400000404000008040000000C0"
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: #-}
// GENERIC: "relay.constant"() <{value = dense_resource<bias> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// GENERIC: bias: "0x04000000000080BF0000803F000000400000404000008040000000C0"
// MLIR: "relay.constant"() <{value = dense_resource<bias> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// MLIR: bias: "0x04000000000080BF0000803F000000400000404000008040000000C0"

/// ... and what mlir-opt-19 prints reads back here, names and blobs intact.
// BACK: relay.constant dense_resource<bias> : tensor<2x3xf32>
// BACK: bias: "0x04000000000080BF0000803F000000400000404000008040000000C0"
// BACK: relay.constant dense_resource<flags> : tensor<3xi1>
// BACK: doubles: "0x08000000000000000000F03F000000000000F0BF",

/// `--dense-resources-if-larger 0` prints every constant that is not a splat as a
/// resource, named after its value (`%w` -> `w`); names stay sorted in the section.
// ALL: %w = relay.constant dense_resource<w> : tensor<2x3xf32>
// ALL: %b = relay.constant dense_resource<bias> : tensor<2x3xf32>
// ALL: bias: "0x04000000000080BF0000803F000000400000404000008040000000C0",
// ALL-NEXT: w: "0x040000000000803F0000004000004040000080400000A0400000C040"

/// The values are the blob's: x (zeros) + w + bias.
// VALUES: output0: float32[2, 3]
// VALUES-NEXT: {{\[\[}}0. 3. 5.]
// VALUES-NEXT: {{^ \[}}7. 9. 4.]]

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = relay.constant dense_resource<bias> : tensor<2x3xf32>
  %0 = relay.add %x, %w : tensor<2x3xf32>
  %1 = relay.add %0, %b : tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      bias: "0x04000000000080BF0000803F000000400000404000008040000000C0"
    }
  }
#-}

// -----

/// Every element type: i1 (a byte each), i8, i64, f16, f64; the same blob may be
/// used twice, and a blob no constant uses is dropped.

// CHECK-LABEL: func.func @types
// CHECK: relay.constant dense_resource<flags> : tensor<3xi1>
// CHECK: relay.constant dense_resource<bytes> : tensor<2xi8>
// CHECK: relay.constant dense_resource<bytes> : tensor<2xi8>
// CHECK: relay.constant dense_resource<longs> : tensor<2xi64>
// CHECK: relay.constant dense_resource<halves> : tensor<2xf16>
// CHECK: relay.constant dense_resource<doubles> : tensor<1x2xf64>
// CHECK: builtin: {
// CHECK-NEXT: bytes: "0x0100000005FB",
// CHECK-NEXT: doubles: "0x08000000000000000000F03F000000000000F0BF",
// CHECK-NEXT: flags: "0x01000000010001",
// CHECK-NEXT: halves: "0x02000000003C00C0",
// CHECK-NEXT: longs: "0x08000000FFFFFFFFFFFFFFFF0100000000000000"
// CHECK-NEXT: }
// CHECK-NOT: unused
func.func @types() -> (tensor<3xi1>, tensor<2xi8>, tensor<2xi8>, tensor<2xi64>, tensor<2xf16>, tensor<1x2xf64>) {
  %0 = relay.constant dense_resource<flags> : tensor<3xi1>
  %1 = relay.constant dense_resource<bytes> : tensor<2xi8>
  %2 = relay.constant dense_resource<bytes> : tensor<2xi8>
  %3 = relay.constant dense_resource<longs> : tensor<2xi64>
  %4 = relay.constant dense_resource<halves> : tensor<2xf16>
  %5 = relay.constant dense_resource<doubles> : tensor<1x2xf64>
  func.return %0, %1, %2, %3, %4, %5 : tensor<3xi1>, tensor<2xi8>, tensor<2xi8>, tensor<2xi64>, tensor<2xf16>, tensor<1x2xf64>
}

{-#
  dialect_resources: {
    builtin: {
      flags: "0x01000000010001",
      bytes: "0x0100000005fb",
      longs: "0x08000000FFFFFFFFFFFFFFFF0100000000000000",
      unused: "0x0400000000000000",
      halves: "0x02000000003C00C0",
      doubles: "0x08000000000000000000F03F000000000000F0BF"
    }
  }
#-}
