"""Loop nests of the data-movement ops: transpose, concatenate, split, layout_transform, pad,
strided_slice, take, and the plain copy (`compiler_begin`/`compiler_end`).

Reshape-like ops never get here: the plan makes them aliases of their input.
Contiguous pieces move by plain copy loops; the rest is one loop per output dim
reading the input at an affine (or, for blocked layouts, div/mod) offset. Big
concatenations, splits and transposes that keep trailing axes in place copy rows on
threads instead (`copies.py`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xrelay.codegen.c import copies
from xrelay.codegen.c.kernel_api import Kernel, Unsupported, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, copy_elements, loop_names, offset, strides
from xrelay.dialects.relay import tensor as t
from xrelay.dialects.relay.base import (
    get_float,
    get_int,
    get_ints,
    get_opt_int,
    get_opt_ints,
    get_str,
)


def _gather(k: Kernel, source: Callable[[list[str]], str]) -> None:
    """`out0[j] = source(j)` for every index `j` of the output (one loop per dim)."""
    shape = k.out_shape()
    names = loop_names("j", len(shape))
    with k.w.loops(names, shape):
        k.w.line(f"out0[{offset(names, shape)}] = {source(names)};")


def copy(k: Kernel) -> None:
    """The output is the input."""
    copy_elements(k.w, "out0", "in0", numel(k.in_shape(0)))


def transpose(k: Kernel) -> None:
    """Output dim d is input dim perm[d]."""
    shape = k.in_shape(0)
    perm = t.transpose_axes(len(shape), get_opt_ints(k.op.properties, "axes"))
    in_strides = strides(shape)
    if copies.transpose_blocks(k, shape, perm):
        return
    _gather(
        k, lambda j: f"in0[{affine([(v, in_strides[p]) for v, p in zip(j, perm, strict=True)])}]"
    )


def _pieces(
    shapes: Sequence[tuple[int, ...]], whole: tuple[int, ...], axis: int
) -> list[tuple[int, int]]:
    """Per piece: (its row length, its start in a row of `whole`), in elements, where a row
    is everything from `axis` on."""
    inner = numel(whole[axis + 1 :])
    out: list[tuple[int, int]] = []
    start = 0
    for shape in shapes:
        out.append((shape[axis] * inner, start * inner))
        start += shape[axis]
    return out


def _move_rows(k: Kernel, whole: tuple[int, ...], pieces: Sequence[str], gather: bool) -> None:
    """Concatenate the `pieces` into `out0` rows (or, `gather` false, split `in0` into them)."""
    axis = get_int(k.op.properties, "axis") % len(whole)
    row = numel(whole[axis:])
    shapes = [(k.out_shape if not gather else k.in_shape)(i) for i in range(len(pieces))]
    if copies.worth_threads(numel(whole) * k.out_scalar().bytes):
        copies.move_rows(k, numel(whole[:axis]), row, _pieces(shapes, whole, axis), pieces, gather)
        return
    for name, (length, start) in zip(pieces, _pieces(shapes, whole, axis), strict=True):
        if not length:
            continue
        with k.w.loop("r", numel(whole[:axis])):
            whole_at, piece_at = affine([("r", row)], start), affine([("r", length)])
            if gather:
                copy_elements(k.w, "out0", name, length, whole_at, piece_at)
            else:
                copy_elements(k.w, name, "in0", length, piece_at, whole_at)


def concatenate(k: Kernel) -> None:
    """Each input's rows go to their place in the output's rows."""
    _move_rows(k, k.out_shape(), k.ins, gather=True)


def split(k: Kernel) -> None:
    """Each output takes its rows from the input's rows."""
    _move_rows(k, k.in_shape(0), k.outs, gather=False)


def layout_transform(k: Kernel) -> None:
    """Gather through each primal axis's full coordinate (blocked sub-axes by div/mod)."""
    src = t.parse_layout(get_str(k.op.properties, "src_layout"))
    dst = t.parse_layout(get_str(k.op.properties, "dst_layout"))
    src_strides = strides(k.in_shape(0))
    src_names = [name for name, _ in src]
    dst_names = [name for name, _ in dst]

    def source(j: list[str]) -> str:
        terms: list[tuple[str, int]] = []
        for name, factor in dst:
            if factor:
                continue
            coord = j[dst_names.index(name)]
            split_by = t.layout_factor(dst, name)
            if name.lower() in dst_names:
                coord = f"{coord} * {split_by} + {j[dst_names.index(name.lower())]}"
            block = t.layout_factor(src, name)
            if name.lower() in src_names:
                terms.append((f"({coord}) / {block}", src_strides[src_names.index(name)]))
                terms.append((f"({coord}) % {block}", src_strides[src_names.index(name.lower())]))
            else:
                terms.append((coord, src_strides[src_names.index(name)]))
        return f"in0[{affine(terms)}]"

    _gather(k, source)


