"""Vectorized 2-D windowed pools on NHWC float32: max and average, vectors along the channels.

In NHWC a pixel's channels are contiguous, so a window's tap is `C` contiguous floats and
the pool is vectorized along `C` with no scratch: each output pixel reduces its taps
channel vector by channel vector, four vectors at a time (four independent chains: a
3x3 max is 9 dependent steps per vector, so one vector at a time would be latency-bound),
then single vectors, then a masked partial vector for the last `C % XA_VL` channels.
The caller splits the output rows (`q` = image * OH + output row) over threads.

Semantics (the host's loops, `kernels_conv.pool`, and the interpreter):
- max: `xa_max`, NaN wins (numpy's max). A window whose taps all lie in the input starts
  from -inf, so a window of -inf gives -inf; a window that reaches past the input (the
  declared padding, or `ceil_mode`'s last window) starts from float32's lowest value, the
  padding's value in relay, which then takes part.
- average: the float32 sum of the taps inside the input, each row's taps in order, divided
  by the window's count, `cy[oy] * cx[ox]` (taps inside the input, or with
  `count_include_pad` inside the input and its declared padding; at least 1), both tabled
  at print time as `pool.py`'s NCHW kernel does.

`ky0 <= ky < ky1` and `kx0 <= kx < kx1` are the taps inside the input; interior windows
(every tap inside) take loops of constant trip counts, which the compiler unrolls.

Measured (`benchmarks/kernels_ort.py --cases maxpool-squeezenet-nhwc --threads N`, Intel
Xeon 2-vCPU VM): SqueezeNet's 3x3/2 pool of 64 channels at 111x111, NHWC, 195 us at 1
thread and 91 at 2, where the host's loops took 10.6 ms and 9.7 ms, and dnnl's oneDNN
pooling with relay's NaN check (a scan of the source), which this kernel replaces in dnnl
functions, 718 and 882 us.
"""

from __future__ import annotations

from dataclasses import dataclass

from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels.pool import LOWEST

UNROLL = 4
"""Channel vectors reduced together: independent chains that hide `xa_max`'s latency."""


@dataclass(frozen=True)
class PoolNhwc:
    """One windowed NHWC pool's extents (input `n, h, w, c`, output `oh, ow`) and kind."""

    n: int
    h: int
    w: int
    c: int
    oh: int
    ow: int
    kh: int
    kw: int
    sh: int
    sw: int
    dh: int
    dw: int
    top: int
    left: int
    is_max: bool
    counts: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    """An average's divisors: per output row, per output column (at least 1)."""
    relu: bool = False
    """A max pool that also applies relu to what it stores (`xa_relu`: NaN kept, -0 to +0):
    `relu(max_pool(x))`, which equals `max_pool(relu(x))` when every window holds a tap of
    the input (`every_window_reads_input`), so a producer's relu can move here."""

    @property
    def rows(self) -> int:
        """The output rows (`q`'s range): images times output rows."""
        return self.n * self.oh

    @property
    def moved(self) -> int:
        """Bytes read and written (the threads' measure of work)."""
        return 4 * self.n * self.c * (self.h * self.w + self.oh * self.ow)


def _reads(start: int, dilation: int, size: int, extent: int) -> bool:
    """Whether a window from `start` has a tap inside `[0, extent)`."""
    return any(0 <= start + t * dilation < extent for t in range(size))


def every_window_reads_input(p: PoolNhwc) -> bool:
    """Whether every output window holds at least one input tap (none lies wholly in the
    padding, whose lowest value `relu` would turn into 0): then a max pool commutes with
    relu, NaN, infinities and signed zeros included (relu is monotone, keeps NaN, and makes
    every value at least +0, above the padding's lowest)."""
    rows = all(_reads(y * p.sh - p.top, p.dh, p.kh, p.h) for y in range(p.oh))
    return rows and all(_reads(x * p.sw - p.left, p.dw, p.kw, p.w) for x in range(p.ow))


def _f(value: float) -> str:
    return f"{float(value)!r}f"


