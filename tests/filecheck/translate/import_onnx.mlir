// xrelay-translate --import-onnx on a small model written by Inputs/onnx_models.py:
// y = relu(x @ W.T + b) with W = arange(24) / 8 (4x6) and b = ones(4).

// RUN: python %S/Inputs/onnx_models.py fc %t.onnx
// RUN: python %S/Inputs/onnx_models.py ones %t.x.npy 1x6

/// Default: the initializers are bound as constants named after them; the large one
/// is a dense_resource blob (the alignment 4, then W's f32 bytes), the splat stays
/// inline; `x`'s dynamic batch dim stays `?`.
// RUN: xrelay-translate --import-onnx %t.onnx --dense-resources-if-larger 10 | filecheck %s
// CHECK: func.func @main(%x: tensor<?x6xf32>) -> tensor<?x4xf32> {
// CHECK-DAG: %fc.bias = relay.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-DAG: %fc.weight = relay.constant dense_resource<fc.weight> : tensor<4x6xf32>
// CHECK: relay.nn.dense %x, %fc.weight
// CHECK: relay.add %{{.*}}, %fc.bias
// CHECK: relay.nn.relu
// CHECK: {-#
// CHECK: fc.weight: "0x04000000000000000000003E0000803E0000C03E{{[0-9A-F]+}}"
// CHECK: #-}

/// The default threshold is 100 elements: the 24 of W print inline.
// RUN: xrelay-translate --import-onnx %t.onnx | filecheck %s --check-prefix=INLINE
// INLINE: %fc.weight = relay.constant dense<{{\[\[}}0.000000e+00, 1.250000e-01
// INLINE-NOT: {-#

/// The file runs alone, and from stdin to a file (-o) gives the same module.
// RUN: xrelay-translate --import-onnx - --dense-resources-if-larger 10 -o %t.mlir < %t.onnx
// RUN: xrelay-run %t.mlir --input x=%t.x.npy --print-values | filecheck %s --check-prefix=VALUES
// VALUES: output0: float32[1, 4]
// VALUES-NEXT: {{\[\[}} 2.875  7.375 11.875 16.375]]

/// --params-out: the initializers stay parameters, their values go to the .npz,
/// and `xrelay-run --params` binds them back (on the interpreter and built for c).
// RUN: xrelay-translate --import-onnx %t.onnx --shape x=1x6 --params-out %t.npz -o %t.p.mlir
// RUN: filecheck %s --check-prefix=PARAMS < %t.p.mlir
// PARAMS: func.func @main(%x: tensor<1x6xf32>, %fc.weight: tensor<4x6xf32>, %fc.bias: tensor<4xf32>) -> tensor<1x4xf32>
// PARAMS-NOT: relay.constant
// RUN: xrelay-run %t.p.mlir --params %t.npz --input x=%t.x.npy --print-values | filecheck %s --check-prefix=VALUES
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %t.p.mlir --target c --params %t.npz --input x=%t.x.npy --print-values | filecheck %s --check-prefix=VALUES

/// --freeze-params: the importer makes the initializers constants itself.
// RUN: xrelay-translate --import-onnx %t.onnx --freeze-params --shape x=1x6 -o %t.f.mlir
// RUN: xrelay-run %t.f.mlir --input x=%t.x.npy --print-values | filecheck %s --check-prefix=VALUES

/// The generic form with its resource section reads in mlir-opt-19.
// RUN: xrelay-translate --import-onnx %t.onnx --dense-resources-if-larger 10 --print-op-generic | mlir-opt-19 --allow-unregistered-dialect | filecheck %s --check-prefix=MLIR
// MLIR: "relay.constant"() <{value = dense_resource<fc.weight> : tensor<4x6xf32>}>
// MLIR: fc.weight: "0x04000000

/// --elide-constants-if-larger: W is elided; the text verifies but does not run.
// RUN: xrelay-translate --import-onnx %t.onnx --elide-constants-if-larger 10 | filecheck %s --check-prefix=ELIDED
// ELIDED: %fc.weight = relay.constant dense_resource<__elided__> : tensor<4x6xf32>
// ELIDED-NOT: {-#
// RUN: xrelay-translate --import-onnx %t.onnx --elide-constants-if-larger 10 | xrelay-opt | filecheck %s --check-prefix=ELIDED
