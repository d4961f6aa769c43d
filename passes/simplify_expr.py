"""`simplify-expr` (TVM's `SimplifyExpr`): collapse reshape and transpose chains, make
`*_like` ops concrete, drop identity ops, casts and clips that change nothing, combine
constants of adjacent adds and multiplies, and TVM's algebraic rewrites.

A function pass (opt_level 0) applying these rewrites, in TVM's order, with the greedy
rewriter until none applies (rule groups in the `simplify_*.py` files named below):

- **Concretize `*_like`** (`simplify_like.py`): `zeros_like`, `ones_like`, `full_like`,
  `reshape_like`, `broadcast_to_like`, `collapse_sum_like` of a static result shape
  become `zeros`, `ones`, `full`, `reshape`, `broadcast_to`, `collapse_sum_to`;
  `cast_like` becomes `cast`.
- **Algebra** (`simplify_algebra.py`): `x + x` is `x * 2`, `n / sqrt(x)` is
  `n * rsqrt(x)`, `a*x*x + b*x*y + c*y*y` is `a * (x + p*y) * (x + q*y)`.
- **Reshape chains.** A reshape-like op (`relay.reshape`, `relay.squeeze`,
  `relay.expand_dims`, `relay.nn.batch_flatten`) whose input is itself made by a
  reshape-like op becomes one `relay.reshape` of the first op's input to the
  final shape, when that shape is static (`newshape` is the shape itself;
  `allowzero` only if it has a 0 dim). A chain whose final shape has a `?` stays.
  The inner op stays if something else reads it (the outer op is rewritten all
  the same, as TVM's pattern rewriter does: a reshape copies nothing, so the
  inner one is not recomputed, only no longer shared).
  A chain back to its input's type is that input at once (the reshape it would
  become is an identity, dropped next). TVM chains `reshape` and `reverse_reshape`
  only; xrelay all four reshape-like ops.
- **Transposes and layout transforms** (`simplify_transpose.py`): two adjacent ones
  become one transpose, one layout_transform, or nothing; identity ones vanish.
- **Identity ops.** A reshape-like op whose result has its input's type, and
  `relay.cast` to the input's dtype, vanish; a `relay.reshape` or `relay.squeeze`
  only when that type is static: with a `?` an equal type does not prove the same
  shape (`reshape ?x? {newshape = [-1, 6]}`), and a squeeze without `axis` also
  drops a `?` that is 1 at run time (`dialects/relay/reference_tensor.py`).
- **Casts and clips** (`simplify_cast.py`): a widening cast merges into the next cast;
  casts after a clip whose range they hold go; a clip holding its dtype's range goes.
- **Arithmetic identities.** `x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x` and
  `x / 1` become `x` when the other operand is a `relay.constant` all of whose
  elements are 0 (resp. 1), or `relay.zeros`/`zeros_like` (resp. `ones`/
  `ones_like`), AND the result has exactly `x`'s type: `x * ones` that broadcasts
  `x` to a larger shape is kept. A `full`/`ones`/`zeros` operand of any broadcasting
  op whose other operand has the result's type becomes a scalar constant
  (`FullElementwise`, `simplify_like.py`).
- **Adjacent constants** (`passes/simplify_arith.py`). `(x * c1) * c2` becomes
  `x * (c1 * c2)`, `(x + c1) + c2` becomes `x + (c1 + c2)`, and `(x + c1) * c2`
  becomes `x * c2 + (c1 * c2)`, with `c1`, `c2` `relay.constant`s (either operand
  order), `x` not one, and the combined constant computed now (reference numpy
  semantics: the dtype's wrapping for integers). Skipped when the inner op has
  another reader (it would be computed twice).

Every rewrite keeps the replaced value's type exactly (a new op's inferred type
must equal the old one, else the rewrite is skipped), so function types never
change. Ops a rewrite leaves without uses (the inner reshape, the identity
constant, the inner add and its constants) are erased, and their operands in
turn if that leaves them unused; other dead code is left to `dce`.

Not ported from TVM: the `qnn.dequantize` + arg-op rewrites (no QNN here). TVM
accepts only scalar identity constants; xrelay accepts any constant whose elements
are all the identity, under the same type condition.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, f32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xrelay.dialects.builder.attrs import bool_, ints
from xrelay.dialects.relay.creation import OnesLikeOp, OnesOp, ZerosLikeOp, ZerosOp
from xrelay.dialects.relay.elementwise import AddOp, CastOp, DivideOp, MultiplyOp, SubtractOp
from xrelay.dialects.relay.nn import BatchFlattenOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import (
    ExpandDimsOp,
    ReshapeOp,
    SqueezeOp,
)
from xrelay.dialects.relay.types import (
    ANY,
    BFLOAT16,
    dense_to_numpy,
    is_bool,
    numpy_dtype,
    shape_of,
)
from xrelay.dialects.resources import is_elided
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.greedy import rewrite_greedily
from xrelay.passes.pass_manager import Pass
from xrelay.passes.simplify_algebra import SimplifyAdd, SimplifyBinomial, SimplifyRSqrt
from xrelay.passes.simplify_arith import SimplifyAdjacentMultiplyOrAdd, SwitchAddMultiply
from xrelay.passes.simplify_cast import (
    SimplifyClip,
    SimplifyClipAndConsecutiveCast,
    SimplifyConsecutiveCast,
)
from xrelay.passes.simplify_common import forward, rebuild
from xrelay.passes.simplify_like import ConcretizeLike, FullElementwise
from xrelay.passes.simplify_transpose import SimplifyTranspose

RESHAPE_LIKE = (ReshapeOp, SqueezeOp, ExpandDimsOp, BatchFlattenOp)
"""Ops that only change the shape: the same elements in the same order."""


def _static(value: SSAValue) -> bool:
    """Whether a value is a tensor of static shape."""
    return ANY not in shape_of(value.type)


class CollapseReshapes(RewritePattern):
    """A reshape-like op of a reshape-like op -> one reshape to the (static) final shape."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: ReshapeOp | SqueezeOp | ExpandDimsOp | BatchFlattenOp,
        rewriter: PatternRewriter,
        /,
    ) -> None:
        inner = op.data.owner
        if not isinstance(inner, RESHAPE_LIKE) or not _static(op.result):
            return
        if inner.data.type == op.result.type:
            # The one reshape would be an identity, which EliminateIdentityReshape drops
            # next (static type): forward at once instead of building it.
            forward(rewriter, op, inner.data)
            return
        shape = shape_of(op.result.type)
        props: dict[str, Attribute] = {"newshape": ints(shape), "allowzero": bool_(0 in shape)}
        rebuild(rewriter, op, ReshapeOp, inner.data, props)


