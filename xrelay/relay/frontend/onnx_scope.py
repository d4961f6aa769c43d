"""Name scopes of the ONNX importer: a graph's values, then those of the graphs around it.

A subgraph (If's branches, Loop's and Scan's bodies) sees the values of its
enclosing graphs by name; its own names shadow theirs and vanish with it.
Each value also records which graph inputs of the main graph it is computed
from, so a converter that needs a value at import can say which inputs the
ONNX backend must bind (see `NeedsKnownValue`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx

from xrelay.relay.frontend.onnx_registry import Value

NO_INPUTS: frozenset[str] = frozenset()


class Scope:
    """The values one graph defines, falling back on its parent's."""

    def __init__(self, parent: Scope | None = None):
        self.parent = parent
        self.values: dict[str, Value] = {}
        self.depends: dict[str, frozenset[str]] = {}
        """value name -> the main graph's inputs it is computed from."""

    def define(self, name: str, value: Value, depends: frozenset[str] = NO_INPUTS) -> None:
        """Bind `name` in this scope."""
        self.values[name] = value
        self.depends[name] = depends

    def _find(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None and name not in scope.values:
            scope = scope.parent
        return scope

    def __contains__(self, name: str) -> bool:
        return self._find(name) is not None

    def __getitem__(self, name: str) -> Value:
        scope = self._find(name)
        if scope is None:
            raise KeyError(name)
        return scope.values[name]

    def depends_on(self, names: Iterable[str]) -> frozenset[str]:
        """The graph inputs the values `names` are computed from (unknown names: none)."""
        out: set[str] = set()
        for name in names:
            scope = self._find(name)
            if scope is not None:
                out |= scope.depends[name]
        return frozenset(out)


def subgraphs(node: onnx.NodeProto) -> Iterator[onnx.GraphProto]:
    """The graphs in `node`'s attributes (If's branches, Loop's and Scan's bodies)."""
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            yield attr.g
        elif attr.type == onnx.AttributeProto.GRAPHS:
            yield from attr.graphs


def outer_names(graph: onnx.GraphProto) -> set[str]:
    """The names `graph` (and the graphs nested in it) read from enclosing scopes."""
    defined = {i.name for i in graph.input} | {i.name for i in graph.initializer}
    used: set[str] = set()
    for node in graph.node:
        used.update(n for n in node.input if n and n not in defined)
        for sub in subgraphs(node):
            used.update(n for n in outer_names(sub) if n not in defined)
        defined.update(node.output)
    used.update(o.name for o in graph.output if o.name not in defined)
    return used
