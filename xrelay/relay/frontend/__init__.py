"""`xrelay.relay.frontend`: model importers (TVM's `relay.frontend`).

`from_onnx(model, shape=None, dtype="float32", opset=None, freeze_params=False)`
imports an ONNX model; `onnx_backend(target=None)` is an ONNX backend
(`onnx.backend.base.Backend`) running on xrelay. `onnx` is imported only when
they are called (`pip install 'xrelay[onnx]'`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from xrelay.relay.frontend.onnx_errors import OnnxImportError

if TYPE_CHECKING:
    from pathlib import Path

    import onnx
    from onnx.backend.base import Backend

    from xrelay.dialects.ir_module import IRModule
    from xrelay.relay.frontend.onnx_import import ShapeSpec

__all__ = ["OnnxImportError", "from_onnx", "onnx_backend"]


def from_onnx(
    model: onnx.ModelProto | str | Path,
    shape: dict[str, ShapeSpec] | None = None,
    dtype: str | dict[str, str] = "float32",
    opset: int | None = None,
    freeze_params: bool = False,
) -> tuple[IRModule, dict[str, Any]]:
    """Import an ONNX model: `(IRModule, params)`; see `onnx_import.from_onnx` and docs/onnx.md."""
    from xrelay.relay.frontend.onnx_import import from_onnx as _from_onnx

    return _from_onnx(model, shape, dtype, opset, freeze_params)


def onnx_backend(
    target: str | list[str] | None = None, options: Mapping[str, Any] | None = None
) -> type[Backend]:
    """An `onnx.backend.base.Backend` running models on xrelay (None: the reference interpreter).

    Other targets are those of `xrelay.build`: `"c"`, `"accel,c"`, `"dnnl,c"`, built
    with `options` (`xrelay.build`'s, e.g. `{"cflags": ["-O1"]}` for faster compiles).
    """
    from xrelay.relay.frontend.onnx_backend_rep import make_backend

    return make_backend(target, options)
