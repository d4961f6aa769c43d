"""Every dtype the C target holds crosses the model boundary: built for `c`, as the interpreter.

uint16, uint32 and uint64 had no `xrelay_dtype` value, so a model with such an
input or output could not be built (ONNX's uint cases of Add, Less, BitShift,
... failed on `c` only).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from xrelay.codegen import runtime
from xrelay.codegen.runtime.loader import DTYPES

import xrelay
from xrelay import IRModule, relay

BOUNDARY_DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"]
BOUNDARY_DTYPES += ["uint64", "float16", "float32", "float64"]


def test_loader_dtypes_follow_the_header_enum() -> None:
    text = runtime.HEADER.read_text()
    enum = dict(re.findall(r"XRELAY_(\w+) = (\d+)", text))
    assert sorted(int(v) for v in enum.values()) == list(range(len(DTYPES)))
    for name, value in enum.items():
        assert DTYPES[int(value)] == np.dtype(name.lower()), name


@pytest.mark.parametrize("dtype", BOUNDARY_DTYPES)
def test_input_and_output_of_every_dtype_build_and_run(dtype: str, cache: Path) -> None:
    x = relay.var("x", shape=(2, 3), dtype=dtype)
    s = relay.var("s", shape=(), dtype=dtype)  # a 0-d input too
    body = relay.maximum(x, s) if dtype != "bool" else relay.logical_or(x, s)
    mod = IRModule.from_expr(relay.Function([x, s], relay.Tuple([body, relay.less(x, s)])))
    rng = np.random.default_rng(0)
    xv = (rng.integers(0, 100, (2, 3)) if dtype != "bool" else rng.integers(0, 2, (2, 3))).astype(
        dtype
    )
    if np.dtype(dtype).kind == "u":
        xv[0, 0] = np.iinfo(dtype).max  # beyond the signed range of the width
    sv = np.array(1 if dtype == "bool" else 40, dtype)
    want = xrelay.evaluate(mod, xv, sv)
    got = xrelay.build(mod, target="c", options={"cache_dir": cache})(xv, sv)
    assert len(got) == len(want) == 2
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype
        assert g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("dtype", ["bool", "uint16", "float32"])
def test_empty_inputs_and_outputs_build_and_run(dtype: str, cache: Path) -> None:
    x = relay.var("x", shape=(0, 3), dtype=dtype)
    y = relay.var("y", shape=(2, 0), dtype=dtype)
    mod = IRModule.from_expr(relay.Function([x, y], relay.Tuple([x, relay.transpose(y)])))
    xv, yv = np.zeros((0, 3), dtype), np.zeros((2, 0), dtype)
    got = xrelay.build(mod, target="c", options={"cache_dir": cache})(xv, yv)
    assert [(g.dtype, g.shape) for g in got] == [
        (np.dtype(dtype), (0, 3)),
        (np.dtype(dtype), (0, 2)),
    ]
