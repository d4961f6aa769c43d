"""`backward-fold-scale-axis` (TVM's `BackwardFoldScaleAxis`): output scales into the weights.

Rewrites, in every optimizable function (a function pass, opt_level 3)::

    multiply(conv2d(x, w) [+ bias | nn.bias_add] [relu], s)     s: [C,1,1], [1,C,1,1], [C], ...
      -> conv2d(x, w * expand_dims(squeeze(s), 1, 3)) [+ bias * s'] [relu]
    multiply(dense(x, w) ..., s[N])  ->  dense(x, w * expand_dims(s, 1)) ...

TVM's algorithm (`src/relay/transforms/fold_scale_axis.cc`), in two phases:

- *prepare*, in program order: each value that has exactly one use gets a
  `Message` (the axis a scale could be folded along, and whether the scale must
  be >= 0): conv2d (any group count) and dense create one on their
  output-channel axis; relu and leaky_relu pass it on, requiring a positive
  scale; add/subtract pass it on when the other operand broadcasts as a vector
  along that axis (or both operands carry it with equal shapes: TVM's dual
  path); nn.bias_add passes it on when its axis is the message's axis;
- *transform*: a `multiply` with a message on one operand and, on the other, a
  scale that broadcasts as a vector along that axis (TVM's
  `MatchBroadcastToLeftAxes`: other dims 1; a scalar counts too) disappears; the
  chain under it is rebuilt with the scale pushed into the weights: `w *
  expand_dims(s')` along the kernel's O axis (OIHW, OHWI: axis 0; HWIO: 3; HWOI:
  2), `bias * s'` for the adds and bias_adds on the way. `s'` is the scale
  squeezed to a vector (`squeeze(s, axis=[...])`, none when already one).
  Where a relu or leaky_relu is in between, the scale must be a constant (seen
  through expand_dims/reshape/transpose/squeeze) with no negative element;
  otherwise it may be any value, a parameter too (as in TVM).

The new weights and biases are relay ops on the old ones (multiply,
expand_dims, squeeze), which FoldConstant folds when they are constants, as in
TVM. The multiply and the ops of the old chain are erased. With `fold-constants=true`
(what `optimize` runs, when that FoldConstant will run) the new ops on constants
are folded before they are inserted, to the very constants FoldConstant would
leave, in its places (`fold_scale_axis_fold`): the same IR, fewer ops built. Left alone: a
multiply whose conv2d/dense chain has a value with another use (TVM's ref count
rule), a relu or leaky_relu with a scale that may be negative or is not a
constant, a scale that is not a per-channel vector, a dual path where only one
branch carries the scale or the branches scale different axes, a conv2d whose
`out_dtype` differs from its input's (the scaled weight would not type-check).

Where it differs from TVM, and why:

- A grouped conv2d (any `groups`, not only 1 or depthwise) takes the scale: the
  kernel's O axis holds every output channel whatever the group count, and
  output channel `o` is a sum over `w[o, ...]` alone, so `s[o] * conv(x, w)[o]
  = conv(x, s[o] * w[o])` for every grouping. TVM leaves grouped convolutions
  alone, which keeps ShuffleNet's batch norms (`multiply` after every grouped
  1x1 conv once SimplifyInference ran) as separate elementwise loops. (The
  forward fold keeps TVM's rule: an input-channel scale meets the kernel's
  `I / groups` axis, a different slice of it per group.)
- A scalar scale becomes a vector with `relay.full(s, shape=[C])`; TVM uses
  `repeat(expand_dims(s, 0), C, 0)`, and xrelay has no `repeat`.
- On a dual path, the message asks for a positive scale if either branch does
  (TVM keeps the left branch's message, so a relu only on the right branch
  would let a negative scale through it).
- dense's output-channel axis is its last one (TVM says axis 1, wrong for
  data of rank 3 and more); bias_add's axis is normalized (`axis=-1` works).
- Messages carry one axis: xrelay's conv2d has no blocked layouts (`NCHW4c`),
  whose folds need two (TVM's NCHWc variants are not ported).
- Values read inside a `relay.if` branch or by ops of another block never carry
  a message (xDSL blocks instead of TVM's dataflow graph); branches are folded
  on their own. Composite bodies are left as matched, as by CSE.

Linear: one walk to prepare, one to transform; each chain op is rebuilt once.
The helpers shared with `forward-fold-scale-axis` live in `fold_scale_axis`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import Rewriter
from xrelay.dialects.interpreter import Evaluator
from xrelay.dialects.relay.base import RelayTypeError, get_int, normalize_axis
from xrelay.dialects.relay.elementwise import AddOp, MultiplyOp, SubtractOp
from xrelay.dialects.relay.nn import BiasAddOp, Conv2DOp, DenseOp, LeakyReluOp, ReluOp
from xrelay.dialects.relay.types import rank_of, shape_of
from xrelay.passes.adapters import XdslFunctionPass, XdslPass, xdsl_pass_info
from xrelay.passes.fold_constant import (
    DEFAULT_MAX_ELEMENTS,
    MAX_ELEMENTS_KEY,
    FoldConstantCall,
    FoldConstantPass,
    folds_in,
)
from xrelay.passes.fold_scale_axis import (
    Message,
    NewOps,
    channel_axis,
    dataflow_blocks,
    has_plain_layouts,
    intersect,
    is_nonnegative_constant,
    kernel_axis,
    match_broadcast,
    vectorizable,
)
from xrelay.passes.fold_scale_axis_fold import fold_new_ops
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import erase_dead_ops


def _add_carriers(op: AddOp | SubtractOp, messages: Mapping[SSAValue, Message]) -> list[SSAValue]:
    """The operands of an add/subtract that carry the scale (TVM's `AddSubBackwardPrep`)."""
    lm, rm = messages.get(op.lhs), messages.get(op.rhs)
    ls, rs = shape_of(op.lhs.type), shape_of(op.rhs.type)
    if lm is not None and match_broadcast(ls, rs, lm.axis) is not None:
        return [op.lhs]
    if rm is not None and match_broadcast(rs, ls, rm.axis) is not None:
        return [op.rhs]
    if lm is not None and rm is not None and lm.axis == rm.axis and ls == rs:
        return [op.lhs, op.rhs]
    return []


def _carriers(op: Operation, messages: Mapping[SSAValue, Message]) -> list[SSAValue]:
    """The operands of a chain op through which the scale travels on to a conv2d or dense."""
    if isinstance(op, ReluOp | LeakyReluOp | BiasAddOp):
        return [op.data]
    if isinstance(op, AddOp | SubtractOp):
        return _add_carriers(op, messages)
    return []


def _prepare(op: Operation, messages: Mapping[SSAValue, Message]) -> Message | None:
    """TVM's `FScaleAxisBackwardPrep` of each op: the message of the op's result, if any."""
    if isinstance(op, Conv2DOp):
        if not has_plain_layouts(op):
            return None
        return Message(channel_axis(op), False)  # any group count (module doc)
    if isinstance(op, DenseOp):
        return Message(rank_of(op.result.type) - 1, False)
    if isinstance(op, ReluOp | LeakyReluOp):
        inner = messages.get(op.data)
        return Message(inner.axis, True) if inner is not None else None
    if isinstance(op, AddOp | SubtractOp):
        carriers = _add_carriers(op, messages)
        if len(carriers) == 2:  # TVM keeps the lhs message, losing a relu on the rhs
            return intersect(messages[carriers[0]], messages[carriers[1]])
        return messages[carriers[0]] if carriers else None
    if isinstance(op, BiasAddOp):
        inner = messages.get(op.data)
        axis = normalize_axis(get_int(op.properties, "axis"), rank_of(op.data.type))
        return inner if inner is not None and inner.axis == axis else None
    return None


def _rebuild_op(
    op: Operation, built: Mapping[SSAValue, SSAValue], axis: int, scale: SSAValue, new: NewOps
) -> SSAValue:
    """One chain op rebuilt with the scale folded in (TVM's `FScaleAxisBackwardTransform`)."""
    if isinstance(op, Conv2DOp):
        weight = new.multiply(op.weight, new.expand_to(scale, 4, kernel_axis(op, "O")))
        return new.like(op, [op.data, weight])
    if isinstance(op, DenseOp):
        return new.like(op, [op.data, new.multiply(op.weight, new.expand_to(scale, 2, 0))])
    if isinstance(op, ReluOp | LeakyReluOp):
        return new.like(op, [built[op.data]])
    if isinstance(op, BiasAddOp):
        return new.like(op, [built[op.data], new.multiply(op.bias, scale)])
    assert isinstance(op, AddOp | SubtractOp)
    lhs, rhs = op.lhs, op.rhs
    if lhs in built and rhs in built:
        return new.like(op, [built[lhs], built[rhs]])
    if lhs in built:
        return new.like(
            op, [built[lhs], new.multiply(rhs, new.expand_to(scale, rank_of(lhs.type), axis))]
        )
    return new.like(
        op, [new.multiply(lhs, new.expand_to(scale, rank_of(rhs.type), axis)), built[rhs]]
    )


def _rebuild(
    root: SSAValue, axis: int, scale: SSAValue, messages: Mapping[SSAValue, Message], new: NewOps
) -> SSAValue:
    """The chain under `root` rebuilt with the scale folded in, operands first (no recursion)."""
    built: dict[SSAValue, SSAValue] = {}
    stack: list[tuple[SSAValue, bool]] = [(root, False)]
    while stack:
        value, ready = stack.pop()
        op = value.owner
        assert isinstance(op, Operation)
        if ready:
            built[value] = _rebuild_op(op, built, axis, scale, new)
            continue
        stack.append((value, True))
        stack.extend((v, False) for v in reversed(_carriers(op, messages)))
    return built[root]


def _fold_multiply(
    op: MultiplyOp, messages: Mapping[SSAValue, Message], folding: FoldConstantCall | None
) -> None:
    """TVM's `MultiplyBackwardTransform`: push the scale into the chain under one operand."""
    lm, rm = messages.get(op.lhs), messages.get(op.rhs)
    if lm is not None:
        value, scale, message = op.lhs, op.rhs, lm
    elif rm is not None:
        value, scale, message = op.rhs, op.lhs, rm
    else:
        return
    target = shape_of(value.type)
    if not vectorizable(target, shape_of(scale.type), message.axis):
        return
    if message.require_positive and not is_nonnegative_constant(scale):
        return
    new = NewOps()
    try:
        vector = new.vector(scale, target, message.axis)
        result = _rebuild(value, message.axis, vector, messages, new)
    except RelayTypeError:
        new.drop()
        return
    if result.type != op.result.type:
        new.drop()
        return
    leaves = fold_new_ops(new, result, folding) if folding is not None else None
    chain = value.owner
    new.insert_before(op)
    Rewriter.replace_op(op, [], [result])
    if isinstance(chain, Operation):
        erase_dead_ops([chain])
    if leaves:
        erase_dead_ops(leaves)


def fold_backward(block: Block, folding: FoldConstantCall | None = None) -> None:
    """Prepare the messages of one block, then fold each multiply that can be folded (the
    new weights straight to constants with `folding`: `fold_scale_axis_fold`)."""
    messages: dict[SSAValue, Message] = {}
    for op in block.ops:
        if len(op.results) != 1:
            continue
        use = op.results[0].get_unique_use()
        if use is None or use.operation.parent is not block:
            continue  # TVM folds only through values referred to once
        message = _prepare(op, messages)
        if message is not None:
            messages[op.results[0]] = message
    if not messages:
        return
    for op in list(block.ops):
        if isinstance(op, MultiplyOp) and op.parent is block:
            _fold_multiply(op, messages, folding)


@dataclass(frozen=True)
class BackwardFoldScaleAxisPass(XdslFunctionPass):
    """Fold a per-channel multiply after conv2d/dense into its weights (BackwardFoldScaleAxis)."""

    name = "backward-fold-scale-axis"
    tvm_name: ClassVar[str] = "BackwardFoldScaleAxis"
    opt_level: ClassVar[int] = 3

    fold_constants: bool = False
    """Emit the new weights and biases as the constants the FoldConstant that follows in
    `fold-scale-axis` folds them to, when it is enabled here (`optimize` sets it: same IR,
    fewer ops built; see `passes/fold_scale_axis_fold.py`)."""

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        folding = None
        if self.fold_constants and folds_in(function):
            context = PassContext.current()
            if context.pass_enabled(xdsl_pass_info(FoldConstantPass)):
                max_elements = context.get_config(MAX_ELEMENTS_KEY)
                if not isinstance(max_elements, int):
                    max_elements = DEFAULT_MAX_ELEMENTS
                folding = FoldConstantCall(Evaluator(ModuleOp([])), max_elements)
        for block in dataflow_blocks(function):
            fold_backward(block, folding)


def BackwardFoldScaleAxis() -> Pass:
    """TVM's `relay.transform.BackwardFoldScaleAxis()`."""
    return XdslPass(BackwardFoldScaleAxisPass())
