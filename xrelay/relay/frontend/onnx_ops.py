"""The converter modules: importing this module registers every converter."""

from __future__ import annotations

from types import ModuleType

from xrelay.relay.frontend import (
    onnx_ops_algorithm,
    onnx_ops_attention,
    onnx_ops_control,
    onnx_ops_conv_nd,
    onnx_ops_dft,
    onnx_ops_image,
    onnx_ops_indexing,
    onnx_ops_loss,
    onnx_ops_math,
    onnx_ops_movement,
    onnx_ops_nn,
    onnx_ops_norm,
    onnx_ops_norm_nn,
    onnx_ops_quant,
    onnx_ops_recurrent,
    onnx_ops_reduce,
    onnx_ops_resize,
    onnx_ops_rnn,
    onnx_ops_scan,
    onnx_ops_select,
    onnx_ops_shape,
    onnx_ops_signal,
    onnx_ops_tensor,
    onnx_ops_transformer,
)

MODULES: tuple[ModuleType, ...] = (
    onnx_ops_math,
    onnx_ops_nn,
    onnx_ops_reduce,
    onnx_ops_shape,
    onnx_ops_tensor,
    onnx_ops_attention,
    onnx_ops_loss,
    onnx_ops_norm,
    onnx_ops_transformer,
    onnx_ops_recurrent,
    onnx_ops_indexing,
    onnx_ops_movement,
    onnx_ops_scan,
    onnx_ops_algorithm,
    onnx_ops_quant,
    onnx_ops_signal,
    onnx_ops_select,
    onnx_ops_image,
    onnx_ops_dft,
    onnx_ops_rnn,
    onnx_ops_control,
    onnx_ops_norm_nn,
    onnx_ops_resize,
    onnx_ops_conv_nd,
    onnx_ops_resize,
)
"""Every module whose `@converter`s fill the registry."""
