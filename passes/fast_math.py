"""`fast-math` (TVM's `FastMath`): exp, tanh, erf and softmax as their fast variants.

Every `relay.exp`, `relay.tanh`, `relay.erf` and `relay.nn.softmax` becomes
`relay.fast_exp`, `relay.fast_tanh`, `relay.fast_erf` and `relay.nn.fast_softmax` on the
same operand (softmax keeps its `axis`), as TVM's rewriter does for every dtype. In
TVM the fast ops are polynomial approximations; in xrelay they compute the exact
functions (`dialects/relay/fast_math.py`), so the rewrite changes op names only and the
numbers stay. Opt level 4, as TVM's: `optimize` (and `relay.build`) runs it only at
opt level 4 or when the PassContext requires it (`required_pass=["FastMath"]`).
A function pass, into nested regions too. One visit per op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.rewriter import Rewriter
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.elementwise import ErfOp, ExpOp, TanhOp
from xrelay.dialects.relay.fast_math import FastErfOp, FastExpOp, FastSoftmaxOp, FastTanhOp
from xrelay.dialects.relay.nn import SoftmaxOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

FAST: dict[type[RelayOp], type[RelayOp]] = {
    ExpOp: FastExpOp,
    TanhOp: FastTanhOp,
    ErfOp: FastErfOp,
    SoftmaxOp: FastSoftmaxOp,
}
"""Each exact op and its fast variant."""


@dataclass(frozen=True)
class FastMathPass(XdslFunctionPass):
    """Replace exp, tanh, erf and softmax by fast_exp, fast_tanh, fast_erf and fast_softmax."""

    name = "fast-math"
    tvm_name: ClassVar[str] = "FastMath"
    opt_level: ClassVar[int] = 4

    rewritten: ClassVar[Statistic] = Statistic("num-rewritten", "Number of ops made fast")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        count = 0
        for op in list(function.walk()):
            fast = FAST.get(type(op)) if isinstance(op, RelayOp) else None
            if fast is None:
                continue
            new = fast.make_typed(list(op.operands), op.results[0].type, dict(op.properties))
            Rewriter.replace_op(op, new)
            count += 1
        self.rewritten.add(count)


def FastMath() -> Pass:
    """TVM's `relay.transform.FastMath()`."""
    return XdslPass(FastMathPass())
