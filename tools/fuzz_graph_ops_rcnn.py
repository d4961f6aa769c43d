"""`fuzz_graph` generators for `relay.vision.roi_align` and `roi_pool` (merged into
`GENERATORS`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker

Expr = relay.Expr


def _data_and_rois(g: GraphMaker) -> tuple[Expr, Expr, str]:
    """NCHW or NHWC data and [R, 5] regions: random rows (edge values included) spread over
    the map, batch indices around 0 and 1 (some out of range), or fixed rows with halves."""
    layout = g.rng.choice(("NCHW", "NHWC"))
    c, h, w = g.dim(1, 3), g.dim(1, 7), g.dim(1, 7)
    dtype = g.rng.choice(("float32", "float32", "float64"))
    data = g.var((g.batch, c, h, w) if layout == "NCHW" else (g.batch, h, w, c), dtype)
    count = g.dim(1, 4)
    if g.rng.random() < 0.7:
        rows = g.var((count, 5), dtype)
        spread = relay.const(np.array([[0.6, 3.0, 3.0, 3.0, 3.0]], dtype), dtype)
        middle = relay.const(np.array([[0.5, 2.0, 2.0, 4.0, 4.0]], dtype), dtype)
        rois = relay.add(relay.multiply(rows, spread), middle)
    else:
        fixed = [[0, 0.5, 1.5, 2.5, 3.5], [1, -1.5, 0, 9, 2.5], [0, 3, 3, 1, 1], [-1, 0, 0, 2, 2]]
        rois = relay.const(np.array(fixed[:count], dtype), dtype)
    return data, rois, layout


def _pooled(g: GraphMaker) -> tuple[int, int]:
    return g.dim(1, 3), g.dim(1, 3)


def _roi_align(g: GraphMaker) -> Expr:
    data, rois, layout = _data_and_rois(g)
    return relay.vision.roi_align(
        data,
        rois,
        _pooled(g),
        g.rng.choice((0.25, 0.5, 1.0)),
        g.rng.choice((-1, 0, 1, 2)),
        layout,
        g.rng.choice(("avg", "max")),
    )


def _roi_pool(g: GraphMaker) -> Expr:
    data, rois, layout = _data_and_rois(g)
    return relay.vision.roi_pool(data, rois, _pooled(g), g.rng.choice((0.5, 1.0, 2.0)), layout)


RCNN_GENERATORS: dict[str, Callable[[GraphMaker], Expr]] = {
    "relay.vision.roi_align": _roi_align,
    "relay.vision.roi_pool": _roi_pool,
}
"""A graph generator for each op of this group, by op name."""
