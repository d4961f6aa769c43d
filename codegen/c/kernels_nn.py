"""Loop nests of the `relay.nn` anchor ops: conv2d, dense, pools, softmax, batch_norm, dropout.

Numerics follow the reference interpreter: convolutions, dense, average pools
and softmax accumulate in `double` (integers in 64 bits, wrapping), max pools
pad with the dtype's lowest value, average pools divide by TVM's count.
Window bounds are computed per output row/column (no test per tap).
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, better, converted, extreme, numel
from xrelay.codegen.c.scalars import INDEX, Scalar
from xrelay.codegen.c.writer import CWriter, affine, copy_elements, strides
from xrelay.dialects.relay.base import get_bool, get_float, get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d


def _product(element: Scalar, acc: str, a: str, b: str) -> str:
    return f"({acc}){a} * ({acc}){b}"


def _window(
    w: CWriter, name: str, pos: str, stride: int, pad: int, dilation: int, extent: int, kernel: int
) -> None:
    """Declare `i<name>` (first input index) and the taps `k<name>0 <= k < k<name>1` inside."""
    w.line(f"const {INDEX} i{name} = {affine([(pos, stride)], -pad)};")
    if dilation == 1:
        w.line(f"const {INDEX} k{name}0 = i{name} < 0 ? -i{name} : 0;")
        w.line(f"const {INDEX} e{name} = {extent} - i{name};")
    else:
        first = f"(-i{name} + {dilation - 1}) / {dilation}"
        w.line(f"const {INDEX} k{name}0 = i{name} < 0 ? {first} : 0;")
        w.line(f"const {INDEX} e{name} = ({extent} - i{name} + {dilation - 1}) / {dilation};")
    w.line(f"const {INDEX} k{name}1 = e{name} < {kernel} ? e{name} : {kernel};")


def conv2d(k: Kernel) -> None:
    """Grouped, dilated direct convolution, any supported data/kernel layout."""
    props = k.op.properties
    data_layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    dshape, wshape, oshape = k.in_shape(0), k.in_shape(1), k.out_shape()
    ds = dict(zip(data_layout, strides(dshape), strict=True))
    ws = dict(zip(kernel_layout, strides(wshape), strict=True))
    os_ = dict(zip(data_layout, strides(oshape), strict=True))
    n, _, h, wd = (dshape[data_layout.index(d)] for d in "NCHW")
    o, cg, kh, kw = (wshape[kernel_layout.index(d)] for d in "OIHW")
    oh, ow = (oshape[data_layout.index(d)] for d in "HW")
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    groups = get_int(props, "groups")
    out = k.out_scalar()
    acc = out.accumulator()
    w = k.w
    with w.loop("n", n), w.loop("oc", o):
        channel0 = f"oc / {o // groups} * {cg}" if groups > 1 else "0"
        w.line(f"const {INDEX} c0 = {channel0};")
        with w.loop("y", oh):
            _window(w, "y", "y", sh, top, dh, h, kh)
            with w.loop("x", ow):
                _window(w, "x", "x", sw, left, dw, wd, kw)
                w.line(f"{acc} acc = 0;")
                with w.loop("ic", cg), w.loop("ky", "ky1", "ky0"), w.loop("kx", "kx1", "kx0"):
                    data = affine(
                        [
                            ("n", ds["N"]),
                            ("c0 + ic", ds["C"]),
                            (affine([("ky", dh)], "iy"), ds["H"]),
                            (affine([("kx", dw)], "ix"), ds["W"]),
                        ]
                    )
                    weight = affine(
                        [("oc", ws["O"]), ("ic", ws["I"]), ("ky", ws["H"]), ("kx", ws["W"])]
                    )
                    w.line(f"acc += {_product(out, acc, f'in0[{data}]', f'in1[{weight}]')};")
                where = affine(
                    [("n", os_["N"]), ("oc", os_["C"]), ("y", os_["H"]), ("x", os_["W"])]
                )
                w.line(f"out0[{where}] = {converted(out, 'acc')};")


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


def _pool_common(
    k: Kernel,
) -> tuple[dict[str, int], dict[str, int], dict[str, int], dict[str, int]]:
    layout = get_str(k.op.properties, "layout")
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = {d: ishape[layout.index(d)] for d in "NCHW"}
    odims = {d: oshape[layout.index(d)] for d in "HW"}
    ins = dict(zip(layout, strides(ishape), strict=True))
    outs = dict(zip(layout, strides(oshape), strict=True))
    return dims, odims, ins, outs


def pool2d(k: Kernel) -> None:
    """Max or average pooling with padding, dilation, ceil_mode and count_include_pad."""
    props = k.op.properties
    dims, odims, ins, outs = _pool_common(k)
    (kh, kw), (sh, sw) = get_ints(props, "pool_size"), get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, bottom, right = pad_2d(get_ints(props, "padding"))
    is_max = k.op.name.endswith(".max_pool2d")  # relay's, or dnnl's when oneDNN's differs
    element = k.out_scalar()
    w = k.w
    with w.loop("n", dims["N"]), w.loop("c", dims["C"]), w.loop("y", odims["H"]):
        _window(w, "y", "y", sh, top, dh, dims["H"], kh)
        with w.loop("x", odims["W"]):
            _window(w, "x", "x", sw, left, dw, dims["W"], kw)
            tap = affine(
                [
                    ("n", ins["N"]),
                    ("c", ins["C"]),
                    (affine([("ky", dh)], "iy"), ins["H"]),
                    (affine([("kx", dw)], "ix"), ins["W"]),
                ]
            )
            where = affine([("n", outs["N"]), ("c", outs["C"]), ("y", outs["H"]), ("x", outs["W"])])
            if is_max:
                # The padding (lowest value) takes part when the window reaches it.
                inside = f"ky0 == 0 && kx0 == 0 && ky1 == {kh} && kx1 == {kw}"
                w.line(
                    f"{element.ctype} m = {inside} ? {extreme(element, '>')} : {element.lowest()};"
                )
                with w.loop("ky", "ky1", "ky0"), w.loop("kx", "kx1", "kx0"):
                    w.line(f"const {element.ctype} v = in0[{tap}];")
                    w.line(f"m = {better(element, 'v', 'm', '>')} ? v : m;")
                w.line(f"out0[{where}] = m;")
            else:
                _average(k, where, tap, dims, (kh, kw), (dh, dw), (bottom, right))


def _average(
    k: Kernel,
    where: str,
    tap: str,
    dims: dict[str, int],
    pool: tuple[int, int],
    dilation: tuple[int, int],
    after: tuple[int, int],
) -> None:
    """The body of an average pool: the in-bounds sum over TVM's count."""
    w, element = k.w, k.out_scalar()
    w.line("double sum = 0;")
    with w.loop("ky", "ky1", "ky0"), w.loop("kx", "kx1", "kx0"):
        w.line(f"sum += (double)in0[{tap}];")
    if get_bool(k.op.properties, "count_include_pad"):
        sides = (
            ("y", dims["H"], after[0], dilation[0], pool[0]),
            ("x", dims["W"], after[1], dilation[1], pool[1]),
        )
        for axis, extent, pad, dil, size in sides:
            taps = f"{extent + pad} - i{axis}"
            taps = taps if dil == 1 else f"({taps} + {dil - 1}) / {dil}"
            w.line(f"const {INDEX} p{axis} = {taps};")
            w.line(
                f"const {INDEX} c{axis} = p{axis} < {size} ? (p{axis} > 0 ? p{axis} : 0) : {size};"
            )
    else:
        for axis in "yx":
            w.line(f"const {INDEX} c{axis} = k{axis}1 > k{axis}0 ? k{axis}1 - k{axis}0 : 0;")
    w.line(f"const {INDEX} count = cy * cx > 0 ? cy * cx : 1;")
    w.line(f"out0[{where}] = {converted(element, 'sum / (double)count')};")


