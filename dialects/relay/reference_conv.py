"""Reference semantics of the convolutions of other ranks and the transposed convolutions
(`nn_conv`), on the rank-generic numerics of `reference_window`."""

from __future__ import annotations

from typing import Any

import numpy as np
from xrelay.dialects.interpreter import Evaluator, Value, reference
from xrelay.dialects.relay import nn_conv
from xrelay.dialects.relay.base import get_int, get_ints, get_str, properties_with_defaults
from xrelay.dialects.relay.reference_nn import to_layout
from xrelay.dialects.relay.reference_window import conv_nd, conv_transpose_nd
from xrelay.dialects.relay.types import numpy_dtype


@reference(*nn_conv.OPS)
def _conv(ev: Evaluator, op: nn_conv.ConvNdOp, args: list[Value]) -> Value:
    props = properties_with_defaults(op)
    rank = op.RANK
    spatial = nn_conv.SPATIAL[rank]
    data_layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    before, after = nn_conv.pad_nd(get_ints(props, "padding"), rank)
    strides, dilation = get_ints(props, "strides"), get_ints(props, "dilation")
    groups = get_int(props, "groups")
    out_dtype: np.dtype[Any] = numpy_dtype(op.result.type.get_element_type())
    data = to_layout(np.asarray(args[0]), data_layout, "NC" + spatial)
    if op.TRANSPOSE:
        weight = to_layout(np.asarray(args[1]), kernel_layout, "IO" + spatial)
        extra = get_ints(props, "output_padding")
        out = conv_transpose_nd(
            data, weight, strides, before, after, extra, dilation, groups, out_dtype
        )
    else:
        weight = to_layout(np.asarray(args[1]), kernel_layout, "OI" + spatial)
        out = conv_nd(data, weight, strides, before, after, dilation, groups, out_dtype)
    return to_layout(out, "NC" + spatial, data_layout)
