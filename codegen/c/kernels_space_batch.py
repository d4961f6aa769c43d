"""Loop nests of `nn.space_to_batch_nd` and `nn.batch_to_space_nd`: one loop per output dim,
the input index computed from the block offset (`space_batch.py`'s semantics; a padded
position reads `pad_value`)."""

from __future__ import annotations

import math

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.writer import loop_names, offset
from xrelay.dialects.relay.base import get_float, get_ints


def space_to_batch_nd(k: Kernel) -> None:
    """`out[o * N + n, y..] = in[n, y * b + o - pad_before..]` (`pad_value` outside)."""
    shape, out = k.in_shape(0), k.out_shape()
    if numel(out) == 0:
        return
    props = k.op.properties
    block, pads = get_ints(props, "block_shape"), get_ints(props, "paddings")
    element, pad = k.out_scalar(), get_float(props, "pad_value")
    value = element.literal(pad if element.is_float else int(pad))
    m, n = len(block), shape[0]
    names = loop_names("j", len(out))
    w = k.w
    with w.loops(names, out):
        w.line(f"long long o = {names[0]} / {n}, inside = 1;")
        index = [f"{names[0]} % {n}"]
        for i in range(m - 1, -1, -1):
            w.line(
                f"long long s{i} = {names[1 + i]} * {block[i]} + o % {block[i]} - {pads[2 * i]};"
            )
            w.line(f"o /= {block[i]};")
            w.line(f"inside &= s{i} >= 0 && s{i} < {shape[1 + i]};")
        index += [f"s{i}" for i in range(m)] + names[1 + m :]
        w.line(f"out0[{offset(names, out)}] = inside ? in0[{offset(index, shape)}] : {value};")


def batch_to_space_nd(k: Kernel) -> None:
    """`out[n, y..] = in[o * N + n, (y + crop_before) / b..]`, o the row-major offsets
    `(y + crop_before) % b`."""
    shape, out = k.in_shape(0), k.out_shape()
    if numel(out) == 0:
        return
    props = k.op.properties
    block, crops = get_ints(props, "block_shape"), get_ints(props, "crops")
    m, n = len(block), shape[0] // math.prod(block)
    names = loop_names("j", len(out))
    w = k.w
    with w.loops(names, out):
        w.line("long long o = 0;")
        for i in range(m):
            w.line(f"long long t{i} = {names[1 + i]} + {crops[2 * i]};")
            w.line(f"o = o * {block[i]} + t{i} % {block[i]};")
        index = [f"o * {n} + {names[0]}"] + [f"t{i} / {block[i]}" for i in range(m)]
        index += names[1 + m :]
        w.line(f"out0[{offset(names, out)}] = in0[{offset(index, shape)}];")
