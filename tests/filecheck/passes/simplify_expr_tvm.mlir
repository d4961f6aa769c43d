// RUN: xrelay-opt %s --split-input-file -p simplify-expr | filecheck %s

/// ConcretizeLike: *_like ops of a static result shape lose their like operand
/// (reshape_like becomes a reshape, to x's own shape none; collapse_sum_like a
/// collapse_sum_to); cast_like becomes cast whatever the shape; ones_like of a `?` shape stays.
// CHECK-LABEL: @concretize
// CHECK-NEXT:    %0 = relay.ones_like %d : tensor<?x3xf32>
// CHECK-NEXT:    %1 = relay.reshape %x {newshape = [3, 2]} : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT:    %2 = relay.cast %d {dtype = i8} : (tensor<?x3xf32>) -> tensor<?x3xi8>
// CHECK-NEXT:    %3 = relay.collapse_sum_to %x {shape = [3]} : (tensor<2x3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %x, %0, %1, %2, %3 : tensor<2x3xf32>, tensor<?x3xf32>, tensor<3x2xf32>, tensor<?x3xi8>, tensor<3xf32>
func.func @concretize(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>, %i: tensor<4xi8>) -> (tensor<2x3xf32>, tensor<?x3xf32>, tensor<3x2xf32>, tensor<?x3xi8>, tensor<3xf32>) {
  %0 = relay.zeros_like %x : tensor<2x3xf32>
  %1 = relay.ones_like %d : tensor<?x3xf32>
  %2 = relay.reshape_like %x, %0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %l = relay.zeros {shape = [3, 2], dtype = f32} : () -> tensor<3x2xf32>
  %3 = relay.reshape_like %x, %l : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %4 = relay.cast_like %d, %i : (tensor<?x3xf32>, tensor<4xi8>) -> tensor<?x3xi8>
  %s = relay.zeros {shape = [3], dtype = f32} : () -> tensor<3xf32>
  %5 = relay.collapse_sum_like %x, %s : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %2, %1, %3, %4, %5 : tensor<2x3xf32>, tensor<?x3xf32>, tensor<3x2xf32>, tensor<?x3xi8>, tensor<3xf32>
}

// -----

/// FullElementwise: a full of a constant, or ones, in a broadcasting op becomes a scalar
/// (x * 1 then vanishes); not when the fill broadcasts x, nor when x's type is not the
/// result's (a comparison). SimplifyAdd: x + x is x * 2.
// CHECK-LABEL: @fills
// CHECK-NEXT:    %c = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = relay.subtract %c, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT:    %big = relay.ones {shape = [2, 3], dtype = f32} : tensor<2x3xf32>
// CHECK-NEXT:    %1 = relay.add %x, %big : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %z = relay.zeros {shape = [3], dtype = f32} : tensor<3xf32>
// CHECK-NEXT:    %2 = relay.less %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK-NEXT:    %3 = relay.constant dense<2> : tensor<i32>
// CHECK-NEXT:    %4 = relay.multiply %i, %3 : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
// CHECK-NEXT:    func.return %0, %x, %1, %2, %4 : tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3xi1>, tensor<3xi32>
func.func @fills(%x: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3xi1>, tensor<3xi32>) {
  %c = relay.constant dense<2.0> : tensor<f32>
  %f = relay.full %c {shape = [3], dtype = f32} : (tensor<f32>) -> tensor<3xf32>
  %0 = relay.subtract %f, %x : tensor<3xf32>
  %o = relay.ones {shape = [3], dtype = f32} : () -> tensor<3xf32>
  %1 = relay.multiply %x, %o : tensor<3xf32>
  %big = relay.ones {shape = [2, 3], dtype = f32} : () -> tensor<2x3xf32>
  %2 = relay.add %x, %big : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = relay.zeros {shape = [3], dtype = f32} : () -> tensor<3xf32>
  %3 = relay.less %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %4 = relay.add %i, %i : tensor<3xi32>
  func.return %0, %1, %2, %3, %4 : tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<3xi1>, tensor<3xi32>
}

// -----

