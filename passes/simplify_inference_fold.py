"""SimplifyInference's folded form of a batch_norm whose parameters are constants.

`simplify-inference` expands `batch_norm(x, gamma, beta, mean, var)[0]` into
about eleven ops (`passes/simplify_inference.py`) computing `x * scale + shift`;
when the parameters are constants, `fold-constant` later folds all of them but
the multiply and the add into two constants. Inside `optimize` (where that
FoldConstant runs) building the eleven ops only to fold and erase them was the
largest single cost of the pipeline, so `simplify-inference{fold-constants=true}`
emits the end result directly:

    %scale = relay.constant   // wide_scale, as FoldConstant would leave it
    %0 = relay.multiply %x, %scale
    %shift = relay.constant   // wide_shift
    %1 = relay.add %0, %shift

The two scalars the expansion starts with (`1` and `epsilon`) are still emitted,
unused: `eliminate-common-subexpr` merges later equal scalars into them as it did
(so a surviving one keeps its place) and `dead-code-elimination` erases the rest,
which is why the pass folds only when FoldConstant and DeadCodeElimination are both
enabled (`SimplifyInferencePass`). The result is the IR the old expansion led to
through the pipeline, print for print; where another pass could have seen the
difference, the expansion is emitted as before instead:

- the data comes from a `relay.add` or `relay.multiply`, or a `[0]` projection is
  read by one (SimplifyExpr's constant reassociation would now fire before
  FoldScaleAxis instead of after it);
- the scale is all ones or the shift all zeros (SimplifyExpr's identities, the same);
- a folded constant equals, as type and bytes, a constant already in the function
  or one folded from other parameter values (EliminateCommonSubexpr would merge
  two constants the old expansion kept apart).

Same values, bit for bit: the scale/shift ops are built once per batch_norm
signature (operand types and properties) as a template on block arguments
and evaluated op by op with FoldConstant's own `FoldConstantCall.evaluate`
(the interpreter's reference semantics, the element bound of
`relay.FoldConstant.max_elements`), each intermediate rounded through the
dense encoding as the constant FoldConstant would have built (`as_constant`; for
float32 and float64, the only element types folded here, that is the cast to the
dtype, done without building the attribute).
The constants land where FoldConstant's would (before the multiply and before
the add), and the parameters left unused are erased as FoldConstant erases
them. When anything would have stopped FoldConstant (a parameter that is not a
constant, an elided constant, a result too big, an evaluation failure, a type
the constant would not have), `fold` returns None and the ops are emitted as
before, for FoldConstant to do what it can.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32, f64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.elementwise import AddOp, MultiplyOp
from xrelay.dialects.relay.nn import BatchNormOp
from xrelay.dialects.relay.structure import ConstantOp, TupleGetItemOp
from xrelay.dialects.relay.types import dense_from_numpy, numpy_dtype, tensor_element_type
from xrelay.dialects.walk import nested_ops
from xrelay.passes.fold_constant import FoldConstantCall, constant_value

TemplateKey = tuple[tuple[Attribute, ...], frozenset[tuple[str, Attribute]]]
"""A batch_norm's operand types and properties: what its scale/shift ops depend on."""

ConstantKey = tuple[Attribute, bytes]
"""A constant's type and bytes: what EliminateCommonSubexpr merges equal constants by."""

UnpackFn = Callable[[Sequence[SSAValue], Mapping[str, Attribute]], Sequence[Operation]]
"""Builds the expansion of a batch_norm on (data, gamma, beta, mean, var) and properties."""


class _Template:
    """The scale/shift ops of one batch_norm signature, on block arguments for the operands."""

    def __init__(self, args: Sequence[SSAValue], ops: Sequence[Operation]):
        self.args = list(args)
        self.ops = list(ops)
        final = ops[-1]
        multiply = final.operands[0].owner
        assert isinstance(multiply, MultiplyOp)
        self.wide_scale = multiply.operands[1]
        self.wide_shift = final.operands[1]


