"""The `dnnl` backend: seed 004's DNNL example made real, on oneDNN's C API (Debian's 2.6).

Importing this package registers the target through the public hooks, as a
third-party backend would: op support predicates (`op_support`), the
composite pattern table (`patterns`), and the code generator
(`codegen/targets.py`): `convert-relay-to-dnnl` lowers its partitions to the
`dnnl` dialect, then `DnnlFunctionEmitter` (`emitter.py`, per-op printers in
`primitives.py` and `conv.py`, C helpers in `runtime.py`) prints them into
`dnnl.c`, linked with `-ldnnl`. The emitter is imported on first use, not with
`xrelay`. Its `prelude` (`PRELUDE`) makes every convolution NHWC before
partitioning.

Build options, as C flags (`options={"cflags": [...]}`):
`-DXRELAY_DNNL_ALLOW_REFERENCE` accepts oneDNN's reference implementations
(refused by default, naming the op, when the model instance is created);
`-DXRELAY_DNNL_NO_WINOGRAD` keeps every convolution direct (by default a 3x3
stride-1 convolution of 16 or more input channels runs oneDNN's Winograd kernel
where it has one: faster, and as accurate on tinyres; `conv.winograd_candidate`; its
2x3 or 4x3 kernel by shape and thread count, `conv.winograd_kernels`;
`-DXRELAY_DNNL_WINOGRAD_DEFAULT` leaves that choice to oneDNN, whose first is 2x3);
`-DXRELAY_DNNL_RELU_POST_OP` gives relu post-ops to oneDNN on every run (NaN become 0:
by default oneDNN's relu runs only when a run's inputs and the function's constants are
all finite, and xrelay's NaN-keeping pass after the primitive otherwise,
`primitive.fuses_relu`, `docs/semantics.md`).
`benchmarks/dnnl_variants.py` times a model built with each.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xrelay.codegen.dnnl import op_support, patterns

from xrelay.ext import CodegenTarget, register_codegen

if TYPE_CHECKING:
    from xdsl.dialects import func

    from xrelay.ext import CEmitter, FunctionEmitter


PRELUDE = (
    'convert-layout{desired-layouts="nn.conv2d:NHWC:default"}',
    "fold-constant",
)
"""dnnl's prelude (as TVM's `partition_for_dnnl`): every conv2d to NHWC activations (HWIO
weights) on the whole module before partitioning, so activations stay NHWC from one dnnl
partition to the next and the pools and elementwise ops between follow them; the
transposes sit at the model's edges only. `fold-constant` then folds the weights'
and biases' layout transforms, so partitions bind them as constants."""


ACCEPTS = (
    "relay.constant",
    "relay.tuple",
    "relay.tuple_get_item",
    "relay.reshape",
    "func.return",
)
"""The ops of other dialects a dnnl function holds after its lowering, and its emitter
prints (`emitter.py`; a reshape is an alias): everything else must be `dnnl.*`."""


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
        prelude=PRELUDE,
        dialect="dnnl",
        accepts=ACCEPTS,
    )
)
"""dnnl's code generator, as registered."""

__all__ = ["ACCEPTS", "CODEGEN", "function_emitter", "op_support", "patterns"]
