"""Converters for ONNX's indexing ops: GatherElements, GatherND, ScatterElements (and the old
Scatter), ScatterND and OneHot, onto `relay.gather`, `gather_nd`, `scatter_elements`,
`scatter_nd` and `one_hot`.

ONNX puts the index tuple on the LAST axis of GatherND's and ScatterND's indices, relay (as
TVM) on the first: the converters transpose the indices `[r-1, 0, ..., r-2]`.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import movement as M
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

REDUCTIONS = {"none": "update", "add": "add", "mul": "mul", "min": "min", "max": "max"}
"""ONNX's `reduction` attribute -> relay's scatter reduction/mode."""


def _axis(node: Node, axis: int, rank: int) -> int:
    node.refuse(not -rank <= axis < max(rank, 1), f"axis {axis} is out of range for rank {rank}")
    return axis % max(rank, 1)


def _tuple_first(node: Node, index: int) -> Expr:
    """Indices with the index tuple moved from the last axis to the first (relay's layout)."""
    rank = node.rank(index)
    node.refuse(rank < 1, "indices must have at least one dim")
    indices = node.expr(index)
    if rank == 1:
        return indices
    return T.transpose(indices, [rank - 1, *range(rank - 1)])


def _reduction(node: Node) -> str:
    name = node.str_attr("reduction", "none")
    node.refuse(name not in REDUCTIONS, f"unknown reduction '{name}'")
    return REDUCTIONS[name]


@converter("GatherElements", 11)
def gather_elements_v11(node: Node) -> Result:
    """GatherElements = relay.gather along `axis`."""
    axis = _axis(node, node.int_attr("axis", 0), node.rank(0))
    return M.gather(node.expr(0), axis, node.expr(1))


@converter("GatherND", 11)
def gather_nd_v11(node: Node) -> Result:
    """GatherND (v12: `batch_dims`) = relay.gather_nd with the index tuple moved first."""
    batch_dims = node.int_attr("batch_dims", 0)
    node.refuse(batch_dims < 0, f"negative batch_dims {batch_dims}")
    return M.gather_nd(node.expr(0), _tuple_first(node, 1), batch_dims)


@converter("Scatter", 9)
def scatter_v9(node: Node) -> Result:
    """Scatter (opset 9-10, ScatterElements' old name)."""
    return scatter_elements_v11(node)


@converter("ScatterElements", 11)
def scatter_elements_v11(node: Node) -> Result:
    """ScatterElements = relay.scatter_elements; v16/v18 add `reduction` (none, add, mul;
    min, max)."""
    axis = _axis(node, node.int_attr("axis", 0), node.rank(0))
    data, indices, updates = node.expr(0), node.expr(1), node.expr(2)
    return M.scatter_elements(data, indices, updates, axis, _reduction(node))


@converter("ScatterND", 11)
def scatter_nd_v11(node: Node) -> Result:
    """ScatterND (v16/v18: `reduction`) = relay.scatter_nd with the index tuple moved first."""
    data, updates = node.expr(0), node.expr(2)
    return M.scatter_nd(data, _tuple_first(node, 1), updates, _reduction(node))


@converter("OneHot", 9)
def one_hot_v9(node: Node) -> Result:
    """OneHot(indices, depth, values=[off, on]) with `axis` (default -1); a negative index
    counts from the end of depth; non-integer indices and depth are truncated."""
    depth_value = node.const(1, "the depth").reshape(-1)
    node.refuse(depth_value.size != 1, "depth must be a scalar")
    depth = int(depth_value[0])
    node.refuse(depth < 0, f"negative depth {depth}")
    values = node.const(2, "the values").reshape(-1)
    node.refuse(values.size != 2, f"values must hold [off, on], got {values.size} elements")
    rank = node.rank(0)
    axis = node.int_attr("axis", -1)
    node.refuse(not -rank - 1 <= axis <= rank, f"axis {axis} is out of range for rank {rank}")
    indices, index_dtype = node.expr(0), node.dtype(0)
    if not index_dtype.startswith(("int", "uint")):
        indices, index_dtype = E.cast(indices, "int64"), "int64"
    if index_dtype.startswith("int"):
        zero = const(np.asarray(0, dtype=index_dtype), index_dtype)
        depth_const = const(np.asarray(depth, dtype=index_dtype), index_dtype)
        wrapped = E.add(indices, depth_const)
        indices = E.where(E.less(indices, zero), wrapped, indices)
    dtype = values.dtype.name
    off = const(np.asarray(values[0]), dtype)
    on = const(np.asarray(values[1]), dtype)
    return M.one_hot(indices, on, off, depth, axis % (rank + 1), dtype)
