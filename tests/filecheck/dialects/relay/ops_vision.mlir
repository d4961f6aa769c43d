// RUN: xrelay-opt %s --split-input-file --print-op-generic | xrelay-opt --split-input-file | filecheck %s
// RUN: xrelay-opt %s --split-input-file --print-op-generic | filecheck %s --check-prefix=GENERIC

/// all_class_non_max_suppression: rows for batch * classes * boxes, and a count; center boxes.
// CHECK-LABEL: func.func @nms
func.func @nms(%b: tensor<2x6x4xf32>, %s: tensor<2x3x6xf32>, %n: tensor<1xi64>, %iou: tensor<f32>, %least: tensor<1xf32>) -> tuple<tensor<36x3xi64>, tensor<1xi64>> {
  // CHECK-NEXT: %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<f32>, tensor<1xf32>) -> tuple<tensor<36x3xi64>, tensor<1xi64>>
  // CHECK-NEXT: %1 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least {center_point_box = true} : (tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<f32>, tensor<1xf32>) -> tuple<tensor<36x3xi64>, tensor<1xi64>>
  // GENERIC: "relay.vision.all_class_non_max_suppression"(%b, %s, %n, %iou, %least) <{output_format = "onnx", center_point_box = false}>
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<f32>, tensor<1xf32>) -> tuple<tensor<36x3xi64>, tensor<1xi64>>
  %1 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least {center_point_box = true} : (tensor<2x6x4xf32>, tensor<2x3x6xf32>, tensor<1xi64>, tensor<f32>, tensor<1xf32>) -> tuple<tensor<36x3xi64>, tensor<1xi64>>
  func.return %1 : tuple<tensor<36x3xi64>, tensor<1xi64>>
}
