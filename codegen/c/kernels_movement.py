"""Loop nests of the ops added for the ONNX frontend: broadcast_to, tile, reverse, trilu,
depth_to_space, space_to_depth (one loop per output dim reading the input at a computed
index), gather, gather_nd, scatter_elements, scatter_nd, one_hot, cumsum, cumprod,
arange, shape_of and ndarray_size.

Index rules as the reference (`dialects/relay/reference_indexing.py`): a negative index
counts from the end once; gathers clamp, scatters drop an update still out of range.
"""

from __future__ import annotations

from collections.abc import Callable

from xrelay.codegen.c.kernel_api import Kernel, Unsupported, converted, numel
from xrelay.codegen.c.scalar_ops import (
    _float_to_int,  # pyright: ignore[reportPrivateUsage]
)
from xrelay.codegen.c.scalars import INDEX, Scalar
from xrelay.codegen.c.writer import affine, copy_elements, loop_names, offset, strides
from xrelay.dialects.relay import indexing as ix
from xrelay.dialects.relay import movement as m
from xrelay.dialects.relay import scan as s
from xrelay.dialects.relay.base import (
    get_bool,
    get_float,
    get_int,
    get_ints,
    get_opt_int,
    get_str,
)


def _gather(k: Kernel, source: Callable[[list[str]], str]) -> None:
    """`out0[j] = source(j)` for every index `j` of the output (one loop per dim); nothing for
    an empty output (whose source may divide by an empty dim)."""
    shape = k.out_shape()
    if numel(shape) == 0:
        return
    names = loop_names("j", len(shape))
    with k.w.loops(names, shape):
        k.w.line(f"out0[{offset(names, shape)}] = {source(names)};")


def broadcast_to(k: Kernel) -> None:
    """Input dims align right; a dim of 1 reads index 0."""
    shape, out = k.in_shape(0), k.out_shape()
    lead = len(out) - len(shape)
    in_strides = strides(shape)
    _gather(
        k,
        lambda j: (
            "in0["
            + affine([(j[lead + a], in_strides[a]) for a, d in enumerate(shape) if d != 1])
            + "]"
        ),
    )


def tile(k: Kernel) -> None:
    """Input index = output index modulo the (padded) input dim."""
    dims, _ = m.tile_params(k.in_shape(0), get_ints(k.op.properties, "reps"))
    in_strides = strides(dims)
    _gather(
        k,
        lambda j: (
            "in0["
            + affine([(f"{v} % {d}", st) for v, d, st in zip(j, dims, in_strides, strict=True)])
            + "]"
        ),
    )


def reverse(k: Kernel) -> None:
    """Input index along `axis` = dim - 1 - output index."""
    shape = k.in_shape(0)
    axis = get_int(k.op.properties, "axis") % len(shape)
    in_strides = strides(shape)

    def source(j: list[str]) -> str:
        index = [f"{shape[a] - 1} - {v}" if a == axis else v for a, v in enumerate(j)]
        return f"in0[{affine(list(zip(index, in_strides, strict=True)))}]"

    _gather(k, source)


def trilu(k: Kernel) -> None:
    """Keep `in0` where `j - i >= k` (upper) or `<= k` (lower) in the last two dims, else 0."""
    shape = k.in_shape(0)
    diagonal = get_int(k.op.properties, "k")
    symbol = ">=" if get_bool(k.op.properties, "upper") else "<="
    zero = k.out_scalar().literal(0)

    def source(j: list[str]) -> str:
        keep = f"{j[-1]} - {j[-2]} {symbol} {diagonal}"
        return f"({keep}) ? in0[{offset(j, shape)}] : {zero}"

    _gather(k, source)


def _nchw(names: list[str], layout: str) -> list[str]:
    return names if layout == "NCHW" else [names[0], names[3], names[1], names[2]]


