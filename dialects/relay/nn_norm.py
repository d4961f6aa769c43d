"""Normalization relay ops: `relay.nn.lrn`, `layer_norm`, `instance_norm`, `group_norm`,
`l2_normalize`.

Names, attributes and defaults are TVM's (`tvm.relay.nn`); where TVM leaves a
case out (an even LRN window, a rank other than 4) the rule is ONNX's, so an
importer maps the ONNX op onto the relay op one to one. Every op here works
on floats and keeps its data's type and shape.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    TensorType,
    f64,
    i1,
    i64,
)
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition, operand_def, prop_def, result_def, traits_def
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_float,
    expect_rank,
    expect_tensor,
    get_float,
    get_int,
    get_ints,
    int_list_attr,
    normalize_axis,
)
from xrelay.dialects.relay.nn import expect_data_rank, expect_same_element_type, known


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


class NormOp(RelayOp):
    """Base of `layer_norm`, `instance_norm` and `group_norm`: data, gamma, beta.

    Each subclass names the elements that share a mean and a variance (its
    `reduced_axes`); every element becomes `(x - mean) / sqrt(var + epsilon) *
    gamma[c] + beta[c]` (no `gamma` without `scale`, no `beta` without
    `center`), `c` its index on `axis` and `var` the mean squared deviation
    (TVM's SimplifyInference and ONNX's references). gamma and beta are
    `[C]`, C the data's dim on `axis`; the data is a float tensor. Means and
    variances are computed in float64 (two passes), the result rounded once.
    """

    data = operand_def(TensorType)
    gamma = operand_def(TensorType)
    beta = operand_def(TensorType)
    result = result_def(TensorType)
    epsilon = prop_def(FloatAttr, FloatAttr(1e-5, f64))
    center = prop_def(IntegerAttr, IntegerAttr(1, i1))
    scale = prop_def(IntegerAttr, IntegerAttr(1, i1))
    traits = traits_def(Pure())

    @classmethod
    def check_norm(cls, operand_types: Sequence[Attribute], props: Props) -> tuple[int, int]:
        """The checks every norm shares; returns the normalized axis and the channels C."""
        data = expect_tensor(operand_types, 0, "data")
        expect_float(operand_types, 0)
        expect_data_rank(data)
        axis = normalize_axis(get_int(props, "axis"), len(data))
        epsilon = get_float(props, "epsilon")
        if not epsilon >= 0:
            raise RelayTypeError(f"epsilon must be non-negative, got {epsilon}")
        channels, reference = data[axis], f"data dim {data[axis]} on axis {axis}"
        for index, what in ((1, "gamma"), (2, "beta")):
            shape = expect_tensor(operand_types, index, what)
            expect_rank(shape, 1, what)
            expect_same_element_type(operand_types, index, what)
            if not known(channels):
                channels, reference = shape[0], f"{what} size {shape[0]}"
            elif known(shape[0]) and shape[0] != channels:
                raise RelayTypeError(f"{what} of size {shape[0]} does not match {reference}")
        return axis, channels

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        cls.check_norm(operand_types, props)
        return [operand_types[0]]


@irdl_op_definition
class LayerNormOp(NormOp):
    """`relay.nn.layer_norm`: statistics along `axis` alone (default the last).

    ONNX's `LayerNormalization` normalizes over every axis from its `axis` on;
    an importer reshapes those axes into one, normalizes it without center and
    scale, reshapes back and multiplies and adds its `[...]`-shaped scale and bias.
    """

    name = "relay.nn.layer_norm"

    axis = prop_def(IntegerAttr, IntegerAttr(-1, i64))


@irdl_op_definition
class InstanceNormOp(NormOp):
    """`relay.nn.instance_norm`: statistics over every axis but the batch (0) and `axis`
    (default 1): per sample and channel, ONNX's `InstanceNormalization`."""

    name = "relay.nn.instance_norm"

    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))


@irdl_op_definition
class GroupNormOp(NormOp):
    """`relay.nn.group_norm`: the C channels on `axis` (default 1) split into `num_groups`
    groups of consecutive channels; statistics over a group's channels and every
    axis after `axis`, per index of the axes before it (TVM's SimplifyInference:
    `[N, C, ...]` is viewed as `[N, G, C / G, ...]`). ONNX's `GroupNormalization`
    (opset 21: scale and bias `[C]`). C must be divisible by `num_groups`.
    """

    name = "relay.nn.group_norm"

    num_groups = prop_def(IntegerAttr)
    axis = prop_def(IntegerAttr, IntegerAttr(1, i64))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        _, channels = cls.check_norm(operand_types, props)
        groups = get_int(props, "num_groups")
        if groups < 1:
            raise RelayTypeError(f"num_groups must be positive, got {groups}")
        if known(channels) and channels % groups != 0:
            raise RelayTypeError(f"channels {channels} are not divisible by num_groups {groups}")
        return [operand_types[0]]


def norm_reduced_axes(op_name: str, rank: int, axis: int) -> tuple[int, ...]:
    """The axes a norm reduces over, in the data's own shape for layer and instance norm and
    in the grouped shape (`[..., G, C / G, ...]`, one more dim) for group norm."""
    if op_name == LayerNormOp.name:
        return (axis,)
    if op_name == InstanceNormOp.name:
        return tuple(a for a in range(1, rank) if a != axis)
    return tuple(range(axis + 1, rank + 1))


def l2_axes(axis: Sequence[int], rank: int) -> tuple[int, ...]:
    """The sorted axes of an l2_normalize; none given means every axis."""
    if not axis:
        return tuple(range(rank))
    return tuple(sorted({normalize_axis(a, rank) for a in axis}))


@irdl_op_definition
class L2NormalizeOp(RelayOp):
    """`relay.nn.l2_normalize`: `x / sqrt(max(sum(x ** 2), eps))`, the sum over `axis`.

    `axis` is a list of axes (TVM's `Array<Integer>`); an empty list (the
    builder's `axis=None`) sums over every axis. The sum is computed in
    float64, and a NaN sum stays NaN (the maximum propagates it). With a tiny
    positive `eps` (below 1e-90) an all-zero slice gives 0, ONNX's
    `LpNormalization` rule for p = 2. Floats of any rank.
    """

    name = "relay.nn.l2_normalize"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    eps = prop_def(FloatAttr)
    axis = prop_def(DenseArrayBase, int_list_attr([]))
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        expect_float(operand_types, 0)
        l2_axes(get_ints(props, "axis"), len(data))
        eps = get_float(props, "eps")
        if not eps >= 0:
            raise RelayTypeError(f"eps must be non-negative, got {eps}")
        return [operand_types[0]]


OPS = (LRNOp, LayerNormOp, InstanceNormOp, GroupNormOp, L2NormalizeOp)
