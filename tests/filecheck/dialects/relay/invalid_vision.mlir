// RUN: xrelay-opt %s --split-input-file --verify-diagnostics

/// all_class_non_max_suppression: ONNX's format only.
func.func @nms_output_format(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %n: tensor<i64>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op output_format must be 'onnx', got 'tensorflow'}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least {output_format = "tensorflow"} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: boxes are float32 or float64.
func.func @nms_boxes_type(%b: tensor<1x6x4xf16>, %s: tensor<1x2x6xf16>, %n: tensor<i64>, %iou: tensor<f16>, %least: tensor<f16>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op boxes must be float32 or float64, got f16}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf16>, tensor<1x2x6xf16>, tensor<i64>, tensor<f16>, tensor<f16>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: boxes have four coordinates.
func.func @nms_boxes_shape(%b: tensor<1x6x5xf32>, %s: tensor<1x2x6xf32>, %n: tensor<i64>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op boxes must have shape [batch, boxes, 4], got (1, 6, 5)}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x5xf32>, tensor<1x2x6xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: scores are [batch, classes, boxes].
func.func @nms_scores_rank(%b: tensor<1x6x4xf32>, %s: tensor<2x6xf32>, %n: tensor<i64>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op scores must have shape [batch, classes, boxes], got (2, 6)}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf32>, tensor<2x6xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: boxes and scores agree on the box count.
func.func @nms_box_count(%b: tensor<1x6x4xf32>, %s: tensor<1x2x5xf32>, %n: tensor<i64>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op the box count of boxes (1, 6, 4) and scores (1, 2, 5) differ}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf32>, tensor<1x2x5xf32>, tensor<i64>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: thresholds have the boxes' type.
func.func @nms_threshold_type(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %n: tensor<i64>, %iou: tensor<f64>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op iou_threshold must have the boxes' type f32, got f64}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<i64>, tensor<f64>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: the count is one element.
func.func @nms_scalar(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %n: tensor<2xi64>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op max_output_boxes_per_class must be a scalar or hold one element, got shape (2)}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<2xi64>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}

// -----

/// all_class_non_max_suppression: the count is an integer.
func.func @nms_count_type(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %n: tensor<f32>, %iou: tensor<f32>, %least: tensor<f32>) {
  // expected-error@+1 {{'relay.vision.all_class_non_max_suppression' op max_output_boxes_per_class must be an integer, got f32}}
  %0 = relay.vision.all_class_non_max_suppression %b, %s, %n, %iou, %least : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tuple<tensor<12x3xi64>, tensor<1xi64>>
  func.return
}
