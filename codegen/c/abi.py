"""The fixed parts of the generated C: the shared header and the C ABI of `xrelay_runtime.h`.

`Runner(entry, symbol, arena)` describes the model's inputs (the entry
function's parameters, tuples flattened, named after the IR's parameter names
as escaped C strings) and outputs (`output0`, ...), and prints `model.c`:
the tensor infos, an instance that owns one arena allocated once by
`xrelay_model_create` (`aligned_alloc`), `xrelay_model_run` checking that
every pointer is given and aligned before calling the entry function, and
a per-thread last error (a message naming an input or output is a string
literal, so names of any length compile warning-free and are never cut).

Instance hooks (`InstanceHook`): a BYOC target whose code keeps state per model
instance (e.g. oneDNN primitives created once) adds pointer slots after the
planned arena (`slots`, zeroed at creation) and hooks called with the
instance arena: `init` when the instance is created (a nonzero return fails
`xrelay_model_create` with the message it wrote), `check` after each run (a
nonzero return fails `xrelay_model_run` likewise), `destroy` when the instance
is destroyed, or after `init` was called if the creation fails. Without hooks
the text is what it was without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xrelay.codegen.c.kernel_api import Unsupported, leaf_types, scalar, static_shape
from xrelay.codegen.c.names import c_string
from xrelay.codegen.c.scalars import Scalar
from xrelay.dialects.relay.sizes import MAX_BYTES

_INTEGER_HELPERS = """\
/* Integer arithmetic as numpy's: it wraps (computed in the unsigned type, so no signed
 * overflow); division truncates (TVM) and gives 0 for a zero divisor, as do mod and the
 * floored forms; shifts by a negative amount or the width or more shift every bit out
 * (docs/semantics.md). */
#define XR_SIGNED(S, T, U)                                                            \\
  static inline T xr_add_##S(T a, T b) { return (T)((U)a + (U)b); }                   \\
  static inline T xr_sub_##S(T a, T b) { return (T)((U)a - (U)b); }                   \\
  static inline T xr_mul_##S(T a, T b) { return (T)((U)a * (U)b); }                   \\
  static inline T xr_neg_##S(T a) { return (T)((U)0 - (U)a); }                        \\
  static inline T xr_abs_##S(T a) { return a < 0 ? xr_neg_##S(a) : a; }              \\
  static inline T xr_div_##S(T a, T b) {                                              \\
    return b == 0 ? (T)0 : b == -1 ? xr_neg_##S(a) : (T)(a / b);                      \\
  }                                                                                   \\
  static inline T xr_mod_##S(T a, T b) {                                              \\
    return b == 0 || b == -1 ? (T)0 : (T)(a % b);                                     \\
  }                                                                                   \\
  static inline T xr_floordiv_##S(T a, T b) {                                         \\
    T q = xr_div_##S(a, b), r = xr_mod_##S(a, b);                                     \\
    return r != 0 && ((r < 0) != (b < 0)) ? (T)(q - 1) : q;                           \\
  }                                                                                   \\
  static inline T xr_floormod_##S(T a, T b) {                                         \\
    T r = xr_mod_##S(a, b);                                                           \\
    return r != 0 && ((r < 0) != (b < 0)) ? (T)(r + b) : r;                           \\
  }                                                                                   \\
  static inline T xr_shl_##S(T a, T b) {                                              \\
    return b < 0 || b >= (T)(8 * sizeof(T)) ? (T)0 : (T)((U)a << b);                  \\
  }                                                                                   \\
  static inline T xr_shr_##S(T a, T b) {                                              \\
    return (T)(a >> (b < 0 || b >= (T)(8 * sizeof(T)) ? (T)(8 * sizeof(T) - 1) : b)); \\
  }                                                                                   \\
  static inline T xr_pow_##S(T a, T b) {                                              \\
    if (b < 0) return (T)(a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0);             \\
    U r = 1, x = (U)a;                                                                \\
    while (b != 0) {                                                                  \\
      if (b & 1) r *= x;                                                              \\
      x *= x;                                                                         \\
      b = (T)(b / 2);                                                                 \\
    }                                                                                 \\
    return (T)r;                                                                      \\
  }