def global_pool2d(k: Kernel) -> None:
    """The mean or maximum over H and W."""
    layout = get_str(k.op.properties, "layout")
    ishape = k.in_shape(0)
    dims = {d: ishape[layout.index(d)] for d in "NCHW"}
    ins = dict(zip(layout, strides(ishape), strict=True))
    outs = dict(zip(layout, strides(k.out_shape()), strict=True))
    element = k.out_scalar()
    is_max = k.op.name == "relay.nn.global_max_pool2d"
    w = k.w
    with w.loop("n", dims["N"]), w.loop("c", dims["C"]):
        if is_max:
            w.line(f"{element.ctype} m = {extreme(element, '>')};")
        else:
            w.line("double sum = 0;")
        with w.loop("y", dims["H"]), w.loop("x", dims["W"]):
            tap = affine([("n", ins["N"]), ("c", ins["C"]), ("y", ins["H"]), ("x", ins["W"])])
            if is_max:
                w.line(f"const {element.ctype} v = in0[{tap}];")
                w.line(f"m = {better(element, 'v', 'm', '>')} ? v : m;")
            else:
                w.line(f"sum += (double)in0[{tap}];")
        area = dims["H"] * dims["W"]  # an empty mean: 0 / 0, NaN (integers: 0)
        mean = f"sum / {area}.0" if area else ("NAN" if element.is_float else "0")
        result = "m" if is_max else converted(element, mean)
        w.line(f"out0[{affine([('n', outs['N']), ('c', outs['C'])])}] = {result};")


def _axis_split(shape: tuple[int, ...], axis: int) -> tuple[int, int, int]:
    return numel(shape[:axis]), shape[axis], numel(shape[axis + 1 :])


def softmax(k: Kernel) -> None:
    """softmax / log_softmax along `axis`, in double, shifted by the maximum."""
    shape = k.in_shape(0)
    axis = get_int(k.op.properties, "axis") % len(shape)
    outer, extent, inner = _axis_split(shape, axis)
    element = k.out_scalar()
    log = k.op.name == "relay.nn.log_softmax"
    w = k.w
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
