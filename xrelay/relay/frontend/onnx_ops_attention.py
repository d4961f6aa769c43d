"""Converter for ONNX's Attention (opsets 23-25), decomposed onto relay ops.

Q @ K^T scaled, optionally soft-capped, plus an additive bias (the attention
mask, a causal mask, a sliding window, the padding of `nonpad_kv_seqlen`),
softmax, @ V; 3-D inputs are split into heads and merged back, grouped-query
attention repeats each key/value head, and `past_key`/`past_value` are
concatenated in front of K and V (the `present_*` outputs). Masks known at
import (causal and window without `nonpad_kv_seqlen`) are constants.
"""

from __future__ import annotations

import math

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_registry import (
    Array,
    Node,
    Result,
    Value,
    as_expr,
    converter,
    dtype_of_value,
    shape_of_value,
)

FLOATS = ("float16", "float32", "float64", "bfloat16")


def _plus(a: Value, b: Value) -> Value:
    """a + b, in numpy when both are known."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.asarray(a + b, dtype=a.dtype)
    return E.add(as_expr(a), as_expr(b))


def _add(a: Value | None, b: Value) -> Value:
    """a + b, where None stands for no bias yet."""
    return b if a is None else _plus(a, b)


def _select(allowed: Array | Expr, dtype: str) -> Value:
    """0 where `allowed`, -inf elsewhere (select, never multiply: 0 * -inf is NaN)."""
    if isinstance(allowed, np.ndarray):
        return np.where(allowed, np.zeros((), dtype), np.full((), -np.inf, dtype))
    zero = const(np.zeros(()), dtype)
    return E.where(allowed, zero, const(np.full((), -np.inf), dtype))


def _split_heads(x: Expr, shape: tuple[int, ...], heads: int, node: Node) -> Expr:
    """[B, S, H*D] -> [B, H, S, D]."""
    node.refuse(shape[2] % heads != 0, f"hidden size {shape[2]} is not a multiple of {heads} heads")
    x = T.reshape(x, [shape[0], shape[1], heads, shape[2] // heads])
    return T.transpose(x, [0, 2, 1, 3])


def _pad_mask(mask: Expr, kv_len: int, node: Node) -> Expr:
    """The mask padded on its last dim to `kv_len` keys with False / -inf."""
    shape = shape_of_value(mask)
    width = kv_len - shape[-1]
    node.refuse(width < 0, f"attn_mask has {shape[-1]} keys, more than the {kv_len} keys")
    if width == 0:
        return mask
    dtype = dtype_of_value(mask)
    fill = False if dtype == "bool" else -np.inf
    pad = const(np.full((*shape[:-1], width), fill), dtype)
    return T.concatenate([mask, pad], axis=len(shape) - 1)


class _Frontier:
    """Query/key positions: i (q, 1), j (1, kv) and the offset of the query block.

    The offset is past_key's length (a number), or per batch
    nonpad_kv_seqlen - q (an expression of shape (batch, 1, 1)).
    """

    def __init__(self, q_len: int, kv_len: int, offset: int | Expr):
        self.i = np.arange(q_len, dtype=np.int64).reshape(q_len, 1)
        self.j = np.arange(kv_len, dtype=np.int64).reshape(1, kv_len)
        self.offset = offset
        self.q_len, self.kv_len = q_len, kv_len

    def diff(self) -> Array | Expr:
        """(i + offset) - j: (q, kv), or (batch, q, kv) for a per-batch offset."""
        if isinstance(self.offset, int):
            return (self.i + self.offset) - self.j
        return E.subtract(E.add(const(self.i, "int64"), self.offset), const(self.j, "int64"))

    def bias(self, allowed: Array | Expr, dtype: str) -> Value:
        """The additive bias of `allowed`, per batch as (batch, 1, q, kv)."""
        out = _select(allowed, dtype)
        if isinstance(self.offset, int):
            return out
        return T.reshape(as_expr(out), [-1, 1, self.q_len, self.kv_len])


def _less_equal(a: Array | Expr, bound: int) -> Array | Expr:
    if isinstance(a, np.ndarray):
        return a <= bound
    return E.less_equal(a, const(np.asarray(bound), "int64"))


def _logical_and(a: Array | Expr, b: Array | Expr) -> Array | Expr:
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.logical_and(a, b)
    return E.logical_and(as_expr(a), as_expr(b))


def _negate(a: Array | Expr) -> Array | Expr:
    return -a if isinstance(a, np.ndarray) else E.negative(a)


def _attention_bias(node: Node, dtype: str, q_len: int, kv_len: int, past_len: int) -> Value | None:
    """The additive bias of masks (None when there is none), as ONNX's reference builds it."""
    mask = _pad_mask(node.expr(3), kv_len, node) if node.has(3) else None
    nonpad: Expr | None = None
    if node.has(6):
        node.refuse(node.has(4), "nonpad_kv_seqlen together with past_key")
        nonpad = E.cast(node.expr(6), "int64")
    offset: int | Expr = past_len
    if nonpad is not None:
        offset = T.reshape(E.subtract(nonpad, const(np.asarray(q_len), "int64")), [-1, 1, 1])
    frontier = _Frontier(q_len, kv_len, offset)
    left = node.int_attr("left_window_size", -1)
    right = node.int_attr("right_window_size", -1)
    node.refuse(left < -1 or right < -1, f"window sizes {left}, {right} below -1")
    windowed = left >= 0 or right >= 0
    zeros = np.zeros((q_len, kv_len), dtype)
    if mask is not None and dtype_of_value(mask) == "bool":
        mask = as_expr(_select(mask, dtype))
    bias: Value | None
    if node.int_attr("is_causal", 0):
        base: Value = zeros if mask is None else mask
        if windowed:
            base = _plus(zeros, base)
        bias = _plus(base, frontier.bias(_less_equal(_negate(frontier.diff()), 0), dtype))
    else:
        bias = None if mask is None else _plus(zeros, mask)
    if windowed:
        diff = frontier.diff()
        allowed: Array | Expr | None = None
        if left >= 0:
            allowed = _less_equal(diff, left)
        if right >= 0:
            upper = _less_equal(_negate(diff), right)
            allowed = upper if allowed is None else _logical_and(allowed, upper)
        assert allowed is not None
        bias = _plus(_add(bias, zeros), frontier.bias(allowed, dtype))
    if nonpad is not None:
        keys = const(np.arange(kv_len, dtype=np.int64), "int64")
        valid = E.less(keys, T.reshape(nonpad, [-1, 1]))
        padding = T.reshape(as_expr(_select(valid, dtype)), [-1, 1, 1, kv_len])
        bias = _add(bias, padding)
    return bias


