"""The relay dialect: TVM Relay's tensor ops with TVM's names and attributes.

One `Dialect` object, `RELAY`, collects the op groups defined in the sibling
modules (`elementwise`, `elementwise_math`, `nn`, `nn_pool`, `nn_conv`, `nn_norm`,
`nn_extra`, `tensor`, `reduce`, `creation`, `structure`, `algorithm`, `einsum`, `vision`,
`movement`, `indexing`, `scan`, `image`).
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xrelay.dialects.relay import (
    algorithm,
    creation,
    deformable_conv,
    dyn,
    einsum,
    elementwise,
    elementwise_math,
    image,
    image_sample,
    indexing,
    movement,
    nn,
    nn_conv,
    nn_extra,
    nn_norm,
    nn_pool,
    reduce,
    reverse_reshape,
    scan,
    slice_like,
    sparse_to_dense,
    structure,
    tensor,
    upsampling,
    vision,
)

RELAY = Dialect(
    "relay",
    [
        *structure.OPS,
        *elementwise.OPS,
        *elementwise_math.OPS,
        *nn.OPS,
        *nn_pool.OPS,
        *tensor.OPS,
        *reduce.OPS,
        *creation.OPS,
        *algorithm.OPS,
        *einsum.OPS,
        *vision.OPS,
        *movement.OPS,
        *indexing.OPS,
        *scan.OPS,
        *nn_norm.OPS,
        *nn_extra.OPS,
        *nn_conv.OPS,
        *nn_pool.OPS_ND,
        *image.OPS,
        *image_sample.OPS,
        *upsampling.OPS,
        *slice_like.OPS,
        *reverse_reshape.OPS,
        *deformable_conv.OPS,
        *dyn.OPS,
        *sparse_to_dense.OPS,
    ],
    [],
)
