/// --verify-numerics runs the reference interpreter on fixed random inputs before the
/// pipeline and after every pass, and names the first pass whose outputs differ.
// RUN: not xrelay-opt %s %test_passes -p test-tag,cse,test-perturb-numerics,dce --verify-numerics 2>&1 \
// RUN:   | filecheck %s --check-prefix=BISECT
/// Passes that keep the numbers pass the check, and the output is printed as usual.
// RUN: xrelay-opt %s %test_passes -p test-tag,cse,dce,canonicalize --verify-numerics \
// RUN:   | filecheck %s --check-prefix=SAME
/// A module without @main cannot be checked: a clear error.
// RUN: not xrelay-opt %S/Inputs/no_main.mlir -p cse --verify-numerics 2>&1 \
// RUN:   | filecheck %s --check-prefix=NOMAIN

// BISECT: {{\A}}error: numerics changed by pass 'test-perturb-numerics': output 0 differs by up to {{[0-9.]+}} (rtol 0.0001, atol 1e-05){{$}}
// BISECT-NOT: error

// SAME:      func.func @main
// SAME-NEXT:   relay.add %a, %b
// SAME-NEXT:   relay.multiply

// NOMAIN: error: numerics check: module has no 'main'
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.add %a, %b : tensor<4xf32>
  %2 = relay.multiply %0, %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
