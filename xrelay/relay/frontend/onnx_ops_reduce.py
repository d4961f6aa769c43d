"""Converters for ONNX's reductions (ReduceSum ... ReduceLogSumExp) and ArgMax/ArgMin."""

from __future__ import annotations

from collections.abc import Callable

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

Reduce = Callable[[Expr, list[int] | None, bool], Expr]


def _sum(x: Expr, axes: list[int] | None, keep: bool) -> Expr:
    return T.sum(x, axes, keepdims=keep)


REDUCERS: dict[str, Reduce] = {
    "ReduceSum": _sum,
    "ReduceMean": lambda x, a, k: T.mean(x, a, keepdims=k),
    "ReduceMax": lambda x, a, k: T.max(x, a, keepdims=k),
    "ReduceMin": lambda x, a, k: T.min(x, a, keepdims=k),
    "ReduceProd": lambda x, a, k: T.prod(x, a, keepdims=k),
    "ReduceL1": lambda x, a, k: _sum(E.abs(x), a, k),
    "ReduceL2": lambda x, a, k: E.sqrt(_sum(E.multiply(x, x), a, k)),
    "ReduceSumSquare": lambda x, a, k: _sum(E.multiply(x, x), a, k),
    "ReduceLogSum": lambda x, a, k: E.log(_sum(x, a, k)),
    "ReduceLogSumExp": lambda x, a, k: E.log(_sum(E.exp(x), a, k)),
}

AXES_INPUT_FROM = {name: 18 for name in REDUCERS} | {"ReduceSum": 13}
"""The opset at which each reduction takes `axes` as an input instead of an attribute."""


def _reduce(node: Node, axes: list[int] | None) -> Result:
    keep = bool(node.int_attr("keepdims", 1))
    x = node.expr(0)
    if not axes:
        if node.int_attr("noop_with_empty_axes", 0):
            return x
        axes = None
    rank = node.rank(0)
    if axes is not None:
        node.refuse(any(not -rank <= a < max(rank, 1) for a in axes), f"axes {axes} out of range")
        axes = sorted({a % max(rank, 1) for a in axes})
    return REDUCERS[node.op_type](x, axes, keep)


def _attr_form(node: Node) -> Result:
    return _reduce(node, node.ints_attr("axes"))


def _input_form(node: Node) -> Result:
    return _reduce(node, node.ints(1, "the axes") if node.has(1) else None)


for _name, _version in AXES_INPUT_FROM.items():
    converter(_name, 1)(_attr_form)
    converter(_name, _version)(_input_form)


@converter(("ArgMax", "ArgMin"), 1)
def arg_reduce_v1(node: Node) -> Result:
    """ArgMax/ArgMin along `axis`, `keepdims`, `select_last_index` (v12); int64 indices."""
    rank = node.rank(0)
    axis = node.int_attr("axis", 0)
    node.refuse(not -rank <= axis < max(rank, 1), f"axis {axis} out of range")
    fn = T.argmax if node.op_type == "ArgMax" else T.argmin
    out = fn(
        node.expr(0),
        [axis % max(rank, 1)],
        keepdims=bool(node.int_attr("keepdims", 1)),
        select_last_index=bool(node.int_attr("select_last_index", 0)),
    )
    return E.cast(out, "int64")
