"""Loop nests of the normalization ops (`dialects/relay/nn_norm.py`): lrn, layer_norm,
instance_norm, group_norm, l2_normalize.

Numerics follow the reference interpreter (`reference_nn_norm.py`): everything is
computed in `double` and converted once to the data's type, except float32
layer_norm: the shared library's row kernel (`codegen/kernels/rows.py`, float
statistics by the corrected two-pass algorithm, docs/semantics.md). lrn sums its squares
in the reference's order (bit for bit on finite inputs; float32 lrn is the shared
library's row kernel on threads, `codegen/kernels/lrn.py`, within a double rounding or two
of that before its conversion); the norms sum their
means and variances in loop order where numpy sums pairwise, so the two agree
within one rounding of the data's type.
"""

from __future__ import annotations

from xdsl.dialects.builtin import f64
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation
from xrelay.codegen.c.kernel_api import Kernel, converted, numel
from xrelay.codegen.c.scalars import INDEX, scalar_of
from xrelay.codegen.c.writer import affine, loop_names, strides
from xrelay.dialects.relay.base import (
    get_bool,
    get_float,
    get_int,
    get_ints,
    properties_with_defaults,
)
from xrelay.dialects.relay.nn_norm import (
    GroupNormOp,
    LayerNormOp,
    l2_axes,
    lrn_window,
    norm_reduced_axes,
)


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
    if element.ctype == "float" and k.in_scalar(0).ctype == "float":
        k.libraries.add("lrn")
        args = f"{outer}, {extent}, {inner}, {before}, {after}"
        doubles = ", ".join(_double(v) for v in (bias, scale, beta))
        w.line(f"xn_lrn_f32(XR_NUM_THREADS, {args}, {doubles}, in0, out0);")
        return
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


def norm(k: Kernel) -> None:
    """layer_norm, instance_norm, group_norm: per group of elements sharing statistics, the
    mean, then the mean squared deviation (two passes in double), then each element."""
    props = _props(k)
    shape = k.in_shape(0)
    axis = get_int(props, "axis") % len(shape)
    name = k.op.name
    if name == LayerNormOp.name and k.out_scalar().ctype == "float":
        _layer_norm_f32(k, shape, axis)
        return
    channel = f"j{axis}"
    if name == GroupNormOp.name:
        groups = get_int(props, "num_groups")
        per_group = shape[axis] // groups
        shape = (*shape[:axis], groups, per_group, *shape[axis + 1 :])
        channel = affine([(f"j{axis}", per_group), (f"j{axis + 1}", 1)])
    reduced = norm_reduced_axes(name, len(k.in_shape(0)), axis)
    kept = [a for a in range(len(shape)) if a not in reduced]
    names = loop_names("j", len(shape))
    at = affine(list(zip(names, strides(shape), strict=True)))
    inner_names, inner_extents = [names[a] for a in reduced], [shape[a] for a in reduced]
    count = numel(inner_extents)
    eps = _double(get_float(props, "epsilon"))
    element = k.out_scalar()
    w = k.w
    with w.loops([names[a] for a in kept], [shape[a] for a in kept]):
        w.line("double sum = 0;")
        with w.loops(inner_names, inner_extents):
            w.line(f"sum += (double)in0[{at}];")
        w.line(f"const double mean = sum / {count}.0;")
        w.line("double squares = 0;")
        with w.loops(inner_names, inner_extents):
            w.line(f"const double d = (double)in0[{at}] - mean;")
            w.line("squares += d * d;")
        w.line(f"const double root = sqrt(squares / {count}.0 + {eps});")
        with w.loops(inner_names, inner_extents):
            value = f"((double)in0[{at}] - mean) / root"
            if get_bool(props, "scale"):
                value = f"{value} * (double)in1[{channel}]"
            if get_bool(props, "center"):
                value = f"{value} + (double)in2[{channel}]"
            w.line(f"out0[{at}] = {converted(element, value)};")


def _layer_norm_f32(k: Kernel, shape: tuple[int, ...], axis: int) -> None:
    """float32 layer_norm: the shared library's row kernel (`codegen/kernels/rows.py`: float
    statistics, corrected two-pass, double where they are not finite)."""
    props = _props(k)
    outer, extent, inner = _axis_split(shape, axis)
    gamma = "in1" if get_bool(props, "scale") else "NULL"
    beta = "in2" if get_bool(props, "center") else "NULL"
    eps = _double(get_float(props, "epsilon"))
    k.libraries.add("rows")
    k.w.line(f"xn_layer_norm_f32({outer}, {extent}, {inner}, in0, {gamma}, {beta}, {eps}, out0);")


def l2_normalize(k: Kernel) -> None:
    """`x / sqrt(max(sum of squares, eps))` per slice over the axes, the sum in double."""
    props = _props(k)
    shape = k.in_shape(0)
    reduced = l2_axes(get_ints(props, "axis"), len(shape))
    kept = [a for a in range(len(shape)) if a not in reduced]
    names = loop_names("j", len(shape))
    at = affine(list(zip(names, strides(shape), strict=True)))
    inner_names, inner_extents = [names[a] for a in reduced], [shape[a] for a in reduced]
    eps = _double(get_float(props, "eps"))
    element = k.out_scalar()
    w = k.w
    with w.loops([names[a] for a in kept], [shape[a] for a in kept]):
        w.line("double total = 0;")
        with w.loops(inner_names, inner_extents):
            w.line(f"const double v = (double)in0[{at}];")
            w.line("total += v * v;")
        w.line(f"const double root = sqrt(total > {eps} || total != total ? total : {eps});")
        with w.loops(inner_names, inner_extents):
            w.line(f"out0[{at}] = {converted(element, f'(double)in0[{at}] / root')};")
