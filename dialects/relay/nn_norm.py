"""Normalization relay ops: `relay.nn.lrn`.

Names, attributes and defaults are TVM's (`tvm.relay.nn`); where TVM leaves a
case out (an even LRN window, a rank other than 4) the rule is ONNX's, so an
importer maps the ONNX op onto the relay op one to one. Every op here works
on floats and keeps its data's type and shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, f64, i64
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_float,
    expect_tensor,
    get_int,
    normalize_axis,
)
from xrelay.dialects.relay.nn import expect_data_rank


def lrn_window(size: int) -> tuple[int, int]:
    """How many channels before and after channel `c` an LRN window of `size` spans:
    `(size - 1) // 2` before and `size // 2` after (ONNX's floor and ceiling of
    `(size - 1) / 2`; TVM's `size // 2` on both sides for the odd sizes it takes)."""
    return (size - 1) // 2, size // 2


@irdl_op_definition
class LRNOp(RelayOp):
    """`relay.nn.lrn`: local response normalization across `axis`.

    `out[c] = data[c] / (bias + alpha / size * sum(data[k] ** 2)) ** beta`, the
    sum over the channels `k` on `axis` from `c - (size - 1) // 2` to
    `c + size // 2` that exist (channels outside add nothing). `size` is a
    positive window length (TVM's kernels take odd ones; an even one follows
    ONNX's `LRN`); the data is a float tensor of any rank, `axis` one of its
    dims. The sum and the power are computed in float64.
    """

    name = "relay.nn.lrn"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    size = prop_def(IntegerAttr, IntegerAttr(5, i64))
    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))
    bias = prop_def(FloatAttr, FloatAttr(2.0, f64))
    alpha = prop_def(FloatAttr, FloatAttr(1e-5, f64))
    beta = prop_def(FloatAttr, FloatAttr(0.75, f64))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        expect_float(operand_types, 0)
        expect_data_rank(data)
        normalize_axis(get_int(props, "axis"), len(data))
        size = get_int(props, "size")
        if size < 1:
            raise RelayTypeError(f"size must be positive, got {size}")
        return [operand_types[0]]


OPS = (LRNOp,)
