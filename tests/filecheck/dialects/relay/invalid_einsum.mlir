// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// einsum: one letter, one extent.
func.func @einsum_extent(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'relay.einsum' op 'j' is 3 in one place and 4 in operand #1}}
  %0 = relay.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return
}

// -----

/// einsum: output letters come from the inputs.
func.func @einsum_output_letter(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op output 'ik' has 'k', which no input term has}}
  %0 = relay.einsum %a {equation = "ij->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: an output letter appears once.
func.func @einsum_output_repeat(%a: tensor<2x2xf32>) {
  // expected-error@+1 {{'relay.einsum' op output 'ii' repeats 'i'}}
  %0 = relay.einsum %a {equation = "ij->ii"} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return
}

// -----

/// einsum: one term per operand.
func.func @einsum_terms(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'relay.einsum' op equation 'ij' has 1 input terms for 2 operands}}
  %0 = relay.einsum %a, %b {equation = "ij"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: a term names each dim.
func.func @einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op term 'ijk' does not fit operand #0 of shape (2, 3)}}
  %0 = relay.einsum %a {equation = "ijk"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: subscripts are letters.
func.func @einsum_letters(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op term #0 'i1' has '1': subscripts are letters or '...'}}
  %0 = relay.einsum %a {equation = "i1"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: one '...' per term.
func.func @einsum_two_ellipses(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op term #0 '......' has more than one '...'}}
  %0 = relay.einsum %a {equation = "......"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: '...' dims broadcast.
func.func @einsum_broadcast(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op '...' of operand #1 (4) does not broadcast with (2)}}
  %0 = relay.einsum %a, %b {equation = "...i,...i"} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2xf32>
  func.return
}

// -----

/// einsum: broadcast dims need a '...' in the output.
func.func @einsum_no_ellipsis_out(%a: tensor<5x2x3xf32>) {
  // expected-error@+1 {{'relay.einsum' op output has no '...' for the broadcast dims (5)}}
  %0 = relay.einsum %a {equation = "...ij->ij"} : (tensor<5x2x3xf32>) -> tensor<2x3xf32>
  func.return
}

// -----

/// einsum: operands share one element type.
func.func @einsum_dtype(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'relay.einsum' op operand #1 element type i32 does not match f32 of operand #0}}
  %0 = relay.einsum %a, %b {equation = "i,i"} : (tensor<2xf32>, tensor<2xi32>) -> tensor<f32>
  func.return
}

// -----

/// einsum: numbers only.
func.func @einsum_bool(%a: tensor<2xi1>) {
  // expected-error@+1 {{'relay.einsum' op einsum needs numbers, got i1}}
  %0 = relay.einsum %a {equation = "i"} : (tensor<2xi1>) -> tensor<2xi1>
  func.return
}

// -----

/// einsum: at least one operand.
func.func @einsum_none() {
  // expected-error@+1 {{'relay.einsum' op expected at least one operand}}
  %0 = relay.einsum {equation = "->"} : () -> tensor<f32>
  func.return
}
