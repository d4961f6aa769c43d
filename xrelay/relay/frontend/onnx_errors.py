"""`OnnxImportError`: every problem the ONNX importer finds, one `error:` line each."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError


class OnnxImportError(DiagnosticError):
    """A model the importer cannot represent; `str()` is one `file: error: ...` line per problem.

    It is a `DiagnosticError`, so the tools print it and exit 1 without a traceback.
    """

    def __init__(self, messages: str | Sequence[str], filename: str = "<onnx>"):
        lines = [messages] if isinstance(messages, str) else list(messages)
        super().__init__([Diagnostic(filename, 0, 0, "error", m) for m in lines])

    @property
    def messages(self) -> list[str]:
        """The problems, without the file prefix."""
        return [d.message for d in self.diagnostics]


def node_label(name: str, op_type: str) -> str:
    """How a message names a node: `node 'conv1' (Conv)`, or `unnamed node (Conv)`."""
    return f"node '{name}' ({op_type})" if name else f"unnamed node ({op_type})"


class NeedsKnownValue(OnnxImportError):
    """A converter needs `value_name`'s value at import (a shape, axes, pads...).

    `graph_inputs` are the graph inputs that value is computed from (the
    importer fills them in): bound to known values, they make it known.
    """

    def __init__(self, message: str, value_name: str, graph_inputs: Iterable[str] = ()):
        super().__init__(message)
        self.value_name = value_name
        self.graph_inputs = tuple(sorted(graph_inputs))