def _repeat_heads(x: Expr, heads: int, reps: int) -> Expr:
    """Each head `reps` times in a row along axis 1: [h0, h0, h1, h1, ...]."""
    if reps == 1:
        return x
    index = np.repeat(np.arange(heads, dtype=np.int32), reps)
    return T.take(x, const(index, "int32"), axis=1)


def _scalar(value: float, dtype: str) -> Expr:
    return const(np.asarray(value), dtype)


@converter("Attention", 23)
def attention_v23(node: Node) -> Result:
    """Attention: scaled dot-product attention with masks, GQA, softcap and a KV cache."""
    q_shape = node.static_shape(0, "Q")
    k_shape = node.static_shape(1, "K")
    v_shape = node.static_shape(2, "V")
    rank = len(q_shape)
    node.refuse(rank not in (3, 4), f"Q has rank {rank}; Attention needs 3-D or 4-D inputs")
    node.refuse(len(k_shape) != rank or len(v_shape) != rank, "Q, K and V must have the same rank")
    dtype = node.dtype(0)
    node.refuse(dtype not in FLOATS, f"Q has element type {dtype}; Attention needs floats")
    node.refuse(node.has(4) != node.has(5), "past_key and past_value must be given together")
    q, k, v = node.expr(0), node.expr(1), node.expr(2)
    if rank == 3:
        q_heads = node.int_attr("q_num_heads", 0)
        kv_heads = node.int_attr("kv_num_heads", 0)
        node.refuse(q_heads <= 0 or kv_heads <= 0, "3-D inputs need q_num_heads and kv_num_heads")
        q = _split_heads(q, q_shape, q_heads, node)
        k = _split_heads(k, k_shape, kv_heads, node)
        v = _split_heads(v, v_shape, kv_heads, node)
    else:
        node.refuse(
            node.opset >= 25 and ("q_num_heads" in node.attrs or "kv_num_heads" in node.attrs),
            "q_num_heads and kv_num_heads must not be given for 4-D inputs",
        )
        q_heads, kv_heads = q_shape[1], k_shape[1]
        node.refuse(v_shape[1] != kv_heads, f"K has {kv_heads} heads but V {v_shape[1]}")
    batch, q_len, head_size = q_shape[0], shape_of_value(q)[2], shape_of_value(q)[3]
    node.refuse(
        q_heads % kv_heads != 0, f"{q_heads} query heads are no multiple of {kv_heads} kv heads"
    )

    # The scale is applied as sqrt(scale) to Q and to K, in Q's dtype.
    scale = node.attrs.get("scale")
    scale = 1 / np.sqrt(head_size) if scale is None else float(scale)
    root = _scalar(float(np.sqrt(scale)), dtype)

    past_len = 0
    if node.has(4):
        past_len = node.static_shape(4, "past_key")[2]
        k = T.concatenate([node.expr(4), k], axis=2)
        v = T.concatenate([node.expr(5), v], axis=2)
    present_k, present_v = k, v
    kv_len = shape_of_value(k)[2]
    bias = _attention_bias(node, dtype, q_len, kv_len, past_len)

    reps = q_heads // kv_heads
    k = _repeat_heads(k, kv_heads, reps)
    v = _repeat_heads(v, kv_heads, reps)
    qk: Expr = T.matmul(E.multiply(q, root), E.multiply(k, root), transpose_b=True)
    softcap = node.float_attr("softcap", 0.0)
    if softcap > 0:
        cap = _scalar(softcap, dtype)
        qk = E.multiply(E.tanh(E.divide(qk, cap)), cap)
    with_bias = qk if bias is None else E.add(qk, as_expr(bias))
    mode = node.int_attr("qk_matmul_output_mode", 0)
    node.refuse(mode not in (0, 1, 2, 3), f"qk_matmul_output_mode {mode} (0 to 3)")
    qk_out = with_bias if mode == 2 else qk

    scores = with_bias
    precision = node.attrs.get("softmax_precision")
    if precision is not None:
        soft_dtype = relay_dtype(int(precision))
        node.refuse(
            soft_dtype not in FLOATS,
            f"softmax_precision {onnx_type_name(int(precision))} is not a float type",
        )
        assert soft_dtype is not None
        scores = E.cast(scores, soft_dtype)
    probs: Expr = NN.softmax(scores, -1)
    probs = _guard_masked_rows(probs, bias)
    if mode == 3:
        qk_out = probs
    if dtype_of_value(probs) != dtype:
        probs = E.cast(probs, dtype)
    if dtype_of_value(qk_out) != dtype:
        qk_out = E.cast(qk_out, dtype)

    y: Expr = T.matmul(probs, v)
    if rank == 3:
        v_head = shape_of_value(y)[3]
        y = T.reshape(T.transpose(y, [0, 2, 1, 3]), [batch, q_len, q_heads * v_head])
    return [y, present_k, present_v, qk_out]


def _guard_masked_rows(probs: Expr, bias: Value | None) -> Expr:
    """Rows whose bias is -inf everywhere (no key to attend) are 0, not softmax's NaN."""
    if bias is None:
        return probs
    dtype = dtype_of_value(probs)
    zero = _scalar(0.0, dtype)
    if isinstance(bias, np.ndarray):
        row_top: Array = np.max(bias, axis=-1, keepdims=True)
        masked = np.asarray(row_top == -np.inf, dtype=np.bool_)
        if not bool(np.any(masked)):
            return probs
        return E.where(const(masked, "bool"), zero, probs)
    row_max = T.max(bias, [-1], keepdims=True)
    masked_expr = E.equal(row_max, _scalar(-math.inf, dtype_of_value(bias)))
    return E.where(masked_expr, zero, probs)
