// RUN: xrelay-opt %s -p merge-compiler-regions --split-input-file --verify-diagnostics

/// An end whose operand is in no region (TVM's CompileError).
func.func @end_without_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %x : tensor<4xf32>
  // expected-error@+1 {{'relay.compiler_end' op cannot find the corresponding region for end annotation of 'accel': its operand is in no annotated region}}
  %1 = relay.compiler_end %0 {compiler = "accel"} : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}

// -----

/// An end closing a region of another target.
func.func @target_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  // expected-error@+1 {{'relay.compiler_end' op target mismatch: end annotation of 'dnnl' closes region 0 of 'accel'}}
  %2 = relay.compiler_end %1 {compiler = "dnnl"} : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// An annotated op with an operand that has no begin (TVM's "Arg regions are inconsistent").
func.func @inconsistent_operands(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  // expected-error@+1 {{'relay.add' op operands are inconsistent: operand #0 is in annotated region 0 ('accel') but operand #1 is in none; every operand of an annotated op needs a compiler_begin}}
  %1 = relay.add %0, %y : tensor<4xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}

// -----

/// A begin outside a relay.if feeding an op inside a branch: a region cannot span blocks.
func.func @crosses_if(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %1 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    // expected-error@+1 {{'relay.exp' op operand #0 is in annotated region 0 ('accel') of another block; a region cannot cross a relay.if boundary}}
    %2 = relay.exp %0 : tensor<4xf32>
    %3 = relay.compiler_end %2 {compiler = "accel"} : tensor<4xf32>
    relay.yield %3 : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  func.return %1 : tensor<4xf32>
}
