"""plan-memory's time-order placement (`passes/arena_sweep.py`) and how the planner picks one.

Property tests over random lifetimes: no two buffers live at once overlap,
the conflict count is the brute-force one, the planner never does worse
than best-fit where it runs best-fit, and skips it where pairs are many.
"""

from __future__ import annotations

import numpy as np
import pytest
from xrelay.passes import plan_memory
from xrelay.passes.arena_sweep import conflict_pairs, sweep_offsets
from xrelay.passes.plan_memory import (
    BEST_FIT_PAIRS_PER_BUFFER,
    best_fit_offsets,
    peak_live,
    place_buffers,
)

ALIGN = 64


def overlapping(spans: list[tuple[int, int]], sizes: list[int], offsets: list[int]) -> bool:
    """Whether two buffers live at once share a byte (brute force over all pairs)."""
    for i in range(len(spans)):
        for j in range(i + 1, len(spans)):
            live = spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]
            apart = offsets[i] + sizes[i] <= offsets[j] or offsets[j] + sizes[j] <= offsets[i]
            if live and sizes[i] and sizes[j] and not apart:
                return True
    return False


def pairs(spans: list[tuple[int, int]]) -> int:
    return sum(
        1
        for i in range(len(spans))
        for j in range(i + 1, len(spans))
        if spans[i][0] <= spans[j][1] and spans[j][0] <= spans[i][1]
    )


def extent(offsets: list[int], sizes: list[int]) -> int:
    return max((o + n for o, n in zip(offsets, sizes, strict=True)), default=0)


def random_lifetimes(
    rng: np.random.Generator, long_share: float
) -> tuple[list[tuple[int, int]], list[int]]:
    """Buffers over a 0..80 program, some living to the end, some starting together."""
    count = int(rng.integers(1, 70))
    starts = rng.integers(0, 60, count)
    long = rng.random(count) < long_share
    spans = [
        (int(s), 80 if far else int(s + rng.integers(0, 12)))
        for s, far in zip(starts, long, strict=True)
    ]
    sizes = [int(rng.integers(0, 6)) * ALIGN for _ in range(count)]
    return spans, sizes


@pytest.mark.parametrize("long_share", [0.0, 0.1, 0.5])
def test_sweep_never_overlaps_live_buffers(long_share: float) -> None:
    rng = np.random.default_rng(7)
    for _ in range(300):
        spans, sizes = random_lifetimes(rng, long_share)
        offsets = sweep_offsets(spans, sizes)
        assert not overlapping(spans, sizes, offsets)
        assert all(o >= 0 and o % ALIGN == 0 for o in offsets)
        assert extent(offsets, sizes) >= peak_live(spans, sizes)


def test_conflict_pairs_is_the_brute_force_count() -> None:
    rng = np.random.default_rng(3)
    for _ in range(300):
        spans, _ = random_lifetimes(rng, 0.2)
        assert conflict_pairs(spans) == pairs(spans)
    assert conflict_pairs([]) == 0
    assert conflict_pairs([(0, 0), (0, 0), (0, 0)]) == 3  # one op's three results


def test_freed_ranges_coalesce_and_lower_the_top() -> None:
    # Two 64-byte buffers die at op 0; a 128-byte one born at op 1 takes their place.
    assert sweep_offsets([(0, 0), (0, 0), (1, 1)], [64, 64, 128]) == [0, 64, 0]
    # Freed below a live buffer: the two neighbours merge into one 128-byte range.
    spans = [(0, 0), (0, 0), (0, 3), (1, 1)]
    offsets = sweep_offsets(spans, [64, 64, 64, 128])
    assert offsets == [0, 64, 128, 0]
    # The smallest range that fits is taken, not the first one.
    spans = [(0, 0), (0, 5), (0, 0), (0, 5), (1, 1)]
    offsets = sweep_offsets(spans, [192, 64, 64, 64, 64])
    assert offsets[4] == offsets[2]


def test_the_planner_is_never_worse_than_best_fit_where_it_runs_it() -> None:
    rng = np.random.default_rng(11)
    for _ in range(300):
        spans, sizes = random_lifetimes(rng, 0.05)
        if conflict_pairs(spans) > BEST_FIT_PAIRS_PER_BUFFER * len(spans):
            continue
        offsets = place_buffers(spans, sizes)
        assert not overlapping(spans, sizes, offsets)
        best = best_fit_offsets(spans, sizes)
        assert extent(offsets, sizes) <= extent(best, sizes)
        if extent(best, sizes) <= extent(sweep_offsets(spans, sizes), sizes):
            assert offsets == best  # best-fit wins ties: today's plans stay as they were


def test_many_pairs_skip_best_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    # 300 values live to the end among 3000 short ones: about 300 pairs per buffer.
    spans = [(i, 4000 if i % 10 == 0 else i + 1) for i in range(3000)]
    sizes = [ALIGN] * len(spans)

    def refuse(*_: object) -> list[int]:
        raise AssertionError("best-fit ran")

    monkeypatch.setattr(plan_memory, "best_fit_offsets", refuse)
    offsets = place_buffers(spans, sizes)
    assert offsets == sweep_offsets(spans, sizes)
    assert extent(offsets, sizes) == peak_live(spans, sizes)  # 300 long + 2 short at a time
