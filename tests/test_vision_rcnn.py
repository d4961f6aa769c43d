"""relay.vision.roi_align and roi_pool: the reference against scalar loops written from the
documented rule, hand values, type errors, and the C target against the interpreter."""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from tests.testlib.c_compare import check_c_against_interpreter
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]

# rows (batch_index, x1, y1, x2, y2): inside, past the edges, malformed (x2 < x1), a batch
# index to truncate, out-of-range batches, a NaN corner, exact halves for roi_pool's round
ROIS = [
    [0, 1.0, 1.0, 10.0, 12.0],
    [1, -3.0, 2.0, 20.0, 4.5],
    [0.9, 5.0, 6.0, 2.0, 1.0],
    [-0.5, 0.5, 2.5, 3.5, 1.5],
    [2, 0.0, 0.0, 4.0, 4.0],
    [-1, 0.0, 0.0, 4.0, 4.0],
    [1, math.nan, 0.0, 4.0, 4.0],
    [1, 7.0, 7.0, 30.0, 30.0],
]


def _region(roi: Array, batch: int, scale: float) -> tuple[int, list[float]] | None:
    if math.isnan(roi[0]) or not 0 <= int(roi[0]) < batch:
        return None
    corners = [float(c) * scale for c in roi[1:]]
    return (int(roi[0]), corners) if all(map(math.isfinite, corners)) else None


def _sample(image: Array, c: int, y: float, x: float) -> float:
    h, w = image.shape[1], image.shape[2]
    if y < -1 or x < -1 or y > h or x > w:
        return 0.0
    y, x = min(max(y, 0.0), h - 1.0), min(max(x, 0.0), w - 1.0)
    y0, x0 = math.floor(y), math.floor(x)
    total = 0.0
    for xp, wx in ((x0, 1 - (x - x0)), (x0 + 1, x - x0)):
        for yp, wy in ((y0, 1 - (y - y0)), (y0 + 1, y - y0)):
            if yp < h and xp < w:
                total += wx * wy * float(image[c, yp, xp])
    return total


def naive_roi_align(
    data: Array, rois: Array, pooled: tuple[int, int], scale: float, ratio: int, mode: str
) -> Array:
    """One output element at a time, from docs/semantics.md's rule (NCHW, float64)."""
    n, channels = data.shape[:2]
    ph_n, pw_n = pooled
    out = np.zeros((len(rois), channels, ph_n, pw_n))
    lowest = float(np.finfo(data.dtype).min)
    for r, c, ph, pw in np.ndindex(out.shape):
        found = _region(rois[r], n, scale)
        if found is None:
            continue
        b, (x1, y1, x2, y2) = found
        roi_h, roi_w = max(y2 - y1, 1.0), max(x2 - x1, 1.0)
        gh = ratio if ratio > 0 else min(math.ceil(roi_h / ph_n), 256)
        gw = ratio if ratio > 0 else min(math.ceil(roi_w / pw_n), 256)
        total = 0.0 if mode == "avg" else lowest
        for iy in range(gh):
            for ix in range(gw):
                y = y1 + ph * (roi_h / ph_n) + (iy + 0.5) * (roi_h / ph_n) / gh
                x = x1 + pw * (roi_w / pw_n) + (ix + 0.5) * (roi_w / pw_n) / gw
                s = _sample(data[b].astype(np.float64), c, y, x)
                if mode == "avg":
                    total += s / (gh * gw)
                elif not math.isnan(total) and (math.isnan(s) or s > total):
                    total = s
        out[r, c, ph, pw] = total
    return out


def _c_round(value: float) -> float:
    return math.copysign(math.floor(abs(value) + 0.5), value)


