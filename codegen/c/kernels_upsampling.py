"""Loop nest of `relay.nn.upsampling`: image.resize2d's, with the properties TVM computes
the upsampling as (`upsampling.resize_props`)."""

from __future__ import annotations

from typing import cast

from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.kernels_image import resize_with
from xrelay.dialects.relay import upsampling as ops
from xrelay.dialects.relay.base import get_str, properties_with_defaults


def upsampling(k: Kernel) -> None:
    """Resize H and W to the scaled extents."""
    props = properties_with_defaults(cast(IRDLOperation, k.op))
    layout = get_str(props, "layout")
    shape = k.in_shape(0)
    hw = (shape[layout.index("H")], shape[layout.index("W")])
    resize_with(k, ops.resize_props(props, hw), "HW")
