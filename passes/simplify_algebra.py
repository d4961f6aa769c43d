"""`simplify-expr`'s algebraic rewrites (TVM's `SimplifyAdd`, `SimplifyRSqrt` and
`SimplifyBinomial`), kept apart so `simplify_expr.py` stays small.

- `x + x` becomes `x * 2` (the 2 a scalar constant of x's dtype).
- `n / sqrt(x)` becomes `n * rsqrt(x)` (`1 * rsqrt(x)` then loses its identity).
- `a*x*x + b*x*y + c*y*y`, its three terms added in any order and each product in any
  association and operand order (a missing constant is 1), becomes
  `a * ((x + y*p) * (x + y*q))` with `p, q = (b ± sqrt(b² - 4ac)) / 2a`, one shared
  factor when the discriminant is below 1e-4, and `x` and `y` (and `a` and `c`) swapped
  first when `c == 1 < a`. The constants are written in the dtype (integers truncate,
  as TVM's `MakeConstantScalar`); a negative discriminant leaves the sum alone. Which
  square is `x` is TVM's: the one added to the `xy` term first, or the left one when
  the two squares are added first.

Beyond TVM: the binomial's constants must be scalars and the dtype int32, float32 or
float64 (TVM reads the first element of any constant, and takes the constants of other
dtypes as 1); x and y are not constants themselves.
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xrelay.dialects.relay.elementwise import AddOp, DivideOp, MultiplyOp, RsqrtOp, SqrtOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    dtype_of,
    numpy_dtype,
    shape_of,
    tensor_element_type,
)
from xrelay.passes.simplify_common import make, replace_by


def scalar_constant(value: float, element: Attribute) -> ConstantOp:
    """A rank-0 `relay.constant` of `value` in `element` (truncated for integers)."""
    dtype = numpy_dtype(element)
    return ConstantOp(dense_from_numpy(np.array(value).astype(dtype), element))


class SimplifyAdd(RewritePattern):
    """`x + x` -> `x * 2`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp, rewriter: PatternRewriter, /) -> None:
        lhs, rhs = op.operands
        if lhs is not rhs:
            return
        two = scalar_constant(2, tensor_element_type(op.result.type))
        new = make(MultiplyOp, [lhs, two.result], {})
        if new is not None:
            replace_by(rewriter, op, [two, new])


class SimplifyRSqrt(RewritePattern):
    """`n / sqrt(x)` -> `n * rsqrt(x)`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DivideOp, rewriter: PatternRewriter, /) -> None:
        root = op.rhs.owner
        if not isinstance(root, SqrtOp):
            return
        rsqrt = make(RsqrtOp, [root.data], {})
        if rsqrt is None:
            return
        new = make(MultiplyOp, [op.lhs, rsqrt.results[0]], {})
        if new is not None:
            replace_by(rewriter, op, [rsqrt, new])


_DTYPES = ("int32", "float32", "float64")
"""The dtypes whose binomial constants TVM reads."""


def _coefficient(value: SSAValue) -> float | None:
    owner = value.owner
    if not isinstance(owner, ConstantOp) or shape_of(value.type):
        return None
    return float(dense_to_numpy(owner.value).reshape(-1)[0])


def _product(term: SSAValue) -> tuple[float, SSAValue, SSAValue] | None:
    """`(k, u, v)` for a term `k * (u * v)` or `u * (k * v)` (operands of each multiply
    in either order), else `(1, u, v)` for `u * v`; u, v not constants."""
    op = term.owner
    if not isinstance(op, MultiplyOp):
        return None
    lhs, rhs = op.operands
    for outer, nested in ((lhs, rhs), (rhs, lhs)):
        inner = nested.owner
        if not isinstance(inner, MultiplyOp):
            continue
        k = _coefficient(outer)
        if k is not None and _variables(inner.lhs, inner.rhs):
            return k, inner.lhs, inner.rhs  # k * (u * v)
        for c, v in ((inner.lhs, inner.rhs), (inner.rhs, inner.lhs)):
            k = _coefficient(c)
            if k is not None and _variables(outer, v):
                return k, outer, v  # u * (k * v)
    if _variables(lhs, rhs):
        return 1.0, lhs, rhs
    return None


def _variables(*values: SSAValue) -> bool:
    return not any(isinstance(v.owner, ConstantOp) for v in values)


def _binomial(op: AddOp) -> tuple[SSAValue, SSAValue, float, float, float] | None:
    """`(x, y, a, b, c)` when `op` is `a*x*x + b*x*y + c*y*y` (module doc)."""
    for inner_value, last in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
        inner = inner_value.owner
        if not isinstance(inner, AddOp):
            continue
        terms = [_product(t) for t in (inner.lhs, inner.rhs, last)]
        if any(t is None for t in terms):
            continue
        squares = [t for t in terms if t is not None and t[1] is t[2]]
        mixed = [t for t in terms if t is not None and t[1] is not t[2]]
        if len(squares) != 2 or len(mixed) != 1:
            continue
        first, second = squares  # in operand order: the inner add's square comes first
        x, y = first[1], second[1]
        if x is y or {id(mixed[0][1]), id(mixed[0][2])} != {id(x), id(y)}:
            continue
        return x, y, first[0], mixed[0][0], second[0]
    return None


def _may_be_binomial(op: Operation) -> bool:
    """A cheap necessary condition: `add(add(mul, mul), mul)` in some operand order."""
    lhs, rhs = op.operands
    for inner, last in ((lhs.owner, rhs.owner), (rhs.owner, lhs.owner)):
        if type(inner) is AddOp and type(last) is MultiplyOp:
            a, b = inner.operands
            if type(a.owner) is MultiplyOp and type(b.owner) is MultiplyOp:
                return True
    return False


class SimplifyBinomial(RewritePattern):
    """`a*x*x + b*x*y + c*y*y` -> `a * ((x + y*p) * (x + y*q))` (module doc)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AddOp, rewriter: PatternRewriter, /) -> None:
        if not _may_be_binomial(op):
            return
        element = tensor_element_type(op.result.type)
        if dtype_of(element) not in _DTYPES:
            return
        found = _binomial(op)
        if found is None:
            return
        x, y, a, b, c = found
        if c == 1 and a > 1:
            x, y, a, c = y, x, c, a
        discriminant = b * b - 4 * a * c
        if discriminant < 0:
            return
        root = math.sqrt(discriminant)
        new: list[Operation] = []
        factors: list[SSAValue] = []
        values = [(b + root) / (2 * a)]
        if discriminant >= 10e-5:
            values.append((b - root) / (2 * a))
        for value in values:
            k = scalar_constant(value, element)
            scaled = make(MultiplyOp, [y, k.result], {})
            summed = scaled and make(AddOp, [x, scaled.results[0]], {})
            if scaled is None or summed is None:
                return
            new += [k, scaled, summed]
            factors.append(summed.results[0])
        product = make(MultiplyOp, [factors[0], factors[-1]], {})
        lead = scalar_constant(a, element)
        result = product and make(MultiplyOp, [lead.result, product.results[0]], {})
        if product is None or result is None:
            return
        replace_by(rewriter, op, [*new, product, lead, result])
