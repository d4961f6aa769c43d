"""The table of supported ONNX ops in docs/onnx.md, rendered from the converter registry.

`python -m xrelay.relay.frontend.onnx_docs` prints it; a test checks that the
table in docs/onnx.md is this one.
"""

from __future__ import annotations

from xrelay.relay.frontend.onnx_checks import NEWEST_OPSET
from xrelay.relay.frontend.onnx_ops import MODULES
from xrelay.relay.frontend.onnx_registry import REGISTRY


def supported_ops_table() -> str:
    """A markdown table: op type, the opset versions its converters handle."""
    assert MODULES  # imported: the registry is full
    lines = [
        "| ONNX op | converters (opset versions) | opsets handled |",
        "| --- | --- | --- |",
    ]
    for op_type in sorted(REGISTRY):
        versions = sorted(REGISTRY[op_type])
        shown = ", ".join(f"v{v}" for v in versions)
        lines.append(f"| {op_type} | {shown} | {versions[0]}-{NEWEST_OPSET} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(supported_ops_table(), end="")
