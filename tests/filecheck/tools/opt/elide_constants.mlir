// RUN: xrelay-opt %s --elide-constants-if-larger 4 | filecheck %s
// RUN: xrelay-opt %s --mlir-elide-elementsattrs-if-larger 4 --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: xrelay-opt %s --elide-constants-if-larger 4 | xrelay-opt | filecheck %s
// RUN: xrelay-opt %s --elide-constants-if-larger 4 --print-op-generic | mlir-opt-19 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// RUN: xrelay-opt %s --elide-constants-if-larger 4 | xrelay-opt -p fold-constant | filecheck %s --check-prefix=FOLD
// RUN: xrelay-opt %s --elide-constants-if-larger 4 | not xrelay-run 2>&1 | filecheck %s --check-prefix=EXEC
// RUN: xrelay-opt %s --elide-constants-if-larger 4 | sed 's/__elided__> : tensor<2x3xf32>/__elided__> : tensor<3x2xf32>/' | not xrelay-opt --print-op-generic 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: xrelay-opt %s --elide-constants-if-larger 4 | not xrelay-opt -p simplify-expr 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not xrelay-opt %s --elide-constants-if-larger=-1 2>&1 | filecheck %s --check-prefix=NEGATIVE

/// `--elide-constants-if-larger N` (MLIR's `--mlir-elide-elementsattrs-if-larger`):
/// constants of more than N elements print as `dense_resource<__elided__>`, except
/// splats, and small ones print whole. The text parses and verifies its types
/// (again and through mlir-opt-19), passes leave elided values alone, and running
/// it is an error at each elided constant.

// CHECK: %big = relay.constant dense_resource<__elided__> : tensor<2x3xf32>
// CHECK: %splat = relay.constant dense<5.000000e-01> : tensor<2x3xf32>
// CHECK: %small = relay.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT: {-#

// GENERIC: "relay.constant"() <{value = dense_resource<__elided__> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// MLIR: "relay.constant"() <{value = dense_resource<__elided__> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>

// FOLD: %big = relay.constant dense_resource<__elided__> : tensor<2x3xf32>
// FOLD: relay.add %big, %splat

// EXEC: {{^}}<stdin>:3:12: error: 'relay.constant' op constant elided from the text (dense_resource<__elided__>): cannot run
// EXEC-NOT: {{.}}

// A pass that needs an elided value fails with a one-line error (exit 1), not a crash.
// PASS: {{\A}}error: pass 'simplify-expr' failed: a constant elided from the text (dense_resource<__elided__>) has no value: this computation needs it; print without --elide-constants-if-larger
// PASS-NOT: {{.}}

// TYPE: <stdin>:6:20: error: operand is used with type tensor<2x3xf32>, but has been previously used or defined with type tensor<3x2xf32>

// NEGATIVE: error: argument --elide-constants-if-larger/--mlir-elide-elementsattrs-if-larger: expected a non-negative integer, got '-1'

func.func @main() -> (tensor<2x3xf32>, tensor<4xf32>) {
  %big = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %splat = relay.constant dense<0.5> : tensor<2x3xf32>
  %small = relay.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = relay.add %big, %splat : tensor<2x3xf32>
  func.return %0, %small : tensor<2x3xf32>, tensor<4xf32>
}
