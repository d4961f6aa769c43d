"""ConvertLayout into blocked layouts (`nn.conv2d:NCHW4c:OIHW4i4o`), as TVM's `convert_conv2d`.

- A conv2d asked for `NCHW{k}c` data becomes `nn.contrib_conv2d_NCHWc` with the
  given kernel layout (`OIHW{k}i{k}o`, `OIHW{k}o`, ...; `default` is refused, as
  TVM). As TVM, a conv2d reading a function parameter whose channels `k` does not
  divide stays as it is. Other data layouts of N, C, H, W (`HWNC`) keep conv2d;
  `default` for HWNC is HWOI.
- The pools may be asked for `NCHW{k}c` too.
- Ops that follow a blocked layout: elementwise ops, the pools, `tuple` /
  `tuple_get_item`, `layout_transform`, and broadcasting binary ops whose other
  operand can be relaid (its C divides by `k`, or it broadcasts along C), and
  `split` along an axis with a sub-axis when its sections or indices divide by the
  factor (indices divided by it, as TVM's SplitInferCorrectLayout). Every
  other op is a boundary.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from xdsl.ir import Attribute
from xrelay.dialects.builder.attrs import int_, ints
from xrelay.dialects.relay.base import RelayTypeError, get_int
from xrelay.dialects.relay.layout_blocked import check_primal
from xrelay.dialects.relay.tensor import (
    get_indices_or_sections,
    layout_factor,
    layout_transform_shape,
    parse_layout,
)
from xrelay.dialects.relay.types import Shape

TILED = re.compile(r"NCHW(\d+)c")
"""The blocked data layouts a conv2d or pool may be converted to (TVM's `need_tile`)."""


def tile_of(layout: str) -> int | None:
    """`k` of an `NCHW{k}c` layout, None for any other."""
    found = TILED.fullmatch(layout)
    return int(found.group(1)) if found else None


def check_conv_layouts(data: str, kernel: str) -> str | None:
    """What is wrong with desired conv2d layouts, None when they are fine: data NCHW,
    NHWC, HWNC or NCHW{k}c, the kernel any layout of O, I, H, W (not `default` with
    blocked data)."""
    try:
        check_primal(data, "NCHW", "data layout")
        if kernel != "default":
            check_primal(kernel, "OIHW", "kernel layout")
    except RelayTypeError as err:
        return str(err)
    if tile_of(data) is not None:
        if kernel == "default":
            return "a blocked data layout needs a kernel layout, not 'default'"
        return None
    if data not in ("NCHW", "NHWC", "HWNC"):
        return f"unsupported data layout '{data}'; expected NCHW, NHWC, HWNC or NCHW{{k}}c"
    return None


def relayable(shape: Shape, src: str, dst: str) -> bool:
    """Whether a value of `shape` in `src` can be relaid to `dst` (C divides the factor)."""
    try:
        layout_transform_shape(shape, src, dst)
    except RelayTypeError:
        return False
    return True


def blocked_split(
    props: Mapping[str, Attribute], shape: Shape, src: str, dst: str
) -> dict[str, Attribute] | None:
    """A split's properties on its data relaid from plain `src` to blocked `dst`; None when
    the pieces would not be whole blocks."""
    letter = src[get_int(props, "axis") % len(src)]
    axes = parse_layout(dst)
    factor = layout_factor(axes, letter)
    new = dict(props)
    new["axis"] = int_([name for name, _ in axes].index(letter))
    split = get_indices_or_sections(props)
    extent = shape[src.index(letter)]
    if isinstance(split, int):
        if extent % split or (extent // split) % factor:
            return None
        return new
    if any(index % factor for index in split):
        return None
    new["indices_or_sections"] = ints([index // factor for index in split])
    return new
