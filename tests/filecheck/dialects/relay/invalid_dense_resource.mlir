// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// `dense_resource<name>`: a name the resource section lacks, a blob whose size is not
/// the type's, and a malformed section are located errors.

func.func @unknown() -> tensor<2xf32> {
  // expected-error@+1 {{unknown resource 'missing' (not in the file's dialect_resources section)}}
  %0 = relay.constant dense_resource<missing> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @no_section() -> tensor<2xf32> {
  // expected-error@+1 {{unknown resource 'w' (not in the file's dialect_resources section)}}
  %0 = relay.constant dense_resource<w> : tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @size() -> tensor<3xf32> {
  // expected-error@+1 {{resource 'w' holds 8 bytes, tensor<3xf32> needs 12}}
  %0 = relay.constant dense_resource<w> : tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

func.func @elided_scalar() -> tensor<f32> {
  // expected-error@+1 {{an elided constant needs a non-scalar type}}
  %0 = relay.constant dense_resource<__elided__> : tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @not_a_tensor() -> tensor<2xf32> {
  // expected-error@+1 {{dense_resource of vector<2xf32> is not supported}}
  %0 = relay.constant dense_resource<w> : vector<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @bad_hex() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected a hexadecimal digit or the closing '"' of the blob}}
      w: "0x040000000000803G"
    }
  }
#-}

// -----

func.func @odd_hex() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{resource blob has an odd number of hex digits (15)}}
      w: "0x040000000000803"
    }
  }
#-}

// -----

func.func @short() -> tensor<0xf32> {
  %0 = relay.constant dense_resource<w> : tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{resource blob is shorter than its 4-byte alignment prefix}}
      w: "0x0400"
    }
  }
#-}

// -----

func.func @alignment() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{resource alignment 3 is not a power of two}}
      w: "0x030000000000803F"
    }
  }
#-}

// -----

func.func @twice() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F",
      // expected-error@+1 {{resource 'w' is defined twice}}
      w: "0x040000000000803F"
    }
  }
#-}

// -----

func.func @other_dialect() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    // expected-error@+1 {{resources of dialect 'relay' are not supported (only builtin)}}
    relay: {
      w: "0x040000000000803F"
    }
  }
#-}

// -----

func.func @external() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  // expected-error@+1 {{unsupported resource kind 'external_resources' (only dialect_resources)}}
  external_resources: {
  }
#-}

// -----

func.func @not_a_blob() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      // expected-error@+1 {{expected a hex blob "0x..."}}
      w: "040000000000803F"
    }
  }
#-}

// -----

func.func @after() -> tensor<1xf32> {
  %0 = relay.constant dense_resource<w> : tensor<1xf32>
  func.return %0 : tensor<1xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F"
    }
  }
#-}
// expected-error@+1 {{expected nothing after the resource section}}
func.func @late() -> ()
