"""ONNX files as the tools' input: `--shape` flags, reading a file or stdin, importing.

`xrelay-translate --import-onnx` and `xrelay-run model.onnx` share this: the
model is imported with `xrelay.relay.frontend.from_onnx`; its problems are one
`OnnxImportError` (a `DiagnosticError`: one `file: error: ...` line each, exit 1).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any

from xrelay import IRModule
from xrelay.relay.frontend import OnnxImportError, from_onnx

ONNX_SUFFIX = ".onnx"


class ShapeFlagError(ValueError):
    """A malformed `--shape NAME=DIMS` flag."""


def parse_shapes(flags: Sequence[str]) -> dict[str, list[int | None]]:
    """`["x=1x3x224x224", "mask=?x8"]` -> {"x": [1, 3, 224, 224], "mask": [None, 8]}.

    `?` is a dynamic dim; `NAME=` (nothing after `=`) is a scalar.
    """
    shapes: dict[str, list[int | None]] = {}
    for flag in flags:
        name, equals, dims = flag.rpartition("=")
        if not equals or not name:
            raise ShapeFlagError(f"--shape {flag}: expected NAME=DIMS such as x=1x3x224x224")
        if name in shapes:
            raise ShapeFlagError(f"--shape {flag}: '{name}' is given twice")
        shape: list[int | None] = []
        for dim in dims.split("x") if dims else []:
            if dim == "?":
                shape.append(None)
            elif dim.isdigit():
                shape.append(int(dim))
            else:
                raise ShapeFlagError(
                    f"--shape {flag}: '{dim}' is not a dimension (a number, or ? for dynamic)"
                )
        shapes[name] = shape
    return shapes


def import_onnx(
    path: str,
    shapes: dict[str, list[int | None]],
    opset: int | None = None,
    freeze_params: bool = False,
) -> tuple[IRModule, dict[str, Any]]:
    """Import the ONNX model in file `path` (`-`: stdin's bytes); `OnnxImportError` if it cannot."""
    if path != "-":
        return from_onnx(path, dict(shapes), opset=opset, freeze_params=freeze_params)
    data = sys.stdin.buffer.read()
    with tempfile.TemporaryDirectory(prefix="xrelay-onnx-") as folder:
        file = os.path.join(folder, "stdin.onnx")
        with open(file, "wb") as stream:
            stream.write(data)
        try:
            return from_onnx(file, dict(shapes), opset=opset, freeze_params=freeze_params)
        except OnnxImportError as error:
            raise OnnxImportError(error.messages, "<stdin>") from None
