"""`onnx_backend(target)`: an `onnx.backend.base.Backend` that imports and runs on xrelay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx
from onnx.backend.base import Backend, BackendRep

from xrelay.api import build, evaluate
from xrelay.dialects.ir_module import IRModule
from xrelay.relay.frontend.onnx_import import from_onnx


def parse_target(target: str | Sequence[str] | None) -> list[str] | None:
    """`"accel,c"` -> `["accel", "c"]`; None stays None (the reference interpreter)."""
    if target is None:
        return None
    parts = target.split(",") if isinstance(target, str) else list(target)
    return [p.strip() for p in parts if p.strip()]


class XrelayRep(BackendRep):
    """A prepared model: `run(inputs)` returns the graph outputs in order."""

    def __init__(self, mod: IRModule, params: dict[str, Any], target: list[str] | None):
        self.mod = mod
        self.params = params
        self.target = target
        self.library = None if target is None else build(mod, target=target, params=params)

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        args = [np.asarray(a) for a in (inputs if isinstance(inputs, list | tuple) else [inputs])]
        if self.library is None:
            values = [*args, *self.params.values()]
            out = evaluate(self.mod, *values)
        else:
            out = self.library(*args)
        outputs = out if isinstance(out, tuple | list) else (out,)
        return tuple(np.asarray(o) for o in outputs)


def make_backend(target: str | Sequence[str] | None) -> type[Backend]:
    """A Backend class bound to `target`."""
    chosen = parse_target(target)

    class XrelayBackend(Backend):
        """ONNX backend running on xrelay."""

        @classmethod
        def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> XrelayRep:
            super().prepare(model, device, **kwargs)
            mod, params = from_onnx(model)
            return XrelayRep(mod, params, chosen)

        @classmethod
        def supports_device(cls, device: str) -> bool:
            return device == "CPU"

    return XrelayBackend