def _nchw_shape(shape: tuple[int, ...], layout: str) -> list[int]:
    return list(shape) if layout == "NCHW" else [shape[0], shape[3], shape[1], shape[2]]


def _in_offset(coords: list[str], shape: tuple[int, ...], layout: str) -> str:
    n, c, h, w = coords
    return offset([n, c, h, w] if layout == "NCHW" else [n, h, w, c], shape)


def depth_to_space(k: Kernel) -> None:
    """out[n, c, h, w] = in[n, channel(c, h % b, w % b), h / b, w / b] (DCR or CRD order)."""
    shape = k.in_shape(0)
    block, layout = m.space_params(k.op.properties, shape)
    out_c = _nchw_shape(k.out_shape(), layout)[1]
    crd = get_str(k.op.properties, "mode") == "CRD"

    def source(j: list[str]) -> str:
        n, c, h, w = _nchw(j, layout)
        i, jj = f"{h} % {block}", f"{w} % {block}"
        if crd:
            channel = f"{c} * {block * block} + ({i}) * {block} + {jj}"
        else:
            channel = f"(({i}) * {block} + {jj}) * {out_c} + {c}"
        coords = [n, channel, f"{h} / {block}", f"{w} / {block}"]
        return f"in0[{_in_offset(coords, shape, layout)}]"

    _gather(k, source)


def space_to_depth(k: Kernel) -> None:
    """out[n, (i b + j) C + c, h, w] = in[n, c, h b + i, w b + j]."""
    shape = k.in_shape(0)
    block, layout = m.space_params(k.op.properties, shape)
    channels = _nchw_shape(shape, layout)[1]

    def source(j: list[str]) -> str:
        n, c, h, w = _nchw(j, layout)
        cell = f"{c} / {channels}"
        coords = [
            n,
            f"{c} % {channels}",
            f"{h} * {block} + ({cell}) / {block}",
            f"{w} * {block} + ({cell}) % {block}",
        ]
        return f"in0[{_in_offset(coords, shape, layout)}]"

    _gather(k, source)


# --------------------------------------------------------------------------- #
# gather, gather_nd, scatters, one_hot
# --------------------------------------------------------------------------- #


def _clamped(k: Kernel, name: str, read: str, size: int) -> None:
    """`int64_t name` = the index `read`, negative once from the end, clamped to the axis."""
    k.w.line(f"{INDEX} {name} = (int64_t){read};")
    k.w.line(f"{name} = {name} < 0 ? {name} + {size} : {name};")
    k.w.line(f"{name} = {name} < 0 ? 0 : ({name} >= {size} ? {max(size - 1, 0)} : {name});")


def gather(k: Kernel) -> None:
    """out[j] = data[j with j_axis replaced by the clamped indices[j]]."""
    data, out = k.in_shape(0), k.out_shape()
    axis = get_int(k.op.properties, "axis") % len(data)
    names = loop_names("j", len(out))
    if numel(out) and not data[axis]:
        raise Unsupported("cannot be emitted: gather from an empty axis")
    with k.w.loops(names, out):
        _clamped(k, "q", f"in1[{offset(names, out)}]", data[axis])
        picked = [("q" if a == axis else v) for a, v in enumerate(names)]
        k.w.line(f"out0[{offset(names, out)}] = in0[{offset(picked, data)}];")


def gather_nd(k: Kernel) -> None:
    """out[y, x] = data[y[:batch_dims], clamped indices[:, y], x]."""
    data, indices, out = k.in_shape(0), k.in_shape(1), k.out_shape()
    batch = get_int(k.op.properties, "batch_dims")
    depth = indices[0]
    if numel(out) == 0:
        return
    if 0 in data[batch : batch + depth]:
        raise Unsupported("cannot be emitted: gather_nd from an empty axis")
    names = loop_names("j", len(out))
    ys = names[: len(indices) - 1]
    with k.w.loops(names, out):
        for level in range(depth):
            read = f"in1[{offset([str(level), *ys], indices)}]"
            _clamped(k, f"q{level}", read, data[batch + level])
        picked = [*ys[:batch], *(f"q{level}" for level in range(depth)), *names[len(ys) :]]
        k.w.line(f"out0[{offset(names, out)}] = in0[{offset(picked, data)}];")