def pad(k: Kernel) -> None:
    """constant, edge, reflect or wrap padding."""
    props = k.op.properties
    shape = k.in_shape(0)
    widths = get_ints(props, "pad_width")
    mode = get_str(props, "pad_mode")
    element = k.out_scalar()
    in_strides = strides(shape)
    fill = get_float(props, "pad_value")
    value = element.literal(fill if element.is_float else int(fill))

    def source(j: list[str]) -> str:
        terms: list[tuple[str, int]] = []
        tests: list[str] = []
        for axis, (var, dim) in enumerate(zip(j, shape, strict=True)):
            before, after = widths[2 * axis], widths[2 * axis + 1]
            index = affine([(var, 1)], -before)
            if before or after:
                if mode == "constant":
                    tests.append(f"({index}) >= 0 && ({index}) < {dim}")
                elif mode == "edge":
                    index = f"({index}) < 0 ? 0 : (({index}) >= {dim} ? {dim - 1} : ({index}))"
                elif mode == "wrap":
                    index = f"((({index}) % {dim}) + {dim}) % {dim}"
                else:
                    mirrored = f"(({index}) >= {dim} ? {2 * (dim - 1)} - ({index}) : ({index}))"
                    index = f"({index}) < 0 ? -({index}) : {mirrored}"
            terms.append((index, in_strides[axis]))
        read = f"in0[{affine(terms)}]"
        return f"({' && '.join(tests)}) ? {read} : {value}" if tests else read

    _gather(k, source)


def strided_slice(k: Kernel) -> None:
    """Input index = start + stride * output index, per axis (numpy's clamping of begin)."""
    shape = k.in_shape(0)
    in_strides = strides(shape)
    starts = [0] * len(shape)
    steps = [1] * len(shape)
    for axis, (begin, _, stride) in t.slice_params(k.op.properties, len(shape)).items():
        dim = shape[axis]
        low, high = (-1, dim - 1) if stride < 0 else (0, dim)
        starts[axis] = min(max(begin + dim if begin < 0 else begin, low), high)
        steps[axis] = stride
    constant = sum(s * st for s, st in zip(starts, in_strides, strict=True))

    def source(j: list[str]) -> str:
        terms = [(v, s * st) for v, s, st in zip(j, steps, in_strides, strict=True)]
        return f"in0[{affine(terms, constant)}]"

    _gather(k, source)


def take(k: Kernel) -> None:
    """Gather along `axis` (or the flattened data) at normalized indices (`mode`)."""
    props = k.op.properties
    data, indices, out = k.in_shape(0), k.in_shape(1), k.out_shape()
    axis = get_opt_int(props, "axis")
    mode = get_str(props, "mode")
    flat = axis is None
    axis = 0 if axis is None else axis % len(data)
    batch = get_int(props, "batch_dims")
    batch = batch + len(indices) if batch < 0 else batch
    extent = numel(data) if flat else data[axis]
    if numel(out) and not extent:
        raise Unsupported("cannot be emitted: take from an empty axis")
    names = loop_names("j", len(out))
    w = k.w
    with w.loops(names, out):
        picked = names if flat else names[:batch] + names[axis : axis + len(indices) - batch]
        w.line(f"{INDEX} q = (int64_t)in1[{offset(picked, indices)}];")
        if mode == "wrap":
            w.line(f"q = ((q % {extent}) + {extent}) % {extent};")
        elif mode == "fast":
            w.line(f"q = q < 0 ? q + {extent} : q;")
        # clip, and the bounds of fast mode kept memory-safe
        w.line(f"q = q < 0 ? 0 : (q >= {extent} ? {extent - 1} : q);")
        if flat:
            read = "q"
        else:
            rest = names[axis + len(indices) - batch :]
            read = offset([*names[:axis], "q", *rest], data)
        w.line(f"out0[{offset(names, out)}] = in0[{read}];")
