"""How `convert-relay-to-accel` reads the composites of accel's pattern table.

A `relay.composite` named in `COMPOSITES` (as `codegen/accel/patterns.py` makes
them) lowers to one accel kernel with `has_bias` / `has_relu`, on the
composite's inputs. Its body must be the chain its name says, each op read once
by the next, nothing else but constants:

- relu: `nn.relu(...)` outermost; or clip: `clip(...)` outermost (finite bounds on
  float32, its `target.accel` predicate), which becomes the kernel's `clip_min` /
  `clip_max`;
- bias: `nn.bias_add(k, b)` along the output channels, or `add(k, c)` / `add(c, k)`
  with `c` a `relay.constant` of the body holding one value per output channel,
  broadcast along the others (`(C, 1, 1)` or `(1, C, 1, 1)` on an NCHW conv2d,
  `(C,)` or `(1, C)` on a dense: what CanonicalizeOps and FoldConstant make of a
  `bias_add`). The kernel's bias operand is then a new `relay.constant` of shape
  `(C,)` with the same values, reshaped at compile time;
- the kernel: `nn.conv2d`, `nn.dense` (or `add` for `accel.add_relu`), which its
  `target.accel` predicate must accept.

The kernel's other operands are the composite's inputs, or body constants copied
out. Anything else is `Rejected` with the reason; nothing is changed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, i1
from xdsl.ir import Attribute, Operation, SSAValue
from xrelay.dialects import accel
from xrelay.dialects.relay import elementwise, nn
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, YieldOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    format_shape,
    rank_of,
    shape_of,
    tensor_element_type,
)
from xrelay.passes.target_lowering import Rejected, check_predicate, outer, output_channels

TARGET = "accel"

KERNELS: dict[type[RelayOp], type[accel.AccelOp]] = {op.RELAY: op for op in accel.OPS}
"""The accel kernel of each relay op (alone, or the kernel of a composite)."""

TRUE = IntegerAttr(1, i1)


Operand = int | ConstantOp
"""An operand of a planned kernel: the index of an operand of the op it replaces (read when
rewriting, after the ops before it were), or a constant to copy out (a composite body's, or
a new one) before the kernel."""


@dataclass(frozen=True)
class CompositeKernel:
    """What a composite of accel's pattern table lowers to: a kernel, with bias and relu."""

    kernel: type[RelayOp]
    has_bias: bool
    has_relu: bool
    has_clip: bool = False
    """A `clip` outermost (in place of the relu): the kernel's `clip_min` / `clip_max`."""

    def describe(self) -> str:
        """The chain the body must be, e.g. `nn.relu(nn.bias_add(nn.conv2d(...), ...))`."""
        text = f"{self.kernel.name.removeprefix('relay.')}(...)"
        if self.has_bias:
            text = f"nn.bias_add({text}, ...) or add({text}, constant)"
        if self.has_clip:
            return f"clip({text})"
        return f"nn.relu({text})" if self.has_relu else text


COMPOSITES: dict[str, CompositeKernel] = {
    "accel.conv2d_bias_relu": CompositeKernel(nn.Conv2DOp, True, True),
    "accel.conv2d_bias": CompositeKernel(nn.Conv2DOp, True, False),
    "accel.conv2d_relu": CompositeKernel(nn.Conv2DOp, False, True),
    "accel.conv2d_bias_clip": CompositeKernel(nn.Conv2DOp, True, False, True),
    "accel.conv2d_clip": CompositeKernel(nn.Conv2DOp, False, False, True),
    "accel.dense_bias_relu": CompositeKernel(nn.DenseOp, True, True),
    "accel.dense_bias": CompositeKernel(nn.DenseOp, True, False),
    "accel.dense_bias_clip": CompositeKernel(nn.DenseOp, True, False, True),
    "accel.dense_clip": CompositeKernel(nn.DenseOp, False, False, True),
    "accel.add_relu": CompositeKernel(elementwise.AddOp, False, True),
}
"""The composites of accel's pattern table, by name."""


@dataclass(frozen=True)
class CompositeLowering:
    """The kernel a composite becomes, on `operands`, with `properties`."""

    kernel: type[accel.AccelOp]
    operands: Sequence[Operand]
    properties: dict[str, Attribute]


def peel_bias(
    op: nn.BiasAddOp | elementwise.AddOp, kernel: type[RelayOp]
) -> tuple[SSAValue, SSAValue]:
    """(kernel side, bias) of a `bias_add`, or of an `add` (either order: the kernel side is
    its left operand if that is a `kernel`'s result, else its right one)."""
    if isinstance(op, nn.BiasAddOp):
        return op.data, op.bias
    if isinstance(op.lhs.owner, kernel):
        return op.lhs, op.rhs
    return op.rhs, op.lhs


