// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// An empty layout.
func.func @layout_empty(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op src_layout must not be empty}}
  %0 = relay.layout_transform %x {src_layout = "", dst_layout = "NCHW"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// A factor belongs to a lowercase sub-axis.
func.func @layout_factor_before_primal(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid src_layout 'NC4HW': factor 4 must precede a sub-axis, not 'H'}}
  %0 = relay.layout_transform %x {src_layout = "NC4HW", dst_layout = "NCHW"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// A sub-axis needs its factor.
func.func @layout_no_factor(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid dst_layout 'NCHWc': sub-axis 'c' needs a positive factor}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHWc"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// A factor of 0 is no block.
func.func @layout_zero_factor(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid dst_layout 'NCHW0c': sub-axis 'c' needs a positive factor}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW0c"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// Layouts are letters and digits.
func.func @layout_bad_char(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid src_layout 'NC_W': unexpected character '_'}}
  %0 = relay.layout_transform %x {src_layout = "NC_W", dst_layout = "NCHW"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// A factor at the end has no sub-axis.
func.func @layout_trailing_factor(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid dst_layout 'NCHW8': trailing factor 8}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW8"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// Each axis once.
func.func @layout_repeated_axis(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid src_layout 'NCHH': axis 'H' appears twice}}
  %0 = relay.layout_transform %x {src_layout = "NCHH", dst_layout = "NCHW"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// A sub-axis splits a primal axis of the same layout.
func.func @layout_orphan_sub_axis(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op invalid dst_layout 'NHW4c': sub-axis 'c' has no primal axis 'C'}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHW4c"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// Both layouts have the same primal axes.
func.func @layout_primal_mismatch(%x: tensor<1x32x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op cannot transform layout 'NCHW' to 'NCDW': their primal axes differ}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCDW"} : (tensor<1x32x4x4xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// The source layout describes every dim of the input.
func.func @layout_rank(%x: tensor<1x32x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op src_layout 'NCHW' has 4 axes but the input has rank 3}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x32x4xf32>) -> tensor<1x4x32xf32>
  func.return
}

// -----

/// The input's block dim is the source factor.
func.func @layout_sub_axis_size(%x: tensor<1x2x4x4x8xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op input dim 8 of sub-axis 'c' does not match its factor 16 in src_layout 'NCHW16c'}}
  %0 = relay.layout_transform %x {src_layout = "NCHW16c", dst_layout = "NCHW"} : (tensor<1x2x4x4x8xf32>) -> tensor<1x32x4x4xf32>
  func.return
}

// -----

/// Blocking needs a factor that divides the axis.
func.func @layout_indivisible(%x: tensor<1x30x4x4xf32>) {
  // expected-error@+1 {{'relay.layout_transform' op axis 'C' of size 30 is not divisible by factor 16 in dst_layout 'NCHW16c'}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW16c"} : (tensor<1x30x4x4xf32>) -> tensor<1x2x4x4x16xf32>
  func.return
}
