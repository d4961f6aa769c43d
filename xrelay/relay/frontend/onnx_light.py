"""ONNX's nine `light` models (shipped in the onnx package) with their inputs and reference.

`onnx/backend/test/data/light/` holds each model (`light_<name>.onnx`, weights made
by `ConstantOfShape` nodes) and its reference output (`light_<name>_output_0.pb`)
for ONNX's dummy input: `Runner.generate_dummy_data(input, seed=0, random=False)`
for each graph input that is no initializer, as ONNX's own runner makes it.
The tests, `benchmarks/onnx_light_models.py` and `benchmarks/onnx_import.py` read
them through `light_model`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import onnx
from onnx import numpy_helper
from onnx.backend.test.runner import Runner

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
"""Where the onnx package keeps the light models."""

LIGHT_MODELS = (
    "bvlc_alexnet",
    "densenet121",
    "inception_v1",
    "inception_v2",
    "resnet50",
    "shufflenet",
    "squeezenet",
    "vgg19",
    "zfnet512",
)


def light_model_path(name: str) -> Path:
    """The `.onnx` file of light model `name` (one of `LIGHT_MODELS`)."""
    if name not in LIGHT_MODELS:
        raise ValueError(f"unknown light model {name!r}; expected one of {list(LIGHT_MODELS)}")
    return LIGHT / f"light_{name}.onnx"


def light_model(
    name: str,
) -> tuple[onnx.ModelProto, list[npt.NDArray[np.float32]], npt.NDArray[Any]]:
    """Light model `name`, its dummy inputs (as ONNX's runner makes them), its reference output."""
    model = onnx.ModelProto()
    model.ParseFromString(light_model_path(name).read_bytes())
    inits = {i.name for i in model.graph.initializer}
    inputs = [
        Runner.generate_dummy_data(i, seed=0, random=False)
        for i in model.graph.input
        if i.name not in inits
    ]
    tensor = onnx.TensorProto()
    tensor.ParseFromString((LIGHT / f"light_{name}_output_0.pb").read_bytes())
    return model, inputs, numpy_helper.to_array(tensor)
