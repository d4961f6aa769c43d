"""Deep 1x1 convolutions on accel: the shared GEMM (`codegen/kernels/gemm.py`) per image.

An `accel.conv2d` that is a matrix product per image (NCHW / OIHW, 1x1, stride 1, no
padding, groups 1) runs as `out[oc, p] = weight[oc, c] @ data[c, p]` by `xg_sgemm` when it
has no epilogue or at least `kernels_conv2d.GEMM_DEPTH` input channels (the host's rule:
there the GEMM measured 1.5-1.8x the direct kernel's speed at 1024 -> 256 channels at 14x14
and 512 -> 2048 at 7x7). The output channels split into one contiguous range per thread,
claimed (`parallel.py`, `coarse`: each call packs the data it multiplies); each thread
multiplies its rows of the weights by every image's data, then applies the op's bias,
residual, relu and clip to its channels in one vectorized pass over the output it just wrote
(from cache), as the blocked kernel's store would (`conv_plan.finish`). `res` is read after
the GEMM stored the output: the memory plan gives a kernel's output its own buffer.
"""

from __future__ import annotations

from xrelay.codegen.accel import conv_blocked
from xrelay.codegen.accel.parallel import AccelKernel
from xrelay.codegen.c.kernel_api import Kernel
from xrelay.codegen.c.kernels_conv2d import GEMM_DEPTH
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.kernels import conv_plan, gemm
from xrelay.dialects.relay.base import get_int, get_str

GRAIN = conv_blocked.GRAIN
"""Multiply-adds per thread, at least (as the blocked kernel's)."""


def applies(k: Kernel) -> bool:
    """Whether `k` (an `accel.conv2d`) is a GEMM per image this module takes."""
    props = k.op.properties
    if get_str(props, "data_layout") != "NCHW" or get_str(props, "kernel_layout") != "OIHW":
        return False
    if get_int(props, "groups") != 1:
        return False
    conv = conv_blocked.conv_of(k)
    pointwise = (conv.kh, conv.kw, conv.sh, conv.sw, conv.top, conv.left) == (1, 1, 1, 1, 0, 0)
    plain = conv_blocked.epilogue_of(k) == conv_plan.Epilogue()
    return (
        pointwise
        and (conv.oh, conv.ow) == (conv.h, conv.w)
        and (plain or conv.c >= GEMM_DEPTH)
        and 0 not in (conv.n, conv.c, conv.h, conv.w, conv.o)
    )


def conv2d_gemm(k: AccelKernel) -> None:
    """Print the conv of `k` as GEMM calls over output-channel ranges split across threads: a
    constant weight packed once for every thread (`xg_sgemm_pa`), the ranges whole tiles of
    `gemm.MR` channels; else packed by each call."""
    conv = conv_blocked.conv_of(k)
    epilogue = conv_blocked.epilogue_of(k)
    plane = conv.h * conv.w
    k.libraries.add("gemm")
    work = conv.n * conv.o * conv.c * plane
    constant = 1 in k.constant_ins
    total = -(-conv.o // gemm.MR) if constant else conv.o
    most = k.team.parts(total, work, GRAIN)

    state: list[tuple[str, str, str]] = []
    if constant:  # the call site's buffers: every conv of this shape runs the same routine
        size = gemm.packed_a_floats(conv.o, conv.c)
        packing = gemm.call_site_packing("xp_a", size)
        packing.declare(k.w)
        state = list(packing.parameters())

    def body(inner: Kernel) -> None:
        w = inner.w
        if constant:
            w.line(f"const {INDEX} c0 = q0 * {gemm.MR};")
            w.line(f"const {INDEX} c1 = q1 * {gemm.MR} < {conv.o} ? q1 * {gemm.MR} : {conv.o};")
        else:
            w.line(f"const {INDEX} c0 = q0, c1 = q1;")
        with w.loop("n", conv.n):
            w.line(f"float *restrict out1 = out0 + n * {conv.o * plane};")
            data = (f"in0 + n * {conv.c * plane}", plane, 1)
            out = (f"out1 + c0 * {plane}", plane)
            if constant:
                packed = ("packed", "state", "c0", conv.o)
                w.line(gemm.call(("c1 - c0", plane, conv.c), ("in1", conv.c, 1), data, out,
                                 a_packed=packed))  # fmt: skip
            else:
                weight = (f"in1 + c0 * {conv.c}", conv.c, 1)
                w.line(gemm.call(("c1 - c0", plane, conv.c), weight, data, out))
            _pass(inner, conv.o * plane, plane, epilogue)

    k.team.run(k, total, most, body, coarse=True, state=state)


def _pass(k: Kernel, image: int, plane: int, epilogue: conv_plan.Epilogue) -> None:
    """The epilogue over channels `c0 <= oc < c1` of image `n`'s output at `out1`."""
    residual = epilogue.residual
    tail = conv_plan.finish("v", epilogue, "xa_ldn(er + i, m)" if residual else None)
    if not (epilogue.bias or tail):
        return
    w = k.w
    with w.loop("oc", "c1", "c0"):
        w.line(f"float *restrict p = out1 + oc * {plane};")
        if residual:
            w.line(f"const float *restrict er = {residual} + n * {image} + oc * {plane};")
        start = f"xa_splat({epilogue.bias}[oc])" if epilogue.bias else "(xa_v){0}"
        w.line(f"const xa_v b = {start};")
        with w.block(f"for ({INDEX} i = 0; i < {plane}; i += XA_VL)"):
            w.line(f"const {INDEX} m = {plane} - i;")
            w.line("xa_v v = xa_ldn(p + i, m) + b;")
            for line in tail:
                w.line(line)
            w.line("xa_stn(p + i, v, m);")
