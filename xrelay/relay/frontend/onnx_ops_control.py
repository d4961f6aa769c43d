"""Converters for ONNX's control flow: If, Loop and Scan, whose subgraphs are converted inline.

If with a condition known at import converts the branch taken; otherwise both
branches become the arms of a `relay.if` (their outputs must have equal
types). Loop and Scan are unrolled at import: Loop needs its trip count (or a
condition that turns false) known at import, and each iteration's condition
must be known too; Scan needs a static sequence length. Both are bounded by
`MAX_STEPS` iterations. Subgraphs read the values of their enclosing graphs
by name (the importer's scopes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.expr import Constant, If, Tuple, TupleGetItem
from xrelay.relay.frontend.onnx_registry import (
    Array,
    Node,
    Result,
    Value,
    as_expr,
    converter,
    dtype_of_value,
    format_shape,
    shape_of_value,
)

MAX_STEPS = 1024
"""The most iterations a Loop or Scan is unrolled to."""


def _known(value: Value) -> Array | None:
    if isinstance(value, np.ndarray):
        return value
    return value.data if isinstance(value, Constant) else None


def _truth(node: Node, value: Array, what: str) -> bool:
    node.refuse(value.size != 1, f"{what} has {value.size} elements; needs one")
    return bool(value.reshape(-1)[0])


# ------------------------------------------------------------------- If


@converter("If", 1)
def if_v1(node: Node) -> Result:
    """If: the taken branch when the condition is known, else a `relay.if` of both."""
    then_graph, else_graph = node.graph("then_branch"), node.graph("else_branch")
    cond = node.known(0)
    if cond is not None:
        taken = then_graph if _truth(node, cond, "the condition") else else_graph
        return node.run_graph(taken, [])
    then_out = [as_expr(v) for v in node.run_graph(then_graph, [])]
    else_out = [as_expr(v) for v in node.run_graph(else_graph, [])]
    node.refuse(
        len(then_out) != len(else_out),
        f"the branches have {len(then_out)} and {len(else_out)} outputs",
    )
    for i, (t, f) in enumerate(zip(then_out, else_out, strict=True)):
        t_type = (format_shape(shape_of_value(t)), dtype_of_value(t))
        f_type = (format_shape(shape_of_value(f)), dtype_of_value(f))
        node.refuse(
            t_type != f_type,
            f"output #{i} is {t_type[1]}{t_type[0]} in then_branch but {f_type[1]}{f_type[0]} "
            "in else_branch; a condition unknown at import needs equal types",
        )
    node.refuse(node.dtype(0) != "bool", f"the condition is {node.dtype(0)}, not bool")
    node.refuse(any(d != 1 for d in node.shape(0)), f"the condition has shape {node.shape(0)}")
    c = node.expr(0)
    if node.rank(0):
        c = T.reshape(c, [])
    if len(then_out) == 1:
        return If(c, then_out[0], else_out[0])
    both = If(c, Tuple(then_out), Tuple(else_out))
    return [TupleGetItem(both, i) for i in range(len(then_out))]


# ----------------------------------------------------------- helpers


def _stack(values: Sequence[Value], axis: int) -> Value:
    """Stack equal-shaped values along a new `axis` (numpy when all are known)."""
    known = [_known(v) for v in values]
    if all(k is not None for k in known):
        return np.stack([k for k in known if k is not None], axis)
    expanded = [T.expand_dims(as_expr(v), axis) for v in values]
    return expanded[0] if len(expanded) == 1 else T.concatenate(expanded, axis)


def _index(value: Value, axis: int, t: int) -> Value:
    """value[..., t, ...] at `axis`, the axis dropped (numpy when known)."""
    data = _known(value)
    if data is not None:
        return np.take(data, t, axis=axis)
    return T.squeeze(T.strided_slice(as_expr(value), [t], [t + 1], axes=[axis]), [axis])


def _axis(node: Node, axis: int, rank: int, what: str) -> int:
    node.refuse(not -rank <= axis < rank, f"{what} {axis} is out of range for rank {rank}")
    return axis % rank


# ------------------------------------------------------------------ Loop


@converter("Loop", 1)
def loop_v1(node: Node) -> Result:
    """Loop, unrolled: carried values threaded through, scan outputs stacked on a new axis 0."""
    body = node.graph("body")
    trip = node.ints(0, "the trip count M")[0] if node.has(0) else None
    cond = _truth(node, node.const(1, "the condition"), "the condition") if node.has(1) else True
    node.refuse(
        trip is None and not node.has(1), "a Loop without a trip count or a condition never ends"
    )
    node.refuse(
        trip is not None and trip > MAX_STEPS,
        f"trip count {trip} > {MAX_STEPS} (unrolled at import)",
    )
    carried = [node.value(i) for i in range(2, len(node.inputs))]
    scans: list[list[Value]] = [[] for _ in range(len(body.output) - 1 - len(carried))]
    limit = MAX_STEPS if trip is None else trip
    step = 0
    while step < limit and cond:
        outs = node.run_graph(body, [np.array(step, np.int64), np.array(cond), *carried])
        cond_out = _known(outs[0])
        node.refuse(
            cond_out is None,
            "the body's condition output must be known at import (the Loop is unrolled)",
        )
        assert cond_out is not None
        cond = _truth(node, cond_out, "the body's condition")
        carried = outs[1 : 1 + len(carried)]
        for scan, value in zip(scans, outs[1 + len(carried) :], strict=True):
            scan.append(value)
        step += 1
    node.refuse(trip is None and cond, f"the condition is still true after {MAX_STEPS} iterations")
    node.refuse(
        step == 0 and bool(scans), "a Loop that runs no iteration has scan outputs of no shape"
    )
    return [*carried, *(_stack(s, 0) for s in scans)]


# ------------------------------------------------------------------ Scan


def _scan(
    node: Node,
    states: list[Value],
    inputs: list[Value],
    in_axes: list[int],
    in_dirs: list[int],
    out_axes: list[int],
    out_dirs: list[int],
) -> list[Value]:
    """Run the body once per position of the scan inputs: final states, then scan outputs."""
    body = node.graph("body")
    lengths = {shape_of_value(x)[a] for x, a in zip(inputs, in_axes, strict=True)}
    node.refuse(len(lengths) != 1, f"the scan inputs have different lengths {sorted(lengths)}")
    (seq,) = lengths
    node.refuse(seq < 0, "the sequence length must be static")
    node.refuse(seq > MAX_STEPS, f"sequence length {seq} > {MAX_STEPS} (unrolled at import)")
    n_out = len(body.output) - len(states)
    node.refuse(len(out_axes) != n_out or len(out_dirs) != n_out, "one axis per scan output")
    scans: list[list[Value]] = [[] for _ in range(n_out)]
    for t in range(seq):
        slices = [
            _index(x, a, seq - 1 - t if d else t)
            for x, a, d in zip(inputs, in_axes, in_dirs, strict=True)
        ]
        outs = node.run_graph(body, [*states, *slices])
        states = outs[: len(states)]
        for scan, value in zip(scans, outs[len(states) :], strict=True):
            scan.append(value)
    node.refuse(seq == 0 and n_out > 0, "an empty sequence gives scan outputs of no shape")
    stacked: list[Value] = []
    for scan, axis, direction in zip(scans, out_axes, out_dirs, strict=True):
        rank = len(shape_of_value(scan[0])) + 1
        items = scan[::-1] if direction else scan
        stacked.append(_stack(items, _axis(node, axis, rank, "scan_output_axes")))
    return [*states, *stacked]


@converter("Scan", 9)
def scan_v9(node: Node) -> Result:
    """Scan (opset 9+), unrolled: scan_input/output axes and directions."""
    m = node.int_attr("num_scan_inputs", 0)
    n = len(node.inputs) - m
    node.refuse(m < 1 or n < 0, f"num_scan_inputs {m} does not fit {len(node.inputs)} inputs")
    states = [node.value(i) for i in range(n)]
    inputs = [node.value(n + j) for j in range(m)]
    in_axes = [
        _axis(node, a, len(shape_of_value(x)), "scan_input_axes")
        for a, x in zip(node.ints_attr("scan_input_axes", [0] * m) or [], inputs, strict=True)
    ]
    in_dirs = node.ints_attr("scan_input_directions", [0] * m) or []
    k = len(node.graph("body").output) - n
    out_axes = node.ints_attr("scan_output_axes", [0] * k) or []
    out_dirs = node.ints_attr("scan_output_directions", [0] * k) or []
    return _scan(node, states, inputs, in_axes, in_dirs, out_axes, out_dirs)


@converter("Scan", 8)
def scan_v8(node: Node) -> Result:
    """Scan (opset 8): a leading batch axis, scanned over axis 1; each batch entry unrolled."""
    node.refuse(node.has(0), "sequence_lens is not supported")
    m = node.int_attr("num_scan_inputs", 0)
    n = len(node.inputs) - 1 - m
    node.refuse(m < 1 or n < 0, f"num_scan_inputs {m} does not fit {len(node.inputs)} inputs")
    states = [node.value(1 + i) for i in range(n)]
    inputs = [node.value(1 + n + j) for j in range(m)]
    batches = {shape_of_value(v)[0] for v in [*states, *inputs]}
    node.refuse(len(batches) != 1 or -1 in batches, "needs one static batch size")
    (batch,) = batches
    in_dirs = node.ints_attr("directions", [0] * m) or []
    k = len(node.graph("body").output) - n
    per_batch = [
        _scan(
            node,
            [_index(s, 0, b) for s in states],
            [_index(x, 0, b) for x in inputs],
            [0] * m,
            in_dirs,
            [0] * k,
            [0] * k,
        )
        for b in range(batch)
    ]
    return [_stack([outs[i] for outs in per_batch], 0) for i in range(n + k)]
