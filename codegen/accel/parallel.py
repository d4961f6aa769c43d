"""Threads for accel kernels: a kernel's loop nest over `[q0, q1)`, run on an OpenMP team.

A kernel prints its loop nest, over a range `q0 <= q < q1` of `total` independent parts
(conv: output rows, dense: output units, max pool: output rows, elementwise: elements),
as a routine (`codegen/kernels/routine.py`): a function in the build's generated library
units, named by a digest of its text, so every kernel of the build with the same loop
nest (the same shapes and epilogue: a network's repeated blocks) calls one definition,
compiled once (about half of light DenseNet-121's accel code, and a third of light
SqueezeNet's, were copies when each function printed its own). Where the kernel runs it
calls the routine once over `[0, total)`, or hands it (through a trampoline routine that
unpacks its pointers) to the shared kernel library's `xn_parallel`
(`codegen/kernels/threads.py`): an OpenMP region whose threads claim contiguous chunks
of `[0, total)` from a shared counter, several chunks per thread, each worth the
kernel's grain, so a thread that starts late or runs intermittently (a VM's second vCPU)
takes fewer chunks instead of making the others wait for its half. The region is opened
only when `xa_threads` says more than 1 thread: one thread runs the direct call, never
an OpenMP region (even an `if(0)` region costs ~0.6 us in libgomp), so a single thread
pays no overhead. Each routine call keeps its own locals (the conv's scratch is on each
thread's stack: at most 64 KiB, `conv_blocked.py`), and each output is computed by the
same code whichever thread claims it: results do not depend on the thread count. What a
call site keeps for itself (a constant weight packed once, `conv_gemm.py`,
`dense_gemm.py`) is `static` at the call site and passed in (`Team.run`'s `state`): a
routine holds no state, since convs of one shape with different weights share it.

GEMM-shaped kernels (`dense_gemm.py`, `conv_gemm.py`, the blocked and grouped convs of
`conv_blocked.py`) pack an operand per call (the GEMM's `A` and `B` blocks, the conv's
scratch of input rows) and lose their register tiles' width on narrow ranges: cut into
fine chunks they ran 3x slower on 2 threads (the MLP's dense 182 -> 575 us). They run
`coarse` (`Team.run`): one chunk per thread of the team, still claimed from the shared
counter, so a thread that has not started when the others finish their chunk has its
chunk taken by them, and the region costs at most about the 1-thread time (a static split
waited for the late thread's half).

How many threads (`xa_threads`, in the prelude): the build option
`num_threads` when given (`XA_NUM_THREADS`), else OpenMP's default
`omp_get_max_threads()` (`OMP_NUM_THREADS` when set, read when libgomp loads;
else the CPU count), at most `most`: the number of parts that each hold a
kernel-specific `grain` of work (`Team.parts`: below two, the kernel prints no
region at all, nor does any kernel of a `num_threads = 1` build). Without OpenMP (a unit
compiled without `-fopenmp`) everything runs on the calling thread, and so does
a child forked after the library loaded (a `pthread_atfork` handler: libgomp's
thread pool does not survive `fork`, a region in the child would wait forever).

The region's end is still OpenMP's implicit barrier: a thread that has not
started when the chunks run out still delays the master until it arrives.
libgomp's idle threads spin ~8 ms after a run (`GOMP_SPINCOUNT`'s 300k pauses
on Zen 4) before they sleep; `OMP_WAIT_POLICY=passive` makes them sleep at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields

from xrelay.codegen.c.kernel_api import Kernel, scalar
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import routine, threads
from xrelay.codegen.kernels.vectors import PRELUDE

THREADING = """\
#ifndef XA_THREADING
#define XA_THREADING
/* accel's threads: the build's num_threads (0: OpenMP's default, OMP_NUM_THREADS). */
#define XA_NUM_THREADS {num_threads}
#ifdef _OPENMP
#include <omp.h>
#include <pthread.h>
/* libgomp's thread pool does not survive fork(): in the child, a parallel region would wait
   forever for the parent's threads. So a forked child runs every kernel on one thread. */
