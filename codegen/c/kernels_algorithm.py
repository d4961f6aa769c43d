"""Loop nests of the sorting ops: `relay.topk`, `relay.argsort`, `relay.sort`.

Each element's place is its rank: the number of elements of its row that come
before it in the documented order (docs/semantics.md, "Sorting": stable, NaN above
every number). Counting ranks needs no scratch memory and is exact for every
dtype; it is quadratic in the axis length (correctness first, as every C form).
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, numel
from xrelay.codegen.c.scalars import INDEX, Scalar
from xrelay.dialects.relay.base import get_bool, get_int, get_str


def _less(element: Scalar, a: str, b: str) -> str:
    """`a` before `b` ascending: NaN is above every number."""
    if element.is_float:
        return f"({a} < {b} || ({a} == {a} && {b} != {b}))"
    return f"({a} < {b})"


def _sort_rows(k: Kernel, values: str | None, indices: str | None, count: int) -> None:
    """Write the first `count` elements of each sorted row to `values` and/or `indices`."""
    props = k.op.properties
    shape = k.in_shape(0)
    axis = get_int(props, "axis") % len(shape)
    ascend = get_bool(props, "is_ascend")
    n, inner = shape[axis], numel(shape[axis + 1 :])
    element = k.in_scalar(0)
    w = k.w
    at_in = f"o * {n * inner} + {{}} * {inner} + r"
    with w.loop("o", numel(shape[:axis])), w.loop("r", inner), w.loop("i", n):
        w.line(f"{element.ctype} xi = in0[{at_in.format('i')}];")
        w.line(f"{INDEX} rank = 0;")
        with w.loop("q", n):
            w.line(f"{element.ctype} xq = in0[{at_in.format('q')}];")
            first, second = ("xq", "xi") if ascend else ("xi", "xq")
            before = (
                f"{_less(element, first, second)} || (!{_less(element, second, first)} && q < i)"
            )
            w.line(f"rank += ({before}) ? 1 : 0;")
        with w.block(f"if (rank < {count})"):
            at_out = f"o * {count * inner} + rank * {inner} + r"
            if values is not None:
                w.line(f"{values}[{at_out}] = xi;")
            if indices is not None:
                index_type = k.out_scalar(len(k.outs) - 1).ctype
                w.line(f"{indices}[{at_out}] = ({index_type})i;")


def topk(k: Kernel) -> None:
    """The first k of each sorted row: values, indices or both."""
    ret_type = get_str(k.op.properties, "ret_type")
    axis = get_int(k.op.properties, "axis") % len(k.in_shape(0))
    count = k.out_shape(0)[axis]
    values = "out0" if ret_type in ("both", "values") else None
    indices = {"both": "out1", "indices": "out0"}.get(ret_type)
    _sort_rows(k, values, indices, count)


def argsort(k: Kernel) -> None:
    """The indices of each sorted row."""
    axis = get_int(k.op.properties, "axis") % len(k.in_shape(0))
    _sort_rows(k, None, "out0", k.in_shape(0)[axis])


def sort(k: Kernel) -> None:
    """The values of each sorted row."""
    axis = get_int(k.op.properties, "axis") % len(k.in_shape(0))
    _sort_rows(k, "out0", None, k.in_shape(0)[axis])
