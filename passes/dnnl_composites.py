"""How `convert-relay-to-dnnl` reads the single ops and composites of dnnl's pattern table.

A `relay.composite` named `dnnl.<kernel>[_bias][_sum][_<eltwise>]` (as
`codegen/dnnl/patterns.py` makes them: kernel `conv2d` or `dense`, eltwise
`relu`, `tanh`, `sigmoid` or `clip`) lowers to one `dnnl.conv2d` / `dnnl.dense` with
those post-ops, on the composite's inputs. Its body must be the chain its name
says, each op read once by the next, nothing else but constants:

- eltwise: `nn.relu(...)`, `tanh(...)`, `sigmoid(...)` or `clip(...)` outermost (clip's
  `a_min` and `a_max` become the dnnl op's), or `gelu_erf`: GELU in erf form, five ops
  (`multiply`, `add`, `erf`, `multiply` or `divide`, `multiply`) reading the inner value
  twice, or `gelu_erf_x2`: the same without the 0.5, four ops (`peel_gelu`; the pattern
  table checked the order and the constants);
- sum: `add(inner, s)` or `add(s, inner)`, `s` of the kernel's output type;
- bias: `nn.bias_add(k, b)` along the output channels, or `add(k, c)` / `add(c, k)`
  with `c` holding one value per output channel (broadcast along the other
  axes). The kernel's bias operand is `(C,)`: a body constant becomes a new
  `(C,)` constant, any other value a `relay.reshape` of it (an alias: the
  same bytes);
- the kernel: `nn.conv2d` or `nn.dense`, which its `target.dnnl` predicate
  must accept.

Anything else is `Rejected` with the reason; nothing is changed here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerAttr, StringAttr, i1
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xrelay.dialects import dnnl
from xrelay.dialects.relay import elementwise, nn
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, YieldOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    format_shape,
    shape_of,
    tensor_element_type,
)
from xrelay.passes.target_lowering import Rejected, check_predicate, outer, output_channels

TARGET = "dnnl"

TRUE = IntegerAttr(1, i1)

KERNELS: dict[str, tuple[type[nn.Conv2DOp | nn.DenseOp], type[dnnl.PostOpKernel]]] = {
    "conv2d": (nn.Conv2DOp, dnnl.Conv2DOp),
    "dense": (nn.DenseOp, dnnl.DenseOp),
}
"""The relay kernel and its dnnl op, by the kernel's name in a composite's name."""

ELTWISE_OPS: dict[str, type[Operation]] = {
    "relu": nn.ReluOp,
    "tanh": elementwise.TanhOp,
    "sigmoid": elementwise.SigmoidOp,
    "clip": elementwise.ClipOp,
}
"""The relay op of each eltwise post-op."""

NAME = re.compile(
    r"dnnl\.(conv2d|dense)(_bias)?(_sum)?(?:_(relu|tanh|sigmoid|clip|gelu_erf_x2|gelu_erf))?"
)


@dataclass(frozen=True)
class Reshaped:
    """Operand #`index` of the replaced op, seen as `shape` through a `relay.reshape`."""

    index: int
    shape: tuple[int, ...]


Operand = int | ConstantOp | Reshaped
"""An operand of a planned dnnl op: the index of an operand of the op it replaces, a
constant to insert before it (a composite body's, or a new one), or a reshaped operand."""


@dataclass(frozen=True)
class CompositeLowering:
    """The dnnl op a composite becomes, on `operands`, with `properties`."""

    kernel: type[dnnl.PostOpKernel]
    operands: Sequence[Operand]
    properties: dict[str, Attribute]


def describe(kernel: str, bias: bool, sum_: bool, eltwise: str | None) -> str:
    """The chain a composite's body must be, e.g. `nn.relu(add(nn.bias_add(...)))`."""
    text = f"nn.{kernel}(...)"
    if bias:
        text = f"nn.bias_add({text}, ...) or add({text}, ...)"
    if sum_:
        text = f"add({text}, ...)"
    if eltwise is not None:
        text = f"{'nn.' if eltwise == 'relu' else ''}{eltwise}({text})"
    return text


@dataclass(frozen=True)
class Chain:
    """The ops of a composite's body, outermost first, and what they read from outside."""

    kernel: nn.Conv2DOp | nn.DenseOp
    bias_op: nn.BiasAddOp | elementwise.AddOp | None
    summand: SSAValue | None
    ops: list[Operation]


