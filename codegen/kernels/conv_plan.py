"""The plain description the shared convolution printers take, and the C they share.

`Conv` holds one 2-D convolution's extents and attributes (NCHW data, OIHW
weights, one group's channels) and the scratch geometry both direct kernels
use (`conv_direct.py`, `conv_depthwise.py`); `Epilogue` what the kernel applies
to each accumulator before the store (bias, residual, relu, clip, another
activation), with the C names of the pointers it reads. The printers read the
data at `in0`, the weights at `in1` and write `out0`: the caller declares those
names (accel's thread helpers take them as parameters, the host's routines as
locals per group) and passes `Conv` and `Epilogue`, never an op.

The printed C uses the vector prelude (`vectors.py`, the `xa_` names) and, for
the activations besides relu and clip, `ACTIVATIONS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine
from xrelay.codegen.kernels.vectors import VL_MAX

LANE_ACTIVATIONS = ("gelu_erf", "gelu_tanh", "sigmoid", "tanh")
"""The activations applied lane by lane through libm (`ACTIVATIONS`)."""

ACTIVATIONS = """\
#ifndef XA_ACTIVATIONS
#define XA_ACTIVATIONS
/* Activations of the kernels' epilogues, lane by lane through libm's float functions (within
   a few ulps of the float64 forward pass; the vector math of issue 16 may replace them). */
#define XA_LANEWISE(NAME, EXPR)                  \\
  static inline xa_v NAME(xa_v v) {              \\
    float l[XA_VL];                              \\
    __builtin_memcpy(l, &v, sizeof v);           \\
    for (int i = 0; i < XA_VL; ++i) {            \\
      const float x = l[i];                      \\
      l[i] = (EXPR);                             \\
    }                                            \\
    return xa_ld(l);                             \\
  }
XA_LANEWISE(xa_act_gelu_erf, 0.5f * x * (1.0f + erff(x * 0x1.6a09e6p-1f)))
XA_LANEWISE(xa_act_gelu_tanh,
            0.5f * x * (1.0f + tanhf(0x1.988454p-1f * (x + 0.044715f * x * x * x))))
