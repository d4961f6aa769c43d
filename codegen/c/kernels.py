"""The C target's op printers, by op name: every relay op that is neither elementwise (those
are fused, `scalar_ops.py`) nor an alias (reshape-like ops, tuples: no code)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from xrelay.codegen.c import kernels_algorithm as algorithm
from xrelay.codegen.c import kernels_conv as conv
from xrelay.codegen.c import kernels_conv2d as conv2d
from xrelay.codegen.c import kernels_deformable_conv as deformable_conv
from xrelay.codegen.c import kernels_einsum as einsum
from xrelay.codegen.c import kernels_gemm as gemm
from xrelay.codegen.c import kernels_image as image
from xrelay.codegen.c import kernels_image_sample as image_sample
from xrelay.codegen.c import kernels_like_ops as like_ops
from xrelay.codegen.c import kernels_nn as nn
from xrelay.codegen.c import kernels_nn_extra as nn_extra
from xrelay.codegen.c import kernels_nn_norm as nn_norm
from xrelay.codegen.c import kernels_pool2d as pool2d
from xrelay.codegen.c import kernels_reduce as reduce
from xrelay.codegen.c import kernels_slice_like as slice_like
from xrelay.codegen.c import kernels_space_batch as space_batch
from xrelay.codegen.c import kernels_sparse_to_dense as sparse_to_dense
from xrelay.codegen.c import kernels_stack_repeat as stack_repeat
from xrelay.codegen.c import kernels_tensor as tensor
from xrelay.codegen.c import kernels_upsampling as upsampling
from xrelay.codegen.c import kernels_vision as vision
from xrelay.codegen.c import kernels_vision_rcnn as vision_rcnn
from xrelay.codegen.c.kernel_api import KernelFn
from xrelay.codegen.c.kernels_dyn import DYN_KERNELS
from xrelay.codegen.c.kernels_movement import MOVEMENT_KERNELS

KERNELS: Mapping[str, KernelFn] = MappingProxyType(
    {
        "relay.nn.conv2d": conv2d.conv2d,
        "relay.nn.dense": gemm.dense,
        "relay.nn.max_pool2d": pool2d.pool2d,
        "relay.nn.avg_pool2d": pool2d.pool2d,
        "relay.nn.global_max_pool2d": pool2d.global_pool2d,
        "relay.nn.global_avg_pool2d": pool2d.global_pool2d,
        "relay.nn.softmax": nn.softmax,
        "relay.nn.log_softmax": nn.softmax,
        "relay.nn.batch_norm": nn.batch_norm,
        "relay.nn.dropout": nn.dropout,
        "relay.nn.pad": tensor.pad,
        "relay.transpose": tensor.transpose,
        "relay.concatenate": tensor.concatenate,
        "relay.split": tensor.split,
        "relay.layout_transform": tensor.layout_transform,
        "relay.strided_slice": tensor.strided_slice,
        "relay.take": tensor.take,
        "relay.compiler_begin": tensor.copy,
        "relay.compiler_end": tensor.copy,
        "relay.sum": reduce.reduce,
        "relay.mean": reduce.reduce,
        "relay.max": reduce.reduce,
        "relay.min": reduce.reduce,
        "relay.prod": reduce.reduce,
        "relay.argmax": reduce.reduce,
        "relay.argmin": reduce.reduce,
        "relay.matmul": gemm.matmul,
        "relay.topk": algorithm.topk,
        "relay.argsort": algorithm.argsort,
        "relay.sort": algorithm.sort,
        "relay.einsum": einsum.einsum,
        "relay.vision.all_class_non_max_suppression": vision.all_class_non_max_suppression,
        **MOVEMENT_KERNELS,
        "relay.nn.lrn": nn_norm.lrn,
        "relay.nn.batch_matmul": gemm.batch_matmul,
        "relay.nn.layer_norm": nn_norm.norm,
        "relay.nn.instance_norm": nn_norm.norm,
        "relay.nn.group_norm": nn_norm.norm,
        "relay.nn.l2_normalize": nn_norm.l2_normalize,
        "relay.nn.adaptive_avg_pool2d": nn_extra.adaptive_pool2d,
        "relay.nn.adaptive_max_pool2d": nn_extra.adaptive_pool2d,
        "relay.nn.conv1d": conv.conv,
        "relay.nn.conv3d": conv.conv,
        "relay.nn.conv1d_transpose": conv.conv_transpose,
        "relay.nn.conv2d_transpose": conv.conv_transpose,
        "relay.nn.conv3d_transpose": conv.conv_transpose,
        "relay.nn.max_pool1d": conv.pool,
        "relay.nn.avg_pool1d": conv.pool,
        "relay.nn.max_pool3d": conv.pool,
        "relay.nn.avg_pool3d": conv.pool,
        "relay.image.resize2d": image.resize,
        "relay.image.grid_sample": image_sample.grid_sample,
        "relay.nn.upsampling": upsampling.upsampling,
        "relay.slice_like": slice_like.slice_like,
        "relay.nn.deformable_conv2d": deformable_conv.deformable_conv2d,
        "relay.nn.contrib_conv2d_NCHWc": conv.conv,
        "relay.stack": stack_repeat.stack,
        "relay.repeat": stack_repeat.repeat,
        "relay.nn.fast_softmax": nn.softmax,
        "relay.broadcast_to_like": MOVEMENT_KERNELS["relay.broadcast_to"],
        "relay.collapse_sum_like": like_ops.collapse_sum,
        "relay.collapse_sum_to": like_ops.collapse_sum,
        "relay.nn.space_to_batch_nd": space_batch.space_to_batch_nd,
        "relay.nn.batch_to_space_nd": space_batch.batch_to_space_nd,
        **DYN_KERNELS,
        "relay.sparse_to_dense": sparse_to_dense.sparse_to_dense,
        "relay.vision.roi_align": vision_rcnn.roi_align,
        "relay.vision.roi_pool": vision_rcnn.roi_pool,
        "relay.image.resize1d": image.resize,
        "relay.image.resize3d": image.resize,
        "relay.annotation.stop_fusion": tensor.copy,
    }
)
"""Op name -> printer of the op's loop nests."""
