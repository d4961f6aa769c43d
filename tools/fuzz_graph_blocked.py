"""Graph generators for blocked layouts: `nn.contrib_conv2d_NCHWc`, and conv2d and the pools
on `NCHW{k}c` data (`dialects/relay/nn_conv_blocked.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrelay.dialects.builder.expr import Expr
from xrelay.dialects.relay.types import shape_of

from xrelay import relay

if TYPE_CHECKING:
    from xrelay.tools.fuzz_graph_ops import GraphMaker


def conv2d_nchwc(g: GraphMaker) -> Expr:
    """A blocked convolution (`OIHW{k}i{k}o` or `OIHW{k}o` weights), sometimes pooled in its
    blocked layout, sometimes as `nn.conv2d` (which takes blocked layouts too)."""
    x = g.nchw(low=3)
    _, c, h, w = shape_of(x.checked_type)
    k = g.rng.choice([d for d in (1, 2, 4) if c % d == 0])
    out = k * g.rng.randint(1, 3)
    kh, kw = g.rng.randint(1, min(3, h)), g.rng.randint(1, min(3, w))
    layout = f"NCHW{k}c"
    if g.rng.random() < 0.5:
        kernel_layout, wshape = f"OIHW{k}i{k}o", (out // k, c // k, kh, kw, k, k)
    else:
        kernel_layout, wshape = f"OIHW{k}o", (out // k, c, kh, kw, k)
    data = relay.layout_transform(x, "NCHW", layout)
    build = relay.nn.contrib_conv2d_nchwc if g.rng.random() < 0.7 else relay.nn.conv2d
    y = build(
        data,
        g.const(wshape),
        strides=(g.rng.randint(1, 2), g.rng.randint(1, 2)),
        padding=g.rng.choice(((0, 0), (1, 1), (0, 1, 1, 0))),
        channels=out,
        kernel_size=(kh, kw),
        data_layout=layout,
        kernel_layout=kernel_layout,
    )
    if g.rng.random() < 0.3:
        y = relay.nn.max_pool2d(y, pool_size=(1, 2), layout=layout)
    elif g.rng.random() < 0.3:
        y = relay.nn.global_avg_pool2d(y, layout=layout)
    return relay.layout_transform(y, layout, "NCHW") if g.rng.random() < 0.5 else y