/// Casts: a widening first cast merges into the next (i8 -> i16 -> f32), a narrowing one
/// stays (f32 -> i32 -> f32, i64 -> bool -> i32). After a clip into [0, 255], casts to
/// uint8 go (one cast to the final dtype stays), unless a float clip ends in a float (the
/// cast truncates). A clip holding all of uint8 goes.
// CHECK-LABEL: @casts
// CHECK-NEXT:    %0 = relay.cast %x {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
// CHECK-NEXT:    %1 = relay.cast %f {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
// CHECK-NEXT:    %2 = relay.cast %1 {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
// CHECK-NEXT:    %3 = relay.cast %b {dtype = i1} : (tensor<4xi64>) -> tensor<4xi1>
// CHECK-NEXT:    %4 = relay.cast %3 {dtype = i32} : (tensor<4xi1>) -> tensor<4xi32>
// CHECK-NEXT:    %5 = relay.clip %b {a_min = 0.0, a_max = 255.0} : tensor<4xi64>
// CHECK-NEXT:    %6 = relay.cast %5 {dtype = i32} : (tensor<4xi64>) -> tensor<4xi32>
// CHECK-NEXT:    %7 = relay.clip %f {a_min = 0.0, a_max = 255.0} : tensor<4xf32>
// CHECK-NEXT:    %8 = relay.cast %7 {dtype = ui8} : (tensor<4xf32>) -> tensor<4xui8>
// CHECK-NEXT:    %9 = relay.cast %8 {dtype = f32} : (tensor<4xui8>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %0, %2, %4, %6, %9, %u : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xui8>
func.func @casts(%x: tensor<4xi8>, %f: tensor<4xf32>, %b: tensor<4xi64>, %u: tensor<4xui8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xui8>) {
  %0 = relay.cast %x {dtype = i16} : (tensor<4xi8>) -> tensor<4xi16>
  %1 = relay.cast %0 {dtype = f32} : (tensor<4xi16>) -> tensor<4xf32>
  %2 = relay.cast %f {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %3 = relay.cast %2 {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %4 = relay.cast %b {dtype = i1} : (tensor<4xi64>) -> tensor<4xi1>
  %5 = relay.cast %4 {dtype = i32} : (tensor<4xi1>) -> tensor<4xi32>
  %6 = relay.clip %b {a_min = 0.0, a_max = 255.0} : tensor<4xi64>
  %7 = relay.cast %6 {dtype = ui8} : (tensor<4xi64>) -> tensor<4xui8>
  %8 = relay.cast %7 {dtype = i32} : (tensor<4xui8>) -> tensor<4xi32>
  %9 = relay.clip %f {a_min = 0.0, a_max = 255.0} : tensor<4xf32>
  %10 = relay.cast %9 {dtype = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %11 = relay.cast %10 {dtype = f32} : (tensor<4xui8>) -> tensor<4xf32>
  %12 = relay.clip %u {a_min = 0.0, a_max = 255.0} : tensor<4xui8>
  func.return %1, %3, %5, %8, %11, %12 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<4xui8>
}

// -----

/// SimplifyRSqrt: 2 / sqrt(x) is 2 * rsqrt(x). SimplifyBinomial: x*x + 2*(x*y) + y*y is
/// (x + y) * (x + y); x*x + x*y + y*y (negative discriminant) stays.
// CHECK-LABEL: @rsqrt_and_binomial
// CHECK-NEXT:    %two = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT:    %0 = relay.rsqrt %x : tensor<5xf32>
// CHECK-NEXT:    %1 = relay.multiply %two, %0 : (tensor<f32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT:    %xx = relay.multiply %x, %x : tensor<5xf32>
// CHECK-NEXT:    %xy = relay.multiply %x, %y : tensor<5xf32>
// CHECK-NEXT:    %yy = relay.multiply %y, %y : tensor<5xf32>
// CHECK-NEXT:    %2 = relay.add %x, %y : tensor<5xf32>
// CHECK-NEXT:    %3 = relay.multiply %2, %2 : tensor<5xf32>
// CHECK-NEXT:    %a2 = relay.add %xx, %xy : tensor<5xf32>
// CHECK-NEXT:    %4 = relay.add %a2, %yy : tensor<5xf32>
// CHECK-NEXT:    func.return %1, %3, %4 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
func.func @rsqrt_and_binomial(%x: tensor<5xf32>, %y: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %two = relay.constant dense<2.0> : tensor<f32>
  %s = relay.sqrt %x : tensor<5xf32>
  %0 = relay.divide %two, %s : (tensor<f32>, tensor<5xf32>) -> tensor<5xf32>
  %xx = relay.multiply %x, %x : tensor<5xf32>
  %xy = relay.multiply %x, %y : tensor<5xf32>
  %bxy = relay.multiply %two, %xy : (tensor<f32>, tensor<5xf32>) -> tensor<5xf32>
  %yy = relay.multiply %y, %y : tensor<5xf32>
  %a = relay.add %xx, %bxy : tensor<5xf32>
  %1 = relay.add %a, %yy : tensor<5xf32>
  %a2 = relay.add %xx, %xy : tensor<5xf32>
  %2 = relay.add %a2, %yy : tensor<5xf32>
  func.return %0, %1, %2 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

/// A transpose into a rank-raising layout_transform is one layout_transform from the
/// permuted layout; a rank-lowering one followed by a transpose, one to the permuted layout.
// CHECK-LABEL: @rank_changing
// CHECK-NEXT:    %0 = relay.layout_transform %x {src_layout = "NHWC", dst_layout = "NCHW4c"} : (tensor<1x4x4x8xf32>) -> tensor<1x2x4x4x4xf32>
// CHECK-NEXT:    %1 = relay.nn.relu %0 : tensor<1x2x4x4x4xf32>
// CHECK-NEXT:    %2 = relay.layout_transform %1 {src_layout = "NCHW4c", dst_layout = "NHWC"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT:    func.return %1, %2 : tensor<1x2x4x4x4xf32>, tensor<1x4x4x8xf32>
func.func @rank_changing(%x: tensor<1x4x4x8xf32>) -> (tensor<1x2x4x4x4xf32>, tensor<1x4x4x8xf32>) {
  %0 = relay.transpose %x {axes = [0, 3, 1, 2]} : (tensor<1x4x4x8xf32>) -> tensor<1x8x4x4xf32>
  %1 = relay.layout_transform %0 {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x4x4xf32>) -> tensor<1x2x4x4x4xf32>
  %2 = relay.nn.relu %1 : tensor<1x2x4x4x4xf32>
  %3 = relay.layout_transform %2 {src_layout = "NCHW4c", dst_layout = "NCHW"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x8x4x4xf32>
  %4 = relay.transpose %3 {axes = [0, 2, 3, 1]} : (tensor<1x8x4x4xf32>) -> tensor<1x4x4x8xf32>
  func.return %2, %4 : tensor<1x2x4x4x4xf32>, tensor<1x4x4x8xf32>
}
