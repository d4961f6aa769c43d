// A recursion without a base case: one located line, exit status 1, no traceback.

/// The interpreter runs calls on its own stack and stops at 10,000 deep.
// RUN: not xrelay-run %s 2>&1 | filecheck %s --check-prefix=INTERP
//     INTERP: {{\A.*}}recursion.mlir:18:8: error: 'func.call' op call depth exceeds 10000 (infinite recursion?) in @main{{$}}
// INTERP-NOT: {{.}}

/// The C target's static arena cannot hold a recursion: rejected before any pass.
// RUN: not env XRELAY_CACHE_DIR=%t.cache xrelay-run %s --target c 2>&1 | filecheck %s --check-prefix=CTARGET
//     CTARGET: {{\A.*}}recursion.mlir:18:8: error: 'func.call' op recursive call to @main: the C target does not support recursion{{$}}
// CTARGET-NOT: {{.}}

/// The same error through xrelay-opt's plan-memory names the pass.
// RUN: xrelay-opt %s -p plan-memory --verify-diagnostics

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'func.call' op cannot plan memory for a recursive call of @main (in pass 'plan-memory')}}
  %0 = func.call @main(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
