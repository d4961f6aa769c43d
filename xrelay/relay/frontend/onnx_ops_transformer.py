"""Converters for transformer building blocks: RotaryEmbedding and SwiGLU, on relay ops."""

from __future__ import annotations

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import Node, Result, converter


def _last(x: Expr, begin: int, end: int, rank: int, step: int = 1) -> Expr:
    """x[..., begin:end:step] along the last of `rank` dims."""
    return T.strided_slice(x, [begin], [end], [step], axes=[rank - 1])


@converter("RotaryEmbedding", 23)
def rotary_embedding_v23(node: Node) -> Result:
    """RotaryEmbedding: rotate (half-split or interleaved) pairs of the first dims of each head.

    X is [B, H, S, D], or [B, S, H*D] with `num_heads`; the cos/sin caches
    are [max_pos, R/2] taken at `position_ids` [B, S], or already [B, S, R/2].
    """
    shape = node.static_shape(0, "the input")
    rank = len(shape)
    node.refuse(rank not in (3, 4), f"the input has rank {rank}; RotaryEmbedding needs 3 or 4")
    x = node.expr(0)
    if rank == 4:
        x = T.transpose(x, [0, 2, 1, 3])
        batch, seq, heads, head_size = shape[0], shape[2], shape[1], shape[3]
    else:
        heads = node.int_attr("num_heads", 0)
        node.refuse(heads <= 0, "3-D input needs num_heads")
        node.refuse(shape[2] % heads != 0, f"hidden size {shape[2]} is not a multiple of {heads}")
        batch, seq, head_size = shape[0], shape[1], shape[2] // heads
        x = T.reshape(x, [batch, seq, heads, head_size])
    rot = node.int_attr("rotary_embedding_dim", 0) or head_size
    node.refuse(
        rot > head_size or rot % 2 != 0, f"rotary_embedding_dim {rot} (head size {head_size})"
    )
    cos, sin = node.expr(1), node.expr(2)
    if node.has(3):
        positions = node.expr(3)
        cos, sin = T.take(cos, positions, axis=0), T.take(sin, positions, axis=0)
    cache_shape = node.shape(1)
    node.refuse(
        cache_shape[-1] != rot // 2, f"cos_cache's last dim {cache_shape[-1]} is not {rot // 2}"
    )
    cos, sin = T.expand_dims(cos, 2), T.expand_dims(sin, 2)
    interleaved = bool(node.int_attr("interleaved", 0))
    if interleaved:
        x1, x2 = _last(x, 0, rot, 4, 2), _last(x, 1, rot, 4, 2)
    else:
        x1, x2 = _last(x, 0, rot // 2, 4), _last(x, rot // 2, rot, 4)
    real = E.subtract(E.multiply(cos, x1), E.multiply(sin, x2))
    imag = E.add(E.multiply(sin, x1), E.multiply(cos, x2))
    rotated: Expr
    if interleaved:
        pairs = T.concatenate([T.expand_dims(real, 4), T.expand_dims(imag, 4)], axis=4)
        rotated = T.reshape(pairs, [batch, seq, heads, rot])
    else:
        rotated = T.concatenate([real, imag], axis=3)
    if rot < head_size:
        rotated = T.concatenate([rotated, _last(x, rot, head_size, 4)], axis=3)
    if rank == 4:
        return T.transpose(rotated, [0, 2, 1, 3])
    return T.reshape(rotated, list(shape))


@converter("SwiGLU", 28)
def swiglu_v28(node: Node) -> Result:
    """SwiGLU: A * sigmoid(alpha * A) * B, A and B of one shape."""
    node.refuse(node.shape(0) != node.shape(1), "A and B must have the same shape")
    a, b = node.expr(0), node.expr(1)
    alpha = node.float_attr("alpha", 1.0)
    scaled = a if alpha == 1.0 else E.multiply(a, const(np.asarray(alpha), node.dtype(0)))
    return E.multiply(E.multiply(a, E.sigmoid(scaled)), b)
