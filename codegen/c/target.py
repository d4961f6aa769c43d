"""`xrelay-opt -t c`: print the C sources of a module that is already lowered and planned.

The target prints what it is given, host code and partitions: run the lowering
first, e.g. `xrelay-opt model.mlir -p 'optimize{opt-level=3},plan-memory' -t c`
for the host alone, or
`-p 'partition-for{target=accel},optimize{opt-level=3},convert-relay-to-accel,plan-memory' -t c`
to offload to accel. A module without the `plan-memory` attributes is a
located error saying so. Each file is printed under a `// ----- <name>` line:
`model.h`, `model.c` (the C ABI and host code), `kernels_<n>.c` (large host
code), each BYOC target's functions in `<target>.c` (e.g. `accel.c`, or
`accel_<n>.c` when large); `constants.bin` is binary and shown by its size
only. A function partitioned for a target with a code generator is that
target's: an op in it the target does not take (its lowering did not run) is
the located error `'<op>' op cannot be emitted for target '<t>': lower it with
<pass> first (in function @<f>, partitioned for '<t>')`, never host code; so is
an op a target cannot print (`'<op>' op cannot be emitted for target '<t>'`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target
from xrelay.codegen.c.emitter import CEmitter


@dataclass(frozen=True)
class CTarget(Target):
    """Host C: the model library's sources (the module must be optimized and planned)."""

    name = "c"

    entry: str = "main"
    """The function the library runs."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(CEmitter(module, self.entry).emit().render())
