"""Converters for ONNX's sorting and contraction ops: TopK onto `relay.topk` and Einsum onto
`relay.einsum`.

NonMaxSuppression stays unsupported: its output has one row per selected box, a count known
only at run time, and relay has no dynamic slice to cut `vision.all_class_non_max_suppression`'s
padded rows to it (docs/onnx.md).
"""

from __future__ import annotations

from xrelay.dialects.builder import algorithm as A
from xrelay.dialects.builder import einsum as ES
from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.expr import TupleGetItem
from xrelay.relay.frontend.onnx_registry import Node, Result, converter


def _topk(node: Node, k: int, largest: bool) -> Result:
    rank = node.rank(0)
    node.refuse(rank < 1, "the input needs at least one dim")
    axis = node.int_attr("axis", -1)
    node.refuse(not -rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    node.refuse(k < 0, f"negative k {k}")
    dim = node.shape(0)[axis]
    node.refuse(dim >= 0 and k > dim, f"k {k} exceeds the axis' {dim} elements")
    if k == 0:  # relay.topk's k < 1 keeps the whole axis; ONNX's k = 0 keeps nothing
        empty = T.strided_slice(node.expr(0), [0], [0], [1], [axis % rank])
        return [empty, E.cast(empty, "int64")]
    # relay.topk always sorts: a valid result for sorted=0, whose order ONNX leaves open
    both = A.topk(node.expr(0), k, axis % rank, "both", not largest, "int64")
    return [TupleGetItem(both, 0), TupleGetItem(both, 1)]


@converter("TopK", 1)
def topk_v1(node: Node) -> Result:
    """TopK (v1-9): `k` attribute, the largest values."""
    return _topk(node, node.int_attr("k", 0), True)


@converter("TopK", 10)
def topk_v10(node: Node) -> Result:
    """TopK: the `k` input (known at import); v11 adds `largest` and `sorted`."""
    given = node.ints(1, "k")
    node.refuse(len(given) != 1, "k must hold one value")
    return _topk(node, given[0], bool(node.int_attr("largest", 1)))


@converter("Einsum", 12)
def einsum_v12(node: Node) -> Result:
    """Einsum over the operands with the `equation` attribute (spaces dropped)."""
    equation = "".join(node.str_attr("equation", "").split())
    node.refuse(not equation, "the equation is empty")
    return ES.einsum(node.exprs(), equation)