def peel_activation(
    spec: CompositeKernel, value: SSAValue, chain: list[Operation], mismatch: Rejected
) -> tuple[SSAValue, elementwise.ClipOp | None]:
    """Peel the composite's clip or relu (as `spec` says) off the yielded `value`, appending
    it to `chain`: (the value under it, the clip if there is one)."""
    if spec.has_clip:
        if not isinstance(clip := value.owner, elementwise.ClipOp):
            raise mismatch
        chain.append(clip)
        return clip.data, clip
    if spec.has_relu:
        if not isinstance(relu := value.owner, nn.ReluOp):
            raise mismatch
        chain.append(relu)
        return relu.data, None
    return value, None


def plan_composite(op: CompositeOp) -> CompositeLowering:
    """A composite of accel's table: one kernel with bias and relu or clip, on the composite's
    inputs."""
    name = op.composite.data
    spec = COMPOSITES.get(name)
    if spec is None:
        raise Rejected(f"accel has no kernel for composite '{name}'")
    mismatch = Rejected(f"the body of composite '{name}' is not {spec.describe()}")
    body = op.body.block
    terminator = body.last_op
    if not isinstance(terminator, YieldOp) or len(terminator.values) != 1:
        raise mismatch
    chain = list[Operation]()
    value, clip = peel_activation(spec, terminator.values[0], chain, mismatch)
    bias_op: nn.BiasAddOp | elementwise.AddOp | None = None
    if spec.has_bias:
        if not isinstance(owner := value.owner, nn.BiasAddOp | elementwise.AddOp):
            raise mismatch
        bias_op, value = owner, peel_bias(owner, spec.kernel)[0]
        chain.append(owner)
    kernel_op = value.owner
    if not isinstance(kernel_op, spec.kernel):
        raise mismatch
    chain.append(kernel_op)
    if any(o.parent is not body or not o.results[0].has_one_use() for o in chain):
        raise mismatch  # every op of the chain in the body, each read once, by the next
    if len(body.ops) != len(chain) + 1 + sum(isinstance(o, ConstantOp) for o in body.ops):
        raise mismatch  # nothing else but constants
    check_predicate(kernel_op, TARGET)
    if clip is not None:
        check_predicate(clip, TARGET)
    operands = [outer(v, op, mismatch) for v in kernel_op.operands]
    properties = dict(kernel_op.properties)
    if bias_op is not None:
        operands.append(bias_operand(bias_op, kernel_op, op, mismatch))
        properties["has_bias"] = TRUE
    if spec.has_relu:
        properties["has_relu"] = TRUE
    if clip is not None:
        properties["clip_min"], properties["clip_max"] = clip.a_min, clip.a_max
    return CompositeLowering(KERNELS[spec.kernel], operands, properties)


def bias_operand(
    bias_op: nn.BiasAddOp | elementwise.AddOp,
    kernel: RelayOp,
    composite: CompositeOp,
    mismatch: Rejected,
) -> Operand:
    """The kernel's bias operand: a bias_add's bias as it is, an add's constant as `(C,)`."""
    bias = peel_bias(bias_op, type(kernel))[1]
    if isinstance(bias_op, nn.BiasAddOp):
        check_bias_axis(bias_op, kernel)
        return outer(bias, composite, mismatch)
    constant = bias.owner
    if not (isinstance(constant, ConstantOp) and constant.parent is composite.body.block):
        raise Rejected("its bias is added by 'add' but is not a relay.constant of its body")
    return channel_vector(constant, kernel)


def channel_vector(constant: ConstantOp, kernel: Operation) -> ConstantOp:
    """A new `(C,)` constant of the values of `constant`, which must broadcast one value per
    output channel along the kernel's other axes; Rejected otherwise."""
    out, channel = shape_of(kernel.results[0].type), output_channels(kernel)
    shape = shape_of(constant.result.type)
    offset = len(out) - len(shape)  # the constant's dims line up with the output's last ones
    wanted = [out[channel] if offset + i == channel else 1 for i in range(len(shape))]
    if not (0 <= offset <= channel and list(shape) == wanted):
        raise Rejected(
            f"its bias constant of shape {format_shape(shape)} is not one value per output "
            f"channel (axis {channel}) of the {format_shape(out)} result"
        )
    value = constant.value
    assert isinstance(value, DenseIntOrFPElementsAttr)
    vector = dense_to_numpy(value).reshape(out[channel])
    return ConstantOp(dense_from_numpy(vector, tensor_element_type(constant.result.type)))


def check_bias_axis(bias_add: nn.BiasAddOp, kernel: Operation) -> None:
    """The bias runs along the kernel's output channels (C of the conv layout, last of dense)."""
    rank, channel = rank_of(kernel.results[0].type), output_channels(kernel)
    axis = bias_add.axis.value.data
    if axis % rank != channel:
        raise Rejected(
            f"its bias is added along axis {axis}, not the output channels (axis {channel})"
        )
