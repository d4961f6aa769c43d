// A real model: SqueezeNet from the onnx package's light models (weights made by
// ConstantOfShape nodes, which the importer turns into relay.full), translated, then
// run from the text and from the .onnx file directly: the same summary line.

// RUN: python %S/Inputs/onnx_models.py light squeezenet %t.onnx
// RUN: xrelay-translate --import-onnx %t.onnx -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK: func.func @main(%{{[^:]+}}: tensor<1x3x224x224xf32>) -> tensor<1x1000x1x1xf32>
// CHECK-COUNT-26: relay.nn.conv2d
// CHECK-NOT: relay.nn.conv2d
// CHECK: relay.nn.softmax

// RUN: xrelay-run %t.mlir --random | filecheck %s --check-prefix=RUN1
// RUN: xrelay-run %t.onnx --random | filecheck %s --check-prefix=RUN1
// RUN1: {{\A}}output0: float32[1, 1000, 1, 1] min={{[0-9.e-]+}} max={{[0-9.e-]+}} mean=0.001{{$}}
