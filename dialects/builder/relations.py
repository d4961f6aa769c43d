"""What InferType learns about an op's unknown operand types from what it knows (TVM's type
relations, run backwards).

Forward inference is the op's own `infer_result_types` (all operands known). A
relation here fills in operands the forward rule cannot start without, from
the operands and properties that are known, as TVM's relations do:

| ops | solved |
|---|---|
| convolutions (1-3 D, transposed) | weight: data, `channels`, `kernel_size`, `groups`, layouts |
| `nn.deformable_conv2d` | weight as conv2d's; offset: data and the weight's kernel size |
| `nn.dense` | weight `[units, K]`, from the data and `units` |
| `nn.bias_add`, `nn.prelu` | the bias / alpha `[C]`, C the data's dim on `axis` |
| `nn.batch_norm`, `nn.layer_norm`, `nn.instance_norm`, `nn.group_norm` | the parameters `[C]` |
| elementwise binary ops | the unknown operand: its partner's type (a guess, made last) |
| same-type unary ops (`nn.relu`, `exp`, ...) | the operand from the result (forward: the result) |
| `relay.tuple` | the fields from the tuple's type |

A relation returns `{operand index: type}` (index -1: the result) for what it
solved, and nothing when what it needs is still unknown. It never checks: the
forward rule checks everything once all operands are known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import cast

from xdsl.dialects.builtin import TensorType, TupleType
from xdsl.ir import Attribute
from xrelay.dialects.relay import elementwise, elementwise_math
from xrelay.dialects.relay.base import (
    RelayOp,
    RelayTypeError,
    get_int,
    get_opt_int,
    get_opt_ints,
    get_str,
)
from xrelay.dialects.relay.deformable_conv import deformable_params
from xrelay.dialects.relay.layout_blocked import from_canonical, is_plain, to_canonical
from xrelay.dialects.relay.nn import window_out
from xrelay.dialects.relay.nn_conv import ConvNdOp
from xrelay.dialects.relay.types import ANY, tensor_type

Known = Sequence[Attribute | None]
"""Operand types, None where unknown."""
Relation = Callable[
    [type[RelayOp], Known, Attribute | None, Mapping[str, Attribute]], dict[int, Attribute]
]
"""(op, operand types, result type, properties with defaults) -> the types solved."""

RESULT = -1
"""The key of the result in a relation's answer."""


def _tensor(ty: Attribute | None) -> TensorType[Attribute] | None:
    if isinstance(ty, TensorType):
        return cast(TensorType[Attribute], ty)
    return None


