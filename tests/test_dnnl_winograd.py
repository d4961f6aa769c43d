"""Which oneDNN Winograd kernel a dnnl convolution runs (`codegen/dnnl/conv.py`,
`winograd_kernels`), read from oneDNN's own log, and its numerics against the interpreter.

oneDNN 2.6 has two f32 Winograd kernels on AVX-512 and always offers the 2x3 one first;
xrelay asks for the 4x3 one on images of at least 25x25 from 32 input channels, and, on one
thread only, on images of at least 13x13 with at least 96 input and 208 output channels. A
convolution outside `winograd_candidate` stays direct.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from testlib.onednn import AVX512, onednn_log

import xrelay
from xrelay import IRModule, relay


def model(cin: int, cout: int, side: int, kernel: int = 3) -> IRModule:
    """relu(conv(x) + bias + relu(conv1x1(x))): a `kernel`x`kernel` convolution with bias,
    a sum and a relu post-op."""
    rng = np.random.default_rng(cin * 1000 + cout + side)
    x = relay.var("x", shape=(1, cin, side, side))
    w = relay.const((rng.standard_normal((cout, cin, kernel, kernel)) * 0.2).astype("float32"))
    b = relay.const((rng.standard_normal(cout) * 0.1).astype("float32"))
    pad = kernel // 2
    main = relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(pad, pad), channels=cout), b)
    w1 = relay.const((rng.standard_normal((cout, cin, 1, 1)) * 0.2).astype("float32"))
    side_branch = relay.nn.relu(relay.nn.conv2d(x, w1, channels=cout))
    return IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.add(main, side_branch))))


@pytest.mark.parametrize(
    ("cin", "cout", "side", "threads", "kernel"),
    [
        (32, 32, 28, 1, "wino_4x3"),
        (32, 32, 28, 2, "wino_4x3"),
        (96, 208, 13, 1, "wino_4x3"),
        (96, 208, 13, 2, "wino_2x3"),
        (64, 256, 13, 1, "wino_2x3"),
        (64, 64, 7, 1, "wino_2x3"),
        (16, 16, 28, 1, "wino_2x3"),
    ],
)
def test_kernel_by_shape_and_threads(
    cin: int, cout: int, side: int, threads: int, kernel: str, cache: Path, tmp_path: Path
) -> None:
    mod = model(cin, cout, side)
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache, "num_threads": threads})
    log = onednn_log(lib, (1, cin, side, side), tmp_path, threads)
    convs = [entry[4] for entry in log if entry[3] == "convolution" and "kh3" in entry[-2]]
    assert len(convs) == 1, log
    if AVX512:
        assert kernel in convs[0], convs
    else:
        assert "wino" not in convs[0], convs
    for seed in range(2):
        x = np.random.default_rng(seed).standard_normal((1, cin, side, side)).astype("float32")
        want = xrelay.evaluate(mod, x)
        np.testing.assert_allclose(lib(x), want, rtol=0, atol=1e-5 * float(np.max(np.abs(want))))


def test_a_5x5_convolution_stays_direct(cache: Path, tmp_path: Path) -> None:
    lib = xrelay.build(model(32, 32, 28, kernel=5), ["dnnl", "c"], options={"cache_dir": cache})
    log = onednn_log(lib, (1, 32, 28, 28), tmp_path)
    convs = [entry[4] for entry in log if entry[3] == "convolution" and "kh5" in entry[-2]]
    assert len(convs) == 1, log
    assert "wino" not in convs[0], convs


def test_the_kernels_benchmark_runs() -> None:
    """`benchmarks/dnnl_winograd_kernels.py` on one small shape: a row with the direct time
    and, on AVX-512, both Winograd kernels' (each `kernel+reorders` µs)."""
    script = Path(__file__).resolve().parent.parent / "benchmarks" / "dnnl_winograd_kernels.py"
    argv = [sys.executable, str(script), "--shapes", "32,32,14"]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    (row,) = [line for line in result.stdout.splitlines() if line.startswith("| 32 -> 32 @ 14")]
    cells = row.strip("| ").split(" | ")
    assert cells[1] == "3.6", row  # MFLOP: 2 * 32 * 32 * 9 * 14 * 14
    assert re.fullmatch(r"\d+\+0", cells[2]), row
    if AVX512:
        assert all(re.fullmatch(r"\d+\+\d+", cell) for cell in cells[3:5]), row
        assert float(cells[5]) > 0, row
