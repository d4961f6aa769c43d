"""Converters for ONNX's scans: CumSum and CumProd, onto `relay.cumsum` / `relay.cumprod`.

`reverse=1` scans from the end: `reverse(scan(reverse(x, axis), axis), axis)`.
"""

from __future__ import annotations

from collections.abc import Callable

from xrelay.dialects.builder import movement as M
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.relay.frontend.onnx_registry import Node, Result, converter


def _scan(node: Node, scan: Callable[[Expr, int, None, bool], Call]) -> Result:
    given = node.ints(1, "the axis")
    node.refuse(len(given) != 1, "the axis must be a scalar")
    rank = node.rank(0)
    axis = given[0]
    node.refuse(not -rank <= axis < rank, f"axis {axis} is out of range for rank {rank}")
    axis %= rank
    exclusive = bool(node.int_attr("exclusive", 0))
    x = node.expr(0)
    if not node.int_attr("reverse", 0):
        return scan(x, axis, None, exclusive)
    return M.reverse(scan(M.reverse(x, axis), axis, None, exclusive), axis)


@converter("CumSum", 11)
def cumsum_v11(node: Node) -> Result:
    """CumSum(x, axis) with `exclusive` and `reverse`."""
    return _scan(node, M.cumsum)


@converter("CumProd", 26)
def cumprod_v26(node: Node) -> Result:
    """CumProd(x, axis) with `exclusive` and `reverse`."""
    return _scan(node, M.cumprod)
