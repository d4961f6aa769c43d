// RUN: xrelay-opt %s -p infer-type --split-input-file --verify-diagnostics

/// Input that verifies (`?` matches any dim) but whose refined types an op rejects:
/// the error is on that op, with its message and the operand types.
func.func @add_mismatch(%x: tensor<4xf32>, %z: tensor<5xf32>) -> tensor<5xf32> {
  %0 = relay.exp %x : (tensor<4xf32>) -> tensor<?xf32>
  // expected-error@+1 {{'relay.add' op operand shapes (4) and (5) do not broadcast; operand types: (tensor<4xf32>, tensor<5xf32>) (in pass 'infer-type')}}
  %1 = relay.add %0, %z : (tensor<?xf32>, tensor<5xf32>) -> tensor<5xf32>
  func.return %1 : tensor<5xf32>
}

// -----

/// Branches whose refined types are incompatible.
func.func @if_branches(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<?xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  // expected-error@+1 {{'relay.if' op branches have incompatible types: tensor<2xf32> vs tensor<3xf32>}}
  %1 = relay.if %c : tensor<i1> -> tensor<?xf32> {
    relay.yield %0 : tensor<?xf32>
  } else {
    relay.yield %y : tensor<3xf32>
  }
  func.return %1 : tensor<?xf32>
}

// -----

/// A call whose refined operand no longer has the callee's parameter type.
func.func @callee(%a: tensor<3xf32>) -> tensor<3xf32> {
  func.return %a : tensor<3xf32>
}
func.func @call_operand(%x: tensor<2xf32>) -> tensor<3xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> tensor<?xf32>
  %1 = relay.concatenate %0, %0 {axis = 0} : (tensor<?xf32>, tensor<?xf32>) -> tensor<3xf32>
  // expected-error@+1 {{'func.call' op operand types (tensor<4xf32>) do not match the parameter types of @callee (tensor<3xf32>)}}
  %2 = func.call @callee(%1) : (tensor<3xf32>) -> tensor<3xf32>
  func.return %2 : tensor<3xf32>
}

// -----

/// A recursive function whose inferred result disagrees with its declaration.
// expected-error@+1 {{'func.func' op recursive function @rec is inferred to return (tensor<8xf32>) but is declared to return (tensor<4xf32>)}}
func.func @rec(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    relay.yield %x : tensor<4xf32>
  } else {
    %r = func.call @rec(%x, %c) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  %1 = relay.exp %0 : (tensor<4xf32>) -> tensor<?xf32>
  %2 = relay.concatenate %1, %1 {axis = 0} : (tensor<?xf32>, tensor<?xf32>) -> tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