XA_LANEWISE(xa_act_sigmoid, 1.0f / (1.0f + expf(-x)))
XA_LANEWISE(xa_act_tanh, tanhf(x))
#endif
"""
"""File-scope C of the lane-wise activations; guarded, printed after the vector prelude."""


MAX_BLOCK_ROWS = 8
"""Output rows per block of the row-blocked kernels (depthwise conv, pools) at most: one
accumulator each, beside the taps' loads and the weights, within AVX-512's 32 registers."""


@dataclass(frozen=True)
class Conv:
    """The extents and attributes of one convolution group (NCHW / OIHW).

    `c` and `o` are the group's input and output channels; `in_image` and
    `out_image` the floats between two images of the data and the output
    (0: the group's own `c * h * w` and `o * oh * ow`, one group).
    """

    n: int
    c: int
    h: int
    w: int
    o: int
    kh: int
    kw: int
    oh: int
    ow: int
    sh: int
    sw: int
    dh: int
    dw: int
    top: int
    left: int
    in_image: int = 0
    out_image: int = 0

    @property
    def row(self) -> int:
        """Floats of one phase row of the scratch: the padded output width plus the taps' reach."""
        padded = -(-self.ow // VL_MAX) * VL_MAX
        return padded + (self.kw - 1) * self.dw // self.sw

    @property
    def slots(self) -> int:
        """Scratch rows per input channel: the input rows one output row spans."""
        return (self.kh - 1) * self.dh + 1

    @property
    def per_channel(self) -> int:
        """Scratch floats of one input channel: every slot, every phase."""
        return self.slots * self.sw * self.row

    def tap_shift(self, kx: int) -> int:
        """Floats from a scratch row's output column to tap `kx`'s input column: its phase's
        offset, then the columns within the phase."""
        reach = kx * self.dw
        return (reach % self.sw) * self.row + reach // self.sw

    def span(self, rows: int) -> int:
        """Input rows `rows` consecutive output rows read."""
        return (rows - 1) * self.sh + (self.kh - 1) * self.dh + 1

    def block_scratch(self, rows: int) -> int:
        """Floats of a row-blocked kernel's scratch for blocks of `rows` output rows: a ring
        of the rows a block reads, plus the row standing for the rows outside the input
        (`fill_ring`), every phase."""
        return (self.span(rows) + 1) * self.sw * self.row

    def block_rows(self, scratch: int) -> int:
        """Output rows per block of a row-blocked kernel: the fewest blocks of at most
        `MAX_BLOCK_ROWS`, as even as they go (ShuffleNet's 14 rows: two blocks of 7), fewer
        while `block_scratch` passes `scratch` floats."""
        rows = -(-self.oh // -(-self.oh // MAX_BLOCK_ROWS))
        while rows > 1 and self.block_scratch(rows) > scratch:
            rows -= 1
        return rows

    def data_row(self, channel: str, row: str) -> str:
        """C offset of data row `row` of channel `channel` (of the group) in image `n`."""
        if self.in_image in (0, self.c * self.h * self.w):
            return f"((n * {self.c} + {channel}) * {self.h} + {row}) * {self.w}"
        return f"n * {self.in_image} + ({channel} * {self.h} + {row}) * {self.w}"

    def out_row(self, channel: str, row: str) -> str:
        """C offset of output row `row` of channel `channel` (of the group) in image `n`."""
        if self.out_image in (0, self.o * self.oh * self.ow):
            return f"((n * {self.o} + {channel}) * {self.oh} + {row}) * {self.ow}"
        return f"n * {self.out_image} + ({channel} * {self.oh} + {row}) * {self.ow}"


@dataclass(frozen=True)
class Epilogue:
    """What a kernel applies to each accumulator, in order: it starts at `bias[oc]`, then
    `+ residual[at]`, relu, clip, then the lane-wise `activation`."""

    bias: str | None = None
    """C pointer to one float per output channel (of the group)."""
    residual: str | None = None
    """C pointer to a tensor laid out as the output, read where the output is written."""
    relu: bool = False
    clip: tuple[str, str] | None = None
    """The clip's bounds as C float literals, applied after the relu."""
    activation: str | None = None
    """One of `LANE_ACTIVATIONS`, applied last (needs `ACTIVATIONS`)."""


def literal(value: float) -> str:
    """`value` rounded to float32 (as numpy rounds a bound for a float32 array), as an exact
    C float literal (hexadecimal)."""
    return f"{float(np.float32(value)).hex()}f"


def taps(w: CWriter, conv: Conv) -> None:
    """`ky0 <= ky < ky1`: the kernel rows inside the input for this output row (`iy`)."""
    step = conv.dh
    if step == 1:
        w.line(f"const {INDEX} ky0 = iy < 0 ? -iy : 0;")
        w.line(f"const {INDEX} eky = {conv.h} - iy;")
    else:
        w.line(f"const {INDEX} ky0 = iy < 0 ? (-iy + {step - 1}) / {step} : 0;")
        w.line(f"const {INDEX} eky = ({conv.h} - iy + {step - 1}) / {step};")
    w.line(f"const {INDEX} ky1 = eky < {conv.kh} ? eky : {conv.kh};")


def fill_phases(w: CWriter, conv: Conv, source: str, target: str) -> None:
    """Copy input row `source` into its scratch slot at `target`: phase `p` of the slot holds
    the padded input columns `p, p + sw, ...`; columns in the padding are not written."""
    for phase in range(conv.sw):
        # Column j of the phase is input column j * sw + phase - left.
        start = max(0, -(-(conv.left - phase) // conv.sw))
        end = min(conv.row, -(-(conv.w + conv.left - phase) // conv.sw))
        if end > start:
            column = affine([("j", conv.sw)], phase - conv.left)
            to = affine([("j", 1)], phase * conv.row)
            with w.loop("j", end, start):
                w.line(f"{target}[{to}] = {source}[{column}];")


def row_blocks(w: CWriter, conv: Conv, rows: int, block: Callable[[int], None]) -> None:
    """`block(rows)` for the output rows `y0 .. y0 + rows` of every full block, then
    `block(rest)` for the rows after them (`y0` declared here)."""
    w.line(f"{INDEX} y0 = 0;")
    with w.block(f"for (; y0 + {rows} <= {conv.oh}; y0 += {rows})"):
        block(rows)
    if conv.oh % rows:
        with w.block():
            block(conv.oh % rows)


def fill_ring(w: CWriter, conv: Conv, span: int, ring: int, outside: str) -> None:
    """Point `sp[t]` (`t < span`) at input row `y0 * sh - top + t` of one plane (`plane`) in
    the scratch `buf`, copying it there unless the ring says it is held (row `r` in slot
    `r % ring`, phase `p` holding the padded columns `p, p + sw, ...`: `fill_phases`;
    `held[slot]` the row it holds), or at `outside` (a row of the padding's value) for a
    row above or below the input. The row-blocked depthwise convolution and pools."""
    slot = conv.sw * conv.row
    w.line(f"const float *sp[{span}];")
    with w.loop("t", span):
        w.line(f"const {INDEX} r = y0 * {conv.sh} - {conv.top} + t;")
        with w.block(f"if (r < 0 || r >= {conv.h})"):
            w.line(f"sp[t] = {outside};")
            w.line("continue;")
        w.line(f"float *restrict to = buf + r % {ring} * {slot};")
        w.line("sp[t] = to;")
        with w.block(f"if (held[r % {ring}] != r)"):
            w.line(f"held[r % {ring}] = r;")
            w.line(f"const float *restrict row = plane + r * {conv.w};")
            fill_phases(w, conv, "row", "to")


def finish(a: str, epilogue: Epilogue, residual: str | None) -> list[str]:
    """The C statements applying `epilogue` (after the bias) to accumulator `a`; `residual` is
    the vector expression of the residual under it (None without one)."""
    lines: list[str] = []
    if epilogue.residual and residual:
        lines.append(f"{a} += {residual};")
    if epilogue.relu:
        lines.append(f"{a} = xa_relu({a});")
    if epilogue.clip:
        lines.append(f"{a} = xa_clip({a}, {epilogue.clip[0]}, {epilogue.clip[1]});")
    if epilogue.activation:
        assert epilogue.activation in LANE_ACTIVATIONS, epilogue.activation
        lines.append(f"{a} = xa_act_{epilogue.activation}({a});")
    return lines
