// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

func.func @index_range(%a: tensor<2xf32>) -> tensor<2xf32> {
  %t = relay.tuple %a : (tensor<2xf32>) -> tuple<tensor<2xf32>>
  // expected-error@+1 {{'relay.tuple_get_item' op index 1 is out of range for a tuple of 1}}
  %0 = relay.tuple_get_item %t {index = 1} : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @tuple_type(%a: tensor<2xf32>) -> tuple<tensor<3xf32>> {
  // expected-error@+1 {{'relay.tuple' op inferred type(s) 'tuple<tensor<2xf32>>' are incompatible with return type(s) of operation 'tuple<tensor<3xf32>>'}}
  %t = relay.tuple %a : (tensor<2xf32>) -> tuple<tensor<3xf32>>
  func.return %t : tuple<tensor<3xf32>>
}

// -----

func.func @if_condition(%c: tensor<2xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.if' op condition must be a scalar boolean tensor<i1>, got tensor<2xi1>}}
  %0 = relay.if %c : tensor<2xi1> -> tensor<2xf32> {
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %x : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

func.func @if_branch_type(%c: tensor<i1>, %x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.if' op else branch yields (tensor<3xf32>) but the op returns (tensor<2xf32>)}}
  %0 = relay.if %c : tensor<i1> -> tensor<2xf32> {
    relay.yield %x : tensor<2xf32>
  } else {
    relay.yield %y : tensor<3xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

func.func @composite_args(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'relay.composite' op body arguments (tensor<3xf32>) do not match the inputs (tensor<2xf32>)}}
  %0 = relay.composite "accel.relu" (%x) : (tensor<2xf32>) -> tensor<3xf32> {
  ^bb0(%i: tensor<3xf32>):
    relay.yield %i : tensor<3xf32>
  }
  func.return %0 : tensor<3xf32>
}

// -----

func.func @composite_yield(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.composite' op body yields (tensor<3xf32>) but the op returns (tensor<2xf32>)}}
  %0 = relay.composite "accel.relu" (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<2xf32>):
    %c = relay.constant dense<1.0> : tensor<3xf32>
    relay.yield %c : tensor<3xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

func.func @composite_isolated(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.composite' op Operation using value defined out of its IsolatedFromAbove parent}}
  %0 = relay.composite "accel.relu" (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<2xf32>):
    %r = relay.nn.relu %x : tensor<2xf32>
    relay.yield %r : tensor<2xf32>
  }
  func.return %0 : tensor<2xf32>
}

// -----

func.func @yield_parent(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'relay.yield' op 'relay.yield' expects parent op to be one of 'relay.if', 'relay.composite'}}
  relay.yield %x : tensor<2xf32>
}

// -----

func.func @constant_dtype() -> tensor<2xindex> {
  // expected-error@+1 {{'relay.constant' op unsupported element type index}}
  %0 = relay.constant dense<1> : tensor<2xindex>
  func.return %0 : tensor<2xindex>
}

// -----

func.func @return_type(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'func.return' op}}
  func.return %x : tensor<2xf32>
}

// -----

func.func @undefined_callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'func.call' op}}
  %0 = func.call @nowhere(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
