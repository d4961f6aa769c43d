"""Profiling builds (the build option `profile`): a timer around every kernel of the model.

`CEmitter(module, profile=True)` gives the emitter a `Profiler`. The timed
regions ("entries"), each a static counter pair (calls, nanoseconds) of the
library, keyed by a stable name:

- entry 0 is the whole run: the entry function's body, named after it (`main`);
- every op of the entry function that prints code: a call is named after its
  callee (`fused_nn_softmax`, `tvmgen_default_accel_main_0`; a second call of
  the same callee `<callee>#1`), any other op `main/<op name>#<n>`
  (`n` counts that op name's timed ops in the function, from 0);
- every op of a function printed by a BYOC target's emitter (accel's kernels,
  dnnl's primitive executions): `<function>/<op name>#<n>`, e.g.
  `tvmgen_default_accel_main_0/accel.conv2d#2`.

Host functions called from `main` (FuseOps' groups) are timed at their call
only. A timed op's C block is wrapped where it runs, on the calling thread:
`{ const uint64_t xr_pN = xr_prof_now(); <the op's C> xr_prof_add(N, xr_pN); }`
(`N` the entry's index). A kernel that opens an OpenMP region is timed around
the region, as the caller waits for it: time on other threads is not added.
`xr_prof_now` reads `CLOCK_MONOTONIC`; `xr_prof_add` adds to the counters
atomically (instances may run on several threads at once). `model.c` defines
the counters and the ABI's `xrelay_profile_*` functions (`xrelay_runtime.h`);
a build without `profile` prints none of this, byte for byte.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.ir import Operation
from xrelay.codegen.c.names import c_string
from xrelay.codegen.c.writer import CWriter

POSIX = "#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */"
"""The first line of a profiling build's `model.c`."""

DECLARATIONS = [
    "/* Profiling: a timer around every kernel (the build option `profile`). */",
    "XR_HIDDEN uint64_t xr_prof_now(void);",
    "XR_HIDDEN void xr_prof_add(int32_t index, uint64_t start);",
    "",
]
"""What `model.h` declares for the timed units."""


class Profiler:
    """The entries of one profiling build (module docstring), in index order."""

    def __init__(self, entry: str) -> None:
        self.entry = entry
        """The entry function's IR name: entry 0, the whole run."""
        self.names: list[str] = [entry]
        """Each entry's name, by index."""
        self._taken: set[str] = {entry}
        self._counts: dict[str, int] = {}

    def times_ops(self, function: str, byoc: bool) -> bool:
        """Whether the ops of `function` (IR name; `byoc`: printed by a BYOC target's
        emitter) are timed one by one: the entry function's and the targets' are."""
        return byoc or function == self.entry

    def name_of(self, function: str, op: Operation) -> str:
        """A new entry name for `op` of the function `function` (IR name)."""
        if function == self.entry and isinstance(op, func.CallOp):
            plain, base = True, op.callee.root_reference.data
        else:
            plain, base = False, f"{function}/{op.name}"
        number = self._counts.get(base, 0)
        while True:  # a name is never reused, even for odd symbol names
            name = base if plain and number == 0 else f"{base}#{number}"
            number += 1
            if name not in self._taken:
                break
        self._counts[base] = number
        self._taken.add(name)
        return name

    def time(self, w: CWriter, start: int, name: str) -> None:
        """Wrap `w`'s lines from `start` on (one op's C, at `w.depth`) in a new entry's timer."""
        index = len(self.names)
        self.names.append(name)
        self.wrap(w, start, index)

    @staticmethod
    def wrap(w: CWriter, start: int, index: int) -> None:
        """Wrap `w`'s lines from `start` on in the timer of entry `index`."""
        pad = "  " * w.depth
        body = [f"  {line}" if line else line for line in w.lines[start:]]
        w.lines[start:] = [
            f"{pad}{{",
            f"{pad}  const uint64_t xr_p{index} = xr_prof_now();",
            *body,
            f"{pad}  xr_prof_add({index}, xr_p{index});",
            f"{pad}}}",
        ]

    def definitions(self) -> list[str]:
        """`model.c`'s counters, timer functions and `xrelay_profile_*` (after its includes)."""
        count = len(self.names)
        names = [f"    {c_string(name)}," for name in self.names]
        return [
            "/* Profiling: calls and nanoseconds of every timed region, by index. */",
            f"static const char *const xr_prof_names[{count}] = {{",
            *names,
            "};",
            f"static uint64_t xr_prof_calls[{count}];",
            f"static uint64_t xr_prof_ns[{count}];",
            "",
            "XR_HIDDEN uint64_t xr_prof_now(void) {",
            "  struct timespec now;",
            "  clock_gettime(CLOCK_MONOTONIC, &now);",
            "  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;",
            "}",
            "",
            "XR_HIDDEN void xr_prof_add(int32_t index, uint64_t start) {",
            "  const uint64_t elapsed = xr_prof_now() - start;",
            "  __atomic_fetch_add(&xr_prof_ns[index], elapsed, __ATOMIC_RELAXED);",
            "  __atomic_fetch_add(&xr_prof_calls[index], 1, __ATOMIC_RELAXED);",
            "}",
            "",
            f"int32_t xrelay_profile_count(void) {{ return {count}; }}",
            "",
            "const char *xrelay_profile_name(int32_t index) {",
            f"  return index >= 0 && index < {count} ? xr_prof_names[index] : NULL;",
            "}",
            "",
            "int32_t xrelay_profile_read(int32_t index, uint64_t *calls, uint64_t *nanoseconds) {",
            f"  if (index < 0 || index >= {count}) {{",
            "    return 1;",
            "  }",
            "  if (calls != NULL) {",
            "    *calls = __atomic_load_n(&xr_prof_calls[index], __ATOMIC_RELAXED);",
            "  }",
            "  if (nanoseconds != NULL) {",
            "    *nanoseconds = __atomic_load_n(&xr_prof_ns[index], __ATOMIC_RELAXED);",
            "  }",
            "  return 0;",
            "}",
            "",
            "void xrelay_profile_reset(void) {",
            f"  for (int32_t index = 0; index < {count}; ++index) {{",
            "    __atomic_store_n(&xr_prof_calls[index], 0, __ATOMIC_RELAXED);",
            "    __atomic_store_n(&xr_prof_ns[index], 0, __ATOMIC_RELAXED);",
            "  }",
            "}",
            "",
        ]
