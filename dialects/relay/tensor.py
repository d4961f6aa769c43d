"""Tensor-manipulation relay ops: reshape, transpose, concatenate, split, reductions, ...

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

OPS = ()
