"""Converters for ONNX's stateful sequence ops: CausalConvWithState and LinearAttention.

CausalConvWithState is a depthwise 1-D convolution over the past state
followed by the input (`nn.conv2d` with a unit height). LinearAttention's
recurrence over time is unrolled at import, one step per position (its
length must be static and at most `MAX_STEPS`); each step is a few
elementwise ops and a matmul, in float32 as ONNX's reference computes.
"""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import (
    Node,
    Result,
    converter,
    dtype_of_value,
    shape_of_value,
)

MAX_STEPS = 1024
"""The longest LinearAttention sequence unrolled (each step adds about ten ops)."""

FLOAT = "float32"


def _cast(x: Expr, dtype: str) -> Expr:
    return x if dtype_of_value(x) == dtype else E.cast(x, dtype)


def _silu(x: Expr) -> Expr:
    """x * sigmoid(x), in float32."""
    wide = _cast(x, FLOAT)
    return _cast(E.multiply(wide, E.sigmoid(wide)), dtype_of_value(x))


@converter("CausalConvWithState", 27)
def causal_conv_with_state_v27(node: Node) -> Result:
    """CausalConvWithState: depthwise conv of [past_state | input]; the last k-1 steps are kept."""
    shape = node.static_shape(0, "the input")
    node.refuse(len(shape) != 3, f"the input has rank {len(shape)}; needs (batch, channels, L)")
    w_shape = node.static_shape(1, "the weight")
    batch, channels, length = shape
    node.refuse(
        len(w_shape) != 3 or w_shape[:2] != (channels, 1),
        f"weight shape {list(w_shape)} is not ({channels}, 1, k)",
    )
    k = w_shape[2]
    activation = node.str_attr("activation", "none")
    node.refuse(activation not in ("none", "silu", "swish"), f"unknown activation '{activation}'")
    x = node.expr(0)
    if node.has(3):
        padded = T.concatenate([node.expr(3), x], axis=2)
    elif k > 1:
        padded = T.concatenate([const(np.zeros((batch, channels, k - 1)), node.dtype(0)), x], 2)
    else:
        padded = x
    total = length + k - 1
    node.refuse(
        shape_of_value(padded)[2] != total, f"past_state does not hold k - 1 = {k - 1} steps"
    )
    out: Expr = NN.conv2d(
        T.expand_dims(padded, 2),
        T.expand_dims(node.expr(1), 2),
        groups=channels,
        channels=channels,
        kernel_size=[1, k],
    )
    out = T.squeeze(out, [2])
    if node.has(2):
        out = NN.bias_add(out, node.expr(2), axis=1)
    if activation != "none":
        out = _silu(out)
    state = T.strided_slice(padded, [length], [total], axes=[2])
    return [out, state]


