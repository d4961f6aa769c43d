"""Source locations through rewrites: what a pass makes from ops keeps their `loc(...)`.

MLIR's rule: an op a pattern creates in place of another takes that op's
location, and an op made of several (a fused group, a composite, a partition's
call) takes `loc(fused[...])` of theirs. `inheriting` applies the first rule to
every op a rewriter inserts while a pattern rewrites one op (the greedy
drivers wrap each match in it); `fused_location` makes the second.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import contextmanager
from typing import cast

from xdsl.builder import BuilderListener
from xdsl.dialects.builtin import (
    ArrayAttr,
    CallSiteLoc,
    FileLineColLoc,
    FusedLoc,
    LocationAttr,
    NameLoc,
    NoneAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue


def fused_location(locations: Iterable[LocationAttr]) -> LocationAttr:
    """`loc(fused[...])` of the distinct known locations, in order (a fused one's parts
    inlined); the only one if one; `loc(unknown)` if none."""
    parts: list[LocationAttr] = []
    for location in locations:
        inner = fused_parts(location) if isinstance(location, FusedLoc) else (location,)
        for part in inner:
            if not isinstance(part, UnknownLoc) and part not in parts:
                parts.append(part)
    if not parts:
        return UnknownLoc()
    if len(parts) == 1:
        return parts[0]
    return FusedLoc(ArrayAttr(parts), NoneAttr())


def fused_parts(location: FusedLoc) -> list[LocationAttr]:
    """The locations a fused location holds."""
    locations = location.locations
    assert isinstance(locations, ArrayAttr)
    return [_as_location(part) for part in cast(ArrayAttr[Attribute], locations).data]


def fused_location_of(ops: Iterable[Operation]) -> LocationAttr:
    """The fused location of `ops` (see `fused_location`)."""
    return fused_location(op.location for op in ops)


def inherit(op: Operation, location: LocationAttr) -> None:
    """Give `op`, and the ops nested in it, `location` where they have none."""
    if isinstance(location, UnknownLoc):
        return
    for inner in op.walk():
        if isinstance(inner.location, UnknownLoc):
            inner.location = location


def _as_location(location: Attribute) -> LocationAttr:
    assert isinstance(location, LocationAttr)  # a fused location holds locations only
    return location


@contextmanager
def inheriting(listener: BuilderListener, source: Operation) -> Generator[None]:
    """While open, each op `listener` (a rewriter) inserts without a location takes
    `source`'s."""
    location = source.location
    if isinstance(location, UnknownLoc):
        yield
        return
    handler: Callable[[Operation], None] = lambda op: inherit(op, location)  # noqa: E731
    listener.operation_insertion_handler.append(handler)
    try:
        yield
    finally:
        listener.operation_insertion_handler.remove(handler)


def value_location(value: SSAValue) -> LocationAttr:
    """Where a value comes from: its op's location, or its block argument's."""
    if isinstance(value, OpResult):
        return value.op.location
    if isinstance(value, BlockArgument):
        return value.location
    return UnknownLoc()


def locate_arguments(block: Block, values: Sequence[SSAValue]) -> None:
    """Locate each argument of `block` (made to stand for `values`) where its value is."""
    for argument, value in zip(block.args, values, strict=True):
        argument.location = value_location(value)


def location_text(location: LocationAttr) -> str:
    """A short human form: `file:line:col`, a fused one's parts joined (`a.mlir:3:5, 4:5`:
    a part in the same file as the one before drops its name), a name as `'name'`; empty for
    `loc(unknown)`."""
    parts = fused_parts(location) if isinstance(location, FusedLoc) else [location]
    texts: list[str] = []
    last_file: str | None = None
    for part in parts:
        if isinstance(part, FileLineColLoc):
            position = f"{part.line.data}:{part.column.data}"
            name = part.filename.data
            texts.append(position if name == last_file else f"{name}:{position}")
            last_file = name
        elif isinstance(part, NameLoc):
            inner = part.location
            at = "" if isinstance(inner, NoneAttr) else location_text(_as_location(inner))
            texts.append(f"'{part.desc.data}'" + (f" ({at})" if at else ""))
        elif isinstance(part, CallSiteLoc):
            texts.append(location_text(_as_location(part.callee)))
        elif isinstance(part, FusedLoc):
            texts.append(location_text(part))
    return ", ".join(t for t in texts if t)
