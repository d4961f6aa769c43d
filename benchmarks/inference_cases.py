"""Every model `inference.py` can run, as one `Case`: the relay module, its input, the float64
reference output, and the ONNX model onnxruntime runs.

- `tinyres` (at each `--sizes`) and `mlp-4096` (`inference_models.py`): reference by the
  float64 numpy forward pass; numpy is a runner too;
- the families `mobilenet`, `resnet`, `vgg`, `transformer`, `mlp` (`inference_families.py`):
  reference by xrelay's interpreter on the same graph built in float64 (weights and input
  widened); the ONNX model from `inference_families_onnx.py`, the same weights;
- ONNX's light models `light-resnet50`, `light-densenet121`, `light-inception_v1`,
  `light-squeezenet`, `light-shufflenet` (`xrelay.relay.frontend.onnx_light`): the same
  `.onnx` file for onnxruntime and for xrelay (`from_onnx`, weights as build params); the
  input is ONNX's dummy input; reference by xrelay's interpreter on the imported module
  (float32 tensors, every op accumulating in float64 and rounding once: docs/semantics.md).
  Their weights are `ConstantOfShape` constants, so their outputs are near uniform: the
  check catches a broken kernel, not a subtly wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from inference_families import FAMILY_SHAPES, FAMILY_WEIGHTS, family_relay

__all__ = ["DEFAULT_MODELS", "FAMILY_WEIGHTS", "MODELS", "Case", "load_case", "spec_entry"]
from inference_families_onnx import family_onnx
from inference_models import (
    MLP_DIMS,
    TINYRES_FLOPS,
    Array,
    flop_breakdown,
    numpy_forward,
    numpy_params,
    onnx_model,
    relay_model,
    weights_of,
)

import xrelay
from xrelay import IRModule

FAMILIES = tuple(FAMILY_WEIGHTS)
LIGHT = ("resnet50", "densenet121", "inception_v1", "squeezenet", "shufflenet")
MODELS = ("tinyres", *FAMILIES, *(f"light-{name}" for name in LIGHT), "mlp-4096")
DEFAULT_MODELS = MODELS[:-1]
"""All but `mlp-4096` (issue 7's memory-bound MLP: 64 MB of weights, slow to build)."""


@dataclass
class Case:
    """One model at one size, ready to build and run."""

    title: str
    model: str
    size: int
    mod: IRModule
    params: dict[str, Array] | None
    x: Array
    want: Array
    """The float64 reference output."""
    onnx: bytes | Path | None
    """The ONNX model (serialized, or a file), None without onnx."""
    numpy: bool
    """Whether the numpy runner can run it (`inference_models.numpy_forward`)."""
    flops: dict[str, list[int]]
    """`inference_models.flop_breakdown`."""


def _own(model: str, size: int, with_onnx: bool) -> Case:
    """tinyres or mlp-4096."""
    mod = relay_model(model, size)
    shape = (1, 3, size, size) if model == "tinyres" else (1, MLP_DIMS[0])
    x = np.random.default_rng(7).standard_normal(shape).astype(np.float32)
    p = weights_of(model, size)
    want = numpy_forward(model, numpy_params(model, p, np.float64), x.astype(np.float64))
    flops = flop_breakdown(mod)
    total = sum(row[1] for row in flops.values())
    if model == "tinyres" and total != TINYRES_FLOPS.get(size, total):
        raise SystemExit(f"tinyres {size}: counted {total} FLOPs, want {TINYRES_FLOPS[size]}")
    title = f"tinyres {size}" if model == "tinyres" else model
    onnx = onnx_model(model, size, p) if with_onnx else None
    return Case(title, model, size, mod, None, x, want, onnx, True, flops)


def _family(model: str, with_onnx: bool) -> Case:
    p = FAMILY_WEIGHTS[model]()
    x = np.random.default_rng(7).standard_normal(FAMILY_SHAPES[model][0]).astype(np.float32)
    mod = family_relay(model, p)
    want = np.asarray(xrelay.evaluate(family_relay(model, p, "float64"), x.astype(np.float64)))
    onnx = family_onnx(model, p) if with_onnx else None
    return Case(model, model, 0, mod, None, x, want, onnx, False, flop_breakdown(mod))


def _light(model: str) -> Case:
    from xrelay.passes.partition_for import bind_params_by_name

    from xrelay.relay.frontend import from_onnx
    from xrelay.relay.frontend.onnx_light import light_model, light_model_path

    name = model.removeprefix("light-")
    proto, inputs, _ = light_model(name)
    mod, params = from_onnx(proto)
    weights = {k: np.asarray(v) for k, v in params.items()}
    bound = mod.clone()
    bind_params_by_name(bound, weights)
    x = np.asarray(inputs[0], np.float32)
    want = np.asarray(xrelay.evaluate(bound, x), np.float64)
    path = light_model_path(name)
    return Case(model, model, 0, mod, weights, x, want, path, False, flop_breakdown(bound))


def load_case(model: str, size: int, with_onnx: bool) -> Case:
    """Model `model` (one of `MODELS`; `size` for tinyres) with its reference output."""
    if model in ("tinyres", "mlp-4096"):
        return _own(model, size, with_onnx)
    if model in FAMILIES:
        return _family(model, with_onnx)
    return _light(model)


def flop_total(case: Case) -> int:
    """The case's counted FLOPs."""
    return sum(row[1] for row in case.flops.values())


def spec_entry(case: Case, tmp: Path) -> dict[str, Any]:
    """The JSON-able part of a case the timing processes read (files under `tmp`)."""
    stem = case.title.replace(" ", "-")
    np.save(tmp / f"{stem}.npy", case.x)
    np.save(tmp / f"{stem}.want.npy", case.want)
    onnx: str | None = None
    if isinstance(case.onnx, Path):
        onnx = str(case.onnx)
    elif case.onnx is not None:
        onnx = str(tmp / f"{stem}.onnx")
        Path(onnx).write_bytes(case.onnx)
    return {
        "title": case.title, "model": case.model, "size": case.size, "flops": flop_total(case),
        "libs": {}, "na": {}, "input": str(tmp / f"{stem}.npy"),
        "reference": str(tmp / f"{stem}.want.npy"), "onnx": onnx, "numpy": case.numpy,
        "out_shape": list(case.want.shape),
    }  # fmt: skip