class EliminateIdentityReshape(RewritePattern):
    """A reshape-like op (or cast) whose result has its input's type -> its input."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: ReshapeOp | SqueezeOp | ExpandDimsOp | BatchFlattenOp | CastOp,
        rewriter: PatternRewriter,
        /,
    ) -> None:
        if op.result.type != op.data.type:
            return
        if isinstance(op, ReshapeOp | SqueezeOp) and not _static(op.data):
            return  # see the module docstring
        forward(rewriter, op, op.data)


def _is_fill(value: SSAValue, fill: int) -> bool:
    """Whether `value` is a constant (or zeros/ones op) all of whose elements equal `fill`."""
    owner = value.owner
    kind = _fill_kind(type(owner))
    if kind == _ZEROS:
        return fill == 0
    if kind == _ONES:
        return fill == 1
    if kind == _CONSTANT:
        dense: DenseIntOrFPElementsAttr[Any] = cast(ConstantOp, owner).value
        if _first_differs(dense, fill):
            return False  # most constants (weights) are told apart by their first element
        return bool(np.all(dense_to_numpy(dense) == fill))
    return False


def _first_differs(dense: DenseIntOrFPElementsAttr[Any], fill: int) -> bool:
    """Whether a constant's first element is not `fill` (so not all of them are).

    Reads one element of the constant's bytes instead of decoding them all; False
    when it cannot tell (no elements, an elided value, a bool or bfloat16 type).
    """
    element = dense.get_element_type()
    if element == f32 and len(data := dense.data.data) >= 4:
        return data[:4] not in _F32_FILLS[fill]  # the common case, without numpy
    if is_elided(dense) or math.prod(dense.get_shape()) == 0:
        return False
    if is_bool(element):
        return False
    dtype = numpy_dtype(element)
    if dtype == BFLOAT16:
        return False
    data = dense.data.data
    if len(data) < dtype.itemsize:
        return False
    first = np.frombuffer(data, dtype=dtype.newbyteorder("<"), count=1)[0]
    return bool(first != fill)


_F32_FILLS: dict[int, tuple[bytes, ...]] = {
    0: (np.array(0.0, dtype="<f4").tobytes(), np.array(-0.0, dtype="<f4").tobytes()),
    1: (np.array(1.0, dtype="<f4").tobytes(),),
}
"""The little-endian float32 encodings of the values equal to each fill (-0.0 == 0)."""


class EliminateIdentityArithmetic(RewritePattern):
    """`x + 0`, `0 + x`, `x - 0`, `x * 1`, `1 * x`, `x / 1` -> `x` when the type is x's."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: AddOp | SubtractOp | MultiplyOp | DivideOp, rewriter: PatternRewriter, /
    ) -> None:
        lhs, rhs = op.operands
        if not _fill_kind(type(lhs.owner)) and not _fill_kind(type(rhs.owner)):
            return  # most ops: neither operand can be an identity (checked first, cheaply)
        fill = 0 if isinstance(op, AddOp | SubtractOp) else 1
        commutative = isinstance(op, AddOp | MultiplyOp)
        result_type = op.results[0].type
        if lhs.type == result_type and _is_fill(rhs, fill):
            forward(rewriter, op, lhs)
        elif commutative and rhs.type == result_type and _is_fill(lhs, fill):
            forward(rewriter, op, rhs)


