"""Loop nests of the normalization ops (`dialects/relay/nn_norm.py`): lrn.

Numerics follow the reference interpreter (`reference_nn_norm.py`): sums of
squares accumulate in `double` in the same order, powers and divisions are
done in `double`, and the result is converted once to the data's type.
"""

from __future__ import annotations

from xdsl.dialects.builtin import f64
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted, numel
from xrelay.codegen.c.scalars import INDEX, scalar_of
from xrelay.codegen.c.writer import affine
from xrelay.dialects.relay.base import get_float, get_int, properties_with_defaults
from xrelay.dialects.relay.nn_norm import lrn_window


def _props(k: Kernel) -> dict[str, Attribute]:
    """The op's properties, defaults included."""
    assert isinstance(k.op, IRDLOperation)
    return properties_with_defaults(k.op)


def _axis_split(shape: tuple[int, ...], axis: int) -> tuple[int, int, int]:
    """(outer, extent, inner) element counts around `axis`."""
    return numel(shape[:axis]), shape[axis], numel(shape[axis + 1 :])


def _double(value: float) -> str:
    """An exact C double constant."""
    double = scalar_of(f64)
    assert double is not None
    return double.literal(value)


def lrn(k: Kernel) -> None:
    """`data / pow(bias + alpha / size * window sum of squares, beta)`, per element."""
    props = _props(k)
    shape = k.in_shape(0)
    size = get_int(props, "size")
    outer, extent, inner = _axis_split(shape, get_int(props, "axis") % len(shape))
    before, after = lrn_window(size)
    scale = get_float(props, "alpha") / size
    bias, beta = get_float(props, "bias"), get_float(props, "beta")
    element = k.out_scalar()
    w = k.w
    at = affine([("o", extent * inner), ("c", inner)], "i")
    tap = affine([("o", extent * inner), ("q", inner)], "i")
    with w.loop("o", outer), w.loop("c", extent), w.loop("i", inner):
        w.line(f"const {INDEX} q0 = c < {before} ? 0 : c - {before};")
        w.line(f"const {INDEX} q1 = c + {after + 1} < {extent} ? c + {after + 1} : {extent};")
        w.line("double total = 0;")
        with w.loop("q", "q1", "q0"):
            w.line(f"const double v = (double)in0[{tap}];")
            w.line("total += v * v;")
        base = f"{_double(bias)} + {_double(scale)} * total"
        value = f"(double)in0[{at}] / pow({base}, {_double(beta)})"
        w.line(f"out0[{at}] = {converted(element, value)};")
