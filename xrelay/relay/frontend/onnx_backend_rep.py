"""`onnx_backend(target)`: an `onnx.backend.base.Backend` that imports and runs on xrelay.

`prepare` imports the model; when a converter needs a value at import that is
a graph input or is computed from graph inputs (a Reshape shape, Slice starts,
Pad pads fed as inputs, a Range limit or a Loop trip count computed from one,
as ONNX's node tests do), the model is imported again at `run` with every
graph input that value depends on bound to the values given (one import per
distinct set of values).
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import onnx
from onnx import numpy_helper
from onnx.backend.base import Backend, BackendRep

from xrelay.api import build, evaluate
from xrelay.dialects.ir_module import IRModule
from xrelay.relay.frontend.onnx_errors import NeedsKnownValue
from xrelay.relay.frontend.onnx_import import from_onnx
from xrelay.relay.frontend.onnx_registry import Array

Prepared = tuple[IRModule, dict[str, Array], Any]


def parse_target(target: str | Sequence[str] | None) -> list[str] | None:
    """`"accel,c"` -> `["accel", "c"]`; None stays None (the reference interpreter)."""
    if target is None:
        return None
    parts = target.split(",") if isinstance(target, str) else list(target)
    return [p.strip() for p in parts if p.strip()]


def graph_inputs(model: onnx.ModelProto) -> list[str]:
    """The graph inputs that are not initializers, in order: what `run` takes."""
    inits = {i.name for i in model.graph.initializer}
    return [i.name for i in model.graph.input if i.name not in inits]


class XrelayRep(BackendRep):
    """A prepared model: `run(inputs)` returns the graph outputs in order."""

    def __init__(
        self,
        model: onnx.ModelProto,
        target: list[str] | None,
        options: Mapping[str, Any] | None = None,
    ):
        self.model = model
        self.target = target
        self.options = dict(options or {})
        self.names = graph_inputs(model)
        self.bound: list[str] = []
        """Graph inputs whose values the import needs (bound at `run`)."""
        self.cache: dict[bytes, Prepared] = {}

    def prepare(self, known: dict[str, Array]) -> Prepared:
        """Import (binding `known`), growing `bound` while a converter needs an input's value."""
        while True:
            try:
                mod, params = from_onnx(self.model, known_inputs=known)
            except NeedsKnownValue as error:
                wanted = [n for n in error.graph_inputs if n in self.names and n not in known]
                if not wanted:
                    raise
                self.bound += [n for n in wanted if n not in self.bound]
                raise _Rebind from None
            library = None
            if self.target is not None:
                library = build(mod, target=self.target, params=params, options=self.options)
            return mod, params, library

    def run(self, inputs: Any, **kwargs: Any) -> tuple[Any, ...]:
        given = _as_list(inputs)
        values: dict[str, Array] = {}
        for name, value in zip(self.names, given, strict=False):
            values[name] = _array(value)
        while True:
            known = {n: values[n] for n in self.bound if n in values}
            key = b"".join(
                n.encode() + v.tobytes() + str(v.shape).encode() for n, v in known.items()
            )
            try:
                if key not in self.cache:
                    self.cache[key] = self.prepare(known)
                break
            except _Rebind:
                continue
        mod, params, library = self.cache[key]
        args = [values[n] for n in self.names if n not in known]
        out: Any = evaluate(mod, *args, *params.values()) if library is None else library(*args)
        outputs = _as_list(out)
        return tuple(np.asarray(o) for o in outputs)


def _array(value: object) -> Array:
    """An input as numpy (ONNX's test cases give some as `TensorProto`s)."""
    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    return np.asarray(value)


def _as_list(values: object) -> list[Any]:
    """A list or tuple as a list; anything else as a list of one."""
    if isinstance(values, list | tuple):
        return list(cast(Sequence[Any], values))
    return [values]


class _Rebind(Exception):
    """Import again: one more graph input must be bound."""


def make_backend(
    target: str | Sequence[str] | None, options: Mapping[str, Any] | None = None
) -> type[Backend]:
    """A Backend class bound to `target` (None: the reference interpreter) and build `options`."""
    chosen = parse_target(target)
    if options is not None and chosen is None:
        raise ValueError("build options need a target; the reference interpreter builds nothing")

    class XrelayBackend(Backend):
        """ONNX backend running on xrelay."""

        @classmethod
        def prepare(cls, model: onnx.ModelProto, device: str = "CPU", **kwargs: Any) -> XrelayRep:
            super().prepare(model, device, **kwargs)
            rep = XrelayRep(model, chosen, options)
            with contextlib.suppress(_Rebind):  # else imported at run, with the bound inputs
                rep.cache[b""] = rep.prepare({})
            return rep

        @classmethod
        def supports_device(cls, device: str) -> bool:
            return device == "CPU"

    return XrelayBackend
