"""The light models shipped with onnx, imported and run against their reference outputs.

Inputs are ONNX's dummy data (`Runner.generate_dummy_data(input, seed=0,
random=False)`, as ONNX's runner makes them); rtol 1e-3, atol 1e-5, on the
interpreter and through `xrelay.build` for each target. AlexNet, Inception v1
and ZFNet-512 use LRN and join the list once its converter exists.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import numpy_helper
from onnx.backend.test.runner import Runner

import xrelay
from xrelay.relay.frontend import from_onnx

LIGHT = Path(onnx.__file__).parent / "backend" / "test" / "data" / "light"
MODELS = [
    "bvlc_alexnet",
    "densenet121",
    "inception_v1",
    "inception_v2",
    "resnet50",
    "shufflenet",
    "squeezenet",
    "vgg19",
    "zfnet512",
]
TARGETS = ["c", "accel,c", "dnnl,c"]


@functools.cache
def _load(name: str) -> tuple[xrelay.IRModule, dict[str, Any], list[Any], Any]:
    path = LIGHT / f"light_{name}.onnx"
    model = onnx.load(str(path))
    inits = {i.name for i in model.graph.initializer}
    inputs = [
        Runner.generate_dummy_data(i, seed=0, random=False)
        for i in model.graph.input
        if i.name not in inits
    ]
    expected = numpy_helper.to_array(onnx.load_tensor(str(LIGHT / f"light_{name}_output_0.pb")))
    mod, params = from_onnx(path)
    return mod, params, inputs, expected


@pytest.mark.parametrize("name", MODELS)
def test_light_model_on_the_interpreter(name: str) -> None:
    mod, params, inputs, expected = _load(name)
    out = xrelay.evaluate(mod, *inputs, *params.values())
    np.testing.assert_allclose(out, expected, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", MODELS)
def test_light_model_built(name: str, target: str) -> None:
    mod, params, inputs, expected = _load(name)
    lib = xrelay.build(mod, target=target.split(","), params=params)
    np.testing.assert_allclose(lib(*inputs), expected, rtol=1e-3, atol=1e-5)
