"""`chain(n)`: `benchmarks/pass_scaling.py`'s chain graph of `n` relay ops, for tests.

The graph gives every standard pass work (conv2d + bias_add + batch_norm blocks,
constant-only subgraphs, duplicated subexpressions, reshape chains, ...); tests that
check a fast path prints the same module as the slow one run it at a few hundred ops.
"""

from __future__ import annotations

import sys
from pathlib import Path

from xrelay import IRModule

BENCHMARKS = Path(__file__).resolve().parent.parent.parent / "benchmarks"


def chain(n_ops: int) -> IRModule:
    """The pass-scaling benchmark's graph of about `n_ops` ops."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from pass_scaling import chain_graph  # pyright: ignore[reportMissingImports]
    finally:
        sys.path.remove(str(BENCHMARKS))
    mod: IRModule = chain_graph(n_ops)  # pyright: ignore[reportUnknownVariableType]
    return mod
