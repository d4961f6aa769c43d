"""Loop nests of the reductions (`sum mean max min prod argmax argmin`) and `matmul`.

On float32, `sum mean prod max min` over adjacent axes call the shared library's
vectorized kernel (`codegen/kernels/reduce.py`, the same numerics: double sums, NaN
winning). Otherwise a reduction loops over the kept dims (the output, with or without
`keepdims`, in the same order), then over the reduced dims in row-major
order. Floats accumulate in `double`; integers in 64 bits and wrap back to
their type (numpy's `dtype=x.dtype`); `mean` of integers truncates (TVM);
max/min propagate NaN; over an empty axis (docs/semantics.md) sum is 0, prod 1,
mean NaN (integers: 0), max/min -inf/+inf (the type's lowest/highest), argmax/argmin
-1; arg-reductions count through the reduced dims, first
(or with `select_last_index` last) extremum, NaN first as numpy's.
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, better, converted, extreme, numel
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import affine, loop_names, offset, strides
from xrelay.codegen.kernels.reduce import KINDS
from xrelay.dialects.relay import reduce as r
from xrelay.dialects.relay.base import get_bool
from xrelay.dialects.relay.types import broadcast_shapes

_SYMBOL = {"relay.max": ">", "relay.min": "<", "relay.argmax": ">", "relay.argmin": "<"}


def _block(shape: tuple[int, ...], axes: list[int]) -> tuple[int, int, int] | None:
    """(outer, extent, inner) when the reduced axes are adjacent once unit dims are dropped."""
    kinds = [a in axes for a, d in enumerate(shape) if d != 1]
    if any(not kinds[n] and kinds[n - 1] and True in kinds[n:] for n in range(1, len(kinds))):
        return None  # a kept dim between two reduced ones
    sizes = [d for d in shape if d != 1]
    reduced = [n for n, kind in enumerate(kinds) if kind]
    first = reduced[0] if reduced else len(sizes)
    last = reduced[-1] + 1 if reduced else len(sizes)
    return numel(sizes[:first]), numel(sizes[first:last]), numel(sizes[last:])


def reduce(k: Kernel) -> None:
    """sum, mean, prod, max, min, argmax, argmin over `axis` (`keepdims`, `exclude`)."""
    shape = k.in_shape(0)
    axes, _ = r.reduce_params(k.op.properties, len(shape))
    block = _block(shape, list(axes))
    if k.in_scalar(0).ctype == "float" and k.op.name in KINDS and block is not None:
        k.libraries.add("reduce")
        outer, extent, inner = block
        k.w.line(f"xs_reduce_f32({KINDS[k.op.name]}, {outer}, {extent}, {inner}, in0, out0);")
        return
    kept = [a for a in range(len(shape)) if a not in axes]
    in_strides = strides(shape)
    names = {a: f"j{a}" for a in range(len(shape))}
    tap = affine([(names[a], in_strides[a]) for a in range(len(shape))])
    where = offset([names[a] for a in kept], [shape[a] for a in kept])
    element, out = k.in_scalar(0), k.out_scalar()
    name = k.op.name
    w = k.w
    with w.loops([names[a] for a in kept], [shape[a] for a in kept]):
        if name in ("relay.argmax", "relay.argmin"):
            _arg_reduce(k, tap, axes, [shape[a] for a in axes], [names[a] for a in axes])
            w.line(f"out0[{where}] = (int32_t)at;")
            return
        if name in ("relay.max", "relay.min"):
            w.line(f"{element.ctype} acc = {extreme(element, _SYMBOL[name])};")
        else:
            acc = element.accumulator() if element.kind != "bool" else "uint8_t"
            w.line(f"{acc} acc = {1 if name == 'relay.prod' else 0};")
        with w.loops([names[a] for a in axes], [shape[a] for a in axes]):
            w.line(f"const {element.ctype} v = in0[{tap}];")
            if name in ("relay.max", "relay.min"):
                w.line(f"acc = {better(element, 'v', 'acc', _SYMBOL[name])} ? v : acc;")
            elif element.kind == "bool":
                w.line(
                    "acc = (uint8_t)(acc | v);"
                    if name != "relay.prod"
                    else "acc = (uint8_t)(acc & v);"
                )
            elif name == "relay.prod":
                w.line(f"acc *= ({element.accumulator()})v;")
            else:
                w.line(f"acc += ({element.accumulator()})v;")
        count = numel([shape[a] for a in axes])
        if name == "relay.mean":  # empty: 0 / 0 is NaN for floats, 0 for integers
            if count == 0:
                value = "NAN" if element.is_float else "0"
            else:
                value = f"acc / {count}.0" if element.is_float else f"(int64_t)acc / {count}"
            w.line(f"out0[{where}] = {converted(out, value)};")
        else:
            w.line(f"out0[{where}] = {converted(out, 'acc') if name not in _SYMBOL else 'acc'};")


def _arg_reduce(k: Kernel, tap: str, axes: list[int], extents: list[int], names: list[str]) -> None:
    element = k.in_scalar(0)
    symbol = _SYMBOL[k.op.name]
    last = get_bool(k.op.properties, "select_last_index")
    w = k.w
    w.line(f"{INDEX} at = -1, position = 0;")
    w.line(f"{element.ctype} best = 0;")
    del axes
    with w.loops(names, extents):
        w.line(f"const {element.ctype} v = in0[{tap}];")
        if element.is_float:
            wins = (
                f"(v {symbol}= best || v != v)"
                if last
                else f"(v {symbol} best || (v != v && best == best))"
            )
        else:
            wins = f"(v {symbol}= best)" if last else f"(v {symbol} best)"
        with w.block(f"if (at < 0 || {wins})"):
            w.line("best = v;")
            w.line("at = position;")
        w.line("++position;")


def matmul(k: Kernel) -> None:
    """numpy's matmul with broadcast batch dims and optional transposes."""
    props = k.op.properties
    a, b, out = k.in_shape(0), k.in_shape(1), k.out_shape()
    ta, tb = get_bool(props, "transpose_a"), get_bool(props, "transpose_b")
    m, depth = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    n = b[-2] if tb else b[-1]
    batch = out[:-2]
    assert broadcast_shapes(a[:-2], b[:-2]) == batch
    names = loop_names("b", len(batch))
    element = k.out_scalar()
    acc = element.accumulator()

    def base(shape: tuple[int, ...]) -> list[tuple[str, int]]:
        own = shape[:-2]
        shift = len(batch) - len(own)
        step = strides(shape)
        return [(names[i + shift], step[i]) for i, d in enumerate(own) if d != 1]

    a_at = affine([*base(a), ("i", 1 if ta else depth), ("q", m if ta else 1)])
    b_at = affine([*base(b), ("q", 1 if tb else n), ("j", depth if tb else 1)])
    w = k.w
    with w.loops(names, batch), w.loop("i", m), w.loop("j", n):
        w.line(f"{acc} acc = 0;")
        with w.loop("q", depth):
            w.line(f"acc += ({acc})in0[{a_at}] * ({acc})in1[{b_at}];")
        where = affine([*zip(names, strides(out)[:-2], strict=True), ("i", n), ("j", 1)])
        w.line(f"out0[{where}] = {converted(element, 'acc')};")
