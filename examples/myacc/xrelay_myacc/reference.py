"""What the `myacc` ops compute, in numpy: the interpreter's semantics of the dialect.

`xrelay.evaluate` and `xrelay-run` without `--target` run these; the built C
is checked against them (tests/test_build.py).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from xrelay.ext import Evaluator, reference
from xrelay_myacc.dialect import GeluOp, MatmulReluOp

_erf = np.vectorize(math.erf, otypes=[np.float64])


def gelu(x: Any) -> Any:
    """`x * 0.5 * (1 + erf(x / sqrt(2)))`, computed in float64, returned in `x`'s dtype."""
    wide = np.asarray(x, dtype=np.float64)
    return (wide * 0.5 * (1.0 + _erf(wide / math.sqrt(2.0)))).astype(np.asarray(x).dtype)


def matmul_relu(x: Any, w: Any) -> Any:
    """`max(x @ w.T, 0)` (relay's dense then relu), accumulated in float64."""
    wide = np.asarray(x, dtype=np.float64) @ np.asarray(w, dtype=np.float64).T
    return np.maximum(wide, 0.0).astype(np.asarray(x).dtype)


@reference(GeluOp)
def _gelu(evaluator: Evaluator, op: GeluOp, args: list[Any]) -> Any:
    return gelu(args[0])


@reference(MatmulReluOp)
def _matmul_relu(evaluator: Evaluator, op: MatmulReluOp, args: list[Any]) -> Any:
    return matmul_relu(args[0], args[1])