def _heads(x: Expr, heads: int, node: Node, what: str) -> Expr:
    """(B, T, H*D) -> (B, H, T, D), in float32."""
    b, t, hd = shape_of_value(x)
    node.refuse(hd % heads != 0, f"{what}'s last dim {hd} is not a multiple of {heads} heads")
    return T.transpose(T.reshape(_cast(x, FLOAT), [b, t, heads, hd // heads]), [0, 2, 1, 3])


def _per_head(x: Expr, last: int) -> Expr:
    """(B, T, L) -> (B, L, T, 1), in float32."""
    b, t, _ = shape_of_value(x)
    return T.transpose(T.reshape(_cast(x, FLOAT), [b, t, last, 1]), [0, 2, 1, 3])


def _step(x: Expr, t: int) -> Expr:
    """x[:, :, t:t+1] of a (B, H, T, D) tensor."""
    return T.strided_slice(x, [t], [t + 1], axes=[2])


@converter("LinearAttention", 27)
def linear_attention_v27(node: Node) -> Result:
    """LinearAttention: linear, gated, delta or gated_delta state updates, unrolled over time."""
    rule = node.str_attr("update_rule", "gated_delta")
    node.refuse(
        rule not in ("linear", "gated", "delta", "gated_delta"), f"unknown update_rule '{rule}'"
    )
    q_heads, kv_heads = node.int_attr("q_num_heads", 0), node.int_attr("kv_num_heads", 0)
    node.refuse(
        q_heads <= 0 or kv_heads <= 0 or q_heads % kv_heads != 0,
        f"q_num_heads {q_heads} must be a positive multiple of kv_num_heads {kv_heads}",
    )
    gating, delta = rule in ("gated", "gated_delta"), rule in ("delta", "gated_delta")
    node.refuse(
        gating != node.has(4), f"update_rule '{rule}' {'needs' if gating else 'forbids'} decay"
    )
    node.refuse(
        delta != node.has(5), f"update_rule '{rule}' {'needs' if delta else 'forbids'} beta"
    )
    for i, what in enumerate(("query", "key", "value")):
        node.refuse(len(node.static_shape(i, what)) != 3, f"{what} must be (B, T, H*D)")
    b, steps, q_hidden = node.shape(0)
    node.refuse(steps < 1, "an empty sequence")
    node.refuse(steps > MAX_STEPS, f"sequence length {steps} > {MAX_STEPS} (unrolled at import)")
    d_k, d_v = q_hidden // q_heads, node.shape(2)[2] // kv_heads
    q = _heads(node.expr(0), q_heads, node, "query")
    k = _heads(node.expr(1), kv_heads, node, "key")
    v = _heads(node.expr(2), kv_heads, node, "value")
    decay: Expr | None = None
    if gating:
        last = node.shape(4)[-1]
        node.refuse(
            last not in (kv_heads, kv_heads * d_k),
            f"decay's last dim {last} is neither kv_num_heads nor kv_num_heads * d_k",
        )
        decay_in = node.expr(4)
        decay = (
            _per_head(decay_in, kv_heads)
            if last == kv_heads
            else _heads(decay_in, kv_heads, node, "decay")
        )
    beta: Expr | None = None
    if delta:
        last = node.shape(5)[-1]
        node.refuse(last not in (kv_heads, 1), f"beta's last dim {last} is not kv_num_heads or 1")
        beta = _per_head(node.expr(5), last)
    out_dtype = node.dtype(0)
    state_dtype = node.dtype(3) if node.has(3) else out_dtype
    state: Expr
    if node.has(3):
        want = (b, kv_heads, d_k, d_v)
        node.refuse(node.shape(3) != want, f"past_state shape is not {list(want)}")
        state = _cast(node.expr(3), FLOAT)
    else:
        state = const(np.zeros((b, kv_heads, d_k, d_v)), FLOAT)
    scale = node.float_attr("scale", 0.0) or 1.0 / float(np.sqrt(d_k))
    scale_const = const(np.asarray(scale), FLOAT)
    group = q_heads // kv_heads
    repeat = const(np.repeat(np.arange(kv_heads, dtype=np.int32), group), "int32")
    outputs: list[Expr] = []
    for t in range(steps):
        k_t, v_t = _step(k, t), _step(v, t)  # (B, H, 1, d)
        if decay is not None:
            state = E.multiply(state, T.transpose(E.exp(_step(decay, t)), [0, 1, 3, 2]))
        if beta is not None:
            retrieved = T.matmul(k_t, state)
            v_t = E.multiply(_step(beta, t), E.subtract(v_t, retrieved))
        state = E.add(state, E.multiply(T.transpose(k_t, [0, 1, 3, 2]), v_t))
        read = state if group == 1 else T.take(state, repeat, axis=1)
        outputs.append(E.multiply(scale_const, T.matmul(_step(q, t), read)))
    out = outputs[0] if steps == 1 else T.concatenate(outputs, axis=2)
    out = T.reshape(T.transpose(out, [0, 2, 1, 3]), [b, steps, q_heads * d_v])
    return [_cast(out, out_dtype), _cast(state, state_dtype)]