def _taps_inside(w: CWriter, axis: str, start: str, dilation: int, size: int, extent: int) -> None:
    """`k<axis>0`, `k<axis>1`: the taps `t < size` with `0 <= start + t * dilation < extent`."""
    w.line(f"const {INDEX} k{axis}0 = {start} >= 0 ? 0 : (-{start} + {dilation - 1}) / {dilation};")
    w.line(f"const {INDEX} left_{axis} = {extent} - {start};")
    w.line(
        f"{INDEX} k{axis}1 = left_{axis} <= 0 ? 0 : (left_{axis} + {dilation - 1}) / {dilation};"
    )
    w.line(f"k{axis}1 = k{axis}1 < {size} ? k{axis}1 : {size};")


def rows(w: CWriter, pool: PoolNhwc) -> None:
    """The output rows `q0 <= q < q1` from `in0` into `out0` (see the module docstring)."""
    p = pool
    if not p.is_max:
        heights, widths = p.counts
        w.line(f"static const float cy[{p.oh}] = {{{', '.join(map(_f, heights))}}};")
        w.line(f"static const float cx[{p.ow}] = {{{', '.join(map(_f, widths))}}};")
    with w.loop("q", "q1", "q0"):
        w.line(f"const {INDEX} oy = q % {p.oh};")
        w.line(f"const float *restrict image = in0 + (q / {p.oh}) * {p.h * p.w * p.c};")
        w.line(f"float *restrict row = out0 + q * {p.ow * p.c};")
        w.line(f"const {INDEX} iy = oy * {p.sh} - {p.top};")
        _taps_inside(w, "y", "iy", p.dh, p.kh, p.h)
        with w.loop("ox", p.ow):
            w.line(f"const {INDEX} ix = ox * {p.sw} - {p.left};")
            _taps_inside(w, "x", "ix", p.dw, p.kw, p.w)
            w.line(f"float *restrict to = row + ox * {p.c};")
            if not p.is_max:
                w.line("const xa_v count = xa_splat(cy[oy] * cx[ox]);")
            inside = f"ky0 == 0 && ky1 == {p.kh} && kx0 == 0 && kx1 == {p.kw}"
            with w.block(f"if ({inside})"):
                _pixel(w, p, ("0", str(p.kh)), ("0", str(p.kw)), "-INFINITY")
            with w.block("else"):
                _pixel(w, p, ("ky0", "ky1"), ("kx0", "kx1"), LOWEST)


def _pixel(w: CWriter, p: PoolNhwc, ky: tuple[str, str], kx: tuple[str, str], lowest: str) -> None:
    """Every channel of output pixel `to`: blocks of `UNROLL` vectors, single vectors, then the
    partial one, each over the taps `ky[0] <= ky < ky[1]`, `kx[0] <= kx < kx[1]`."""
    start = f"xa_splat({lowest})" if p.is_max else "(xa_v){0}"
    tap = f"image + ((iy + ky * {p.dh}) * {p.w} + ix + kx * {p.dw}) * {p.c} + c"
    w.line(f"{INDEX} c = 0;")
    blocks = ((UNROLL, f"c + {UNROLL} * XA_VL <= {p.c}"), (1, f"c < {p.c}"))
    for width, condition in blocks:
        with w.block(f"for (; {condition}; c += {width} * XA_VL)"):
            if width == 1:
                w.line(f"const {INDEX} nc = {p.c} - c;")
            names = [f"r{u}" for u in range(width)]
            w.line(f"xa_v {', '.join(f'{r} = {start}' for r in names)};")
            loops = (
                f"for ({INDEX} ky = {ky[0]}; ky < {ky[1]}; ++ky)",
                f"for ({INDEX} kx = {kx[0]}; kx < {kx[1]}; ++kx)",
            )
            with w.block(loops[0]), w.block(loops[1]):
                w.line(f"const float *restrict at = {tap};")
                for u, r in enumerate(names):
                    load = "xa_ldn(at, nc)" if width == 1 else f"xa_ld(at + {u} * XA_VL)"
                    w.line(f"{r} = xa_max({r}, {load});" if p.is_max else f"{r} += {load};")
            for u, r in enumerate(names):
                value = (f"xa_relu({r})" if p.relu else r) if p.is_max else f"{r} / count"
                if width == 1:
                    w.line(f"xa_stn(to + c, {value}, nc);")
                else:
                    w.line(f"xa_st(to + c + {u} * XA_VL, {value});")
