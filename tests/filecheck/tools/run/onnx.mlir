// xrelay-run takes an ONNX model directly (Inputs of translate/: y = relu(x @ W.T + b),
// W = arange(24) / 8 as 4x6, b = ones(4)); its initializers are bound by name.

// RUN: python %S/../../translate/Inputs/onnx_models.py fc %t.onnx
// RUN: python %S/../../translate/Inputs/onnx_models.py ones %t.x.npy 2x6
// RUN: python %S/../../translate/Inputs/onnx_models.py ones %t.b.npy 4
// RUN: python %S/../../translate/Inputs/onnx_models.py unsupported %t.unsupported.onnx

/// The interpreter, with --shape fixing the dynamic batch dim.
// RUN: xrelay-run %t.onnx --shape x=2x6 --input x=%t.x.npy --print-values | filecheck %s
// CHECK: {{\A}}output0: float32[2, 4] min=2.875 max=16.375 mean=9.625
// CHECK-NEXT: {{\[\[}} 2.875  7.375 11.875 16.375]
// CHECK-NEXT: {{^ \[}} 2.875  7.375 11.875 16.375]]

/// Built for accel,c with random inputs, timed: the README's command.
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %t.onnx --shape x=1x6 --target accel,c --random --repeat 100 | filecheck %s --check-prefix=BUILT
// BUILT: {{\A}}output0: float32[1, 4] min={{.*}} max={{.*}} mean={{.*}}
// BUILT-NEXT: time: median {{.*}} ms, min {{.*}} ms, 100 runs

/// An initializer given with --input (or --params) overrides it: b = 2 * ones here.
// RUN: python -c "import numpy; numpy.savez('%t.p.npz', **{'fc.bias': numpy.full(4, 2, 'float32')})"
// RUN: xrelay-run %t.onnx --shape x=2x6 --input x=%t.x.npy --params %t.p.npz | filecheck %s --check-prefix=OVERRIDE
// RUN: env XRELAY_CACHE_DIR=%t.cache xrelay-run %t.onnx --target c --shape x=2x6 --input x=%t.x.npy --params %t.p.npz | filecheck %s --check-prefix=OVERRIDE
// OVERRIDE: output0: float32[2, 4] min=3.875 max=17.375 mean=10.625

/// The importer's problems, one line each naming the file, exit status 1; --shape needs an ONNX model.
// RUN: not xrelay-run %t.unsupported.onnx 2>&1 | filecheck %s --check-prefix=REFUSED
// REFUSED: {{\A.*}}.unsupported.onnx: error: unsupported op FrobnicateA at opset 17 (2 nodes: 'first', 'second')
// REFUSED-NEXT: {{^.*}}.unsupported.onnx: error: unsupported op FrobnicateB at opset 17 (1 node: 'third')
// REFUSED-NOT: {{.}}
// RUN: not xrelay-run %s --shape x=1x6 2>&1 | filecheck %s --check-prefix=NOTONNX
//     NOTONNX: {{\A}}xrelay-run: error: --shape and --opset are for an ONNX model (a .onnx file)
// RUN: not xrelay-run %t.onnx --shape x=2xb 2>&1 | filecheck %s --check-prefix=BADSHAPE
//     BADSHAPE: {{\A}}xrelay-run: error: --shape x=2xb: 'b' is not a dimension (a number, or ? for dynamic)

func.func @main() -> tensor<f32> {
  %0 = relay.constant dense<1.0> : tensor<f32>
  func.return %0 : tensor<f32>
}