def _channels_param(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    """Every operand after the data: `[C]`, C the data's dim on `axis`, the data's dtype."""
    data = _tensor(known[0])
    if data is None:
        return {}
    shape = data.get_shape()
    axis = get_int(props, "axis")
    if not -len(shape) <= axis < len(shape):
        return {}  # the forward rule reports the bad axis
    param = tensor_type((shape[axis],), data.get_element_type())
    return {i: param for i in range(1, len(known)) if known[i] is None}


def _dense(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    data, units = _tensor(known[0]), get_opt_int(props, "units")
    if data is None or units is None or known[1] is not None or data.get_num_dims() < 1:
        return {}
    return {1: tensor_type((units, data.get_shape()[-1]), data.get_element_type())}


def _conv_layouts(op: type[RelayOp], props: Mapping[str, Attribute]) -> tuple[str, str] | None:
    if "data_layout" not in props or "kernel_layout" not in props:
        return None
    return get_str(props, "data_layout"), get_str(props, "kernel_layout")


def _conv(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    """The weight of a convolution from the data's channels, `channels` and `kernel_size`
    (TVM's Conv2DRel when the weight is unknown); transposed: `[C, O / G, K...]`."""
    data = _tensor(known[0])
    layouts = _conv_layouts(op, props)
    channels, kernel = get_opt_int(props, "channels"), get_opt_ints(props, "kernel_size")
    if data is None or layouts is None or channels is None or kernel is None or known[1]:
        return {}
    data_layout, kernel_layout = layouts
    if not is_plain(data_layout) or not is_plain(kernel_layout):
        return _blocked_conv2d_weight(op, data, layouts, channels, kernel, props)
    if len(data_layout) != data.get_num_dims() or "C" not in data_layout:
        return {}
    groups = get_int(props, "groups")
    spatial = [d for d in kernel_layout if d not in "OI"]
    if len(spatial) != len(kernel) or groups < 1:
        return {}
    c = data.get_shape()[data_layout.index("C")]
    transposed = issubclass(op, ConvNdOp) and op.TRANSPOSE
    dims = {"O": channels // groups, "I": c} if transposed else {"O": channels, "I": c // groups}
    dims.update(zip(spatial, kernel, strict=True))
    return {1: tensor_type([dims[d] for d in kernel_layout], data.get_element_type())}


def _blocked_conv2d_weight(
    op: type[RelayOp],
    data: TensorType[Attribute],
    layouts: tuple[str, str],
    channels: int,
    kernel: Sequence[int],
    props: Mapping[str, Attribute],
) -> dict[int, Attribute]:
    """A conv2d's weight in a blocked kernel layout (`OIHW4i4o`): the OIHW weight relaid."""
    if op.name != "relay.nn.conv2d" or len(kernel) != 2:
        return {}
    groups = get_int(props, "groups")
    try:
        c = to_canonical(tuple(data.get_shape()), layouts[0], "NCHW", "data")[1]
        oihw = (channels, c // max(groups, 1), *kernel)
        shape = from_canonical(oihw, "OIHW", layouts[1], "weight")
    except RelayTypeError:
        return {}
    return {1: tensor_type(shape, data.get_element_type())}


def _partner(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    """A binary elementwise op: an unknown operand takes its partner's type."""
    lhs, rhs = known
    if lhs is None and rhs is not None:
        return {0: rhs}
    if rhs is None and lhs is not None:
        return {1: lhs}
    return {}


def _same_type(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    """A unary op whose result has its operand's type."""
    if known[0] is None and result is not None:
        return {0: result}
    return {}


def _tuple(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    if not isinstance(result, TupleType) or len(result.types.data) != len(known):
        return {}
    return {i: t for i, t in enumerate(result.types.data) if known[i] is None}


_SAME_TYPE_OPS = (
    "relay.negative", "relay.abs", "relay.exp", "relay.log", "relay.sqrt", "relay.rsqrt",
    "relay.tanh", "relay.sigmoid", "relay.erf", "relay.floor", "relay.ceil", "relay.clip",
    "relay.sin", "relay.cos", "relay.tan", "relay.asin", "relay.acos", "relay.atan",
    "relay.sinh", "relay.cosh", "relay.asinh", "relay.acosh", "relay.atanh", "relay.trunc",
    "relay.round", "relay.sign", "relay.logical_not", "relay.bitwise_not",
    "relay.nn.relu", "relay.nn.leaky_relu", "relay.nn.softmax", "relay.nn.log_softmax",
    "relay.nn.l2_normalize", "relay.nn.lrn",
    "relay.fast_exp", "relay.fast_tanh", "relay.fast_erf", "relay.nn.fast_softmax",
)  # fmt: skip
"""Unary ops whose result type is their operand's."""

_CHANNEL_PARAM_OPS = (
    "relay.nn.bias_add", "relay.nn.prelu", "relay.nn.batch_norm", "relay.nn.layer_norm",
    "relay.nn.instance_norm", "relay.nn.group_norm",
)  # fmt: skip


def _deformable(
    op: type[RelayOp], known: Known, result: Attribute | None, props: Mapping[str, Attribute]
) -> dict[int, Attribute]:
    """TVM's DeformableConv2DRel: the weight from `channels` and `kernel_size` (as conv2d's),
    the offset `[N, 2 * KH * KW * deformable_groups, OH, OW]` (data layout) from the data and
    the weight."""
    data = _tensor(known[0])
    layouts = _conv_layouts(op, props)
    if data is None or layouts is None or data.get_num_dims() != 4:
        return {}
    layout, kernel_layout = layouts
    if sorted(layout) != sorted("NCHW") or sorted(kernel_layout) != sorted("HIOW"):
        return {}
    solved: dict[int, Attribute] = {}
    weight = _tensor(known[2])
    if weight is None:
        solved = _conv(op, [data, None], result, props)
        if not solved:
            return {}
        weight = cast(TensorType[Attribute], solved.pop(1))
        solved[2] = weight
    if known[1] is None:
        shape, wshape = data.get_shape(), weight.get_shape()
        n, h, w = (shape[layout.index(d)] for d in "NHW")
        kh, kw = (wshape[kernel_layout.index(d)] for d in "HW")
        try:
            p = deformable_params(props)
            top, left, bottom, right = p.padding
            oh = window_out(h, top + bottom, kh, p.strides[0], p.dilation[0])
            ow = window_out(w, left + right, kw, p.strides[1], p.dilation[1])
        except RelayTypeError:
            return solved  # the forward rule reports it
        taps = ANY if ANY in (kh, kw) else 2 * kh * kw * p.deformable_groups
        dims = {"N": n, "C": taps, "H": oh, "W": ow}
        solved[1] = tensor_type([dims[d] for d in layout], data.get_element_type())
    return solved


def _table() -> dict[str, Relation]:
    table: dict[str, Relation] = {}
    for op in (*elementwise.BINARY_OPS, *elementwise_math.BINARY_OPS):
        table[op.name] = _partner
    for name in _SAME_TYPE_OPS:
        table[name] = _same_type
    for name in _CHANNEL_PARAM_OPS:
        table[name] = _channels_param
    table["relay.nn.dense"] = _dense
    table["relay.tuple"] = _tuple
    table["relay.nn.deformable_conv2d"] = _deformable
    return table


WEAK_RELATIONS: frozenset[Relation] = frozenset({_partner})
"""Guesses rather than deductions: the solver runs them only when nothing else makes
progress, so an operand some op infers forward (a conv2d's result) is never guessed."""

RELATIONS: dict[str, Relation] = _table()
"""Relations by op name; convolutions are found by class (`relation_of`)."""


def relation_of(op: type[RelayOp]) -> Relation | None:
    """The relation that solves `op`'s unknown operands, if it has one."""
    if op.name == "relay.nn.conv2d" or issubclass(op, ConvNdOp):
        return _conv
    return RELATIONS.get(op.name)