def peel(op: CompositeOp, relay_kernel: type[Operation], name: re.Match[str]) -> Chain:
    """Peel eltwise, sum and bias off the yielded value down to the kernel; Rejected if the
    body is not that chain, each op read once by the next, nothing else but constants."""
    kernel_name, bias, sum_, eltwise = name[1], bool(name[2]), bool(name[3]), name[4]
    mismatch = Rejected(
        f"the body of composite '{name[0]}' is not {describe(kernel_name, bias, sum_, eltwise)}"
    )
    body = op.body.block
    terminator = body.last_op
    if not isinstance(terminator, YieldOp) or len(terminator.values) != 1:
        raise mismatch
    value, chain = terminator.values[0], list[Operation]()
    twice: Operation | None = None  # GELU reads its input twice
    if eltwise in ("gelu_erf", "gelu_erf_x2"):
        value, gelu = peel_gelu(value, body, mismatch, 4 if eltwise == "gelu_erf_x2" else 5)
        chain += gelu
        twice = value.owner if isinstance(value.owner, Operation) else None
    elif eltwise is not None:
        if not isinstance(owner := value.owner, ELTWISE_OPS[eltwise]):
            raise mismatch
        value = owner.operands[0]
        chain.append(owner)
    summand: SSAValue | None = None
    if sum_:
        if not isinstance(owner := value.owner, elementwise.AddOp):
            raise mismatch
        inner = [v for v in owner.operands if is_body_op(v, op, relay_kernel, bias)]
        if len(inner) != 1:
            raise mismatch
        value = inner[0]
        summand = owner.rhs if owner.lhs is value else owner.lhs
        chain.append(owner)
    bias_op: nn.BiasAddOp | elementwise.AddOp | None = None
    if bias:
        if not isinstance(owner := value.owner, nn.BiasAddOp | elementwise.AddOp):
            raise mismatch
        bias_op, value = owner, peel_bias(owner, relay_kernel)[0]
        chain.append(owner)
    kernel = value.owner
    if not isinstance(kernel, nn.Conv2DOp | nn.DenseOp) or not isinstance(kernel, relay_kernel):
        raise mismatch
    chain.append(kernel)
    if any(o.parent is not body or not (o is twice or o.results[0].has_one_use()) for o in chain):
        raise mismatch  # every op of the chain in the body, each read once, by the next
    if len(body.ops) != len(chain) + 1 + sum(isinstance(o, ConstantOp) for o in body.ops):
        raise mismatch  # nothing else but constants
    return Chain(kernel, bias_op, summand, chain)


def plan_composite(op: CompositeOp) -> CompositeLowering:
    """A composite of dnnl's table: one conv2d or dense with its post-ops."""
    name = NAME.fullmatch(op.composite.data)
    if name is None:
        raise Rejected(f"dnnl has no primitive for composite '{op.composite.data}'")
    relay_kernel, dnnl_kernel = KERNELS[name[1]]
    chain = peel(op, relay_kernel, name)
    mismatch = Rejected(f"the body of composite '{name[0]}' is not the chain its name says")
    kernel_op = chain.kernel
    check_predicate(kernel_op, TARGET)
    operands: list[Operand] = [outer(v, op, mismatch) for v in kernel_op.operands]
    properties = dict(kernel_op.properties)
    if chain.bias_op is not None:
        operands.append(bias_operand(chain.bias_op, kernel_op, op, mismatch))
        properties["has_bias"] = TRUE
    if chain.summand is not None:
        if chain.summand.type != kernel_op.results[0].type:
            raise Rejected(
                f"its sum operand of type {chain.summand.type} is not of the "
                f"{kernel_op.results[0].type} the kernel computes"
            )
        operands.append(outer(chain.summand, op, mismatch))
        properties["has_sum"] = TRUE
    if name[4] is not None:
        properties["eltwise"] = StringAttr(name[4])
    if isinstance(clip := chain.ops[0], elementwise.ClipOp):
        properties["a_min"], properties["a_max"] = clip.a_min, clip.a_max
    return CompositeLowering(dnnl_kernel, operands, properties)


