"""Routines: shared-library functions printed for one model, specialized to an op's shapes.

A kernel printer that wants a kernel compiled as the library is (`CFLAGS`:
`-O3`, the machine's ISA) but specialized to its op (extents, strides and
epilogue as constants, as accel's kernels are) prints a `Routine` and a call
to it, and appends the routine to `Kernel.routines`. The host emitter declares
each routine's prototype in `model.h` and prints the definitions into the
generated library units (`kernels_generated.c`, `kernels_generated_<n>.c` when
large), each unit after the preludes its routines need. The name is the
routine's stem and a digest of its text, so two ops with the same shapes and
epilogue share one routine.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

ROUTINE_UNIT = "kernels_generated.c"
"""The generated library unit's file name (`kernels_generated_<n>.c` when cut in several)."""


@dataclass(frozen=True)
class Routine:
    """One generated function: `XR_HIDDEN void <name>(<params>) { <body> }`."""

    name: str
    params: str
    """The C parameter list, e.g. `const float *restrict in0, float *out0`."""
    body: str
    """The statements of the definition, one per line."""
    preludes: tuple[str, ...] = ()
    """File-scope C the body needs (each guarded by its own `#ifndef`), printed before it."""
    cflags: tuple[str, ...] = ()
    """Flags its unit needs besides the library's (`-fopenmp` for an `omp` pragma)."""

    @property
    def prototype(self) -> str:
        return f"XR_HIDDEN void {self.name}({self.params})"

    def definition(self) -> str:
        return f"{self.prototype} {{\n{self.body}}}\n"


def routine(
    stem: str,
    params: str,
    lines: list[str],
    preludes: tuple[str, ...] = (),
    cflags: tuple[str, ...] = (),
) -> Routine:
    """The routine `<stem>_<digest>` of `params` and body `lines` (the digest covers both)."""
    body = "".join(f"{line}\n" for line in lines)
    digest = hashlib.sha256(f"{params}\n{body}".encode()).hexdigest()[:12]
    return Routine(f"{stem}_{digest}", params, body, preludes, cflags)
