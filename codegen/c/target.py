"""`xrelay-opt -t c`: print the C sources of a module that is already optimized and planned.

The target prints what it is given: run the lowering first, e.g.
`xrelay-opt model.mlir -p 'optimize{opt-level=3},plan-memory' -t c`. A module
without the `plan-memory` attributes is a located error saying so. Each file
is printed under a `// ----- <name>` line (`model.h`, `model.c`, kernels);
`constants.bin` is binary and shown by its size only.
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
