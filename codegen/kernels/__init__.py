"""The shared kernel library: vectorized C routines every target's code may call.

A `Library` is one translation unit of C (`source`) with the
prototypes callers need (`prototypes`) and the flags it is compiled with
(`cflags`: `-O3`, the build machine's ISA). A kernel printer that calls one
names it in `Kernel.libraries`; the host emitter (`codegen/c/emitter.py`)
then declares its prototypes in `model.h` and adds its unit (`unit`) to the
model's sources, once however many kernels call it. The vector width is chosen
by the compiler's predefined macros when the unit is compiled (AVX-512, AVX2,
NEON, else a portable 4-lane fallback): the Python side prints the same text
for every machine.

Libraries: `gemm` (`gemm.py`), the float32 matrix product behind the host's
`nn.dense`, `matmul` and `nn.batch_matmul`; `vmath` (`vmath.py`), float32 `exp`, `log`,
`tanh`, `sigmoid`, `erf` as inline functions `model.h` defines (its "prototypes") and array
routines; `rows` (`rows.py`), float32 softmax, log_softmax and layer norm along any axis
(it requires `vmath`: `Library.requires`, `closure`); `reduce` (`reduce.py`), float32
sum, mean, prod, max, min over one block of adjacent axes. `gemm` also runs 1x1 convolutions.
`threads` (`threads.py`): the host's team size (`xn_team`), the dynamic split every
threaded kernel runs on (`xn_parallel`: threads claim chunks of a range; accel's kernels,
the host's pools, `lrn`, which requires it) and threaded row copies (`xn_copy_rows`,
concatenate and split), on OpenMP threads.

Printers of kernels specialized to one op, shared by accel and the host: the
register-blocked direct convolution (`conv_direct.py`), the depthwise one
(`conv_depthwise.py`), both driven by a plain description (`conv_plan.py`:
extents, strides, padding, dilation, the epilogue's pointers), the pools
(`pool.py`), over the vector prelude (`vectors.py`). accel prints them into its
functions (on OpenMP threads); the host prints them as routines
(`routine.py`) into the generated library units, compiled with `CFLAGS` (and `-fopenmp`
when a routine asks for it: `Routine.cflags`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from xrelay.codegen.kernels import gemm, lrn, reduce, rows, threads, vmath


@dataclass(frozen=True)
class Library:
    """One unit of the shared kernel library."""

    name: str
    unit: str
    """Its file name among the model's sources (`kernels_<name>.c`: a stem no target takes)."""
    prototypes: tuple[str, ...]
    """Declarations for `model.h`."""
    source: str
    """Its C definitions (after `#include "model.h"`)."""
    cflags: tuple[str, ...]
    """Flags for its unit only, after the host's."""
    requires: tuple[str, ...] = ()
    """Libraries whose declarations its source uses (their units are added with it)."""
    ldflags: tuple[str, ...] = ()
    """Flags the model's link needs for it (`-fopenmp`: libgomp)."""


CFLAGS = ("-O3", "-ffp-contract=fast")
"""The library units' flags: as accel's (`codegen/accel/__init__.py`) without OpenMP. The
unit is specialized to the build's `-march` (its vector width), which the emitter puts
before these (`codegen/c/isa.py`)."""

HOST_CFLAGS = ("-O3",)
"""The host C units' flags (`model.c`, `kernels_<n>.c`), after the base flags and the
build's `-march` (`codegen/c/isa.py`): vectorized fused elementwise loops (calling `vmath`'s
inline functions) for that ISA. No `-ffast-math` (NaN and infinities must keep their rules)
and no FMA contraction (`-std=c11`'s default: the host's double sums stay as the
interpreter's)."""

LIBRARIES: Mapping[str, Library] = MappingProxyType(
    {
        "gemm": Library(
            "gemm",
            "kernels_gemm.c",
            (
                gemm.PROTOTYPE + ";",
                gemm.PROTOTYPE_EP + ";",
                gemm.PROTOTYPE_PP + ";",
                gemm.PROTOTYPE_PA + ";",
            ),
            gemm.source(),
            CFLAGS,
            requires=("vmath",),
        ),
        "reduce": Library(
            "reduce", "kernels_reduce.c", (reduce.PROTOTYPE + ";",), reduce.source(), CFLAGS
        ),
        "rows": Library(
            "rows", "kernels_rows.c", rows.PROTOTYPES, rows.source(), CFLAGS, requires=("vmath",)
        ),
        "vmath": Library(
            "vmath", "kernels_vmath.c", (vmath.HEADER, *vmath.PROTOTYPES), vmath.source(), CFLAGS
        ),
        "lrn": Library(
            "lrn",
            "kernels_lrn.c",
            (lrn.PROTOTYPE + ";",),
            lrn.source(),
            (*CFLAGS, *lrn.CFLAGS),
            requires=("threads",),
        ),
        "threads": Library(
            "threads",
            "kernels_threads.c",
            threads.PROTOTYPES,
            threads.source(),
            (*CFLAGS, *threads.CFLAGS),
            ldflags=threads.LDFLAGS,
        ),
    }
)
"""Library name -> library."""


def closure(names: set[str]) -> list[str]:
    """`names` and every library they require, transitively, sorted."""
    found: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(LIBRARIES[name].requires)
    return sorted(found)


# The printers here build on the host's C writer (`codegen.c.writer`), whose package loads the
# host emitter, which loads these printers: load the host package once this one is complete, so
# that whichever module is imported first, the printers find each other whole.
import xrelay.codegen.c  # noqa: E402, F401  # pyright: ignore[reportUnusedImport]
