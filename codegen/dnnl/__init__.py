"""The `dnnl` backend: seed 004's DNNL example made real, on oneDNN's C API (Debian's 2.6).

Importing this package registers the target through the public hooks, as a
third-party backend would: op support predicates (`op_support`), the
composite pattern table (`patterns`), and the code generator
(`codegen/targets.py`): `convert-relay-to-dnnl` lowers its partitions to the
`dnnl` dialect, then `DnnlFunctionEmitter` (`emitter.py`, per-op printers in
`primitives.py`, C helpers in `runtime.py`) prints them into `dnnl.c`, linked
with `-ldnnl`. The emitter is imported on first use, not with `xrelay`.

Build options, as C flags (`options={"cflags": [...]}`):
`-DXRELAY_DNNL_ALLOW_REFERENCE` accepts oneDNN's reference implementations
(refused by default, naming the op, when the model instance is created);
`-DXRELAY_DNNL_WINOGRAD` lets oneDNN choose Winograd convolutions where it has them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrelay.codegen.dnnl import op_support, patterns
from xrelay.codegen.targets import CodegenTarget, register_codegen

if TYPE_CHECKING:
    from xdsl.dialects import func
    from xrelay.codegen.c.emitter import CEmitter
    from xrelay.codegen.c.function import FunctionEmitter


def function_emitter(owner: CEmitter, function: func.FuncOp, symbol: str) -> FunctionEmitter:
    """The printer of one lowered dnnl function (`emitter.DnnlFunctionEmitter`)."""
    from xrelay.codegen.dnnl.emitter import DnnlFunctionEmitter

    return DnnlFunctionEmitter(owner, function, symbol)


CODEGEN = register_codegen(
    CodegenTarget(
        "dnnl",
        ("convert-relay-to-dnnl",),
        function_emitter,
        # Glue around oneDNN calls (the work is in the library): compile fast. OpenMP for the
        # thread count its primitives are created with (oneDNN 2.6 in Debian uses OpenMP).
        cflags=("-O0", "-fopenmp"),
        ldflags=("-ldnnl", "-fopenmp"),
    )
)
"""dnnl's code generator, as registered."""

__all__ = ["CODEGEN", "function_emitter", "op_support", "patterns"]
