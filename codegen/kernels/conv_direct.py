"""Register-blocked direct convolution, NCHW data / OIHW weights, one group: the printer
accel's `accel.conv2d` and the host's float32 `nn.conv2d` share.

The output is computed one output row `y` at a time. The input rows that row
reads (every input channel of a chunk, every kernel row inside the input) are
first copied into a stack scratch buffer, zero-padded left and right and split
into `stride` phases, so that the tap `kx` of output columns `x .. x + n` reads
`n` contiguous floats whatever the padding, stride and dilation. Then a block
of `ocb` output channels by `xv` vectors of output columns (`xv * XA_VL`
floats) is accumulated in `ocb * xv` vector variables (registers): for each
input channel, kernel row and kernel column, `xv` vector loads of the scratch,
`ocb` scalar weights broadcast, `ocb * xv` fused multiply-adds. The block
starts at the bias and ends in the epilogue (`+ residual`, relu, clip, an
activation: `conv_plan.finish`), stored once. Columns past the last full
block go through one-vector blocks, the last one partial (`xa_ldn`/`xa_stn`);
channels past the last full block through a block of the remaining channels.

The weights are read as relay has them (OIHW): each tap broadcasts one scalar
per output channel at a constant offset, from L1 (a 16->16 3x3 layer is 9 KiB),
so a blocked weight layout would change no instruction; the kernel alone (no
scratch fill) runs near the machine's FMA peak. The block shape is chosen for
32 vector registers (`choose_block`). When the input channels' rows do not fit
the scratch budget they are taken in chunks: partial sums go through the
output, the epilogue is applied after the last.

`rows(w, conv, epilogue)` prints the loop over the output rows
`q0 <= q < q1` (image `q / oh`, row `q % oh`); the caller declares `q0`, `q1`,
`in0`, `in1`, `out0` and the epilogue's pointers (accel: a chunk a thread claimed,
`codegen/accel/conv_blocked.py`; the host: every row, `codegen/c/kernels_conv2d.py`).
Numerics: each output is one float32 accumulator over the taps in order
(channel, kernel row, kernel column), fused multiply-adds.
"""

from __future__ import annotations

from dataclasses import replace

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine
from xrelay.codegen.kernels.conv_plan import Conv, Epilogue, fill_phases, finish, taps
from xrelay.codegen.kernels.vectors import VL_MAX

SCRATCH_FLOATS = 16384
"""The scratch buffer's budget (64 KiB of the stack of each thread running the kernel)."""

ACCUMULATORS = 24
"""At most this many vector accumulators per block (32 registers less inputs and weights)."""


HOST_SCRATCH_FLOATS = 32768
"""The host's budget (128 KiB of the calling thread's stack: its routines run on the thread
that runs the model), so that the rows of 64 channels of width 112, or 128 of width 56, fit
without chunks (chunks send partial sums through the output: ~1.4x slower on VGG's 64-channel
3x3 at 112x112). A thread-local buffer instead of the stack measured ~1.6x slower."""


