"""`fold-constant` (TVM's `FoldConstant`): replace ops on constants by the constants they compute.

What it rewrites, in every optimizable function (a function pass: functions
with `Compiler`, `Extern` or `SkipOptimization` are skipped):

- a relay op whose operands are all constants (`relay.constant`, or
  `relay.tuple`s of constants, nested) is evaluated with the op's registered
  reference semantics (`xrelay.dialects.interpreter`, the same numpy code the
  interpreter runs) and replaced by a `relay.constant` of its result type; an
  op returning a tuple (`relay.split`, `relay.nn.batch_norm`) becomes a
  `relay.tuple` of constants, as TVM's `ConstEvaluate` turns an ADT result
  into a `Tuple` of `Constant`s;
- `relay.tuple_get_item` of a `relay.tuple` is the field itself, constant or
  not (`(x, c).1` -> `c`, `(x, c).0` -> `x`);
- `relay.if` on a constant condition is replaced by the ops of the branch it
  takes (inlined before it) and the value that branch yields; the other branch
  goes away;
- `relay.shape_of` and `relay.ndarray_size` of a value whose type is fully
  static become constants whatever computes the value (TVM's `EvaluateShapeOf`
  and `EvaluateNdarraySize`).

Ops left as they are (TVM's rules):

- ops with no operands (`relay.zeros`, `relay.ones`): TVM never folds them,
  since a constant `ones(4, 5)` only makes the module bigger;
- non-computational ops (TVM's `TNonComputational`: `relay.nn.dropout`, the
  BYOC annotations) and ops without the `Pure` trait (TVM skips stateful ones);
- `func.call`, `relay.composite` and ops of other dialects (TVM evaluates
  primitive ops only);
- an op the interpreter cannot evaluate (no reference semantics, or it fails):
  the pass never fails on it;
- every op of a function with a nonzero `Primitive` attribute (a fused
  function). TVM still projects tuples and picks `If` branches there and only
  leaves calls alone; xrelay leaves the fused function exactly as FuseOps made
  it.

One difference from TVM, by design: the config key
`relay.FoldConstant.max_elements` (int, default 16,777,216 = 1 << 24) bounds
the number of elements an op's folded result may hold (the sum over the
fields of a tuple result); an op whose result would be bigger stays unfolded,
and a negative value removes the bound. TVM has no bound. The default is high
enough for every weight a FoldScaleAxis rewrite of ResNet-50 or MobileNet
produces (at most 2.4 million elements) and keeps an op such as a broadcast
of a scalar to a huge shape from being frozen into the module. Ops whose
result type is not fully static are not folded either.

Ops made unused by a rewrite (the operands of a folded op, the tuple under a
projected `tuple_get_item`, the values only the discarded branch read) are
erased when they are pure, so the result is the graph TVM would build; other
unused ops are left to `dead-code-elimination`.

Types stay correct: each constant has exactly the type of the value it
replaces, so no InferType is needed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import Pure
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.scan import NdarraySizeOp, ShapeOfOp
from xrelay.dialects.relay.structure import ConstantOp, IfOp, TupleGetItemOp, TupleOp, YieldOp
from xrelay.dialects.relay.types import (
    ANY,
    by_instance,
    dense_from_numpy,
    dense_to_numpy,
    numpy_dtype,
    tensor_element_type,
)
from xrelay.dialects.resources import is_elided
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.greedy import changing_rewrites, rewrite_greedily
from xrelay.passes.pass_config import register_pass_config_option
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

MAX_ELEMENTS_KEY = "relay.FoldConstant.max_elements"
"""The config key bounding the size of a folded result, in elements."""

DEFAULT_MAX_ELEMENTS = 1 << 24
"""16,777,216 elements: 64 MiB of float32."""

register_pass_config_option(
    MAX_ELEMENTS_KEY,
    int,
    default=DEFAULT_MAX_ELEMENTS,
    description="FoldConstant leaves an op unfolded if its result has more elements "
    "than this (negative: no bound)",
)

NON_COMPUTATIONAL: frozenset[str] = frozenset(
    {"relay.nn.dropout", "relay.compiler_begin", "relay.compiler_end"}
)
"""Ops TVM marks `TNonComputational`: never evaluated, even on constant operands."""

_STRUCTURAL: tuple[type[Operation], ...] = (ConstantOp, TupleOp, TupleGetItemOp)
"""Relay ops with a rule of their own (or none): not evaluated by the generic fold."""


# --------------------------------------------------------------------------- #
# Constants as values, values as constants
# --------------------------------------------------------------------------- #


def constant_value(value: SSAValue) -> Value | None:
    """The numpy value of a constant or a tuple of constants (nested), else None."""
    owner = value.owner
    if isinstance(owner, ConstantOp):
        if is_elided(owner.value):  # no value to fold with (as MLIR's elided constants)
            return None
        return dense_to_numpy(owner.value)
    if isinstance(owner, TupleOp):
        fields: list[Value] = []
        for field in owner.fields:
            field_value = constant_value(field)
            if field_value is None:
                return None
            fields.append(field_value)
        return tuple(fields)
    return None


@by_instance(4096)
def element_count(ty: Attribute) -> int | None:
    """Elements a value of type `ty` holds (summed over tuple fields); None if not static.

    Asked of every result FoldConstant evaluates: remembered per type instance.
    """
    if isinstance(ty, TensorType):
        shape = tuple(cast(TensorType[Attribute], ty).get_shape())
        if any(d == ANY or d < 0 for d in shape):
            return None
        return math.prod(shape)  # Python ints: np.prod on int64 wraps past 2^63
    if isinstance(ty, TupleType):
        total = 0
        for field in ty.types.data:
            count = element_count(field)
            if count is None:
                return None
            total += count
        return total
    return None


def materialize(value: Value, ty: Attribute, ops: list[Operation]) -> SSAValue | None:
    """Append to `ops` the constants (and tuples) holding `value` with type exactly `ty`.

    None if that cannot be done (a type the constant would not match).
    """
    if isinstance(ty, TensorType):
        element = tensor_element_type(cast(Attribute, ty))
        constant = ConstantOp(dense_from_numpy(np.asarray(value), element))
        if constant.result.type != ty:
            return None
        ops.append(constant)
        return constant.result
    if isinstance(ty, TupleType):
        items = cast(Sequence[Value], value)
        if len(items) != len(ty.types.data):
            return None
        fields: list[SSAValue] = []
        for item, field_type in zip(items, ty.types.data, strict=True):
            field = materialize(item, field_type, ops)
            if field is None:
                return None
            fields.append(field)
        tuple_op = TupleOp.build(operands=[fields], result_types=[ty])
        ops.append(tuple_op)
        return tuple_op.result
    return None


def as_constant(value: Value, ty: Attribute) -> Value | None:
    """The value a `relay.constant` that `materialize` makes of a tensor `value` holds.

    None unless `ty` is a tensor type the constant would have (what `materialize`
    rejects). Goes through the same dense encoding, so the value is bit for bit
    what `constant_value` would read back from the constant.
    """
    if not isinstance(ty, TensorType):
        return None
    dense = dense_from_numpy(np.asarray(value), tensor_element_type(cast(Attribute, ty)))
    if dense.type != ty:
        return None
    return dense_to_numpy(dense)


def defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is a result or block argument of `op` or of an op nested in it."""
    owner = value.owner
    if isinstance(owner, Operation):
        return op.is_ancestor(owner)
    parent = owner.parent_op()
    return parent is not None and op.is_ancestor(parent)


