// RUN: xrelay-opt %s -p partition-graph --split-input-file --verify-diagnostics

/// A value of a region read outside it without a compiler_end.
func.func @no_end(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %e = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  // expected-error@+1 {{'func.return' op reads a value of annotated region 0 ('accel') that has no compiler_end}}
  func.return %e, %a : tensor<4xf32>, tensor<4xf32>
}

// -----

/// An op of a region reading another region's end directly, without a compiler_begin.
func.func @no_begin(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %by = relay.compiler_begin %y {compiler = "dnnl"} : tensor<4xf32>
  %q = relay.exp %by : tensor<4xf32>
  %eq = relay.compiler_end %q {compiler = "dnnl"} : tensor<4xf32>
  %bx = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  // expected-error@+1 {{'relay.add' op operand #1 comes from outside annotated region 0 ('accel') without a compiler_begin}}
  %s = relay.add %bx, %eq : tensor<4xf32>
  %e = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

/// An end whose operand is in no region.
func.func @end_without_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'relay.compiler_end' op cannot find the corresponding region for end annotation of 'accel'}}
  %e = relay.compiler_end %x {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}

// -----

/// A region that is not convex: abs leaves it through tanh (outside) and comes back into
/// add; the error is on the op outside the region on that path.
func.func @cycle(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  // expected-error@+1 {{'relay.tanh' op partitioning makes a cycle here: a value leaves an annotated region and flows back into it}}
  %u = relay.tanh %ea : tensor<4xf32>
  %bu = relay.compiler_begin %u {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %a, %bu : tensor<4xf32>
  %e = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