def chunk(conv: Conv, scratch: int = SCRATCH_FLOATS) -> int:
    """Input channels per scratch fill of a `scratch`-float budget."""
    return max(1, min(conv.c, scratch // conv.per_channel))


def fits(conv: Conv, scratch: int = SCRATCH_FLOATS) -> bool:
    """Whether one input channel's scratch rows fit a `scratch`-float budget (on a thread's
    stack: wider rows, past ~5400 columns for a 3x3 kernel, do not)."""
    return conv.per_channel <= scratch


def flat_rows(
    conv: Conv, scratch: int = SCRATCH_FLOATS, least: int = 1, team: int = 1, groups: int = 1
) -> Conv:
    """A 1x1, stride 1, unpadded `conv` as the same product over rows of another width.

    Such a conv reads and writes each channel's plane as one run of `h * w` floats, so any
    split of the plane into `rows x width` (`width` divides `h * w`) computes the same sums
    in the same order. Rows narrower than a vector, or just past a multiple of it, waste
    lanes (ShuffleNet's 7, 14 and 28 columns fill 44%, 88% and 88% of 16 lanes): the split
    with the most lanes used (then the widest rows) whose scratch, every channel's row,
    fits `scratch` floats without chunks (when the given split does), if it uses more lanes
    than the given rows; at least `least` rows per image (the threads that split them).
    With a `team` of threads splitting the rows of every image and group (`groups`), the
    lanes used are weighed by how evenly the threads split them: SqueezeNet's 16 -> 64 conv
    at 55x55 took 5 rows of 605 (99% of the lanes, but 3 rows against 2 on 2 threads) and
    now takes 25 of 121 (95%, 13 against 12). Other convs as given.
    """
    pointwise = (conv.kh, conv.kw, conv.sh, conv.sw, conv.top, conv.left) == (1, 1, 1, 1, 0, 0)
    if not pointwise or (conv.oh, conv.ow) != (conv.h, conv.w) or chunk(conv, scratch) < conv.c:
        return conv
    plane = conv.h * conv.w

    def score(width: int) -> float:
        padded = -(-width // VL_MAX) * VL_MAX
        rows = conv.n * groups * (plane // width)
        return width / padded * (rows / team) / -(-rows // team)

    best = (0.0, 0)
    for width in range(1, plane + 1):
        padded = -(-width // VL_MAX) * VL_MAX
        if plane % width or conv.c * padded > scratch or plane // width < least:
            continue
        best = max(best, (score(width), width))
    value, width = best
    if value <= score(conv.w):
        return conv
    in_image = conv.in_image or conv.c * plane
    out_image = conv.out_image or conv.o * plane
    rows = plane // width
    return replace(conv, h=rows, w=width, oh=rows, ow=width, in_image=in_image,
                   out_image=out_image)  # fmt: skip


def choose_block(conv: Conv) -> tuple[int, int]:
    """(output channels, column vectors) of the register block: the most accumulators
    (at most `ACCUMULATORS`) with the least work wasted on partial blocks.

    A block of `xv` vectors runs only where `xv` full vectors of columns remain (the
    kernel's loop), so `xv` divides the row's full `VL_MAX`-lane vectors; the columns
    after them (a partial vector) run one vector at a time.
    """
    full_vectors = conv.ow // VL_MAX
    vectors = full_vectors + (1 if conv.ow % VL_MAX else 0)
    best: tuple[float, int, int] | None = None
    for ocb in range(1, min(conv.o, 16) + 1):
        for xv in range(1, max(1, min(full_vectors, ACCUMULATORS // ocb)) + 1):
            # Full blocks run at ocb * xv accumulators, the rest at fewer.
            full_o, rest_o = divmod(conv.o, ocb)
            full_x = full_vectors // xv
            work = (full_o * ocb + rest_o) * vectors
            good = full_o * ocb * full_x * xv
            score = (good * min(ocb * xv, 16) + (work - good) * min(ocb, 8)) / work
            key = (score, ocb * xv, ocb)
            if best is None or key > best:
                best = key
    assert best is not None
    return best[2], best[1] // best[2]


def rows(w: CWriter, conv: Conv, epilogue: Epilogue, scratch: int = SCRATCH_FLOATS) -> None:
    """The output rows `q0 <= q < q1` (image `q / oh`, row `q % oh`), with their scratch on
    the stack, at most `scratch` floats."""
    size = chunk(conv, scratch)
    chunked = size < conv.c
    floats = size * conv.per_channel
    w.line(f'_Static_assert(XA_VL <= {VL_MAX}, "scratch rows are padded for {VL_MAX} lanes");')
    w.line(f"float buf[{floats}] __attribute__((aligned(64))) = {{0}};")
    if not chunked:
        w.line(f"{INDEX} held[{conv.slots}];")
        with w.loop("s", conv.slots):
            w.line("held[s] = -1;")
    with w.loop("q", "q1", "q0"):
        if conv.n == 1:
            w.line(f"const {INDEX} n = 0, y = q;")
        else:
            w.line(f"const {INDEX} n = q / {conv.oh}, y = q % {conv.oh};")
        w.line(f"const {INDEX} iy = y * {conv.sh} - {conv.top};")
        taps(w, conv)
        w.line(f"{INDEX} slot[{conv.kh}];")
        with w.loop("ky", "ky1", "ky0"):
            w.line(f"slot[ky] = (iy + ky * {conv.dh}) % {conv.slots} * {conv.sw * conv.row};")
        if chunked:
            head = f"for ({INDEX} c0 = 0; c0 < {conv.c}; c0 += {size})"
            with w.block(head):
                rest = f"{conv.c} - c0"
                w.line(f"const {INDEX} cn = {rest} < {size} ? {rest} : {size};")
                _fill(w, conv, chunked)
                _channel_blocks(w, conv, epilogue, chunked)
        else:
            _fill(w, conv, chunked)
            _channel_blocks(w, conv, epilogue, chunked)


def _fill(w: CWriter, conv: Conv, chunked: bool) -> None:
    """Copy the input rows this output row reads into their scratch slots (row `r` in slot
    `r % slots`), unless the slot holds it already (`held`; always with chunks). The
    columns in the padding stay 0 (the buffer starts zeroed, only the inside is written)."""
    key = f"n * {conv.h} + r" if conv.n > 1 else "r"  # a row of one image
    with w.loop("ky", "ky1", "ky0"):
        w.line(f"const {INDEX} r = iy + ky * {conv.dh};")
        with w.block("" if chunked else f"if (held[r % {conv.slots}] != {key})"):
            if not chunked:
                w.line(f"held[r % {conv.slots}] = {key};")
            first = "c0 + ic" if chunked else "ic"
            with w.loop("ic", "cn" if chunked else conv.c):
                w.line(f"const float *restrict row = in0 + {conv.data_row(first, 'r')};")
                w.line(f"float *restrict to = buf + ic * {conv.per_channel} + slot[ky];")
                fill_phases(w, conv, "row", "to")


def _prefetch(w: CWriter, conv: Conv) -> None:
    """Prefetch the input rows the next output row adds, under this block's columns (the
    first channel block only: the others find them in cache)."""
    column = f"xo * {conv.sw}" if conv.sw > 1 else "xo"
    lines = -(-conv.sw * VL_MAX // 16)  # 64-byte lines under XA_VL columns, at most
    with w.block("if (oc == 0)"):
        for step in range(conv.sh):
            row = f"iy + {(conv.kh - 1) * conv.dh + 1 + step}"
            for line in range(lines):
                at = f"{column} + {16 * line}" if line else column
                inside = f"if ({row} < {conv.h} && {at} < {conv.w})"
                with w.block(inside), w.loop("ic", conv.c):
                    start = f"{conv.data_row('ic', row)} + {at}"
                    w.line(f"__builtin_prefetch(in0 + {start});")


def _channel_blocks(w: CWriter, conv: Conv, epilogue: Epilogue, chunked: bool) -> None:
    """Full blocks of output channels, then the remaining channels."""
    ocb, xv = choose_block(conv)
    full, rest = divmod(conv.o, ocb)
    if full:
        with w.block(f"for ({INDEX} oc = 0; oc < {full * ocb}; oc += {ocb})"):
            _column_blocks(w, conv, epilogue, chunked, ocb, xv)
    if rest:
        with w.block():
            w.line(f"const {INDEX} oc = {full * ocb};")
            _column_blocks(w, conv, epilogue, chunked, rest, xv)


def _column_blocks(
    w: CWriter, conv: Conv, epilogue: Epilogue, chunked: bool, ocb: int, xv: int
) -> None:
    """Blocks of `xv` full vectors of columns, then one vector at a time (the last partial)."""
    w.line(f"{INDEX} xo = 0;")
    if xv > 1:
        with w.block(f"for (; xo + {xv} * XA_VL <= {conv.ow}; xo += {xv} * XA_VL)"):
            if not chunked:
                _prefetch(w, conv)
            _block(w, conv, epilogue, chunked, (ocb, xv), partial=False)
    with w.block(f"for (; xo < {conv.ow}; xo += XA_VL)"):
        w.line(f"const {INDEX} nx = {conv.ow} - xo;")
        if not chunked:
            _prefetch(w, conv)
        _block(w, conv, epilogue, chunked, (ocb, 1), partial=True)


def _block(
    w: CWriter,
    conv: Conv,
    epilogue: Epilogue,
    chunked: bool,
    shape: tuple[int, int],
    partial: bool,
) -> None:
    """One register block: `ocb` channels from `oc` by `xv` vectors of columns from `xo`.

    `partial`: one vector of `nx` columns, maybe fewer than `XA_VL`.
    """
    ocb, xv = shape
    plane = conv.oh * conv.ow
    acc = [[f"a{o}_{v}" for v in range(xv)] for o in range(ocb)]
    w.line(f"const {INDEX} at = {conv.out_row('oc', 'y')} + xo;")
    w.line(f"xa_v {', '.join(a for row in acc for a in row)};")

    def place(base: str, o: int, v: int) -> str:
        return f"{base} + {affine([('XA_VL', v)], f'at + {o * plane}' if o else 'at')}"

    def load(base: str, o: int, v: int) -> str:
        pointer = place(base, o, v)
        return f"xa_ldn({pointer}, nx)" if partial else f"xa_ld({pointer})"

    start = [
        f"{a} = {f'xa_splat({epilogue.bias}[oc + {o}])' if epilogue.bias else '(xa_v){0}'};"
        for o, row in enumerate(acc)
        for a in row
    ]
    if chunked:  # later chunks add to the partial sums stored by the earlier ones
        reload = [
            f"{a} = {load('out0', o, v)};" for o, row in enumerate(acc) for v, a in enumerate(row)
        ]
        _lines(w, "if (c0 == 0)", start)
        _lines(w, "else", reload)
    else:
        _lines(w, None, start)
    _accumulate(w, conv, acc, "c0" if chunked else "0", "cn" if chunked else str(conv.c))
    residual = epilogue.residual
    done = [
        line
        for o, row in enumerate(acc)
        for v, a in enumerate(row)
        for line in finish(a, epilogue, load(residual, o, v) if residual else None)
    ]
    _lines(w, f"if (c0 + cn == {conv.c})" if chunked else None, done)
    for o, row in enumerate(acc):
        for v, a in enumerate(row):
            pointer = place("out0", o, v)
            w.line(f"xa_stn({pointer}, {a}, nx);" if partial else f"xa_st({pointer}, {a});")


def _lines(w: CWriter, head: str | None, lines: list[str]) -> None:
    """`lines`, inside `head { ... }` when there is a head and there are lines."""
    if head is None:
        for line in lines:
            w.line(line)
    elif lines:
        with w.block(head):
            for line in lines:
                w.line(line)


def _accumulate(w: CWriter, conv: Conv, acc: list[list[str]], first: str, count: str) -> None:
    """Add every (input channel, kernel row, kernel column) tap into the block `acc`."""
    kernel = conv.kh * conv.kw
    span = conv.c * kernel  # floats between two output channels' weights
    with w.loop("ic", count), w.loop("ky", "ky1", "ky0"):
        w.line(f"const float *s = buf + ic * {conv.per_channel} + slot[ky] + xo;")
        channel = f"oc * {conv.c} + {first} + ic" if first != "0" else f"oc * {conv.c} + ic"
        w.line(f"const float *wk = in1 + ({channel}) * {kernel} + ky * {conv.kw};")
        for kx in range(conv.kw):
            shift = conv.tap_shift(kx)
            with w.block():
                for v in range(len(acc[0])):
                    w.line(f"const xa_v x{v} = xa_ld(s + {affine([('XA_VL', v)], shift)});")
                for o, row in enumerate(acc):
                    w.line(f"const float w{o} = wk[{o * span + kx}];")
                    for v, a in enumerate(row):
                        w.line(f"{a} += w{o} * x{v};")