def _combine(element: Scalar, mode: str, old: str, new: str) -> str:
    """The scatter reduction of `old` and `new` (the reference's `COMBINE`)."""
    if mode == "update":
        return new
    if mode in ("min", "max"):
        symbol = "<=" if mode == "min" else ">="
        if element.kind == "bool":
            return f"(uint8_t)({old} {'&' if mode == 'min' else '|'} {new})"
        if element.is_float:  # numpy's minimum/maximum: NaN wins, ties take the new value
            wins = f"{new} {symbol} {old} || {new} != {new}"
            return f"({old} != {old} ? {old} : ({wins}) ? {new} : {old})"
        return f"({new} {symbol} {old} ? {new} : {old})"
    if element.is_float:
        return f"{old} {'+' if mode == 'add' else '*'} {new}"
    if element.kind == "bool":
        return f"(uint8_t)({old} {'|' if mode == 'add' else '&'} {new})"
    return f"xr_{'add' if mode == 'add' else 'mul'}_{element.suffix}({old}, {new})"


def _scatter_index(k: Kernel, name: str, read: str, size: int) -> str:
    """Declare `name` = the index, negative once from the end; return its in-range test."""
    k.w.line(f"{INDEX} {name} = (int64_t){read};")
    k.w.line(f"{name} = {name} < 0 ? {name} + {size} : {name};")
    return f"{name} >= 0 && {name} < {size}"


def scatter_elements(k: Kernel) -> None:
    """Copy data, then combine each update into its element, in row-major order."""
    data, indices = k.in_shape(0), k.in_shape(1)
    axis = get_int(k.op.properties, "axis") % len(data)
    mode = get_str(k.op.properties, "reduction")
    copy_elements(k.w, "out0", "in0", numel(data))
    names = loop_names("j", len(indices))
    with k.w.loops(names, indices):
        test = _scatter_index(k, "q", f"in1[{offset(names, indices)}]", data[axis])
        at = offset([("q" if a == axis else v) for a, v in enumerate(names)], data)
        with k.w.block(f"if ({test})"):
            new = f"in2[{offset(names, indices)}]"
            k.w.line(f"out0[{at}] = {_combine(k.out_scalar(), mode, f'out0[{at}]', new)};")


def scatter_nd(k: Kernel) -> None:
    """Copy data, then combine each update slice into `data[indices[:, y]]`, in order of y."""
    data, indices, updates = k.in_shape(0), k.in_shape(1), k.in_shape(2)
    mode = get_str(k.op.properties, "mode")
    depth = indices[0]
    copy_elements(k.w, "out0", "in0", numel(data))
    names = loop_names("j", len(updates))
    ys = names[: len(indices) - 1]
    with k.w.loops(names, updates):
        tests = [
            _scatter_index(k, f"q{level}", f"in1[{offset([str(level), *ys], indices)}]", size)
            for level, size in enumerate(data[:depth])
        ]
        at = offset([*(f"q{level}" for level in range(depth)), *names[len(ys) :]], data)
        with k.w.block(f"if ({' && '.join(tests) or '1'})"):
            new = f"in2[{offset(names, updates)}]"
            k.w.line(f"out0[{at}] = {_combine(k.out_scalar(), mode, f'out0[{at}]', new)};")


def one_hot(k: Kernel) -> None:
    """out[..., c, ...] = indices[...] == c ? on_value : off_value."""
    indices, out = k.in_shape(0), k.out_shape()
    axis = get_int(k.op.properties, "axis") % len(out)
    names = loop_names("j", len(out))
    rest = [v for a, v in enumerate(names) if a != axis]
    with k.w.loops(names, out):
        hit = f"(int64_t)in0[{offset(rest, indices)}] == {names[axis]}"
        k.w.line(f"out0[{offset(names, out)}] = ({hit}) ? in1[0] : in2[0];")


