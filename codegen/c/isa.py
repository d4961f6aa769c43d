"""Portable builds: the `-march` every unit is compiled with, and the ISA the library records.

A model library is compiled for one `-march` (the build option `march`,
default `native`: the building machine's CPU). Two translation units make the
library say what that choice requires and refuse a CPU that lacks it:

- `isa_required.c`, compiled with the build's `-march` like every other unit,
  holds data only: the comma list of the instruction set features the
  compiler enabled (from its predefined macros: `__AVX512F__` is `avx512f`,
  `__ARM_NEON` is `neon`, ...; `FEATURES`), so the list is exactly what the
  other units may use;
- `isa.c`, compiled for the architecture's baseline (`baseline_cflags`:
  `-march=x86-64` on x86-64), so its code runs on any CPU of the family:
  `xrelay_required_isa()` returns the list, `xrelay_missing_isa()` the first
  feature this CPU lacks (x86: `__builtin_cpu_supports`; elsewhere nothing is
  checked and it returns NULL), and `xrelay_model_create()` refuses to create
  an instance on such a CPU (`library needs avx512f, this CPU lacks it` in
  `xrelay_last_error()`) before any code of the other units runs; it creates
  the instance through `model.c`'s `xr_model_create`.

The Python loader (`codegen/runtime/loader.py`) calls `xrelay_missing_isa()`
when it loads a library. `check_march` asks the compiler whether it knows a
`-march` value before anything is built.
"""

from __future__ import annotations

import functools
import platform
import re
import subprocess

from xrelay.codegen.build import BuildError, find_compiler

REQUIRED_UNIT = "isa_required.c"
CHECK_UNIT = "isa.c"

FEATURES: tuple[tuple[str, str], ...] = (
    ("__SSE3__", "sse3"),
    ("__SSSE3__", "ssse3"),
    ("__SSE4_1__", "sse4.1"),
    ("__SSE4_2__", "sse4.2"),
    ("__POPCNT__", "popcnt"),
    ("__AVX__", "avx"),
    ("__AVX2__", "avx2"),
    ("__FMA__", "fma"),
    ("__F16C__", "f16c"),
    ("__BMI__", "bmi"),
    ("__BMI2__", "bmi2"),
    ("__AVX512F__", "avx512f"),
    ("__AVX512CD__", "avx512cd"),
    ("__AVX512VL__", "avx512vl"),
    ("__AVX512BW__", "avx512bw"),
    ("__AVX512DQ__", "avx512dq"),
    ("__AVX512IFMA__", "avx512ifma"),
    ("__AVX512VBMI__", "avx512vbmi"),
    ("__AVX512VBMI2__", "avx512vbmi2"),
    ("__AVX512VNNI__", "avx512vnni"),
    ("__AVX512BITALG__", "avx512bitalg"),
    ("__AVX512VPOPCNTDQ__", "avx512vpopcntdq"),
    ("__AVX512BF16__", "avx512bf16"),
    ("__AVX512FP16__", "avx512fp16"),
    ("__AVXVNNI__", "avxvnni"),
    ("__AMX_TILE__", "amx-tile"),
    ("__SSE4A__", "sse4a"),  # AMD only: a native build on AMD may use it, an Intel CPU lacks it
    ("__ARM_NEON", "neon"),
    ("__ARM_FEATURE_FMA", "arm-fma"),
    ("__ARM_FEATURE_SVE", "sve"),
)
"""(predefined macro, feature name) of the features a library records, x86 names as
`__builtin_cpu_supports` spells them."""

CHECKED: frozenset[str] = frozenset(
    name for macro, name in FEATURES if not macro.startswith("__ARM")
)
"""The features `isa.c` checks at load (x86, with `__builtin_cpu_supports`)."""

NEWER_GCC: frozenset[str] = frozenset({"f16c", "avx512fp16", "amx-tile"})
"""Features whose `__builtin_cpu_supports` name needs GCC 12 (checked only when it is)."""

_MARCH = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*\Z")


def march_flag(march: str) -> str:
    """`-march=<march>`."""
    return f"-march={march}"


