// RUN: xrelay-opt %s -p 'optimize{opt-level=3}' | filecheck %s
// RUN: xrelay-opt %s -p 'optimize{opt-level=3 fuse=false}' | filecheck %s --check-prefix=NOFUSE
// RUN: xrelay-opt %s -p 'optimize{opt-level=0 fuse=false}' | filecheck %s --check-prefix=LEVEL0
/// Without opt-level, the pipeline runs at the PassContext's level (xrelay-opt --opt-level).
// RUN: xrelay-opt %s -p 'optimize{fuse=false}' --opt-level 1 | filecheck %s --check-prefix=LEVEL0
// RUN: xrelay-opt %s -p optimize --time-passes 2>&1 >/dev/null | filecheck %s --check-prefix=TIME
// RUN: xrelay-opt %s -p 'optimize{opt-level=3}' --verify-numerics --verify-each | filecheck %s

/// conv2d -> batch_norm -> relu at opt level 3: batch_norm becomes a per-channel scale and
/// shift (SimplifyInference), the scale folds into the conv weights (FoldScaleAxis), the
/// constants fold (FoldConstant), and conv + add + relu fuse into one Primitive function.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %0 = relay.constant dense<{{.*}}> : tensor<2x2x1x1xf32>
// CHECK-NEXT:    %1 = relay.constant dense<{{.*}}> : tensor<2x1x1xf32>
// CHECK-NEXT:    %2 = func.call @fused_nn_conv2d_add_nn_relu(%x, %0, %1)
// CHECK-NEXT:    func.return %2
// CHECK:       func.func private @fused_nn_conv2d_add_nn_relu({{.*}}) -> tensor<1x2x4x4xf32> attributes {Primitive = 1 : i32}
// CHECK-NEXT:    relay.nn.conv2d
// CHECK-NEXT:    relay.add
// CHECK-NEXT:    relay.nn.relu
// CHECK-NOT:     batch_norm

// NOFUSE-LABEL: func.func @main
// NOFUSE:         relay.nn.conv2d %x
// NOFUSE-NEXT:    relay.constant
// NOFUSE-NEXT:    relay.add
// NOFUSE-NEXT:    relay.nn.relu
// NOFUSE-NOT:     func.call

/// At opt level 0 (and 1) only the level-0 passes run: batch_norm is expanded, nothing folds.
// LEVEL0-LABEL: func.func @main
// LEVEL0-NOT:     batch_norm
// LEVEL0:         relay.rsqrt
// LEVEL0:         relay.multiply %1,
// LEVEL0:         relay.nn.relu

// TIME:      {{^}}	Optimize: {{.*}}
// TIME-NEXT: {{^}}		SimplifyInference: {{.*}}
// TIME:      {{^}}		FoldScaleAxis: {{.*}}
// TIME-NEXT: {{^}}			BackwardFoldScaleAxis: {{.*}}
// TIME:      {{^}}		FuseOps: {{.*}}
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
    %0 = relay.constant dense<[[[[0.000000e+00]], [[2.500000e-01]]], [[[5.000000e-01]], [[7.500000e-01]]]]> : tensor<2x2x1x1xf32>
    %1 = relay.nn.conv2d %x, %0 {channels = 2, kernel_size = [1, 1]} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %2 = relay.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %3 = relay.constant dense<[5.000000e-01, -5.000000e-01]> : tensor<2xf32>
    %4 = relay.constant dense<[1.000000e-01, 2.000000e-01]> : tensor<2xf32>
    %5 = relay.constant dense<[1.000000e+00, 4.000000e+00]> : tensor<2xf32>
    %6 = relay.nn.batch_norm %1, %2, %3, %4, %5 : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
    %7 = relay.tuple_get_item %6 {index = 0} : (tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x4x4xf32>
    %8 = relay.nn.relu %7 : tensor<1x2x4x4xf32>
    func.return %8 : tensor<1x2x4x4xf32>
  }
}