def naive_roi_pool(data: Array, rois: Array, pooled: tuple[int, int], scale: float) -> Array:
    n, channels, h, w = data.shape
    ph_n, pw_n = pooled
    out = np.zeros((len(rois), channels, ph_n, pw_n))
    for r, c, ph, pw in np.ndindex(out.shape):
        found = _region(rois[r], n, scale)
        if found is None:
            continue
        b, corners = found
        x1, y1, x2, y2 = (_c_round(v) for v in corners)
        bin_h, bin_w = max(y2 - y1 + 1, 1) / ph_n, max(x2 - x1 + 1, 1) / pw_n
        rows = range(
            int(min(max(math.floor(ph * bin_h + 1e-5) + y1, 0), h)),
            int(min(max(math.ceil((ph + 1) * bin_h - 1e-5) + y1, 0), h)),
        )
        cols = range(
            int(min(max(math.floor(pw * bin_w + 1e-5) + x1, 0), w)),
            int(min(max(math.ceil((pw + 1) * bin_w - 1e-5) + x1, 0), w)),
        )
        cells = [float(data[b, c, y, x]) for y in rows for x in cols]
        out[r, c, ph, pw] = (
            (math.nan if any(map(math.isnan, cells)) else max(cells)) if cells else 0
        )
    return out


def _run(call: Any, data: Array, rois: Array, layout: str) -> Array:
    r = relay.var("r", shape=rois.shape, dtype=str(rois.dtype))
    given = data if layout == "NCHW" else data.transpose(0, 2, 3, 1)
    x = relay.var("x", shape=given.shape, dtype=str(data.dtype))
    mod = IRModule.from_expr(relay.Function([x, r], call(x, r)))
    out = np.asarray(xrelay.evaluate(mod, given, rois))
    return out if layout == "NCHW" else out.transpose(0, 3, 1, 2)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
@pytest.mark.parametrize(("ratio", "mode"), [(2, "avg"), (-1, "avg"), (0, "max"), (3, "max")])
def test_roi_align_matches_scalar_loops(layout: str, ratio: int, mode: str) -> None:
    data = np.random.default_rng(0).standard_normal((2, 3, 9, 11)).astype("float32")
    rois = np.array(ROIS, "float32")
    got = _run(
        lambda x, r: relay.vision.roi_align(x, r, (3, 2), 0.75, ratio, layout, mode),
        data,
        rois,
        layout,
    )
    want = naive_roi_align(data, rois, (3, 2), 0.75, ratio, mode)
    np.testing.assert_allclose(got, want.astype("float32"), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_roi_pool_matches_scalar_loops(layout: str) -> None:
    data = np.random.default_rng(1).standard_normal((2, 3, 9, 11)).astype("float64")
    data[1, 0, 3, 4] = np.nan
    rois = np.array(ROIS, "float64")
    for pooled, scale in (((3, 2), 1.0), ((2, 4), 0.5)):
        got = _run(
            lambda x, r, p=pooled, s=scale: relay.vision.roi_pool(x, r, p, s, layout),
            data,
            rois,
            layout,
        )
        np.testing.assert_array_equal(got, naive_roi_pool(data, rois, pooled, scale))


def test_hand_values() -> None:
    ramp = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)  # value = 4 * y + x
    align = _run(
        lambda x, r: relay.vision.roi_align(x, r, (1, 1), 1.0, 2),
        ramp,
        np.array([[0, 0, 0, 2, 2], [0, 0, 0, 1, 1]], "float32"),
        "NCHW",
    )
    # samples at y, x in {0.5, 1.5}: the ramp at (1, 1); a 1x1 region: its centre (0.5, 0.5)
    assert align[:, 0, 0, 0].tolist() == [5.0, 2.5]
    pool = _run(
        lambda x, r: relay.vision.roi_pool(x, r, (1, 1), 1.0),
        ramp,
        # cells (0..1, 0..1); 2.5 rounds away from zero to 3 (cell (3, 3)); rows 1..3 of
        # column 0 (x2 < x1: one column)
        np.array([[0, 0, 0, 1, 1], [0, 2.5, 2.5, 2.5, 2.5], [0, 0, 1, -2, 3]], "float32"),
        "NCHW",
    )
    assert pool[:, 0, 0, 0].tolist() == [5.0, 15.0, 12.0]
    # max mode over all-(-inf) data starts from the lowest finite value, as TVM's reducer
    neg = np.full((1, 1, 2, 2), -np.inf, "float32")
    low = _run(
        lambda x, r: relay.vision.roi_align(x, r, (1, 1), 1.0, 1, mode="max"),
        neg,
        np.array([[0, 0, 0, 1, 1]], "float32"),
        "NCHW",
    )
    assert low[0, 0, 0, 0] == np.finfo("float32").min


