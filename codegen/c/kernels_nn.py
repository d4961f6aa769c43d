"""Loop nests of the `relay.nn` anchor ops: conv2d, dense, pools, softmax, batch_norm, dropout.

Numerics follow the reference interpreter: convolutions, dense, average pools
and softmax accumulate in `double` (integers in 64 bits, wrapping; float32
softmax is `codegen/kernels/rows.py`'s row kernel), max pools
pad with the dtype's lowest value, average pools divide by TVM's count.
Window bounds are computed per output row/column (no test per tap).
"""

from __future__ import annotations

from xrelay.codegen.c.blocked_layout import offset, primal_dims
from xrelay.codegen.c.kernel_api import Kernel, better, converted, extreme, numel
from xrelay.codegen.c.kernels_conv import conv, pool
from xrelay.codegen.c.scalars import Scalar
from xrelay.codegen.c.writer import affine, copy_elements
from xrelay.dialects.relay.base import get_bool, get_float, get_int, get_str

conv2d = conv
"""relay.nn.conv2d: the rank-generic direct convolution."""
pool2d = pool
"""The 2-D pools (relay's, and dnnl's max_pool2d): the rank-generic pool."""


def _product(element: Scalar, acc: str, a: str, b: str) -> str:
    return f"({acc}){a} * ({acc}){b}"


def dense(k: Kernel) -> None:
    """`data @ weight.T` over the data's leading dims."""
    dshape, (units, depth) = k.in_shape(0), k.in_shape(1)
    rows = numel(dshape[:-1])
    out = k.out_scalar()
    acc = out.accumulator()
    w = k.w
    with w.loop("m", rows), w.loop("u", units):
        w.line(f"{acc} acc = 0;")
        with w.loop("q", depth):
            a, b = f"in0[{affine([('m', depth)], 'q')}]", f"in1[{affine([('u', depth)], 'q')}]"
            w.line(f"acc += {_product(out, acc, a, b)};")
        w.line(f"out0[{affine([('m', units)], 'u')}] = {converted(out, 'acc')};")


def global_pool2d(k: Kernel) -> None:
    """The mean or maximum over H and W."""
    layout = get_str(k.op.properties, "layout")
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = primal_dims(layout, ishape)
    element = k.out_scalar()
    is_max = k.op.name == "relay.nn.global_max_pool2d"
    w = k.w
    with w.loop("n", dims["N"]), w.loop("c", dims["C"]):
        if is_max:
            w.line(f"{element.ctype} m = {extreme(element, '>')};")
        else:
            w.line("double sum = 0;")
        with w.loop("y", dims["H"]), w.loop("x", dims["W"]):
            tap = offset(layout, ishape, {"N": "n", "C": "c", "H": "y", "W": "x"})
            if is_max:
                w.line(f"const {element.ctype} v = in0[{tap}];")
                w.line(f"m = {better(element, 'v', 'm', '>')} ? v : m;")
            else:
                w.line(f"sum += (double)in0[{tap}];")
        area = dims["H"] * dims["W"]  # an empty mean: 0 / 0, NaN (integers: 0)
        mean = f"sum / {area}.0" if area else ("NAN" if element.is_float else "0")
        result = "m" if is_max else converted(element, mean)
        where = offset(layout, oshape, {"N": "n", "C": "c", "H": "0", "W": "0"})
        w.line(f"out0[{where}] = {result};")


def _axis_split(shape: tuple[int, ...], axis: int) -> tuple[int, int, int]:
    return numel(shape[:axis]), shape[axis], numel(shape[axis + 1 :])


def softmax(k: Kernel) -> None:
    """softmax / log_softmax along `axis`, shifted by the maximum: float32 by the shared
    library's row kernel (`codegen/kernels/rows.py`), other floats in double."""
    shape = k.in_shape(0)
    axis = get_int(k.op.properties, "axis") % len(shape)
    outer, extent, inner = _axis_split(shape, axis)
    element = k.out_scalar()
    log = k.op.name == "relay.nn.log_softmax"
    w = k.w
    if element.ctype == "float":
        k.libraries.add("rows")
        w.line(f"xn_softmax_f32({outer}, {extent}, {inner}, in0, out0, {int(log)});")
        return
    at = affine([("o", extent * inner), ("j", inner)], "i")
    with w.loop("o", outer), w.loop("i", inner):
        w.line("double top = -INFINITY;")
        with w.loop("j", extent):
            w.line(f"const double v = (double)in0[{at}];")
            w.line("top = (v > top || v != v) ? v : top;")
        w.line("double total = 0;")
        with w.loop("j", extent):
            w.line(f"total += exp((double)in0[{at}] - top);")
        with w.loop("j", extent):
            value = (
                f"(double)in0[{at}] - top - log(total)"
                if log
                else f"exp((double)in0[{at}] - top) / total"
            )
            w.line(f"out0[{at}] = {converted(element, value)};")


def batch_norm(k: Kernel) -> None:
    """Inference batch_norm: (x - mean) / sqrt(var + eps) * gamma + beta; mean and var copied."""
    props = k.op.properties
    shape = k.in_shape(0)
    axis = get_int(props, "axis") % len(shape)
    outer, extent, inner = _axis_split(shape, axis)
    eps = get_float(props, "epsilon")
    element = k.out_scalar()
    w = k.w
    value = f"((double)in0[{affine([('o', extent * inner), ('c', inner)], 'i')}] - (double)in3[c])"
    value += f" / sqrt((double)in4[c] + {eps.hex()})"
    if get_bool(props, "scale"):
        value += " * (double)in1[c]"
    if get_bool(props, "center"):
        value += " + (double)in2[c]"
    where = affine([("o", extent * inner), ("c", inner)], "i")
    with w.loop("o", outer), w.loop("c", extent), w.loop("i", inner):
        w.line(f"out0[{where}] = {converted(element, value)};")
    copy_elements(w, "out1", "in3", extent)
    copy_elements(w, "out2", "in4", extent)


def dropout(k: Kernel) -> None:
    """Inference dropout: the data, and a mask of ones."""
    count = numel(k.in_shape(0))
    element = k.out_scalar()
    copy_elements(k.w, "out0", "in0", count)
    with k.w.loop("i", count):
        k.w.line(f"out1[i] = {element.literal(1)};")
