"""The shared GEMM's epilogue (`xg_sgemm_ep` in `codegen/kernels/gemm.py`), compiled on its own
with the vector math it requires (`vmath.py`, whose bounds `test_vmath.py` checks) and called
through ctypes. The epilogue (bias per column,
residual with its own row stride, each activation) is checked on odd shapes (one and two
rows: the dot-product path; rows and columns not a multiple of the tile; depths past the
depth block, where the epilogue must wait for the last block) against numpy in float64.
"""

from __future__ import annotations

import ctypes
import math
import os
import shlex
import subprocess
from typing import Any

import numpy as np
import pytest
from xrelay.codegen import kernels
from xrelay.codegen.kernels import gemm, vmath

Array = np.ndarray[Any, Any]
F32P = ctypes.POINTER(ctypes.c_float)

HARNESS = """
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#define XR_HIDDEN
{vmath}
{source}
"""


@pytest.fixture(scope="module")
def unit(tmp_path_factory: pytest.TempPathFactory) -> ctypes.CDLL:
    """The GEMM unit plus an erf loop, as a shared library built with the unit's flags."""
    folder = tmp_path_factory.mktemp("gemm-epilogue")
    source = folder / "unit.c"
    source.write_text(HARNESS.format(vmath=vmath.HEADER, source=gemm.source()))
    library = folder / "unit.so"
    cc = shlex.split(os.environ.get("CC", "").strip() or "cc")
    flags = ["-std=c11", *kernels.CFLAGS, "-shared", "-fPIC"]
    subprocess.run([*cc, *flags, str(source), "-o", str(library), "-lm"], check=True)
    return ctypes.CDLL(str(library))


def pointer(array: Array) -> Any:
    return array.ctypes.data_as(F32P)


ACTIVATIONS = {
    None: lambda v: v,
    "relu": lambda v: np.where(np.isnan(v) | (v > 0), v, 0.0),
    "clip": lambda v: np.clip(v, -0.5, 0.75),
    "gelu_erf": lambda v: v * 0.5 * (1 + np.vectorize(math.erf)(v / math.sqrt(2))),
    "gelu_tanh": lambda v: 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v**3))),
    "sigmoid": lambda v: 1 / (1 + np.exp(-v)),
    "tanh": np.tanh,
}


@pytest.mark.parametrize(
    "shape", [(1, 7, 5), (2, 33, 19), (7, 37, 300), (13, 70, 11), (150, 9, 520), (3, 600, 40)]
)
@pytest.mark.parametrize("activation", list(ACTIVATIONS))
def test_epilogue_on_odd_shapes(
    unit: ctypes.CDLL, shape: tuple[int, int, int], activation: str | None
) -> None:
    m, n, k = shape
    rng = np.random.default_rng(m * 1000 + n + k)
    a = rng.standard_normal((m, k)).astype(np.float32)
    w = rng.standard_normal((n, k)).astype(np.float32)  # nn.dense's weight: B = w.T
    bias = rng.standard_normal(n).astype(np.float32)
    ldr = n + 3  # a residual with its own row stride
    res = rng.standard_normal((m, ldr)).astype(np.float32)
    c = np.full((m, n), np.nan, np.float32)
    ep = gemm.GemmEpilogue("b", "r", ldr, activation, (-0.5, 0.75))
    act = ctypes.c_int(gemm.ACTIVATIONS[activation])
    unit.xg_sgemm_ep(
        *map(ctypes.c_int64, (m, n, k)), pointer(a), ctypes.c_int64(k), ctypes.c_int64(1),
        pointer(w), ctypes.c_int64(1), ctypes.c_int64(k), pointer(c), ctypes.c_int64(n),
        pointer(bias), pointer(res), ctypes.c_int64(ldr), act,
        ctypes.c_float(-0.5), ctypes.c_float(0.75),
    )  # fmt: skip
    assert ep.arguments()[:4] == ["b", "r", str(ldr), str(act.value)]
    pre = a.astype(np.float64) @ w.T.astype(np.float64) + bias + res[:, :n]
    want = ACTIVATIONS[activation](pre)
    bound = 2 * k * 2.0**-24 * (np.abs(a) @ np.abs(w).T) + 1e-6 * (1 + np.abs(pre))
    slope = 1.0 if activation in (None, "relu", "clip") else 1.2  # |d act / dx| <= 1.13
    assert np.all(np.abs(c - want) <= slope * bound + 2.5e-7), activation
