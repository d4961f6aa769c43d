"""The dynamic ops (`relay.dyn.*`) on the C target: none has a C form, on purpose.

Their result shapes are read at run time and the C target compiles static shapes
only, so each is the located error of `Unsupported`: the message says to make the
shape static (`dynamic-to-static`, which `optimize` and so `xrelay.build` run, folds
every shape computable at compile time: constants, `shape_of` of static tensors).
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xrelay.codegen.c.kernel_api import Kernel, KernelFn, Unsupported
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.dyn import OPS


def no_dynamic_shapes(k: Kernel) -> None:
    """Raise the located error every dynamic op is on the C target."""
    raise Unsupported(
        "has a shape known only at run time; the C target compiles static shapes: make the "
        "shape static (a constant, or shape_of of a static tensor) so that dynamic-to-static "
        "(run by optimize and xrelay.build) replaces it with the static op"
    )


DYN_KERNELS: dict[str, KernelFn] = {op.name: no_dynamic_shapes for op in OPS}
"""Each dynamic op -> the error it is on the C target (no C form, with the reason)."""


def check_static_shapes(module: ModuleOp) -> None:
    """The build step `check-static-shapes`: a dynamic op still in the module (after
    `optimize`, if it ran) is a located error, before memory planning meets its `?` dims."""
    for op in module.walk():
        if op.name in DYN_KERNELS:
            message = (
                "has a shape known only at run time; the C target compiles static shapes: "
                "make the shape static (a constant, or shape_of of a static tensor) so that "
                "dynamic-to-static (run by optimize) replaces it"
            )
            raise DiagnosticError([op_error(op, message)])
