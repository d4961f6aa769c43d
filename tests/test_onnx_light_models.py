"""The light models shipped with onnx, imported and run against their reference outputs.

Inputs are ONNX's dummy data (`Runner.generate_dummy_data(input, seed=0,
random=False)`, as ONNX's runner makes them); rtol 1e-3, atol 1e-5, on the
interpreter and through `xrelay.build` for each target. AlexNet, Inception v1
and ZFNet-512 use LRN and join the list once its converter exists.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay.relay.frontend import from_onnx
from xrelay.relay.frontend.onnx_light import LIGHT_MODELS, light_model

MODELS = list(LIGHT_MODELS)
TARGETS = ["c", "accel,c", "dnnl,c"]


@functools.cache
def _load(name: str) -> tuple[xrelay.IRModule, dict[str, Any], list[Any], Any]:
    model, inputs, expected = light_model(name)
    mod, params = from_onnx(model)
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
