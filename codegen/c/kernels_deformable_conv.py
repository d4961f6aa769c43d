"""Loop nest of `relay.nn.deformable_conv2d`: per output element, the sum in double over the
group's input channels and the kernel taps of the bilinear read at the offset position
(`reference_deformable_conv.bilinear`'s rule and neighbour order) times the weight."""

from __future__ import annotations

from typing import cast

from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, strides
from xrelay.dialects.relay import deformable_conv as dc
from xrelay.dialects.relay.base import get_str, properties_with_defaults


def deformable_conv2d(k: Kernel) -> None:
    """Loops n, o, y, x, then the group's channels and the taps; the sample is inline."""
    props = properties_with_defaults(cast(IRDLOperation, k.op))
    layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    p = dc.deformable_params(props)
    dshape, fshape, wshape, oshape = k.in_shape(0), k.in_shape(1), k.in_shape(2), k.out_shape()
    ds = dict(zip(layout, strides(dshape), strict=True))
    fs = dict(zip(layout, strides(fshape), strict=True))
    ws = dict(zip(kernel_layout, strides(wshape), strict=True))
    os_ = dict(zip(layout, strides(oshape), strict=True))
    c, h, w_ = (dshape[layout.index(d)] for d in "CHW")
    o, i, kh, kw = (wshape[kernel_layout.index(d)] for d in "OIHW")
    n, oh, ow = (oshape[layout.index(d)] for d in "NHW")
    out_per_group, per_dgroup = o // p.groups, c // p.deformable_groups
    top, left = p.padding[0], p.padding[1]
    element = k.out_scalar()
    w = k.w

    def data(y: str, x: str) -> str:
        return (
            f"(double)in0[{affine([('n', ds['N']), ('c', ds['C']), (y, ds['H']), (x, ds['W'])])}]"
        )

    with w.loop("n", n), w.loop("o", o), w.loop("y", oh), w.loop("x", ow):
        w.line("double acc = 0;")
        with w.loop("ci", i), w.loop("ky", kh), w.loop("kx", kw):
            w.line(f"{INDEX} c = o / {out_per_group} * {i} + ci;")
            w.line(f"{INDEX} at = 2 * (c / {per_dgroup} * {kh * kw} + ky * {kw} + kx);")
            off = affine([("n", fs["N"]), ("at", fs["C"]), ("y", fs["H"]), ("x", fs["W"])])
            w.line(
                f"double py = (double)(y * {p.strides[0]} - {top} + ky * {p.dilation[0]})"
                f" + (double)in1[{off}];"
            )
            w.line(
                f"double px = (double)(x * {p.strides[1]} - {left} + kx * {p.dilation[1]})"
                f" + (double)in1[{off} + {fs['C']}];"
            )
            w.line("double v = 0;")
            with w.block(f"if (py >= 0 && py < {h} && px >= 0 && px < {w_})"):
                w.line("double y0 = floor(py), x0 = floor(px);")
                w.line("double wyh = py - y0, wxh = px - x0, wyl = 1 - wyh, wxl = 1 - wxh;")
                w.line(f"{INDEX} yl = ({INDEX})y0, xl = ({INDEX})x0;")
                w.line(f"int yh = yl + 1 <= {h - 1}, xh = xl + 1 <= {w_ - 1};")
                w.line(f"v += (wxl * wyl) * {data('yl', 'xl')};")
                w.line(f"if (yh) v += (wxl * wyh) * {data('yl + 1', 'xl')};")
                w.line(f"if (xh) v += (wxh * wyl) * {data('yl', 'xl + 1')};")
                w.line(f"if (yh && xh) v += (wxh * wyh) * {data('yl + 1', 'xl + 1')};")
            wat = affine([("o", ws["O"]), ("ci", ws["I"]), ("ky", ws["H"]), ("kx", ws["W"])])
            w.line(f"acc += v * (double)in2[{wat}];")
        where = affine([("n", os_["N"]), ("o", os_["C"]), ("y", os_["H"]), ("x", os_["W"])])
        w.line(f"out0[{where}] = {converted(element, 'acc')};")