def outside_reads(ops: Iterable[Operation], container: Operation) -> list[SSAValue]:
    """The operands of `ops` and of the ops nested in them defined outside `container`."""
    return [
        operand
        for op in ops
        for inner in op.walk()
        for operand in inner.operands
        if not defined_inside(operand, container)
    ]


def erase_unused_producers(rewriter: PatternRewriter, values: Iterable[SSAValue]) -> None:
    """Erase the pure ops defining `values` that no longer have uses, and so on upward."""
    stack = list(values)
    while stack:
        owner = stack.pop().owner
        if not isinstance(owner, Operation) or owner.parent is None:
            continue  # a block argument, or an op already erased
        if not is_trivially_dead(owner):
            continue
        operands = outside_reads([owner], owner) if owner.regions else list(owner.operands)
        rewriter.erase(owner)
        stack.extend(operands)


def _nonzero_int(attr: Attribute | None) -> bool:
    if not isinstance(attr, IntegerAttr):
        return False
    return cast(IntegerAttr[IntegerType], attr).value.data != 0


# --------------------------------------------------------------------------- #
# Patterns
# --------------------------------------------------------------------------- #


class FoldTupleGetItem(RewritePattern):
    """`relay.tuple_get_item` of a `relay.tuple` is the field (TVM: `(x, c).1` -> `c`)."""

    @staticmethod
    def could_match(op: Operation) -> bool:
        """A projection of a `relay.tuple` (see `passes/greedy.py`)."""
        return isinstance(op, TupleGetItemOp) and isinstance(op.tuple.owner, TupleOp)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TupleGetItemOp, rewriter: PatternRewriter, /) -> None:
        tuple_op = op.tuple.owner
        if not isinstance(tuple_op, TupleOp):
            return
        field = tuple_op.fields[op.index.value.data]
        rewriter.replace(op, [], [field])
        erase_unused_producers(rewriter, [tuple_op.result])


