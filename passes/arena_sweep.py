"""Arena placement in time order with a best-fit free list: O(log n) work per buffer.

`plan-memory`'s greedy best-fit by size looks at every placed buffer live at
the same time as the one it places, so its cost grows with the pairs of
buffers live at once: quadratic on a graph with many long-lived values (a
value computed early and read late conflicts with everything in between).
`sweep_offsets` instead replays the program as an allocator would: buffers in
order of their first op, each freed after its last one. Free address ranges
are kept coalesced, by address (two dicts: start -> end and end -> start, so
a freed range merges with its neighbours in O(1)) and by size (one list of
ranges per size, and the sizes in a sorted list: the smallest range that fits
is a `bisect`). A buffer takes the smallest free range it fits in (its low
end; the rest stays free), else the top of the arena; a range freed at the
top lowers the top instead (with the free range below it), so none touches
it. Each buffer costs O(log n) for the search and the heaps, plus the list
insertion of a new distinct free size (a memmove over the distinct sizes,
which stay few: tensor sizes repeat).

`conflict_pairs` counts the pairs best-fit would look at, in O(n log n), so
the planner can run best-fit only when that is cheap.
"""

from __future__ import annotations

import bisect
import heapq
from collections.abc import Sequence


class _FreeRanges:
    """Disjoint, coalesced free ranges `[start, end)` below the arena's top."""

    def __init__(self) -> None:
        self.end_of: dict[int, int] = {}  # start -> end
        self.start_of: dict[int, int] = {}  # end -> start
        self.by_size: dict[int, dict[int, None]] = {}  # size -> starts, oldest first
        self.sizes: list[int] = []  # the keys of by_size, sorted

    def _add(self, start: int, end: int) -> None:
        self.end_of[start] = end
        self.start_of[end] = start
        size = end - start
        starts = self.by_size.get(size)
        if starts is None:
            self.by_size[size] = {start: None}
            bisect.insort(self.sizes, size)
        else:
            starts[start] = None

    def _remove(self, start: int) -> int:
        """Drop the free range at `start`; its end."""
        end = self.end_of.pop(start)
        del self.start_of[end]
        size = end - start
        starts = self.by_size[size]
        del starts[start]
        if not starts:
            del self.by_size[size]
            del self.sizes[bisect.bisect_left(self.sizes, size)]
        return end

    def free(self, start: int, end: int) -> None:
        """Return `[start, end)`, merged with free neighbours."""
        if end in self.end_of:
            end = self._remove(end)
        before = self.start_of.get(start)
        if before is not None:
            self._remove(before)
            start = before
        self._add(start, end)

    def take_best_fit(self, size: int) -> int | None:
        """The start of the smallest free range of at least `size` (its low part is taken)."""
        at = bisect.bisect_left(self.sizes, size)
        if at == len(self.sizes):
            return None
        start = next(iter(self.by_size[self.sizes[at]]))  # the oldest of equal ranges
        end = self._remove(start)
        if end > start + size:
            self._add(start + size, end)
        return start

    def take_ending_at(self, top: int) -> int | None:
        """Remove the free range ending at `top` (the top drops to its start); its start."""
        start = self.start_of.get(top)
        if start is not None:
            self._remove(start)
        return start


def sweep_offsets(spans: Sequence[tuple[int, int]], sizes: Sequence[int]) -> list[int]:
    """Offsets for buffers live over inclusive `spans`, placed in order of start (see above)."""
    count = len(spans)
    order = sorted(range(count), key=lambda j: (spans[j][0], -sizes[j], j))
    offsets = [0] * count
    free = _FreeRanges()
    live: list[tuple[int, int]] = []  # (end, buffer)
    top = 0
    for i in order:
        first, last = spans[i]
        while live and live[0][0] < first:
            j = heapq.heappop(live)[1]
            low, high = offsets[j], offsets[j] + sizes[j]
            if high == top:  # the range at the top lowers the top instead
                top = low
                below = free.take_ending_at(top)
                if below is not None:
                    top = below
            else:
                free.free(low, high)
        size = sizes[i]
        if size == 0:
            continue  # takes no bytes: offset 0, never freed
        offset = free.take_best_fit(size)
        if offset is None:
            offset = top  # no free range touches the top: nothing below it is free
        offsets[i] = offset
        top = max(top, offset + size)
        heapq.heappush(live, (last, i))
    return offsets


def conflict_pairs(spans: Sequence[tuple[int, int]]) -> int:
    """How many pairs of buffers are live at once (inclusive spans), in O(n log n)."""
    starts = sorted(s for s, _ in spans)
    ends = sorted(e for _, e in spans)
    # A pair overlaps iff the later-starting one starts at or before the other's end:
    # for each buffer, the buffers starting after it and no later than its end, plus
    # (counted from their side) those starting before it and ending at or after its start.
    total = 0
    for first, last in spans:
        started_within = bisect.bisect_right(starts, last) - bisect.bisect_left(starts, first)
        total += started_within - 1  # itself
        # Those starting strictly before `first` and still live at `first`.
        before = bisect.bisect_left(starts, first)
        ended_before = bisect.bisect_left(ends, first)
        total += before - ended_before
    return total // 2