static int xa_forked;
static void xa_after_fork(void) {{ xa_forked = 1; }}
__attribute__((constructor)) static void xa_watch_fork(void) {{
  pthread_atfork(NULL, NULL, xa_after_fork);
}}
#endif
/* The threads of a kernel whose work splits into at most `most` useful parts. */
static inline int xa_threads(int64_t most) {{
#ifdef _OPENMP
  if (xa_forked) return 1;
  const int64_t n = XA_NUM_THREADS > 0 ? XA_NUM_THREADS : omp_get_max_threads();
  return (int)(n < most ? n : most);
#else
  (void)most;
  return 1;
#endif
}}
#endif
"""
"""File-scope C of the thread choice; guarded, so every accel function may print it."""


def prelude(num_threads: int | None) -> str:
    """The threading prelude for a build's `num_threads` (None: OpenMP's default)."""
    return THREADING.format(num_threads=num_threads or 0)


@dataclass
class Team:
    """The threading of one accel function: the build's thread count."""

    num_threads: int | None
    """The build option `num_threads`; None: OpenMP's default at run time."""

    def parts(self, total: int, work: int, grain: int) -> int:
        """The parts worth splitting `total` parts of `work` into: one per `grain` of work, at
        most `total` (1 in a build of one thread); at least 1. It bounds the team
        (`xa_threads`) and the chunks the team claims (`xn_chunks`: at least `total / most`
        parts each)."""
        if self.num_threads == 1:
            return 1
        return max(1, min(total, work // grain))

    def team(self, most: int) -> int:
        """The most threads a kernel of `most` parts runs on: `most`, at most the build's
        `num_threads` when given."""
        return most if self.num_threads is None else min(most, self.num_threads)

    def run(
        self,
        k: Kernel,
        total: int,
        most: int,
        body: Callable[[Kernel], None],
        *,
        coarse: bool = False,
        state: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """Print `body` (a loop nest over `q0 <= q < q1` writing `k`'s outputs) as a routine,
        and at `k` its call over `[0, total)`, in up to `most` chunks claimed by up to `most`
        threads (`xn_parallel`); with `most < 2`, a routine over `[0, total)` called once.
        `coarse`: one chunk per thread of the team (a GEMM-shaped body, which packs its
        operands per call). `state`: the body's pointer parameters besides `k`'s, each
        `(C type, name, argument at the call site)`, e.g. a buffer the call site keeps."""
        inner = CWriter(1)
        body(replace(k, w=inner))
        params, ctypes, unused = _params(k, inner, state)
        args = [*k.ins, *k.outs, *(argument for _, _, argument in state)]
        stem = f"xa_{k.op.name.rsplit('.', 1)[-1]}"
        preludes = (PRELUDE,)
        if most < 2:
            lines = [f"  const {INDEX} q0 = 0, q1 = {total};", *unused, *inner.lines]
            made = routine.routine(stem, ", ".join(params), lines, preludes)
            k.routines.append(made)
            k.w.line(f"{made.name}({', '.join(args)});")
            return
        ranged_params = ", ".join([*params, f"{INDEX} q0", f"{INDEX} q1"])
        ranged = routine.routine(stem, ranged_params, [*unused, *inner.lines], preludes)
        part = routine.routine(
            f"{stem}_chunk", threads.PART_PARAMS, threads.trampoline(ranged.name, ctypes)
        )
        k.routines += [ranged, part]
        k.libraries.add("threads")
        w = k.w
        w.line(f"const int xa_nt = xa_threads({most});")
        with w.block("if (xa_nt > 1)"):
            chunks = "xa_nt" if coarse else str(most)
            threads.call(w, "xa_nt", str(total), chunks, part.name, args)
        with w.block("else"):
            w.line(f"{ranged.name}({', '.join(args)}, 0, {total});")


def _params(
    k: Kernel, body: CWriter, state: Sequence[tuple[str, str, str]]
) -> tuple[list[str], list[str], list[str]]:
    """A routine's pointer parameters (`k`'s, then `state`'s), their C types for the
    trampoline, and `(void)p;` for those `body` does not read."""
    pointers = [
        *((f"const {scalar(t).ctype} *", p) for p, t in zip(k.ins, k.in_types, strict=True)),
        *((f"{scalar(t).ctype} *", p) for p, t in zip(k.outs, k.out_types, strict=True)),
        *((ctype, name) for ctype, name, _ in state),
    ]
    text = "\n".join(body.lines)
    params = [f"{ctype}restrict {name}" for ctype, name in pointers]
    ctypes = [ctype for ctype, _ in pointers]
    unused = [f"  (void){p};" for _, p in pointers if not re.search(rf"\b{p}\b", text)]
    return params, ctypes, unused


@dataclass
class AccelKernel(Kernel):
    """A `Kernel` of an accel function, with the function's `Team` (what its printer splits)."""

    team: Team = field(kw_only=True)


AccelKernelFn = Callable[[AccelKernel], None]
"""Prints one accel op's loop nests (`kernels.KERNELS`)."""


def bind(fn: AccelKernelFn, team: Team) -> Callable[[Kernel], None]:
    """`fn` as a host `KernelFn`: the kernel it is given, with `team`. An op whose results
    are all empty prints nothing (kernels may assume non-empty extents: they divide by
    them to choose blocks)."""

    def printer(k: Kernel) -> None:
        if all(0 in t.get_shape() for t in k.out_types):
            k.w.line("/* an empty result: nothing to compute */")
            return
        fields = {f.name: getattr(k, f.name) for f in dataclass_fields(Kernel)}
        fn(AccelKernel(**fields, team=team))  # the same `libraries`, `routines` the emitter reads

    return printer