GELU_OPS = (elementwise.MultiplyOp, elementwise.AddOp, elementwise.ErfOp, elementwise.DivideOp)
"""The ops of GELU in erf form."""


def peel_gelu(
    value: SSAValue, body: Block, mismatch: Rejected, count: int = 5
) -> tuple[SSAValue, list[Operation]]:
    """(its input, its ops outermost first) of a GELU in erf form yielding `value`: `count`
    body ops of `GELU_OPS` down to its input (five; four for twice GELU, without the 0.5),
    one `erf` whose scaling reads the input, which two of them read."""
    erf = next((o for o in _reach(value, body, None) if isinstance(o, elementwise.ErfOp)), None)
    scale = erf.operands[0].owner if erf is not None else None
    if not isinstance(scale, elementwise.MultiplyOp | elementwise.DivideOp):
        raise mismatch
    inputs = [v for v in scale.operands if not isinstance(v.owner, ConstantOp)]
    if len(inputs) != 1:
        raise mismatch
    ops = _reach(value, body, inputs[0])
    if len(ops) != count or len([o for o in ops if inputs[0] in o.operands]) != 2:
        raise mismatch
    return inputs[0], ops


def _reach(value: SSAValue, body: Block, stop: SSAValue | None) -> list[Operation]:
    """The body ops of `GELU_OPS` from `value` up, through non-constant operands, not past
    `stop`, outermost first."""
    ops: list[Operation] = []
    pending = [value]
    while pending:
        current = pending.pop()
        owner = current.owner
        if current is stop or not isinstance(owner, GELU_OPS) or owner.parent is not body:
            continue
        if owner not in ops:
            ops.append(owner)
            pending += [v for v in owner.operands if not isinstance(v.owner, ConstantOp)]
    return ops


def is_body_op(
    value: SSAValue, composite: CompositeOp, kernel: type[Operation], bias: bool
) -> bool:
    """Whether `value` is the inner part of a sum: the result of the body's bias op (or its
    kernel, without a bias)."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent is not composite.body.block:
        return False
    wanted = (nn.BiasAddOp, elementwise.AddOp) if bias else (kernel,)
    return isinstance(owner, wanted)


def peel_bias(
    op: nn.BiasAddOp | elementwise.AddOp, kernel: type[Operation]
) -> tuple[SSAValue, SSAValue]:
    """(kernel side, bias) of a `bias_add`, or of an `add` (either order)."""
    if isinstance(op, nn.BiasAddOp):
        return op.data, op.bias
    if isinstance(op.lhs.owner, kernel):
        return op.lhs, op.rhs
    return op.rhs, op.lhs


def bias_operand(
    bias_op: nn.BiasAddOp | elementwise.AddOp,
    kernel: Operation,
    composite: CompositeOp,
    mismatch: Rejected,
) -> Operand:
    """The kernel's `(C,)` bias operand: a `bias_add`'s bias along the channels, an `add`'s
    per-channel tensor as a new constant or reshaped."""
    bias = peel_bias(bias_op, type(kernel))[1]
    out, axis = shape_of(kernel.results[0].type), output_channels(kernel)
    shape = shape_of(bias.type)
    if isinstance(bias_op, nn.BiasAddOp):
        if bias_op.axis.value.data % len(out) != axis:
            raise Rejected(
                f"its bias is added along axis {bias_op.axis.value.data}, not the output "
                f"channels (axis {axis})"
            )
        return outer(bias, composite, mismatch)
    offset = len(out) - len(shape)  # numpy broadcasting lines up the trailing dims
    wanted = [out[axis] if offset + i == axis else 1 for i in range(len(shape))]
    if not (0 <= offset <= axis and list(shape) == wanted):
        raise Rejected(
            f"its bias of shape {format_shape(shape)} is not one value per output "
            f"channel (axis {axis}) of the {format_shape(out)} result"
        )
    source = outer(bias, composite, mismatch)
    if len(shape) == 1:
        return source
    if isinstance(source, ConstantOp):
        value = source.value
        assert isinstance(value, DenseIntOrFPElementsAttr)
        vector = dense_to_numpy(value).reshape(out[axis])
        return ConstantOp(dense_from_numpy(vector, tensor_element_type(source.result.type)))
    return Reshaped(source, (out[axis],))
