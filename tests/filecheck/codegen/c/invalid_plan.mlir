// RUN: xrelay-opt %s --split-input-file -t c --verify-diagnostics

/// The emitter prints the plan it is given (here written by hand): a buffer placed where its
/// element type is misaligned is refused, not printed as undefined behaviour.
builtin.module attributes {xrelay.arena_size = 64 : i64, xrelay.alignment = 1 : i64} {
  func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> attributes {xrelay.arena_offset = 0 : i64} {
    // expected-error@+1 {{'relay.negative' op cannot be emitted for target 'c': the plan puts a double buffer at byte 3, not aligned for it (plan with a larger alignment)}}
    %0 = relay.negative %x {xrelay.buffers = [3 : i64]} : tensor<2xf64>
    %1 = relay.transpose %0 {xrelay.buffers = ["out:0"]} : tensor<2xf64>
    func.return {xrelay.outputs = ["in_place"]} %1 : tensor<2xf64>
  }
}

// -----

/// An op without its `xrelay.buffers` entry in a planned function.
builtin.module attributes {xrelay.arena_size = 0 : i64, xrelay.alignment = 64 : i64} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> attributes {xrelay.arena_offset = 0 : i64} {
    // expected-error@+1 {{'relay.negative' op has no memory plan (xrelay.buffers is missing); run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'}}
    %0 = relay.negative %x : tensor<2xf32>
    func.return {xrelay.outputs = ["in_place"]} %0 : tensor<2xf32>
  }
}

// -----

/// A return without `xrelay.outputs`.
builtin.module attributes {xrelay.arena_size = 0 : i64, xrelay.alignment = 64 : i64} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> attributes {xrelay.arena_offset = 0 : i64} {
    %0 = relay.negative %x {xrelay.buffers = ["out:0"]} : tensor<2xf32>
    // expected-error@+1 {{'func.return' op has no memory plan (xrelay.outputs is missing); run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'}}
    func.return %0 : tensor<2xf32>
  }
}

// -----

/// The entry function must be planned too.
// expected-error@+1 {{'builtin.module' op has no planned function @main; run plan-memory first, e.g. -p 'optimize{opt-level=3},plan-memory'}}
builtin.module attributes {xrelay.arena_size = 0 : i64, xrelay.alignment = 64 : i64} {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    func.return %x : tensor<2xf32>
  }
}
