"""Helpers the rewrite passes share."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from xdsl.ir import Operation
from xdsl.rewriter import Rewriter
from xdsl.traits import Pure


def erase_dead_ops(
    seeds: Iterable[Operation], erase: Callable[[Operation], None] = Rewriter.erase_op
) -> None:
    """Erase the seeds that are pure, region-free and unused, then the producers that leaves unused.

    Used after a rewrite to drop what only the replaced op read. Ops with
    regions or effects are left to dead-code-elimination. Inside a pattern,
    pass `rewriter.erase` so the greedy driver hears of each erasure.
    """
    work = list(seeds)
    while work:
        op = work.pop()
        if (
            op.parent is None
            or op.regions
            or not op.has_trait(Pure)
            or any(result.first_use is not None for result in op.results)
        ):
            continue
        work.extend(v.owner for v in op.operands if isinstance(v.owner, Operation))
        erase(op)
