"""ONNX LRN, InstanceNormalization and GroupNormalization on `relay.nn` ops.

LRN is compared with the spec's formula written out here (ONNX's ReferenceEvaluator
sums the wrong window when the batch is smaller than the channel count).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from onnx import helper
from testlib.onnx_nodes import node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

Array = npt.NDArray[Any]
RNG = np.random.default_rng(15)


def _lrn_spec(x: Array, size: int, alpha: float, beta: float, bias: float) -> Array:
    """ONNX's LRN: channels c - floor((size-1)/2) .. c + ceil((size-1)/2) that exist."""
    channels = x.shape[1]
    out = np.empty_like(x)
    for c in range(channels):
        lo = max(0, c - (size - 1) // 2)
        hi = min(channels - 1, c + -(-(size - 1) // 2))
        square_sum = (x[:, lo : hi + 1].astype(np.float64) ** 2).sum(axis=1)
        out[:, c] = x[:, c] / (bias + alpha / size * square_sum) ** beta
    return out


def _run(node: Any, inputs: dict[str, Array], opset: int, target: str | None) -> Any:
    mod, params = from_onnx(node_model(node, inputs, opset))
    args = [*inputs.values(), *params.values()]
    if target is None:
        return xrelay.evaluate(mod, *args)
    return xrelay.build(mod, target=target)(*args)


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize(
    ("shape", "size"), [((1, 7, 3, 3), 3), ((2, 5, 4), 4), ((1, 3, 2, 2, 2), 5), ((3, 6), 1)]
)
def test_lrn_matches_the_spec(shape: tuple[int, ...], size: int, target: str | None) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    node = helper.make_node("LRN", ["x"], ["y"], size=size, alpha=2e-2, beta=0.6, bias=1.5)
    got = _run(node, {"x": x}, 13, target)
    assert got.dtype == np.float32
    assert got.shape == x.shape
    np.testing.assert_allclose(got, _lrn_spec(x, size, 2e-2, 0.6, 1.5), rtol=1e-5, atol=1e-6)


def test_lrn_defaults() -> None:
    x = RNG.standard_normal((1, 4, 2, 2)).astype(np.float32)
    node = helper.make_node("LRN", ["x"], ["y"], size=3)
    got = _run(node, {"x": x}, 1, None)
    np.testing.assert_allclose(got, _lrn_spec(x, 3, 1e-4, 0.75, 1.0), rtol=1e-5, atol=1e-6)


def test_lrn_refuses_integers_by_name() -> None:
    x = np.ones((1, 3, 2, 2), np.int32)
    node = helper.make_node("LRN", ["x"], ["y"], size=3, name="norm1")
    with pytest.raises(OnnxImportError, match=r"node 'norm1' \(LRN\): .*int32; floats only"):
        from_onnx(node_model(node, {"x": x}, 13))