class FoldConstantIf(RewritePattern):
    """`relay.if` on a constant condition: inline the branch taken, use what it yields."""

    @staticmethod
    def could_match(op: Operation) -> bool:
        """An if on a constant (see `passes/greedy.py`)."""
        return isinstance(op, IfOp) and isinstance(op.cond.owner, ConstantOp | TupleOp)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IfOp, rewriter: PatternRewriter, /) -> None:
        cond = constant_value(op.cond)
        if cond is None:
            return
        taken, dropped = (
            (op.then_region, op.else_region) if bool(cond) else (op.else_region, op.then_region)
        )
        block = taken.block
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            return
        values = list(terminator.values)
        # Values defined outside the if that only the dropped branch (or the condition) read.
        released = [op.cond, *outside_reads(dropped.ops, op)]
        rewriter.erase(terminator)
        rewriter.inline_block(block, InsertPoint.before(op))
        rewriter.replace(op, [], values)
        erase_unused_producers(rewriter, released)


class FoldStaticShape(RewritePattern):
    """`relay.shape_of` / `relay.ndarray_size` of a statically shaped value is a constant."""

    op_types: ClassVar[tuple[type[Operation], ...]] = (ShapeOfOp, NdarraySizeOp)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, ShapeOfOp | NdarraySizeOp):
            return
        ty = op.data.type
        if element_count(ty) is None or not isinstance(ty, TensorType):
            return
        shape = cast(TensorType[Attribute], ty).get_shape()
        value = np.array(shape if isinstance(op, ShapeOfOp) else math.prod(shape))
        new_ops: list[Operation] = []
        new_value = materialize(value.astype(numpy_dtype(op.dtype)), op.result.type, new_ops)
        if new_value is None:
            return
        released = list(op.operands)
        rewriter.replace(op, new_ops, [new_value])
        erase_unused_producers(rewriter, released)


_CONSTANT_OWNERS: dict[type[Operation | Block], bool] = {}
"""Per class of a value's owner: whether it is a `relay.constant` or `relay.tuple`."""


