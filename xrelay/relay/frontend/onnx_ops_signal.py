"""Converters for ONNX's signal generators: Hann/Hamming/Blackman windows, MelWeightMatrix.

Their results depend only on their (scalar) inputs, which must be known at
import: each folds to a numpy array, computed in float64 as ONNX's reference
does and cast to `output_datatype` (default float32).
"""

from __future__ import annotations

import numpy as np

from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_registry import Array, Node, Result, converter


def _output_dtype(node: Node) -> str:
    code = node.int_attr("output_datatype", 1)
    dtype = relay_dtype(code)
    node.refuse(dtype is None, f"output_datatype {onnx_type_name(code)} is not supported")
    assert dtype is not None
    node.refuse(dtype == "bfloat16", "output_datatype BFLOAT16 is not supported yet")
    return dtype


def _scalar_int(node: Node, index: int, what: str) -> int:
    values = node.ints(index, what)
    node.refuse(len(values) != 1, f"{what} must be a single value, got {len(values)}")
    return values[0]


def _window(node: Node) -> tuple[Array, int]:
    """n = 0 .. size-1 (float64) and the period: size, or size - 1 when `periodic=0`."""
    size = _scalar_int(node, 0, "the window size")
    node.refuse(size < 0, f"negative window size {size}")
    period = size if node.int_attr("periodic", 1) else size - 1
    return np.arange(size, dtype=np.float64), period


def _cos(n: Array, multiple: float, period: int) -> Array:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.cos(n * (np.pi * multiple) / period)


@converter("HannWindow", 17)
def hann_window_v17(node: Node) -> Result:
    """HannWindow: sin^2(pi n / N)."""
    n, period = _window(node)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.sin(n * np.pi / period) ** 2
    return out.astype(_output_dtype(node))


@converter("HammingWindow", 17)
def hamming_window_v17(node: Node) -> Result:
    """HammingWindow: alpha - (1 - alpha) cos(2 pi n / N), alpha = 25/46 (ONNX's reference)."""
    n, period = _window(node)
    alpha = 25.0 / 46.0
    return (alpha - (1.0 - alpha) * _cos(n, 2, period)).astype(_output_dtype(node))


@converter("BlackmanWindow", 17)
def blackman_window_v17(node: Node) -> Result:
    """BlackmanWindow: 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)."""
    n, period = _window(node)
    out = -0.5 * _cos(n, 2, period) + 0.08 * _cos(n, 4, period) + 0.42
    return out.astype(_output_dtype(node))


@converter("MelWeightMatrix", 17)
def mel_weight_matrix_v17(node: Node) -> Result:
    """MelWeightMatrix: [dft_length // 2 + 1, num_mel_bins] triangular filters on the mel scale."""
    bins = _scalar_int(node, 0, "num_mel_bins")
    dft_length = _scalar_int(node, 1, "dft_length")
    sample_rate = _scalar_int(node, 2, "sample_rate")
    lower = float(node.const(3, "lower_edge_hertz").reshape(-1)[0])
    upper = float(node.const(4, "upper_edge_hertz").reshape(-1)[0])
    node.refuse(bins <= 0 or dft_length <= 0 or sample_rate <= 0, "sizes must be positive")
    spectrogram_bins = dft_length // 2 + 1
    low_mel = 2595.0 * np.log1p(lower / 700.0) / np.log(10.0)
    high_mel = 2595.0 * np.log1p(upper / 700.0) / np.log(10.0)
    step = (high_mel - low_mel) / (bins + 2)
    mels = np.arange(bins + 2, dtype=np.float64) * step + low_mel
    hertz = 700.0 * np.expm1(mels / 2595.0 * np.log(10.0))
    edges = [int(v) for v in ((dft_length + 1) * hertz) // sample_rate]
    node.refuse(
        any(not 0 <= e < spectrogram_bins for e in edges),
        f"the filter edges {edges} fall outside the {spectrogram_bins} spectrogram bins",
    )
    out = np.zeros((spectrogram_bins, bins), np.float64)
    for i in range(bins):
        left, center, right = edges[i], edges[i + 1], edges[i + 2]
        if center == left:
            out[center, i] = 1.0
        else:
            for j in range(left, center + 1):
                out[j, i] = (j - left) / (center - left)
        for j in range(center, right):
            out[j, i] = (right - j) / (right - center)
    return out.astype(_output_dtype(node))
