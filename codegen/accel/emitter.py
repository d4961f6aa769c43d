"""The accel function emitter: one function partitioned for `accel` and lowered, as C.

The host `CEmitter` hands every function with `Compiler = "accel"` of a build
for accel (see `codegen/c/emitter.py`) to `AccelFunctionEmitter`, registered in
`codegen/accel/__init__.py`, once every op in it is an `accel.*` one or one of
`ACCEPTS` (else a located error: a partition whose lowering did not run). It is the
host's `FunctionEmitter` (same calling convention, arena plan and constants)
with accel's op table only: the accel kernels (`kernels.py`, float32 tensors
only), `relay.constant`, `relay.tuple`, `relay.tuple_get_item` and
`func.return` (`ACCEPTS`). Anything else, such as a relay op left in the
function, is the located error `'<op>' op cannot be emitted for target 'accel'`
(`CEmitter` checks that first, naming the pass that lowers it). The functions
go into the translation unit `accel.c` (`accel_<n>.c` when large); their kernels'
loop nests are routines (`parallel.py`, `codegen/kernels/routine.py`) in the generated
library units, one per distinct loop nest in the whole build, which the functions call,
directly or on threads (the thread count is the owner's `num_threads`, the build option).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.ir import Operation
from xrelay.codegen.accel import ACCEPTS, parallel
from xrelay.codegen.accel.kernels import KERNELS
from xrelay.codegen.accel.vectors import PRELUDE
from xrelay.codegen.c.function import FunctionEmitter
from xrelay.codegen.c.kernel_api import Unsupported, leaf_types, scalar

if TYPE_CHECKING:
    from xrelay.codegen.c.emitter import CEmitter

TARGET = "accel"


class AccelFunctionEmitter(FunctionEmitter):
    """Prints one accel function: accel kernels and the structure around them only."""

    def __init__(self, owner: CEmitter, function: func.FuncOp, symbol: str) -> None:
        self.team = parallel.Team(owner.num_threads)
        """The build's thread count."""
        kernels = {name: parallel.bind(fn, self.team) for name, fn in KERNELS.items()}
        super().__init__(owner, function, symbol, target=TARGET, kernels=kernels, rules={})

    def unit_prelude(self) -> str:
        """The accel preludes, once per unit: the vector type and helpers (`vectors.py`),
        the thread choice (`parallel.py`)."""
        return PRELUDE + parallel.prelude(self.team.num_threads)

    def emit_op(self, op: Operation, inlined: set[Operation]) -> None:
        """Print a kernel (float32 operands and results) or a structural op; refuse the rest."""
        if op.name in self.kernels:
            for value in (*op.operands, *op.results):
                for type_ in leaf_types(value.type):
                    if scalar(type_).ctype != "float":
                        raise Unsupported(f"cannot emit type '{type_}'")
        elif op.name not in ACCEPTS:
            raise Unsupported("cannot be emitted")
        super().emit_op(op, inlined)