#define XR_UNSIGNED(S, T, U)                                                          \\
  static inline T xr_add_##S(T a, T b) { return (T)((U)a + (U)b); }                   \\
  static inline T xr_sub_##S(T a, T b) { return (T)((U)a - (U)b); }                   \\
  static inline T xr_mul_##S(T a, T b) { return (T)((U)a * (U)b); }                   \\
  static inline T xr_neg_##S(T a) { return (T)((U)0 - (U)a); }                        \\
  static inline T xr_div_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); }         \\
  static inline T xr_mod_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }         \\
  static inline T xr_floordiv_##S(T a, T b) { return xr_div_##S(a, b); }              \\
  static inline T xr_floormod_##S(T a, T b) { return xr_mod_##S(a, b); }              \\
  static inline T xr_shl_##S(T a, T b) {                                              \\
    return b >= 8 * sizeof(T) ? (T)0 : (T)((U)a << b);                                \\
  }                                                                                   \\
  static inline T xr_shr_##S(T a, T b) {                                              \\
    return b >= 8 * sizeof(T) ? (T)0 : (T)(a >> b);                                   \\
  }                                                                                   \\
  static inline T xr_pow_##S(T a, T b) {                                              \\
    U r = 1, x = (U)a;                                                                \\
    while (b != 0) {                                                                  \\
      if (b & 1) r *= x;                                                              \\
      x *= x;                                                                         \\
      b = (T)(b / 2);                                                                 \\
    }                                                                                 \\
    return (T)r;                                                                      \\
  }
XR_SIGNED(i8, int8_t, unsigned)
XR_SIGNED(i16, int16_t, unsigned)
XR_SIGNED(i32, int32_t, uint32_t)
XR_SIGNED(i64, int64_t, uint64_t)
XR_UNSIGNED(u8, uint8_t, unsigned)
XR_UNSIGNED(u16, uint16_t, unsigned)
XR_UNSIGNED(u32, uint32_t, uint32_t)
XR_UNSIGNED(u64, uint64_t, uint64_t)
/* A float remainder with the divisor's sign (floor_mod): fmod moved by the divisor; a zero
 * remainder takes the divisor's sign. */
#define XR_FLOAT(S, T, FMOD, COPYSIGN)                                                \\
  static inline T xr_floormod_##S(T a, T b) {                                         \\
    T r = FMOD(a, b);                                                                 \\
    return r == 0 ? COPYSIGN((T)0, b) : ((r < 0) != (b < 0)) ? r + b : r;             \\
  }
XR_FLOAT(f32, float, fmodf, copysignf)
XR_FLOAT(f64, double, fmod, copysign)
/* bfloat16 is stored as its bits (the upper half of a binary32): widening is exact; narrowing
 * rounds to nearest even, and a NaN stays a NaN (quieted, its sign kept). */
