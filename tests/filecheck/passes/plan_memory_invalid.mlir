// RUN: xrelay-opt %s -p plan-memory --split-input-file --verify-diagnostics

/// A static plan needs static shapes: a dynamic dimension is an error on the op.
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{'relay.exp' op cannot plan memory for a tensor of dynamic shape tensor<?x4xf32> (in pass 'plan-memory')}}
  %0 = relay.exp %x : tensor<?x4xf32>
  %1 = relay.tanh %0 : tensor<?x4xf32>
  func.return %1 : tensor<?x4xf32>
}

// -----

/// The same in a callee, for a field of a tuple-typed call result.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'func.call' op cannot plan memory for a tensor of dynamic shape tensor<?xf32>}}
  %0 = func.call @ext(%x) : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<?xf32>>
  %1 = relay.tuple_get_item %0 {index = 0} : (tuple<tensor<4xf32>, tensor<?xf32>>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func private @ext(%x: tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<?xf32>>

// -----

/// A recursive call cannot have a static arena: the error is on the call closing the cycle.
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = func.call @f(%x, %c) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
func.func private @f(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    relay.yield %x : tensor<4xf32>
  } else {
    // expected-error@+1 {{'func.call' op cannot plan memory for a recursive call of @f}}
    %r = func.call @f(%x, %c) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}

// -----

/// No entry function to plan.
// expected-error@+1 {{'builtin.module' op has no function @main with a body to plan memory for}}
builtin.module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    func.return %x : tensor<4xf32>
  }
}

// -----

/// Sizes and offsets are Python ints checked against 2^63-1 bytes (they never wrap in the
/// i64 attributes): each buffer of 2^62 bytes fits, but two live at once do not; the error
/// is on the first op (in order) whose buffer ends past the limit.
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %z = relay.zeros {shape = [1073741824, 1073741824], dtype = f32} : tensor<1073741824x1073741824xf32>
  // expected-error@+1 {{'relay.exp' op arena of 2^63 bytes exceeds the limit of 2^63-1 bytes: a result buffer of 2^62 bytes does not fit at offset 2^62}}
  %e = relay.exp %z : tensor<1073741824x1073741824xf32>
  %a = relay.add %z, %e : tensor<1073741824x1073741824xf32>
  %s = relay.sum %a : (tensor<1073741824x1073741824xf32>) -> tensor<f32>
  %r = relay.add %x, %s : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}

// -----

/// The same across functions: a callee's region starts above its caller's, so the
/// callee's buffer is the one that does not fit (main's region: 2^62 + 2 x 64 bytes).
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %z = relay.zeros {shape = [1073741824, 1073741824], dtype = f32} : tensor<1073741824x1073741824xf32>
  %c = func.call @f(%x) : (tensor<1xf32>) -> tensor<1xf32>
  %s = relay.sum %z : (tensor<1073741824x1073741824xf32>) -> tensor<f32>
  %r = relay.add %c, %s : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}
func.func private @f(%x: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{'relay.ones' op arena of 9223372036854775936 bytes exceeds the limit of 2^63-1 bytes: a result buffer of 2^62 bytes does not fit at offset 4611686018427388032}}
  %o = relay.ones {shape = [1073741824, 1073741824], dtype = f32} : tensor<1073741824x1073741824xf32>
  %s = relay.sum %o : (tensor<1073741824x1073741824xf32>) -> tensor<f32>
  %r = relay.add %x, %s : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
  func.return %r : tensor<1xf32>
}
