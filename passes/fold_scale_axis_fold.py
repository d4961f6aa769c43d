"""BackwardFoldScaleAxis's folded form: the new weights as the constants FoldConstant makes.

A backward fold rebuilds a conv2d/dense chain with the scale pushed into the
weights and biases as relay ops on constants (`squeeze`, `expand_dims`, `full`,
`multiply`); inside `fold-scale-axis` the `fold-constant` that follows folds
them all. With `fold-constants=true` (what `optimize` runs, when that
FoldConstant is enabled and folds in the function), `fold_new_ops` does that
fold on the new ops before they are inserted, so they are never built into the
block, walked and folded one by one:

- each new op FoldConstant would evaluate (a foldable relay op whose operands
  are constants or values folded here) is evaluated with FoldConstant's own
  `FoldConstantCall.evaluate` (the interpreter's semantics, the element bound
  of `relay.FoldConstant.max_elements`), its value rounded as the constant
  FoldConstant would build holds it (float32 and float64 only);
- a folded value read by a new op that stays becomes a `relay.constant` at
  the place of the op that computed it (where FoldConstant, chaining through
  single users, would have left it); the other folded ops are dropped;
- constants only the folded ops read are erased afterwards (`erase_dead_ops`),
  as FoldConstant erases the producers a fold leaves unused.

So the module after `fold-scale-axis` is the one the unfolded rewrite leads
to, print for print and bit for bit. Anything that could make it differ gives
up, and the ops are inserted as built, for FoldConstant to do what it can: an
operand that is a constant FoldConstant cannot read (elided) or a tuple, an
evaluation that fails or is too big, an element type other than float32 and
float64, the chain's result itself folding, and a folded multiply read by an
add or subtract of its own shape (ForwardFoldScaleAxis, which runs before
FoldConstant, could fold a scale through such an operand, so it must still see
the multiply).
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue
from xrelay.dialects.interpreter import Value
from xrelay.dialects.relay.elementwise import AddOp, SubtractOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import shape_of
from xrelay.passes.fold_constant import FoldConstantCall, constant_value, materialize
from xrelay.passes.fold_scale_axis import NewOps
from xrelay.passes.simplify_inference_fold import rounded_constant


def fold_new_ops(new: NewOps, root: SSAValue, folding: FoldConstantCall) -> list[Operation] | None:
    """Fold the not yet inserted ops of `new` as FoldConstant would; `root` is the value that
    replaces the multiply. The constants read by folded ops (to erase if left unused), or
    None (and `new` untouched) when the fold cannot be taken."""
    values: dict[SSAValue, Value] = {}
    leaves: list[Operation] = []
    folded: list[Operation] = []
    kept: set[Operation] = set()
    for op in new.ops:
        args = _constant_args(op, values, leaves)
        if args is None:
            kept.add(op)
            continue
        if not args:
            return None  # an operand FoldConstant cannot read, or no operand
        value = _evaluate(op, [a for a in args if a is not None], folding)
        if value is None:
            return None
        values[op.results[0]] = value
        folded.append(op)
    if not folded or root in values or _forward_could_see(kept, values):
        return None
    ops = _materialized(new.ops, kept, values)
    if ops is None:
        return None
    for op in reversed(folded):
        op.erase()
    new.ops[:] = ops
    return leaves


def _constant_args(
    op: Operation, values: dict[SSAValue, Value], leaves: list[Operation]
) -> list[Value | None] | None:
    """`[None, *operand values]` when all operands are constants or folded values, `[]` when
    one is a constant that cannot be read, None when one is neither (the op stays)."""
    args: list[Value | None] = [None]
    reads: list[Operation] = []
    for operand in op.operands:
        if operand in values:
            args.append(values[operand])
            continue
        owner = operand.owner
        if not isinstance(owner, ConstantOp):
            return None
        value = constant_value(operand)
        if value is None:
            return []  # an elided constant: FoldConstant would stop here
        reads.append(owner)
        args.append(value)
    leaves.extend(reads)
    return args if len(args) > 1 else []


def _evaluate(op: Operation, args: list[Value], folding: FoldConstantCall) -> Value | None:
    """`op`'s value rounded as its constant would hold it, or None if FoldConstant would not
    fold `op` to a float32/float64 constant."""
    if not FoldConstantCall.foldable(op) or len(op.results) != 1:
        return None
    results = folding.evaluate(op, args)
    if results is None:
        return None
    return rounded_constant(results[0], op.results[0].type)


def _forward_could_see(kept: set[Operation], values: dict[SSAValue, Value]) -> bool:
    """Whether an add/subtract that stays reads a folded value of its own shape (module doc)."""
    return any(
        isinstance(op, AddOp | SubtractOp)
        and any(v in values and shape_of(v.type) == shape_of(op.result.type) for v in op.operands)
        for op in kept
    )


def _materialized(
    ops: list[Operation], kept: set[Operation], values: dict[SSAValue, Value]
) -> list[Operation] | None:
    """The ops to insert: those kept, and a constant for each folded value one of them reads,
    in the folded op's place; the kept ops then read the constants. None if one cannot be
    made (nothing changed then)."""
    out: list[Operation] = []
    constants: dict[SSAValue, SSAValue] = {}
    for op in ops:
        if op in kept:
            out.append(op)
            continue
        result = op.results[0]
        if any(use.operation in kept for use in result.uses):
            constant = materialize(values[result], result.type, out)
            if constant is None:  # `rounded_constant` checked the type: not expected
                for made in out:
                    if made not in kept:
                        made.erase()
                return None
            constants[result] = constant
    for result, constant in constants.items():
        result.replace_all_uses_with(constant)
    return out
