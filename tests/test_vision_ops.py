"""relay.vision.all_class_non_max_suppression: ONNX NonMaxSuppression's cases by hand, type
errors, and the C target against the interpreter on random overlapping boxes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from tests.testlib.c_compare import check_c_against_interpreter
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]

CORNERS = [
    [0.0, 0.0, 1.0, 1.0],
    [0.0, 0.1, 1.0, 1.1],
    [0.0, -0.1, 1.0, 0.9],
    [0.0, 10.0, 1.0, 11.0],
    [0.0, 10.1, 1.0, 11.1],
    [0.0, 100.0, 1.0, 101.0],
]
FLIPPED = [
    [1.0, 1.0, 0.0, 0.0],
    [0.0, 0.1, 1.0, 1.1],
    [0.0, 0.9, 1.0, -0.1],
    [0.0, 10.0, 1.0, 11.0],
    [1.0, 10.1, 0.0, 11.1],
    [1.0, 101.0, 0.0, 100.0],
]
CENTERS = [
    [0.5, 0.5, 1.0, 1.0],
    [0.5, 0.6, 1.0, 1.0],
    [0.5, 0.4, 1.0, 1.0],
    [0.5, 10.5, 1.0, 1.0],
    [0.5, 10.6, 1.0, 1.0],
    [0.5, 100.5, 1.0, 1.0],
]
SCORES = [0.9, 0.75, 0.6, 0.95, 0.5, 0.3]


def nms(
    boxes: Array, scores: Array, limit: int, iou: float, least: float, center: bool = False
) -> tuple[Array, Array]:
    b = relay.var("b", shape=boxes.shape)
    s = relay.var("s", shape=scores.shape)
    call = relay.vision.all_class_non_max_suppression(b, s, limit, iou, least, "onnx", center)
    mod = IRModule.from_expr(relay.Function([b, s], call))
    rows, count = xrelay.evaluate(mod, boxes, scores)
    return rows, count


# ONNX's NonMaxSuppression node cases: (boxes, scores, limit, iou, score threshold, center,
# the selected (batch, class, box) rows)
ONNX_CASES = [
    ([CORNERS], [[SCORES]], 3, 0.5, 0.0, False, [[0, 0, 3], [0, 0, 0], [0, 0, 5]]),
    ([CORNERS], [[SCORES]], 3, 0.5, 0.4, False, [[0, 0, 3], [0, 0, 0]]),
    ([FLIPPED], [[SCORES]], 3, 0.5, 0.0, False, [[0, 0, 3], [0, 0, 0], [0, 0, 5]]),
    ([CORNERS], [[SCORES]], 2, 0.5, 0.0, False, [[0, 0, 3], [0, 0, 0]]),
    ([[[0.0, 0.0, 1.0, 1.0]]], [[[0.9]]], 3, 0.5, 0.0, False, [[0, 0, 0]]),
    ([[[0.0, 0.0, 1.0, 1.0]] * 10], [[[0.9] * 10]], 3, 0.5, 0.0, False, [[0, 0, 0]]),
    ([CENTERS], [[SCORES]], 3, 0.5, 0.0, True, [[0, 0, 3], [0, 0, 0], [0, 0, 5]]),
    (
        [CORNERS, CORNERS],
        [[SCORES], [SCORES]],
        2,
        0.5,
        0.0,
        False,
        [[0, 0, 3], [0, 0, 0], [1, 0, 3], [1, 0, 0]],
    ),
    (
        [CORNERS],
        [[SCORES, SCORES]],
        2,
        0.5,
        0.0,
        False,
        [[0, 0, 3], [0, 0, 0], [0, 1, 3], [0, 1, 0]],
    ),
    ([CORNERS], [[SCORES]], 0, 0.5, 0.0, False, []),
    ([CORNERS], [[SCORES]], -4, 0.5, 0.0, False, []),
]


@pytest.mark.parametrize(("boxes", "scores", "limit", "iou", "least", "center", "want"), ONNX_CASES)
def test_onnx_cases(
    boxes: Any, scores: Any, limit: int, iou: float, least: float, center: bool, want: Any
) -> None:
    b, s = np.array(boxes, "float32"), np.array(scores, "float32")
    rows, count = nms(b, s, limit, iou, least, center)
    assert rows.dtype == np.int64
    assert rows.shape == (b.shape[0] * s.shape[1] * b.shape[1], 3)
    assert count.tolist() == [len(want)]
    np.testing.assert_array_equal(rows[: len(want)].reshape(-1, 3), np.array(want).reshape(-1, 3))
    assert (rows[len(want) :] == -1).all()


def test_ties_nan_scores_and_thresholds() -> None:
    boxes = np.array([[[0, 0, 1, 1], [5, 5, 6, 6], [9, 9, 10, 10], [0, 0, 1, 1]]], "float32")
    scores = np.array([[[0.5, 0.5, np.nan, 0.5]]], "float32")
    rows, count = nms(boxes, scores, 10, 0.5, -np.inf)
    assert count.tolist() == [2]  # box 2's NaN score never passes; box 3 is box 0 again
    np.testing.assert_array_equal(rows[:2], [[0, 0, 0], [0, 0, 1]])
    rows, count = nms(boxes, scores, 10, 1.0, 0.5)  # above the threshold: 0.5 is not
    assert count.tolist() == [0]
    rows, count = nms(boxes, scores, 10, 1.0, 0.4)  # an IoU of 1 is not above 1
    np.testing.assert_array_equal(rows[:3], [[0, 0, 0], [0, 0, 1], [0, 0, 3]])


@pytest.mark.parametrize(
    ("boxes", "scores", "message"),
    [
        ((1, 6, 4), (1, 2, 5), "the box count of boxes (1, 6, 4) and scores (1, 2, 5) differ"),
        ((1, 6, 5), (1, 2, 6), "boxes must have shape [batch, boxes, 4], got (1, 6, 5)"),
        ((2, 6, 4), (1, 2, 6), "the batch of boxes"),
        ((1, 6, 4), (2, 6), "scores must have shape [batch, classes, boxes]"),
    ],
)
def test_type_errors(boxes: Any, scores: Any, message: str) -> None:
    b, s = relay.var("b", shape=boxes), relay.var("s", shape=scores)
    with pytest.raises(relay.RelayTypeError, match=re.escape(message)):
        relay.vision.all_class_non_max_suppression(b, s, 1, 0.5, 0.0)


def test_operand_types_are_checked() -> None:
    b, s = relay.var("b", shape=(1, 6, 4)), relay.var("s", shape=(1, 2, 6))
    nms_ = relay.vision.all_class_non_max_suppression
    with pytest.raises(relay.RelayTypeError, match="must be an integer, got f32"):
        nms_(b, s, relay.const(np.float32(1)), 0.5, 0.0)
    with pytest.raises(relay.RelayTypeError, match="must be a scalar or hold one element"):
        nms_(b, s, relay.const(np.array([1, 2], "int64")), 0.5, 0.0)
    with pytest.raises(relay.RelayTypeError, match="iou_threshold must have the boxes' type f32"):
        nms_(b, s, 1, relay.const(np.array(0.5), "float64"), 0.0)
    with pytest.raises(relay.RelayTypeError, match="output_format must be 'onnx'"):
        nms_(b, s, 1, 0.5, 0.0, output_format="tensorflow")
    half = relay.var("h", shape=(1, 6, 4), dtype="float16")
    with pytest.raises(relay.RelayTypeError, match="boxes must be float32 or float64, got f16"):
        nms_(half, relay.var("t", shape=(1, 2, 6), dtype="float16"), 1, 0.5, 0.0)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_c_target_matches_the_interpreter(dtype: str, cache: Path) -> None:
    rng = np.random.default_rng(3)
    batch, classes, count = 2, 3, 12
    corners = rng.uniform(0, 4, (batch, count, 4)).astype(dtype)
    corners[0, 5] = corners[0, 2]  # identical boxes
    centers = np.concatenate(
        [rng.uniform(0, 4, (batch, count, 2)), rng.uniform(-0.5, 2, (batch, count, 2))], axis=2
    ).astype(dtype)
    scores = rng.choice(np.array([0.1, 0.5, 0.5, 0.9, np.nan, 0.7], dtype), (batch, classes, count))
    b = relay.var("b", shape=corners.shape, dtype=dtype)
    c = relay.var("c", shape=centers.shape, dtype=dtype)
    s = relay.var("s", shape=scores.shape, dtype=dtype)
    limit = relay.var("limit", shape=(1,), dtype="int64")
    nms_ = relay.vision.all_class_non_max_suppression
    outputs = [
        nms_(b, s, limit, 0.3, 0.2).astuple(),
        nms_(c, s, limit, 0.1, -1.0, center_point_box=True).astuple(),
        nms_(b, s, 100, 0.0, 0.0).astuple(),
    ]
    mod = IRModule.from_expr(relay.Function([b, c, s, limit], relay.Tuple(outputs)))
    for value in (4, 0, -1, 100):
        limit_value = np.array([value], "int64")
        got = check_c_against_interpreter(mod, [corners, centers, scores, limit_value], cache)
        assert int(got[1][0]) <= batch * classes * max(value, 0)