def baseline_cflags() -> list[str]:
    """Flags that make `isa.c` run on every CPU of the building machine's family."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return ["-march=x86-64", "-mtune=generic"]
    return []


def check_march(march: str) -> None:
    """`ValueError` for a malformed value, `BuildError` (GCC's message, condensed) for a
    `-march` value the C compiler does not know."""
    if not _MARCH.match(march):
        raise ValueError(f"option march must be a -march= value like 'x86-64-v3', got {march!r}")
    compiler = find_compiler()
    problem = _probe(compiler.command, compiler.identity, march)
    if problem:
        raise BuildError(f"march '{march}' is not known to {compiler.command[0]}: {problem}")


@functools.lru_cache(maxsize=32)
def _probe(command: tuple[str, ...], identity: str, march: str) -> str:
    """ "" if `command` preprocesses with `-march=<march>`, else its first error line."""
    del identity  # only part of the memo key
    try:
        result = subprocess.run(
            [*command, march_flag(march), "-E", "-x", "c", "-"],
            input=b"",
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as error:
        return str(error)
    if result.returncode == 0:
        return ""
    lines = result.stderr.decode(errors="replace").splitlines()
    errors = [line for line in lines if "error" in line] or lines or ["failed"]
    return re.sub(r"^\S*cc1\S*: error: ", "", errors[0]).strip()


def required_unit() -> str:
    """`isa_required.c`: the feature list, as data (see the module docstring)."""
    lines = [
        "/* isa_required.c - generated by xrelay: the ISA features this build's -march enabled,",
        " * as data only (compiled with the build's -march like the units that use them). */",
        '__attribute__((visibility("hidden"))) const char xr_isa_required[] = ""',
    ]
    for macro, name in FEATURES:
        lines += [f"#ifdef {macro}", f'    ",{name}"', "#endif"]
    return "\n".join([*lines, "    ;", ""])


def check_unit() -> str:
    """`isa.c`: the check and the guarded `xrelay_model_create` (module docstring)."""
    lines = [
        "/* isa.c - generated by xrelay: compiled for the architecture's baseline, so it runs on",
        " * every CPU of the family; refuses a CPU that lacks a feature the library needs. */",
        "#include <stddef.h>",
        "#include <string.h>",
        "",
        '#include "xrelay_runtime.h"',
        "",
        '#define XR_HIDDEN __attribute__((visibility("hidden")))',
        "XR_HIDDEN extern const char xr_isa_required[];",
        "XR_HIDDEN xrelay_model *xr_model_create(void);",
        "XR_HIDDEN void xr_refuse(const char *feature);",
        "",
        "const char *xrelay_required_isa(void) {",
        "  return xr_isa_required[0] == ',' ? xr_isa_required + 1 : xr_isa_required;",
        "}",
        "",
        "/* Whether the comma list of required features names `feature`. */",
        "static int xr_needs(const char *feature) {",
        "  size_t n = strlen(feature);",
        "  for (const char *p = xr_isa_required; (p = strstr(p, feature)) != NULL; p += n) {",
        "    if (p[-1] == ',' && (p[n] == ',' || p[n] == '\\0')) return 1;",
        "  }",
        "  return 0;",
        "}",
        "",
        "const char *xrelay_missing_isa(void) {",
        "#if defined(__x86_64__) || defined(__i386__)",
        "  __builtin_cpu_init();",
    ]
    for _, name in FEATURES:
        if name not in CHECKED:
            continue
        check = f'  if (xr_needs("{name}") && !__builtin_cpu_supports("{name}")) return "{name}";'
        if name in NEWER_GCC:
            lines += ["#if defined(__clang__) || __GNUC__ >= 12", check, "#endif"]
        else:
            lines.append(check)
    lines += [
        "#endif",
        "  return NULL;",
        "}",
        "",
        "xrelay_model *xrelay_model_create(void) {",
        "  const char *missing = xrelay_missing_isa();",
        "  if (missing != NULL) {",
        "    xr_refuse(missing);",
        "    return NULL;",
        "  }",
        "  return xr_model_create();",
        "}",
        "",
    ]
    return "\n".join(lines)


def units(march: str | None) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The two ISA units and their flags (`march` None: no `-march` at all)."""
    files = {REQUIRED_UNIT: required_unit(), CHECK_UNIT: check_unit()}
    flags = {CHECK_UNIT: baseline_cflags()}
    if march is not None:
        flags[REQUIRED_UNIT] = [march_flag(march)]
    return files, flags