static inline float xr_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
static inline uint16_t xr_f32_to_bf16(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  if (f != f) return (uint16_t)((bits >> 16) | 0x40u);
  bits += 0x7FFFu + ((bits >> 16) & 1u);
  return (uint16_t)(bits >> 16);
}
"""


_STANDARD_HEADERS = ("float.h", "math.h", "stddef.h", "stdint.h", "string.h")
"""What `model.h` and the library units include first."""


def header(constants: Sequence[str], prototypes: Sequence[str], profile: Sequence[str] = ()) -> str:
    """`model.h`: what every translation unit of the model includes (`profile`: the timer
    declarations of a profiling build, `profile.DECLARATIONS`)."""
    lines = [
        "/* model.h - generated by xrelay: what the model's translation units share. */",
        "#ifndef XRELAY_MODEL_H",
        "#define XRELAY_MODEL_H",
        "",
        *(f"#include <{name}>" for name in _STANDARD_HEADERS),
        "",
        '#define XR_HIDDEN __attribute__((visibility("hidden")))',
        "",
        _INTEGER_HELPERS,
    ]
    if constants:
        lines += ["/* Constants: symbols over constants.bin. */", *constants, ""]
    lines += [
        *profile,
        "/* One function per planned IR function. */",
        *prototypes,
        "",
        "#endif",
        "",
    ]
    return "\n".join(lines)


def library_unit(declarations: Sequence[str], source: str) -> str:
    """A unit of the shared kernel library (`codegen/kernels`): the standard headers,
    `XR_HIDDEN`, the declarations of its library and of those it requires, then its source.
    It includes nothing of the model's, so its text is the same in every build with the same
    libraries and its object is compiled once, then shared (`object_cache.py`)."""
    lines = [
        "/* Generated by xrelay: a unit of the shared kernel library. */",
        *(f"#include <{name}>" for name in _STANDARD_HEADERS),
        "",
        '#define XR_HIDDEN __attribute__((visibility("hidden")))',
        "",
        *declarations,
        "",
        source,
    ]
    return "\n".join(lines)


def kernel_unit(bodies: Sequence[str]) -> str:
    """A translation unit holding some of the kernels."""
    return '/* Generated by xrelay: kernels. */\n#include "model.h"\n\n' + "\n".join(bodies)


@dataclass(frozen=True)
class InstanceHook:
    """C functions a target defines to keep state per model instance (module docstring).

    Each takes the instance arena (`unsigned char *`); `init` and `check` also
    take an error buffer and its size, and return 0 on success.
    """

    init: str
    """`int init(unsigned char *arena, char *error, size_t size)`: at creation."""
    destroy: str
    """`void destroy(unsigned char *arena)`: at destruction (also after a failed `init`)."""
    check: str | None = None
    """`int check(unsigned char *arena, char *error, size_t size)`: after each run."""


SLOT_BYTES = 8
"""The size of one instance slot (a pointer)."""


@dataclass(frozen=True)
class Info:
    """One input or output of the model."""

    name: str
    element: Scalar
    shape: tuple[int, ...]


class Runner:
    """The model's ABI: its inputs and outputs and the entry function's C name."""

    def __init__(
        self,
        entry: func.FuncOp,
        symbol: str,
        arena: tuple[int, int],
        base: int = 0,
        hooks: Sequence[InstanceHook] = (),
        slots: int = 0,
    ) -> None:
        self.symbol = symbol
        self.base = base
        self.arena_size, self.alignment = arena
        self.hooks = list(hooks)
        self.slots = slots
        self.inputs: list[Info] = []
        taken: set[str] = set()
        for position, arg in enumerate(entry.body.block.args):
            hint = arg.name_hint or f"input{position}"
            types = leaf_types(arg.type)
            for field_index, type_ in enumerate(types):
                name = hint if len(types) == 1 else f"{hint}.{field_index}"
                while name in taken:
                    name = f"{name}_{position}"
                taken.add(name)
                self.inputs.append(self._info(name, type_))
        self.outputs = [
            self._info(f"output{k}", t)
            for k, t in enumerate(
                t for o in entry.function_type.outputs.data for t in leaf_types(o)
            )
        ]

    @staticmethod
    def _info(name: str, type_: TensorType[Attribute]) -> Info:
        element = scalar(type_)
        if element.abi is None:
            raise Unsupported(f"cannot emit type '{type_}' as a model input or output")
        return Info(name, element, static_shape(type_))

    def source(self, constants: Sequence[str], bodies: Sequence[str]) -> str:
        """`model.c`: the ABI, the constants and (for a small model) every kernel."""
        lines = [
            "/* model.c - generated by xrelay: the C ABI of xrelay_runtime.h for one model. */",
            "#include <stdint.h>",
            "#include <stdio.h>",
            "#include <stdlib.h>",
            "",
            '#include "xrelay_runtime.h"',
            '#include "model.h"',
            "",
            *constants,
            "",
            "struct xrelay_model {",
            "  unsigned char *arena;",
            "};",
            "",
            "static _Thread_local char xr_last_error[256];",
            "/* A message naming an input or output: a literal, however long the name. */",
            "static _Thread_local const char *xr_last_error_text;",
            "",
        ]
        for hook in self.hooks:
            lines.append(
                f"XR_HIDDEN int {hook.init}(unsigned char *arena, char *error, size_t size);"
            )
            lines.append(f"XR_HIDDEN void {hook.destroy}(unsigned char *arena);")
            if hook.check is not None:
                lines.append(
                    f"XR_HIDDEN int {hook.check}(unsigned char *arena, char *error, size_t size);"
                )
        if self.hooks:
            lines.append("")
        lines += self._infos("input", self.inputs) + self._infos("output", self.outputs)
        lines += self._queries() + self._create() + self._run() + self._rest()
        return "\n".join(lines) + "\n" + "\n".join(bodies)

    @staticmethod
    def _infos(kind: str, infos: Sequence[Info]) -> list[str]:
        lines: list[str] = []
        records: list[str] = []
        for index, info in enumerate(infos):
            shape = "NULL"
            if info.shape:
                shape = f"xr_{kind}_shape_{index}"
                dims = ", ".join(str(d) for d in info.shape)
                lines.append(f"static const int64_t {shape}[{len(info.shape)}] = {{{dims}}};")
            records.append(
                f"    {{{c_string(info.name)}, {info.element.abi}, {len(info.shape)}, {shape}}},"
            )
        if records:
            lines += [f"static const xrelay_tensor_info xr_{kind}s[{len(records)}] = {{", *records]
            lines.append("};")
        return [*lines, ""]

    def _queries(self) -> list[str]:
        lines = [
            "int32_t xrelay_abi_version(void) { return XRELAY_ABI_VERSION; }",
            f"int32_t xrelay_num_inputs(void) {{ return {len(self.inputs)}; }}",
            f"int32_t xrelay_num_outputs(void) {{ return {len(self.outputs)}; }}",
            "",
        ]
        for kind, count in (("input", len(self.inputs)), ("output", len(self.outputs))):
            lines.append(f"const xrelay_tensor_info *xrelay_{kind}_info(int32_t index) {{")
            if count:
                lines.append(f"  return index >= 0 && index < {count} ? &xr_{kind}s[index] : NULL;")
            else:
                lines += ["  (void)index;", "  return NULL;"]
            lines += ["}", ""]
        return lines

    def slot_start(self) -> int:
        """The byte offset of the first instance slot: after the planned arena."""
        return -(-self.arena_size // SLOT_BYTES) * SLOT_BYTES

    def _create(self) -> list[str]:
        """`xr_refuse` and `xr_model_create`: `isa.c`'s `xrelay_model_create` calls them
        (`isa.py`), the first on a CPU that lacks a feature the library needs."""
        return [
            "XR_HIDDEN void xr_refuse(const char *feature);",
            "XR_HIDDEN void xr_refuse(const char *feature) {",
            "  xr_last_error_text = NULL;",
            "  snprintf(xr_last_error, sizeof xr_last_error,",
            '           "xrelay_model_create: library needs %s, this CPU lacks it", feature);',
            "}",
            "",
            "XR_HIDDEN xrelay_model *xr_model_create(void);",
            *self._allocate(),
        ]

    def _allocate(self) -> list[str]:
        alignment = 1 << (max(self.alignment, 16) - 1).bit_length()  # a power of two
        used = self.slot_start() + SLOT_BYTES * self.slots if self.slots else self.arena_size
        size = -(-max(used, 1) // alignment) * alignment
        if size > MAX_BYTES:  # rounding and backend slots took it past any C object's size
            return [
                "XR_HIDDEN xrelay_model *xr_model_create(void) {",
                "  xr_last_error_text = NULL;",
                "  snprintf(xr_last_error, sizeof xr_last_error,",
                f'           "xrelay_model_create: cannot allocate the {size}-byte arena");',
                "  return NULL;",
                "}",
                "",
            ]
        lines = [
            "XR_HIDDEN xrelay_model *xr_model_create(void) {",
            "  xr_last_error[0] = '\\0';",
            "  xr_last_error_text = NULL;",
            "  xrelay_model *model = malloc(sizeof *model);",
            "  if (model == NULL) {",
            "    snprintf(xr_last_error, sizeof xr_last_error,",
            '             "xrelay_model_create: out of memory");',
            "    return NULL;",
            "  }",
            f"  model->arena = aligned_alloc({alignment}, {size});",
            "  if (model->arena == NULL) {",
            "    free(model);",
            "    snprintf(xr_last_error, sizeof xr_last_error,",
            f'             "xrelay_model_create: cannot allocate the {size}-byte arena");',
            "    return NULL;",
            "  }",
        ]
        if self.slots:
            start, count = self.slot_start(), SLOT_BYTES * self.slots
            lines.append(f"  memset(model->arena + {start}, 0, {count});")
        for number, hook in enumerate(self.hooks):
            lines += [
                f"  if ({hook.init}(model->arena, xr_last_error, sizeof xr_last_error) != 0) {{",
                *(f"    {h.destroy}(model->arena);" for h in reversed(self.hooks[: number + 1])),
                "    free(model->arena);",
                "    free(model);",
                "    return NULL;",
                "  }",
            ]
        return [*lines, "  return model;", "}", ""]

    def _run(self) -> list[str]:
        lines = [
            "static int xr_bad(const void *pointer, size_t alignment, const char *if_null,",
            "                  const char *if_unaligned) {",
            "  if (pointer != NULL && (uintptr_t)pointer % alignment == 0) {",
            "    return 0;",
            "  }",
            "  xr_last_error_text = pointer == NULL ? if_null : if_unaligned;",
            "  return 1;",
            "}",
            "",
            "int32_t xrelay_model_run(xrelay_model *model, const void *const *inputs,",
            "                         void *const *outputs) {",
            "  xr_last_error[0] = '\\0';",
            "  xr_last_error_text = NULL;",
            "  if (model == NULL) {",
            '    snprintf(xr_last_error, sizeof xr_last_error, "xrelay_model_run: model is NULL");',
            "    return 1;",
            "  }",
        ]
        args = [f"model->arena + {self.base}" if self.base else "model->arena"]
        for kind, infos, const in (("input", self.inputs, "const "), ("output", self.outputs, "")):
            array = f"{kind}s"
            if not infos:
                lines.append(f"  (void){array};")
                continue
            lines += [
                f"  if ({array} == NULL) {{",
                "    snprintf(xr_last_error, sizeof xr_last_error,",
                f'             "xrelay_model_run: the {kind} array is NULL");',
                "    return 1;",
                "  }",
            ]
            for index, info in enumerate(infos):
                ctype = info.element.ctype
                where = f"xrelay_model_run: {kind} {index} ('{info.name}')"
                lines += [
                    f"  if (xr_bad({array}[{index}], _Alignof({ctype}),",
                    f"             {c_string(where + ' is NULL')},",
                    f"             {c_string(where + ' is not aligned for its dtype')})) {{",
                ]
                lines += ["    return 1;", "  }"]
                args.append(f"({const}{ctype} *){array}[{index}]")
        lines.append(f"  {self.symbol}({', '.join(args)});")
        for hook in self.hooks:
            if hook.check is not None:
                call = f"{hook.check}(model->arena, xr_last_error, sizeof xr_last_error)"
                lines += [f"  if ({call} != 0) {{", "    return 1;", "  }"]
        return [*lines, "  return 0;", "}", ""]

    def _rest(self) -> list[str]:
        return [
            "void xrelay_model_destroy(xrelay_model *model) {",
            "  if (model != NULL) {",
            *(f"    {hook.destroy}(model->arena);" for hook in reversed(self.hooks)),
            "    free(model->arena);",
            "    free(model);",
            "  }",
            "}",
            "",
            "const char *xrelay_last_error(void) {",
            "  return xr_last_error_text != NULL ? xr_last_error_text : xr_last_error;",
            "}",
            "",
        ]
