"""Reference semantics of `relay.nn.upsampling`: image.resize2d's, with the properties TVM
computes the upsampling as (`upsampling.resize_props`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import upsampling
from xrelay.dialects.relay.base import properties_with_defaults
from xrelay.dialects.relay.reference_image import convert, resize_axis
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.resize_taps import axis_resizes
from xrelay.dialects.relay.types import numpy_dtype


@reference(upsampling.UpSamplingOp)
def _upsampling(ev: Evaluator, op: upsampling.UpSamplingOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    layout = op.layout.data
    x = to_layout(np.asarray(args[0]), layout, "NCHW").astype(np.float64)
    out_dtype: np.dtype[Any] = numpy_dtype(op.result.type.get_element_type())
    h, w = x.shape[2], x.shape[3]
    resize = upsampling.resize_props(props, (h, w))
    oh = upsampling.scaled_size(h, op.scale_h.value.data)
    ow = upsampling.scaled_size(w, op.scale_w.value.data)
    h_axis, w_axis = axis_resizes(resize, (h, w), (oh, ow))
    y = resize_axis(resize_axis(x, 2, h_axis, 0.0), 3, w_axis, 0.0)
    return to_layout(convert(y, out_dtype), "NCHW", layout)
