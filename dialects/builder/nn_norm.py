"""Builder functions for the normalization `relay.nn` ops, with TVM's signatures and defaults."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute
from xrelay.dialects.builder import attrs
from xrelay.dialects.builder.expr import Call, Expr
from xrelay.dialects.relay import nn_norm

__all__ = ["group_norm", "instance_norm", "l2_normalize", "layer_norm", "lrn"]


def lrn(
    data: Expr,
    size: int = 5,
    axis: int = 1,
    bias: float = 2.0,
    alpha: float = 0.00001,
    beta: float = 0.75,
) -> Call:
    """`relay.nn.lrn(data, size=5, axis=1, bias=2, alpha=.00001, beta=0.75)`:
    `data / (bias + alpha / size * sum of squares over the window) ** beta`."""
    props = {
        "size": attrs.int_(size),
        "axis": attrs.int_(axis),
        "bias": attrs.float_(bias),
        "alpha": attrs.float_(alpha),
        "beta": attrs.float_(beta),
    }
    return Call(nn_norm.LRNOp, [data], props)


def _norm_props(axis: int, epsilon: float, center: bool, scale: bool) -> dict[str, Attribute]:
    return {
        "axis": attrs.int_(axis),
        "epsilon": attrs.float_(epsilon),
        "center": attrs.bool_(center),
        "scale": attrs.bool_(scale),
    }


def layer_norm(
    data: Expr,
    gamma: Expr,
    beta: Expr,
    axis: int = -1,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
) -> Call:
    """`relay.nn.layer_norm(data, gamma, beta, axis=-1, epsilon=1e-5, center=True, scale=True)`."""
    return Call(nn_norm.LayerNormOp, [data, gamma, beta], _norm_props(axis, epsilon, center, scale))


def instance_norm(
    data: Expr,
    gamma: Expr,
    beta: Expr,
    axis: int = 1,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
) -> Call:
    """`relay.nn.instance_norm(data, gamma, beta, axis=1, epsilon=1e-5, center=True,
    scale=True)`."""
    props = _norm_props(axis, epsilon, center, scale)
    return Call(nn_norm.InstanceNormOp, [data, gamma, beta], props)


def group_norm(
    data: Expr,
    gamma: Expr,
    beta: Expr,
    num_groups: int,
    axis: int = 1,
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
) -> Call:
    """`relay.nn.group_norm(data, gamma, beta, num_groups, axis=1, epsilon=1e-5, center=True,
    scale=True)`."""
    props = _norm_props(axis, epsilon, center, scale)
    props["num_groups"] = attrs.int_(num_groups)
    return Call(nn_norm.GroupNormOp, [data, gamma, beta], props)


def l2_normalize(data: Expr, eps: float, axis: int | Sequence[int] | None = None) -> Call:
    """`relay.nn.l2_normalize(data, eps, axis=None)`: `axis=None` sums over every axis."""
    axes = [] if axis is None else [axis] if isinstance(axis, int) else list(axis)
    props = {"eps": attrs.float_(eps), "axis": attrs.ints(axes)}
    return Call(nn_norm.L2NormalizeOp, [data], props)
