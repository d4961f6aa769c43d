"""`div-to-mul` (TVM's `DivToMul`): divide by a float constant as multiply by its reciprocal.

`relay.divide(x, c)` with `c` a `relay.constant` of `float16`, `float32` or `float64`
with no zero element becomes `relay.multiply(x, 1 / c)`, the reciprocal a new
constant of `c`'s type and shape (float32 and float64 rounded once from the exact
quotient; float16 computed in float32 and rounded to half, as TVM). The result can
differ from the division in the last bit (one more rounding). Integer division is
never rewritten (`1 / c` would truncate), nor a division by a non-constant or by a
constant with a zero.

TVM reads only the constant's first element and leaves the others of the new constant
uninitialized; xrelay takes the reciprocal of every element, so a non-scalar divisor
keeps its meaning. Opt level 0, as TVM's; the constant divided by is erased when
nothing else reads it. A function pass, into nested regions too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects.relay.elementwise import DivideOp, MultiplyOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_from_numpy, dense_to_numpy, tensor_element_type
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic


def reciprocal(value: npt.NDArray[np.generic]) -> npt.NDArray[np.generic] | None:
    """`1 / value` in its dtype, or None if it is not a supported float or has a zero."""
    dtype = str(value.dtype)
    if dtype not in ("float16", "float32", "float64"):
        return None
    wide = value.astype(np.float64)
    if not np.all(wide != 0):
        return None
    exact = np.float64(1.0) / wide
    if dtype == "float16":
        return exact.astype(np.float32).astype(np.float16)
    return exact.astype(value.dtype)


def rewrite_division(divide: DivideOp) -> bool:
    """Replace `divide` by a multiply if its divisor is a usable constant; whether it did."""
    owner = divide.rhs.owner
    if not isinstance(owner, ConstantOp):
        return False
    inverse = reciprocal(np.asarray(dense_to_numpy(owner.value)))
    if inverse is None:
        return False
    constant = ConstantOp(dense_from_numpy(inverse, tensor_element_type(owner.result.type)))
    multiply = MultiplyOp.make_typed([divide.lhs, constant.result], divide.result.type)
    Rewriter.insert_op(constant, InsertPoint.before(divide))
    Rewriter.replace_op(divide, multiply)
    if not owner.result.uses:
        Rewriter.erase_op(owner)
    return True


@dataclass(frozen=True)
class DivToMulPass(XdslFunctionPass):
    """Rewrite division by a nonzero float constant into multiplication by its reciprocal."""

    name = "div-to-mul"
    tvm_name: ClassVar[str] = "DivToMul"
    opt_level: ClassVar[int] = 0

    rewritten: ClassVar[Statistic] = Statistic("num-rewritten", "Number of divisions rewritten")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        divisions = [op for op in function.walk() if isinstance(op, DivideOp)]
        self.rewritten.add(sum(rewrite_division(op) for op in divisions))


def DivToMul() -> Pass:
    """TVM's `relay.transform.DivToMul()`."""
    return XdslPass(DivToMulPass())