# --------------------------------------------------------------------------- #
# cumsum, cumprod, arange, shape_of, ndarray_size
# --------------------------------------------------------------------------- #


def _convert(value: str, source: Scalar, out: Scalar) -> str:
    """`value` of `source` converted to `out` as `cast` converts."""
    if out.kind == "bool":
        return f"(uint8_t)({value} != 0)"
    if source.is_float and not out.is_float:
        return _float_to_int(value, out)
    return f"({out.ctype}){value}"


def scan(k: Kernel) -> None:
    """A running sum or product along the axis, in double for floats and 64 bits for integers
    (wrapping), each output converted once to the result type."""
    shape = k.in_shape(0)
    axis = get_opt_int(k.op.properties, "axis")
    if axis is None:
        shape, axis = (numel(shape),), 0
    axis %= len(shape)
    source, out = k.in_scalar(0), k.out_scalar()
    product = k.op.name == "relay.cumprod"
    exclusive = get_bool(k.op.properties, "exclusive")
    outer, length, inner = numel(shape[:axis]), shape[axis], numel(shape[axis + 1 :])
    acc = out.accumulator()
    w = k.w
    with w.loops(["o", "i"], [outer, inner]):
        w.line(f"{acc} acc = {1 if product else 0};")
        with w.loop("a", length):
            at = affine([("o", length * inner), ("a", inner), ("i", 1)])
            w.line(f"const {acc} v = ({acc}){_convert(f'in0[{at}]', source, out)};")
            step = "acc *= v;" if product else "acc += v;"
            if exclusive:
                w.line(f"out0[{at}] = {converted(out, 'acc')};")
                w.line(step)
            else:
                w.line(step)
                w.line(f"out0[{at}] = {converted(out, 'acc')};")


def arange(k: Kernel) -> None:
    """out[i] = start + i * step, computed in double and converted as `cast` converts."""
    props = k.op.properties
    start, step = get_float(props, "start"), get_float(props, "step")
    (length,) = k.out_shape()
    double = Scalar("double", "float", 64, None)
    with k.w.loop("i", length):
        value = f"({start.hex()} + (double)i * {step.hex()})"
        k.w.line(f"out0[i] = {_convert(value, double, k.out_scalar())};")


def shape_of(k: Kernel) -> None:
    """The input's static shape."""
    out = k.out_scalar()
    for axis, dim in enumerate(k.in_shape(0)):
        k.w.line(f"out0[{axis}] = {out.literal(dim)};")


def ndarray_size(k: Kernel) -> None:
    """The input's static element count."""
    k.w.line(f"out0[0] = {k.out_scalar().literal(numel(k.in_shape(0)))};")


MOVEMENT_KERNELS: dict[str, Callable[[Kernel], None]] = {
    m.BroadcastToOp.name: broadcast_to,
    m.TileOp.name: tile,
    m.ReverseOp.name: reverse,
    m.TriluOp.name: trilu,
    m.DepthToSpaceOp.name: depth_to_space,
    m.SpaceToDepthOp.name: space_to_depth,
    ix.GatherOp.name: gather,
    ix.GatherNDOp.name: gather_nd,
    ix.ScatterElementsOp.name: scatter_elements,
    ix.ScatterNDOp.name: scatter_nd,
    ix.OneHotOp.name: one_hot,
    s.CumsumOp.name: scan,
    s.CumprodOp.name: scan,
    s.ArangeOp.name: arange,
    s.ShapeOfOp.name: shape_of,
    s.NdarraySizeOp.name: ndarray_size,
}
"""Op name -> printer, merged into `kernels.KERNELS`."""
