"""`print-ir` (TVM's `PrintIR`): print the module to stderr and leave it unchanged."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xrelay.dialects.ir_module import IRModule


@dataclass(frozen=True)
class PrintIRPass(ModulePass):
    """Print the module to stderr as `PrintIR(<header>):` and the IR; changes nothing."""

    name = "print-ir"
    tvm_name: ClassVar[str] = "PrintIR"
    opt_level: ClassVar[int] = 0

    header: str = ""
    """Printed in the first line, to tell dumps apart."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        text = IRModule(module=op).astext()
        sys.stderr.write(f"PrintIR({self.header}):\n{text}")
        sys.stderr.flush()
