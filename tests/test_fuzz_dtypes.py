"""`fuzz_graph` with the dtypes beyond float32/int32/int64: generated, compared and replayed."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xrelay.tools.fuzz_graph import compare, replay
from xrelay.tools.fuzz_graph_ops import GENERATORS, GraphMaker

import xrelay
from xrelay import IRModule, relay

BF16 = np.dtype(ml_dtypes.bfloat16)


def test_graphs_draw_half_floats_and_unsigned_types() -> None:
    seen: Counter[str] = Counter()
    for i, op in enumerate(list(GENERATORS) * 2):
        g = GraphMaker(random.Random(i), "g")
        g.make(op)
        seen.update(str(a.dtype) for a in g.inputs)
    for dtype in ("float16", "bfloat16", "uint8", "uint16", "uint32", "uint64", "int8"):
        assert seen[dtype] > 0, (dtype, seen)


def test_compare_half_floats_within_one_ulp_per_depth() -> None:
    one = np.array([1.0, 2.0, np.nan], np.float32)
    for dtype, ulp in ((BF16, 2.0**-7), (np.dtype(np.float16), 2.0**-10)):
        want = one.astype(dtype)
        assert compare(want.copy(), want, 1, 1.0) is None
        near = (one * np.float32(1 + ulp)).astype(dtype)  # the next value up
        assert compare(near, want, 1, 1.0) is None
        far = (one * np.float32(1 + 8 * ulp)).astype(dtype)
        assert compare(far, want, 1, 1.0).startswith("values differ")  # type: ignore[union-attr]
        assert compare(far, want, 8, 1.0) is None  # the tolerance grows with the depth
        nan = np.array([1.0, np.nan, np.nan], np.float32).astype(dtype)
        assert compare(nan, want, 1, 1.0) == "NaN positions differ"


def test_replay_reads_bfloat16_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A saved finding with a bf16 input (stored as its bits in the .npz) replays."""
    x = relay.var("x", shape=(3,), dtype="bfloat16")
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    path = tmp_path / "finding.mlir"
    path.write_text(str(mod), encoding="utf-8")
    data = np.array([0.5, -1.0, 3.0], np.float32).astype(BF16)
    np.savez(tmp_path / "finding.npz", arg0=data.view(np.uint16))
    assert replay(path, ["c"]) == 0
    assert capsys.readouterr().out == "c output 0: matches\n"
    assert xrelay.evaluate(mod, data).dtype == BF16
