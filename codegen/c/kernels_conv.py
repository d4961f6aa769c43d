"""Loop nests of the windowed `relay.nn` ops over any number of spatial dims: conv1d/2d/3d,
their transposes, and the max and average pools of every rank.

Spatial dims are the layout's D, H, W letters, with loop counters `z`, `y`, `x`.
Numerics follow the reference interpreter (`reference_window`): sums in `double`
(integers in 64 bits, wrapping), max pools pad with the dtype's lowest value,
average pools divide by TVM's count. A convolution's window bounds are computed
per output position (no test per tap); a transposed convolution tests each tap
for an input position it comes from.
"""

from __future__ import annotations

from contextlib import ExitStack

from xrelay.codegen.c.blocked_layout import offset, primal_dims
from xrelay.codegen.c.kernel_api import Kernel, better, converted, extreme
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter, affine, strides
from xrelay.dialects.relay.base import get_bool, get_int, get_ints, get_str
from xrelay.dialects.relay.nn_conv import pad_nd

COUNTERS = {"D": "z", "H": "y", "W": "x"}
"""The loop counter of each spatial letter."""


def spatial_letters(layout: str) -> str:
    """The spatial letters of a layout, in order (`NCHW` -> `HW`)."""
    return "".join(d for d in layout if d in COUNTERS)