class BatchNormFolder:
    """Computes the two constants FoldConstant would leave of each batch_norm's expansion.

    All or nothing per function: the first `fold` plans every batch_norm of the function
    whose `[0]` is read, and folds them only if each one can be (so two batch_norms whose
    expansions EliminateCommonSubexpr would have shared are treated alike).
    """

    def __init__(self, max_elements: int, unpack: UnpackFn, function: Operation):
        self.folding = FoldConstantCall(Evaluator(ModuleOp([])), max_elements)
        self.unpack = unpack
        self.function = function
        self.templates: dict[TemplateKey, _Template | None] = {}
        self.plan: dict[BatchNormOp, _Folded] | None = None

    def fold(self, op: BatchNormOp) -> list[Operation] | None:
        """`[1, epsilon, scale, multiply, shift, add]` for `op`'s `[0]` (the add last), or None."""
        if self.plan is None:
            self.plan = self.plan_function()
        folded = self.plan.get(op)
        if folded is None:
            return None
        template, scale_value, shift_value = folded
        scale = _constant(scale_value, template.wide_scale)
        shift = _constant(shift_value, template.wide_shift)
        out = MultiplyOp.make([op.data, scale.result])
        final = AddOp.make([out.results[0], shift.result])
        scalars = [ConstantOp(c.value) for c in template.ops if isinstance(c, ConstantOp)]
        return [*scalars, scale, out, shift, final]

    def plan_function(self) -> dict[BatchNormOp, _Folded]:
        """The folded values of every expanded batch_norm of the function; {} if one fails."""
        # The types of the function's constants, by their bytes: bytes hash at C speed, and
        # only a folded value whose bytes some constant has needs its type compared.
        existing: dict[bytes, list[Attribute]] = {}
        norms: list[BatchNormOp] = []
        for op in nested_ops(self.function):
            kind = _KINDS.get(type(op))
            if kind is None:
                kind = _KINDS[type(op)] = _kind(type(op))
            if kind == _CONSTANT:
                constant = cast(ConstantOp, op)
                ty, data = _key(constant.result.type, constant.value)
                existing.setdefault(data, []).append(ty)
            elif kind == _NORM and _expanded(cast(BatchNormOp, op)):
                norms.append(cast(BatchNormOp, op))
        sources: dict[ConstantKey, tuple[object, ...]] = {}
        plan: dict[BatchNormOp, _Folded] = {}
        for op in norms:
            folded = self.values(op)
            if folded is None or _reassociable(op):
                return {}
            template, scale, shift = folded
            if _all_equal(scale, 1) or _all_equal(shift, 0):
                return {}  # SimplifyExpr would drop the op before FoldScaleAxis
            gamma, beta, mean, var = (_param_key(v) for v in op.operands[1:])
            signature = (tuple(v.type for v in op.operands), frozenset(op.properties.items()))
            # What EliminateCommonSubexpr merged the old expansion's ops by.
            for value, ty, source in (
                (scale, template.wide_scale.type, ("scale", signature, var, gamma)),
                (shift, template.wide_shift.type, ("shift", signature, gamma, beta, mean, var)),
            ):
                key: ConstantKey = (ty, _bytes(value))
                if key[0] in existing.get(key[1], ()) or sources.setdefault(key, source) != source:
                    return {}
            plan[op] = folded
        return plan

    def values(self, op: BatchNormOp) -> _Folded | None:
        """The template of `op` and its scale and shift values, as FoldConstant folds them."""
        template = self.template(op)
        if template is None:
            return None
        env: dict[SSAValue, Value] = {}
        for arg, operand in zip(template.args[1:], op.operands[1:], strict=True):
            if not isinstance(operand.owner, ConstantOp):
                return None  # a parameter that is not a constant
            value = constant_value(operand)
            if value is None:
                return None
            env[arg] = value
        on_data: set[SSAValue] = {template.args[0]}
        for inner in template.ops:
            if isinstance(inner, ConstantOp):
                value = constant_value(inner.result)
                if value is None:
                    return None
                env[inner.result] = value
            elif any(operand in on_data for operand in inner.operands):
                on_data.update(inner.results)  # the multiply and the add: they stay
            elif (value := self.evaluate(inner, env)) is not None:
                env[inner.results[0]] = value
            else:
                return None
        scale, shift = env[template.wide_scale], env[template.wide_shift]
        return template, scale, shift

    def evaluate(self, op: Operation, env: Mapping[SSAValue, Value]) -> Value | None:
        """`op`'s value on the values of its operands, rounded as its constant would be."""
        args = [env[operand] for operand in op.operands]
        results = self.folding.evaluate(op, args)
        if results is None:
            return None
        return rounded_constant(results[0], op.results[0].type)

    def template(self, op: BatchNormOp) -> _Template | None:
        """The expansion of batch_norms like `op`, built once per signature."""
        props = dict(op.properties)
        key: TemplateKey = (tuple(v.type for v in op.operands), frozenset(props.items()))
        if key in self.templates:
            return self.templates[key]
        block = Block(arg_types=key[0])
        try:
            ops = self.unpack(block.args, props)
        except RelayTypeError:
            ops = None
        template = None
        if ops and ops[-1].results[0].type == key[0][0]:
            template = _Template(block.args, ops)
        self.templates[key] = template
        return template