@pytest.mark.parametrize(
    ("data", "rois", "kwargs", "message"),
    [
        ((1, 2, 4, 4), (3, 4), {}, "rois must have shape [num_roi, 5]"),
        ((1, 2, 4), (3, 5), {}, "expected 4-D data, got rank 3"),
        ((1, 2, 4, 4), (3, 5, 1), {}, "expected 2-D rois, got rank 3"),
        ((1, 2, 4, 4), (3, 5), {"layout": "NCHW4c"}, "unknown layout 'NCHW4c'"),
        ((1, 2, 4, 4), (3, 5), {"mode": "sum"}, "mode must be 'avg' or 'max', got 'sum'"),
        ((1, 2, 4, 4), (3, 5), {"pooled_size": (0, 2)}, "pooled_size must be two positive"),
    ],
)
def test_type_errors(data: Any, rois: Any, kwargs: dict[str, Any], message: str) -> None:
    x, r = relay.var("x", shape=data), relay.var("r", shape=rois)
    args: dict[str, Any] = {"pooled_size": (2, 2), "spatial_scale": 1.0, **kwargs}
    with pytest.raises(relay.RelayTypeError, match=re.escape(message)):
        relay.vision.roi_align(x, r, **args)


def test_dtype_errors() -> None:
    x = relay.var("x", shape=(1, 2, 4, 4), dtype="float16")
    r = relay.var("r", shape=(3, 5), dtype="float16")
    with pytest.raises(relay.RelayTypeError, match="data must be float32 or float64, got f16"):
        relay.vision.roi_pool(x, r, (2, 2), 1.0)
    x = relay.var("x", shape=(1, 2, 4, 4))
    r = relay.var("r", shape=(3, 5), dtype="float64")
    with pytest.raises(relay.RelayTypeError, match="rois element type f64 does not match data"):
        relay.vision.roi_pool(x, r, (2, 2), 1.0)


def test_result_types_are_tvms() -> None:
    x, r = relay.var("x", shape=(2, 7, 9, 11)), relay.var("r", shape=(4, 5))
    nhwc = relay.var("y", shape=(2, 9, 11, 7))
    mod = IRModule.from_expr(
        relay.Function(
            [x, r, nhwc],
            relay.Tuple(
                [
                    relay.vision.roi_align(x, r, (3, 5), 0.5),
                    relay.vision.roi_pool(nhwc, r, 2, 0.5, layout="NHWC"),
                ]
            ),
        )
    )
    text = str(mod)
    assert "tensor<4x7x3x5xf32>" in text
    assert "tensor<4x2x2x7xf32>" in text


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    rng = np.random.default_rng(2)
    nchw = rng.standard_normal((2, 3, 9, 11)).astype("float32")
    nchw[0, 1, 2, 2] = np.nan
    nchw[1, 2, 5, 6] = -np.inf
    nhwc = nchw.transpose(0, 2, 3, 1).copy()
    wide = nchw.astype("float64")
    rois = np.array([*ROIS, [1, 1e30, 0, -1e30, 3], [0, 2.5, 3.5, 5.5, 6.5]], "float32")
    x = relay.var("x", shape=nchw.shape)
    y = relay.var("y", shape=nhwc.shape)
    z = relay.var("z", shape=wide.shape, dtype="float64")
    r = relay.var("r", shape=rois.shape)
    r64 = relay.cast(r, "float64")
    vision = relay.vision
    outputs = [
        vision.roi_align(x, r, (3, 2), 0.75, 2),
        vision.roi_align(y, r, (2, 3), 0.5, -1, "NHWC", "max"),
        vision.roi_align(z, r64, (2, 2), 1.0, 0, "NCHW", "avg"),
        vision.roi_pool(x, r, (3, 2), 1.0),
        vision.roi_pool(y, r, (2, 4), 0.5, "NHWC"),
    ]
    mod = IRModule.from_expr(relay.Function([x, y, z, r], relay.Tuple(outputs)))
    check_c_against_interpreter(mod, [nchw, nhwc, wide, rois], cache)


def test_tvm_namespaces() -> None:
    assert relay.op.vision.roi_align is relay.vision.roi_align
    assert relay.op.vision.roi_pool is relay.vision.roi_pool
    assert str(relay.op.get("vision.roi_pool")) == "Op(vision.roi_pool)"
