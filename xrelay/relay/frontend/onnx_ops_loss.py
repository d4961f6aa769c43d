"""Converters for ONNX's losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss.

The target class is gathered exactly with existing ops: x where the target
equals a constant class iota (broadcast along the class axis 1), else 0,
summed over that axis. Weights are taken per target (`relay.take`, clipped:
an ignored target may be out of range), ignored targets weigh 0, and `mean`
divides by the sum of the weights, as ONNX's reference does.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import Node, Result, converter

REDUCTIONS = ("none", "sum", "mean")


def _nll(node: Node, x: Expr, weight_is_implicit: bool) -> Expr:
    """The loss of log-probabilities `x` (N, C, d...) at the node's targets (input #1).

    `weight_is_implicit`: whether a missing weight with an ignore_index still
    makes `mean` divide by the number of targets kept (SoftmaxCrossEntropyLoss
    always; NegativeLogLikelihoodLoss unless ignore_index is -1, as ONNX's
    reference has it).
    """
    x_shape = node.static_shape(0, "the input")
    t_shape = node.shape(1)
    rank = len(x_shape)
    node.refuse(rank < 2, f"the input has rank {rank}; a loss needs (N, C, ...)")
    node.refuse(
        tuple(t_shape) != (x_shape[0], *x_shape[2:]),
        f"target shape {list(t_shape)} does not match input shape {list(x_shape)}",
    )
    t_dtype = node.dtype(1)
    node.refuse(t_dtype not in ("int32", "int64"), f"target has element type {t_dtype}")
    reduction = node.str_attr("reduction", "mean")
    node.refuse(reduction not in REDUCTIONS, f"unknown reduction '{reduction}'")
    dtype = node.dtype(0)
    target = node.expr(1)
    classes = x_shape[1]
    iota = np.arange(classes).reshape((1, classes) + (1,) * (rank - 2))
    hit = E.equal(T.expand_dims(target, 1), const(iota, t_dtype))
    zero = const(np.zeros(()), dtype)
    loss: Expr = E.negative(T.sum(E.where(hit, x, zero), [1]))

    ignore = None if "ignore_index" not in node.attrs else node.int_attr("ignore_index", 0)
    ignored = None if ignore is None else E.equal(target, const(np.asarray(ignore), t_dtype))
    weight: Expr | None = None
    if node.has(2):
        weight = T.take(node.expr(2), target, axis=0, mode="clip")
        if ignored is not None:
            weight = E.where(ignored, zero, weight)
    elif ignored is not None and (weight_is_implicit or ignore != -1):
        weight = E.where(ignored, zero, const(np.ones(()), dtype))
    elif ignored is not None:
        loss = E.where(ignored, zero, loss)
    if weight is not None:
        loss = E.multiply(weight, loss)
    if reduction == "sum":
        return T.sum(loss)
    if reduction == "mean":
        return T.mean(loss) if weight is None else E.divide(T.sum(loss), T.sum(weight))
    return loss


@converter("NegativeLogLikelihoodLoss", 12)
def nll_loss_v12(node: Node) -> Result:
    """NegativeLogLikelihoodLoss: reduction none/sum/mean, weight, ignore_index, N-d."""
    return _nll(node, node.expr(0), weight_is_implicit=False)


@converter("SoftmaxCrossEntropyLoss", 12)
def softmax_cross_entropy_loss_v12(node: Node) -> Result:
    """SoftmaxCrossEntropyLoss: NegativeLogLikelihoodLoss of log_softmax over the class axis.

    The optional second output is that log_softmax.
    """
    node.refuse(node.rank(0) < 2, f"the scores have rank {node.rank(0)}; need (N, C, ...)")
    log_prob = NN.log_softmax(node.expr(0), 1)
    return [_nll(node, log_prob, weight_is_implicit=True), log_prob]
