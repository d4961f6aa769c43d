"""The host's float32 `nn.conv2d` on NHWC data (HWIO or OHWI weights).

Any kernel size, stride, padding, dilation and group count (`direct_plan`) runs the shared
NHWC direct kernels (`codegen/kernels/conv_nhwc.py`: register-blocked over output
channels; depthwise vectorized over channels), the epilogue in their store.

With 1x1 weights, stride 1, no padding and one group, the NHWC output is the product
`out[p, o] = sum_c data[p, c] * W[c, o]` over the `N * H * W` pixels
`p`: one `xg_sgemm` call (`codegen/kernels/gemm.py`), `W` read in place
(HWIO: `W[c, o] = w[c * O + o]`; OHWI: `w[o * C + c]`). The epilogue (bias per
output channel, the last dim; residual of the output's layout; an activation)
is then one vectorized pass over the output rows. Printed as a routine
(`codegen/kernels/routine.py`) compiled with the library's flags.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xrelay.codegen.c.kernel_api import leaf_types, scalar, static_shape
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import conv_nhwc, conv_plan, gemm
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d


@dataclass(frozen=True)
class Pointwise:
    """An NHWC 1x1 conv as a GEMM: `pixels x out` from `pixels x depth` by `depth x out`."""

    pixels: int
    depth: int
    out: int
    weight_strides: tuple[int, int]
    """(row, column) strides of `W[c, o]` in the weights."""


def plan(op: Operation) -> Pointwise | None:
    """The GEMM of a float32 NHWC 1x1 stride-1 unpadded `relay.nn.conv2d`, else None."""
    props = op.properties
    types = [t for v in (*op.operands, *op.results) for t in leaf_types(v.type)]
    if len(types) != 3 or any(scalar(t).ctype != "float" for t in types):
        return None
    layout = get_str(props, "kernel_layout")
    if get_str(props, "data_layout") != "NHWC" or layout not in ("HWIO", "OHWI"):
        return None
    (n, h, w, c), kernel, (_, oh, ow, o) = (static_shape(t) for t in types)
    one = (
        get_int(props, "groups") == 1
        and get_ints(props, "strides") == (1, 1)
        and all(p == 0 for p in get_ints(props, "padding"))
        and (kernel[layout.index("H")], kernel[layout.index("W")]) == (1, 1)
        and (oh, ow) == (h, w)
    )
    if not one or 0 in (n, h, w, c, o):
        return None
    return Pointwise(n * h * w, c, o, (o, 1) if layout == "HWIO" else (1, c))


def body(w: CWriter, found: Pointwise, epilogue: conv_plan.Epilogue) -> None:
    """The routine's body: the GEMM into `out`, then the epilogue's pass."""
    rows, cols = found.pixels, found.out
    call = gemm.call(
        (rows, cols, found.depth), ("data", found.depth, 1), ("weight", *found.weight_strides),
        ("out", cols),
    )  # fmt: skip
    w.line(call)
    tail = conv_plan.finish("v", epilogue, "xa_ldn(er + j, m)" if epilogue.residual else None)
    if not (epilogue.bias or tail):
        return
    with w.loop("i", rows):
        w.line(f"float *p = out + i * {cols};")
        if epilogue.residual:
            w.line(f"const float *er = residual + i * {cols};")
        with w.block(f"for ({INDEX} j = 0; j < {cols}; j += XA_VL)"):
            w.line(f"const {INDEX} m = {cols} - j;")
            w.line("xa_v v = xa_ldn(p + j, m);")
            if epilogue.bias:
                w.line("v += xa_ldn(bias + j, m);")
            for line in tail:
                w.line(line)
            w.line("xa_stn(p + j, v, m);")


def direct_plan(op: Operation) -> conv_nhwc.NhwcConv | None:
    """The NHWC direct kernel's description of a float32 NHWC `relay.nn.conv2d` with HWIO
    or OHWI weights, else None (other dtypes and layouts, empty tensors, weights past the
    packing buffer)."""
    props = op.properties
    types = [t for v in (*op.operands, *op.results) for t in leaf_types(v.type)]
    if len(types) != 3 or any(scalar(t).ctype != "float" for t in types):
        return None
    layout = get_str(props, "kernel_layout")
    if get_str(props, "data_layout") != "NHWC" or layout not in ("HWIO", "OHWI"):
        return None
    (n, h, w, c), kernel, (_, oh, ow, o) = (static_shape(t) for t in types)
    kh, kw = kernel[layout.index("H")], kernel[layout.index("W")]
    if 0 in (n, h, w, c, o, kh, kw, oh, ow):
        return None
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    groups = get_int(props, "groups")
    conv = conv_nhwc.NhwcConv(
        n, h, w, c, o, kh, kw, oh, ow, sh, sw, dh, dw, top, left, groups,
        "HWIO" if layout == "HWIO" else "OHWI",
    )  # fmt: skip
    return conv if conv_nhwc.fits(conv) else None


def direct_body(w: CWriter, conv: conv_nhwc.NhwcConv, epilogue: conv_plan.Epilogue) -> None:
    """The routine's body: the depthwise or the grouped NHWC kernel (the epilogue's
    pointers `eb`, `er` are the routine's `bias`, `residual`)."""
    if epilogue.bias:
        w.line(f"const float *{epilogue.bias} = bias;")
    if epilogue.residual:
        w.line(f"const float *{epilogue.residual} = residual;")
    if conv.is_depthwise:
        conv_nhwc.depthwise(w, conv, epilogue)
    else:
        conv_nhwc.grouped(w, conv, epilogue)
