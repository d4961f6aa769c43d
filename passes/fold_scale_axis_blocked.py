"""ForwardFoldScaleAxis on blocked convolutions (TVM's `NCHW2c` data, `OIHW2i4o` kernels).

A scale along a blocked channel axis is a 2-D `(C/k, k)` scale riding on two
axes of the data: the primal `C` and its sub-axis `c` (a `Message` with `small`).
A conv2d absorbs it when its kernel splits the absorbing axis (I, or O for a
depthwise conv) too, by any factor: the weight is multiplied by the scale
reshaped to the kernel's rank with its extents at the two kernel axes
(`OIHW2i4o`: `(1, C/2, 1, 1, 2, 1)`; `OIHW4i2o` under NCHW2c data:
`(1, C/4, 1, 1, 4, 1)`, the channels in the same order), and an add on the way
divides its other operand by the scale reshaped likewise, as TVM's
`ReshapeToMatchAxis`.
"""

from __future__ import annotations

from xrelay.dialects.relay.base import get_int, get_str
from xrelay.dialects.relay.layout_blocked import to_canonical
from xrelay.dialects.relay.nn import Conv2DOp
from xrelay.dialects.relay.tensor import parse_layout
from xrelay.dialects.relay.types import Shape, shape_of


def _positions(layout: str, primal: str) -> tuple[int, int | None]:
    """(axis of `primal`, axis of its sub-axis or None) in `layout`."""
    names = [name for name, _ in parse_layout(layout)]
    small = primal.lower()
    return names.index(primal), names.index(small) if small in names else None


def canonical_depthwise(conv: Conv2DOp) -> bool:
    """TVM's `IsDepthwiseConv` in OIHW terms: O equals `groups` and I is 1."""
    props = conv.properties
    weight = to_canonical(
        shape_of(conv.weight.type), get_str(props, "kernel_layout"), "OIHW", "weight"
    )
    return weight[0] == get_int(props, "groups") and weight[1] == 1


def blocked_axes(conv: Conv2DOp) -> tuple[int, int | None, int, int | None] | None:
    """(data C, data c, kernel axis, kernel sub-axis) of a conv2d that can absorb a scale on
    its data's channels, None when it cannot (groups other than 1 or depthwise, or a kernel
    whose absorbing axis is not split as the data's C is)."""
    props = conv.properties
    depthwise = canonical_depthwise(conv)
    if get_int(props, "groups") != 1 and not depthwise:
        return None
    big, small = _positions(get_str(props, "data_layout"), "C")
    kbig, ksmall = _positions(get_str(props, "kernel_layout"), "O" if depthwise else "I")
    if (small is None) != (ksmall is None):
        return None
    if small is not None and ksmall is not None and (small < big or ksmall < kbig):
        return None  # the scale's (C/k, k) must list the channels in order
    return big, small, kbig, ksmall


def reshape_shape(shape: Shape, axis: int, small: int) -> tuple[int, ...]:
    """TVM's `ReshapeToMatchAxis`: `shape`'s extents at the two axes, 1 elsewhere."""
    return tuple(d if k in (axis, small) else 1 for k, d in enumerate(shape))
