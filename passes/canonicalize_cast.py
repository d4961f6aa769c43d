"""`canonicalize-cast` (TVM's `CanonicalizeCast`): give each elementwise user its own upcast.

An upcast (a `relay.cast` to a wider type of the same kind: `i8` to `i32`,
`f16` to `f32`) read by several elementwise or broadcast ops is copied, so
that each reader has its own: the first reader keeps the original, each later
one gets a copy placed just before it. FuseOps can then fuse each copy into
its reader's function, and the producer's fused function returns the narrow
type (fewer bytes between the functions). TVM's rule, read from its source:
only calls of ops whose pattern is at most Broadcast copy, and only casts to
more bits.

CSE would merge the copies again; TVM's pipeline (and `optimize`) run this
pass after CSE, at opt level 3. One walk over each function; linear.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Operation
from xrelay.dialects.relay.elementwise import CastOp
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.op_pattern import OpPatternKind, op_pattern
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic


def is_upcast(op: Operation) -> bool:
    """A `relay.cast` to more bits than its operand has."""
    if not isinstance(op, CastOp):
        return False
    source = numpy_dtype(tensor_element_type(op.data.type)).itemsize
    target = numpy_dtype(tensor_element_type(op.result.type)).itemsize
    return source < target


@dataclass(frozen=True)
class CanonicalizeCastPass(XdslFunctionPass):
    """Copy an upcast for each elementwise/broadcast op that reads it (after the first)."""

    name = "canonicalize-cast"
    tvm_name: ClassVar[str] = "CanonicalizeCast"
    opt_level: ClassVar[int] = 3

    copies: ClassVar[Statistic] = Statistic("num-copies", "Number of upcasts copied")

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        seen: set[Operation] = set()
        for op in list(function.walk()):
            if op_pattern(op) > OpPatternKind.BROADCAST:
                continue
            for index, operand in enumerate(op.operands):
                cast = operand.owner
                if not isinstance(cast, Operation) or not is_upcast(cast):
                    continue
                if cast not in seen:
                    seen.add(cast)  # the first reader keeps the original
                    continue
                copy = cast.clone()
                block = op.parent_block()
                assert block is not None
                block.insert_op_before(copy, op)
                op.operands[index] = copy.results[0]
                self.copies.add(1)


def CanonicalizeCast() -> Pass:
    """TVM's `relay.transform.CanonicalizeCast()`: the `canonicalize-cast` pass."""
    return XdslPass(CanonicalizeCastPass())
