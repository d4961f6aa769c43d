"""The row-blocked depthwise convolution and windowed pools (`codegen/kernels/conv_depthwise.py`,
`codegen/kernels/pool.py`) over seeded random shapes, against the interpreter.

Both compute blocks of up to 8 output rows, reading the rows above and below the input
from a row of the padding's value, with a tail block when the rows do not divide; the
cases draw heights that do and do not divide, strides and dilations up to 3, padding up
to past the kernel, channel multipliers, 1 to 3 threads, so the blocks, the tail, the
ring of input rows and its padding row are all exercised. One accel build per test.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from testlib.accel_cases import Partitions
from xrelay.dialects import accel


def _window(rng: np.random.Generator, pool: bool) -> tuple[int, int, int, int, int, int]:
    """(height, width, kernel, stride, dilation, pad) with at least one output row; a pool's
    padding at most half its window (relay's rule)."""
    while True:
        kernel, stride, dilation = (int(v) for v in rng.integers(1, 4, size=3))
        pad = int(rng.integers(0, kernel // 2 + 1 if pool else kernel + 1))
        height, width = (int(v) for v in rng.integers(1, 24, size=2))
        reach = (kernel - 1) * dilation + 1
        if height + 2 * pad >= reach and width + 2 * pad >= reach:
            return height, width, kernel, stride, dilation, pad


@pytest.mark.parametrize("threads", [1, 3])
def test_depthwise_blocks_over_random_shapes(cache: Path, threads: int) -> None:
    rng = np.random.default_rng(1600 + threads)
    p = Partitions(40 + threads)
    for case in range(12):
        h, w, k, s, d, pad = _window(rng, pool=False)
        channels, multiplier = int(rng.integers(1, 6)), int(rng.integers(1, 3))
        out = channels * multiplier
        label = f"#{case}: {channels}x{h}x{w} k{k} s{s} d{d} p{pad} m{multiplier}"
        relu = bool(rng.integers(0, 2))
        p.add(label, accel.Conv2DOp, [(2, channels, h, w), (out, 1, k, k), (out,)],
              groups=channels, strides=[s, s], dilation=[d, d], padding=[pad] * 4,
              has_bias=True, has_relu=relu)  # fmt: skip
    p.check(cache, num_threads=threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_pools_block_over_random_shapes(cache: Path, threads: int) -> None:
    rng = np.random.default_rng(1700 + threads)
    p = Partitions(50 + threads)
    for case in range(14):
        h, w, k, s, d, pad = _window(rng, pool=True)
        op = accel.MaxPool2DOp if case % 2 else accel.AvgPool2DOp
        extra = {} if op is accel.MaxPool2DOp else {"count_include_pad": bool(case % 4 == 0)}
        ceil_mode = bool(rng.integers(0, 2))
        label = f"#{case} {op.name}: {h}x{w} k{k} s{s} d{d} p{pad} ceil {ceil_mode}"
        p.add(label, op, [(2, 3, h, w)], pool_size=[k, k], strides=[s, s], dilation=[d, d],
              padding=[pad] * 4, ceil_mode=ceil_mode, **extra)  # fmt: skip
    p.check(cache, num_threads=threads)
