"""The relay dialect: TVM Relay's tensor ops with TVM's names and attributes.

One `Dialect` object, `RELAY`, collects the op groups defined in the sibling
modules (`elementwise`, `elementwise_math`, `nn`, `nn_pool`, `tensor`, `reduce`,
`creation`, `structure`, `nn_conv`, `image`).
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xrelay.dialects.relay import (
    creation,
    elementwise,
    elementwise_math,
    image,
    nn,
    nn_conv,
    nn_pool,
    reduce,
    structure,
    tensor,
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
        *nn_conv.OPS,
        *nn_pool.OPS_ND,
        *image.OPS,
    ],
    [],
)