@dataclass
class FoldConstantCall(RewritePattern):
    """A pure relay op on constant operands becomes the constant(s) of its value."""

    op_types: ClassVar[tuple[type[Operation], ...]] = (RelayOp,)

    evaluator: Evaluator
    max_elements: int
    chain: bool = True
    """Fold a chain of single users at once (`fold_user`); False folds op by op (the same IR)."""

    @staticmethod
    def could_match(op: Operation) -> bool:
        """Operands, all constants (see `passes/greedy.py`). Asked of every op of a function
        before each FoldConstant: a loop over a per-class cache, not `isinstance` (xDSL's
        op classes are ABCs, for which `isinstance` costs several times more)."""
        operands = op.operands
        if not operands:
            return False
        for value in operands:
            owner = type(value.owner)
            constant = _CONSTANT_OWNERS.get(owner)
            if constant is None:
                constant = _CONSTANT_OWNERS[owner] = issubclass(owner, ConstantOp | TupleOp)
            if not constant:
                return False
        return True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        # Most ops read a non-constant: checked first, before any constant is decoded.
        if not self.could_match(op):
            return
        if not self.foldable(op):
            return
        args: list[Value] = []
        for operand in op.operands:
            value = constant_value(operand)
            if value is None:
                return
            args.append(value)
        results = self.evaluate(op, args)
        if results is None:
            return
        # Fold the chain of single users this value alone kept from folding at once.
        while self.chain and (step := self.fold_user(op, results)) is not None:
            op, results = step
        new_ops: list[Operation] = []
        new_values: list[SSAValue] = []
        for result, value in zip(op.results, results, strict=True):
            new_value = materialize(value, result.type, new_ops)
            if new_value is None:
                return
            new_values.append(new_value)
        released = list(op.operands)
        rewriter.replace(op, new_ops, new_values)
        erase_unused_producers(rewriter, released)

    def evaluate(self, op: Operation, args: list[Value]) -> list[Value] | None:
        """`op`'s result values on `args`; None if it may not or cannot be folded."""
        counts = [element_count(r.type) for r in op.results]
        if any(count is None for count in counts):
            return None  # a result type that is not fully static
        if 0 <= self.max_elements < sum(count or 0 for count in counts):
            return None
        try:
            with np.errstate(all="ignore"):
                return self.evaluator.eval_op(op, args, {})
        except Exception:  # the interpreter cannot evaluate it: keep the op
            return None

    def fold_user(
        self, op: Operation, results: list[Value]
    ) -> tuple[Operation, list[Value]] | None:
        """The only user of `op`'s one result, with its values, if it folds once `op` has.

        The greedy driver would fold `op` to a constant, then its user, then erase
        that constant; this evaluates the user on the very value the constant
        would hold (rounded to the result type as `materialize` does) and builds
        no intermediate constant. The user's constant lands where it would have
        (before the user) and the erasures are the same, so the IR is too.
        None (fold `op` alone) when the user reads another non-constant, is not
        foldable, or cannot be evaluated: the cases where it would stay anyway.
        """
        if len(op.results) != 1:
            return None
        result = op.results[0]
        user = result.get_user_of_unique_use()
        if user is None or user.parent is not op.parent or not self.foldable(user):
            return None
        if not all(
            operand is result or isinstance(operand.owner, ConstantOp | TupleOp)
            for operand in user.operands
        ):
            return None  # checked before `as_constant` encodes the value: the common case
        value = as_constant(results[0], result.type)
        if value is None:
            return None
        args: list[Value] = []
        for operand in user.operands:
            if operand is result:
                args.append(value)
                continue
            other = constant_value(operand)
            if other is None:
                return None
            args.append(other)
        user_results = self.evaluate(user, args)
        return None if user_results is None else (user, user_results)

    @staticmethod
    def foldable(op: Operation) -> bool:
        """Whether `op` is a relay op FoldConstant may evaluate (its operands aside)."""
        return len(op.operands) > 0 and _foldable_class(type(op))


@functools.cache
def _foldable_class(cls: type[Operation]) -> bool:
    """Whether ops of `cls` may be evaluated: pure relay ops, TVM's non-computational ones aside."""
    return (
        issubclass(cls, RelayOp)
        and not issubclass(cls, _STRUCTURAL)
        and cls.name not in NON_COMPUTATIONAL
        and cls.has_trait(Pure)
    )


# --------------------------------------------------------------------------- #
# The pass
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class FoldConstantPass(XdslFunctionPass):
    """Replace ops on constants by their value, project constant tuples, pick constant ifs."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "fold-constant"
    tvm_name: ClassVar[str] = "FoldConstant"
    opt_level: ClassVar[int] = 2

    fold_qnn: bool = False
    """TVM's option for QNN ops; xrelay has none, so it changes nothing."""

    folded: ClassVar[Statistic] = Statistic("num-folded", "Number of folds applied")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        if not folds_in(function):
            return
        max_elements = PassContext.current().get_config(MAX_ELEMENTS_KEY)
        if not isinstance(max_elements, int):
            max_elements = DEFAULT_MAX_ELEMENTS
        # Calls are never evaluated, so the evaluator needs no functions (and building
        # one over the whole module per function would be quadratic in functions).
        evaluator = Evaluator(ModuleOp([]))
        patterns: list[RewritePattern] = [
            FoldTupleGetItem(),
            FoldConstantIf(),
            FoldConstantCall(evaluator, max_elements),
            FoldStaticShape(),
        ]
        before = changing_rewrites()
        rewrite_greedily(function.body, patterns, unsettling=_unsettling)
        self.folded.add(changing_rewrites() - before)


def _unsettling(op: Operation) -> bool:
    """Changes after which FoldConstant's worklist may have missed a fold (`passes/greedy.py`):
    a tuple whose field changed (its users read the fields' constants through it) and an if
    whose branch `FoldConstantIf` inlined (moved ops are not announced to the walker). Every
    other match depends on the op and its operands' producers only."""
    return isinstance(op, TupleOp | IfOp)


def folds_in(function: func.FuncOp) -> bool:
    """Whether FoldConstant folds anything in `function` (not in a nonzero `Primitive` one)."""
    return not _nonzero_int(function.attributes.get("Primitive"))


def FoldConstant(fold_qnn: bool = False) -> Pass:
    """TVM's `relay.transform.FoldConstant`: the `fold-constant` pass."""
    return XdslPass(FoldConstantPass(fold_qnn=fold_qnn))