def window(
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


def _product(acc: str, a: str, b: str) -> str:
    return f"({acc}){a} * ({acc}){b}"


def conv(k: Kernel) -> None:
    """Grouped, dilated direct convolution of any rank, any supported data/kernel layout."""
    props = k.op.properties
    data_layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    letters = spatial_letters(data_layout)
    dshape, wshape, oshape = k.in_shape(0), k.in_shape(1), k.out_shape()
    dims = primal_dims(data_layout, dshape)
    kdims = primal_dims(kernel_layout, wshape)
    o, cg = kdims["O"], kdims["I"]
    kernel = {d: kdims[d] for d in letters}
    out = primal_dims(data_layout, oshape)
    step = dict(zip(letters, get_ints(props, "strides"), strict=True))
    dilation = dict(zip(letters, get_ints(props, "dilation"), strict=True))
    before, _ = pad_nd(get_ints(props, "padding"), len(letters))
    pad = dict(zip(letters, before, strict=True))
    groups = get_int(props, "groups")
    element = k.out_scalar()
    acc = element.accumulator()
    w = k.w
    with ExitStack() as nest:
        nest.enter_context(w.loop("n", dims["N"]))
        nest.enter_context(w.loop("oc", o))
        channel0 = f"oc / {o // groups} * {cg}" if groups > 1 else "0"
        w.line(f"const {INDEX} c0 = {channel0};")
        for d in letters:
            c = COUNTERS[d]
            nest.enter_context(w.loop(c, out[d]))
            window(w, c, c, step[d], pad[d], dilation[d], dims[d], kernel[d])
        w.line(f"{acc} acc = 0;")
        with ExitStack() as taps:
            taps.enter_context(w.loop("ic", cg))
            for d in letters:
                c = COUNTERS[d]
                taps.enter_context(w.loop(f"k{c}", f"k{c}1", f"k{c}0"))
            taps_at = {
                d: affine([(f"k{COUNTERS[d]}", dilation[d])], f"i{COUNTERS[d]}") for d in letters
            }
            data = offset(data_layout, dshape, {"N": "n", "C": "c0 + ic", **taps_at})
            kernel_at = {d: f"k{COUNTERS[d]}" for d in letters}
            weight = offset(kernel_layout, wshape, {"O": "oc", "I": "ic", **kernel_at})
            w.line(f"acc += {_product(acc, f'in0[{data}]', f'in1[{weight}]')};")
        where = offset(
            data_layout, oshape, {"N": "n", "C": "oc", **{d: COUNTERS[d] for d in letters}}
        )
        w.line(f"out0[{where}] = {converted(element, 'acc')};")


def conv_transpose(k: Kernel) -> None:
    """Grouped, dilated transposed convolution of any rank: each output position sums the
    taps whose input position `(out + pad - tap * dilation) / stride` exists."""
    props = k.op.properties
    data_layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    letters = spatial_letters(data_layout)
    dshape, wshape, oshape = k.in_shape(0), k.in_shape(1), k.out_shape()
    ds = dict(zip(data_layout, strides(dshape), strict=True))
    ws = dict(zip(kernel_layout, strides(wshape), strict=True))
    os_ = dict(zip(data_layout, strides(oshape), strict=True))
    dims = {d: dshape[data_layout.index(d)] for d in data_layout}
    og = wshape[kernel_layout.index("O")]
    groups = get_int(props, "groups")
    cg = dims["C"] // groups
    kernel = {d: wshape[kernel_layout.index(d)] for d in letters}
    out = {d: oshape[data_layout.index(d)] for d in letters}
    step = dict(zip(letters, get_ints(props, "strides"), strict=True))
    dilation = dict(zip(letters, get_ints(props, "dilation"), strict=True))
    before, _ = pad_nd(get_ints(props, "padding"), len(letters))
    pad = dict(zip(letters, before, strict=True))
    element = k.out_scalar()
    acc = element.accumulator()
    w = k.w
    with ExitStack() as nest:
        nest.enter_context(w.loop("n", dims["N"]))
        nest.enter_context(w.loop("oc", og * groups))
        w.line(f"const {INDEX} c0 = {f'oc / {og} * {cg}' if groups > 1 else '0'};")
        w.line(f"const {INDEX} o = {f'oc % {og}' if groups > 1 else 'oc'};")
        for d in letters:
            nest.enter_context(w.loop(COUNTERS[d], out[d]))
        w.line(f"{acc} acc = 0;")
        with ExitStack() as taps:
            taps.enter_context(w.loop("ic", cg))
            for d in letters:
                c = COUNTERS[d]
                taps.enter_context(w.loop(f"k{c}", kernel[d]))
                w.line(f"const {INDEX} t{c} = {affine([(c, 1), (f'k{c}', -dilation[d])], pad[d])};")
                if step[d] == 1:
                    w.line(f"if (t{c} < 0 || t{c} >= {dims[d]}) continue;")
                    w.line(f"const {INDEX} i{c} = t{c};")
                else:
                    w.line(f"if (t{c} < 0 || t{c} % {step[d]} != 0) continue;")
                    w.line(f"const {INDEX} i{c} = t{c} / {step[d]};")
                    w.line(f"if (i{c} >= {dims[d]}) continue;")
            data = affine(
                [
                    ("n", ds["N"]),
                    ("c0 + ic", ds["C"]),
                    *((f"i{COUNTERS[d]}", ds[d]) for d in letters),
                ]
            )
            weight = affine(
                [
                    ("c0 + ic", ws["I"]),
                    ("o", ws["O"]),
                    *((f"k{COUNTERS[d]}", ws[d]) for d in letters),
                ]
            )
            w.line(f"acc += {_product(acc, f'in0[{data}]', f'in1[{weight}]')};")
        where = affine(
            [("n", os_["N"]), ("oc", os_["C"]), *((COUNTERS[d], os_[d]) for d in letters)]
        )
        w.line(f"out0[{where}] = {converted(element, 'acc')};")


def pool(k: Kernel) -> None:
    """Max or average pooling of any rank with padding, dilation, ceil_mode and
    count_include_pad (relay's pools, and dnnl's where oneDNN's differs)."""
    props = k.op.properties
    layout = get_str(props, "layout")
    letters = spatial_letters(layout)
    counters = [COUNTERS[d] for d in letters]
    ishape, oshape = k.in_shape(0), k.out_shape()
    dims = primal_dims(layout, ishape)
    odims = primal_dims(layout, oshape)
    size = dict(zip(letters, get_ints(props, "pool_size"), strict=True))
    step = dict(zip(letters, get_ints(props, "strides"), strict=True))
    dilation = dict(zip(letters, get_ints(props, "dilation"), strict=True))
    before, after = pad_nd(get_ints(props, "padding"), len(letters))
    is_max = "max_pool" in k.op.name
    element = k.out_scalar()
    w = k.w
    with ExitStack() as nest:
        nest.enter_context(w.loop("n", dims["N"]))
        nest.enter_context(w.loop("c", dims["C"]))
        for d, c, b in zip(letters, counters, before, strict=True):
            nest.enter_context(w.loop(c, odims[d]))
            window(w, c, c, step[d], b, dilation[d], dims[d], size[d])
        pairs = list(zip(letters, counters, strict=True))
        taps_at = {d: affine([(f"k{c}", dilation[d])], f"i{c}") for d, c in pairs}
        tap = offset(layout, ishape, {"N": "n", "C": "c", **taps_at})
        where = offset(layout, oshape, {"N": "n", "C": "c", **{d: c for d, c in pairs}})
        if is_max:
            # The padding (lowest value) takes part when the window reaches it.
            inside = " && ".join(
                [f"k{c}0 == 0" for c in counters]
                + [f"k{c}1 == {size[d]}" for d, c in zip(letters, counters, strict=True)]
            )
            w.line(f"{element.ctype} m = {inside} ? {extreme(element, '>')} : {element.lowest()};")
            with ExitStack() as taps:
                for c in counters:
                    taps.enter_context(w.loop(f"k{c}", f"k{c}1", f"k{c}0"))
                w.line(f"const {element.ctype} v = in0[{tap}];")
                w.line(f"m = {better(element, 'v', 'm', '>')} ? v : m;")
            w.line(f"out0[{where}] = m;")
            return
        w.line("double sum = 0;")
        with ExitStack() as taps:
            for c in counters:
                taps.enter_context(w.loop(f"k{c}", f"k{c}1", f"k{c}0"))
            w.line(f"sum += (double)in0[{tap}];")
        if get_bool(props, "count_include_pad"):
            for d, c, a in zip(letters, counters, after, strict=True):
                taps_left = f"{dims[d] + a} - i{c}"
                dil = dilation[d]
                taps_left = taps_left if dil == 1 else f"({taps_left} + {dil - 1}) / {dil}"
                w.line(f"const {INDEX} p{c} = {taps_left};")
                w.line(
                    f"const {INDEX} c{c} = p{c} < {size[d]} ? (p{c} > 0 ? p{c} : 0) : {size[d]};"
                )
        else:
            for c in counters:
                w.line(f"const {INDEX} c{c} = k{c}1 > k{c}0 ? k{c}1 - k{c}0 : 0;")
        count = " * ".join(f"c{c}" for c in counters)
        w.line(f"const {INDEX} count = {count} > 0 ? {count} : 1;")
        w.line(f"out0[{where}] = {converted(element, 'sum / (double)count')};")