_OTHER, _CONSTANT, _NORM = 0, 1, 2
_KINDS: dict[type[Operation], int] = {}
"""Per op class: a constant, a batch_norm or other (`isinstance` on xDSL's ABCs is slow)."""


def _kind(cls: type[Operation]) -> int:
    if issubclass(cls, ConstantOp):
        return _CONSTANT
    return _NORM if issubclass(cls, BatchNormOp) else _OTHER


_Folded = tuple[_Template, Value, Value]
"""A batch_norm's template, scale value and shift value."""


def rounded_constant(value: Value, ty: Attribute) -> npt.NDArray[Any] | None:
    """`as_constant(value, ty)` for float32 and float64 tensors without building the
    attribute: the dense encoding of these dtypes is the cast to them, little-endian."""
    if isinstance(value, tuple) or not isinstance(ty, TensorType):
        return None
    element = tensor_element_type(cast(Attribute, ty))
    if element not in (f32, f64):
        return None
    array = np.asarray(cast(npt.ArrayLike, value)).astype(numpy_dtype(element))
    shape = tuple(cast(TensorType[Attribute], ty).get_shape())
    return array if array.shape == shape else None


def dense_of(value: Value, ty: Attribute) -> DenseIntOrFPElementsAttr | None:
    """The dense attribute FoldConstant's `materialize` puts in a constant of type `ty`."""
    element = tensor_element_type(ty)
    dense = dense_from_numpy(np.asarray(value), element)
    return dense if dense.type == ty else None


def _constant(value: Value, like: SSAValue) -> ConstantOp:
    dense = dense_of(value, like.type)
    assert dense is not None  # checked by `values`
    return ConstantOp(dense)


def _key(ty: Attribute, dense: DenseIntOrFPElementsAttr | None) -> ConstantKey:
    return (ty, dense.data.data if dense is not None else b"")


def _bytes(value: Value) -> bytes:
    """The bytes of a dense attribute holding `value` (`dense_from_numpy`'s, little-endian)."""
    array = np.asarray(value)
    return np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<")).tobytes()


def _param_key(value: SSAValue) -> ConstantKey:
    owner = value.owner
    assert isinstance(owner, ConstantOp)  # checked by `values`
    return _key(value.type, owner.value)


def _all_equal(value: Value, fill: int) -> bool:
    return bool(np.all(np.asarray(value) == fill))


def _expanded(op: BatchNormOp) -> bool:
    """Whether SimplifyInference expands `op`: a `[0]` projection of it is read."""
    return any(
        isinstance(getitem := use.operation, TupleGetItemOp)
        and getitem.index.value.data == 0
        and getitem.result.first_use is not None
        for use in op.result.uses
    )


def _reads_constant(op: Operation) -> bool:
    return any(isinstance(v.owner, ConstantOp) for v in op.operands)


def _reassociable(op: BatchNormOp) -> bool:
    """Whether SimplifyExpr's constant rules could meet `op`'s multiply or add."""
    producer = op.data.owner
    if isinstance(producer, AddOp | MultiplyOp) and _reads_constant(producer):
        return True
    for use in op.result.uses:
        getitem = use.operation
        if isinstance(getitem, TupleGetItemOp) and getitem.index.value.data == 0:
            for inner in getitem.result.uses:
                user = inner.operation
                if isinstance(user, AddOp | MultiplyOp) and _reads_constant(user):
                    return True
    return False