_OTHER, _ZEROS, _ONES, _CONSTANT = 0, 1, 2, 3
_FILL_KINDS: dict[type[Operation | Block], int] = {}


def _fill_kind(cls: type[Operation | Block]) -> int:
    """Which of the ops `_is_fill` can say yes to `cls` is (`_OTHER`: none), per class:
    `isinstance` on xDSL's op classes (ABCs) costs several times a dict lookup, and this is
    asked of both operands of every add, subtract, multiply and divide offered."""
    kind = _FILL_KINDS.get(cls)
    if kind is None:
        if issubclass(cls, ZerosOp | ZerosLikeOp):
            kind = _ZEROS
        elif issubclass(cls, OnesOp | OnesLikeOp):
            kind = _ONES
        else:
            kind = _CONSTANT if issubclass(cls, ConstantOp) else _OTHER
        _FILL_KINDS[cls] = kind
    return kind


@dataclass(frozen=True)
class SimplifyExprPass(XdslFunctionPass):
    """Collapse reshape chains, remove identity ops, combine adjacent constants (TVM's
    SimplifyExpr)."""

    REPORTS_CHANGES: ClassVar[bool] = True
    """Changes the IR only through `rewrite_greedily` (see `passes/greedy.py`)."""

    name = "simplify-expr"
    tvm_name: ClassVar[str] = "SimplifyExpr"
    opt_level: ClassVar[int] = 0

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        rewrite_greedily(function.body, _patterns())


@functools.cache
def _patterns() -> list[RewritePattern]:
    """The rewrites in TVM's order (`SimplifyExpr` in TVM's `simplify_expr.cc`)."""
    return [
        ConcretizeLike(),
        SimplifyAdd(),
        SimplifyRSqrt(),
        EliminateIdentityArithmetic(),
        CollapseReshapes(),
        SimplifyTranspose(),
        EliminateIdentityReshape(),
        SimplifyConsecutiveCast(),
        FullElementwise(),
        SwitchAddMultiply(),
        SimplifyAdjacentMultiplyOrAdd(),
        SimplifyClipAndConsecutiveCast(),
        SimplifyClip(),
        SimplifyBinomial(),
    ]


def SimplifyExpr() -> Pass:
    """TVM's `relay.transform.SimplifyExpr()`."""
    return XdslPass(SimplifyExprPass())
