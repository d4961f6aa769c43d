"""Imports every converter module, so their `@converter`s register."""

from __future__ import annotations

from xrelay.relay.frontend import (  # noqa: F401
    onnx_ops_math,
    onnx_ops_nn,
    onnx_ops_reduce,
    onnx_ops_shape,
    onnx_ops_tensor,
)
