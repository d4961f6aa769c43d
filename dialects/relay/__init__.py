"""The relay dialect: TVM Relay's tensor ops with TVM's names and attributes.

One `Dialect` object, `RELAY`, collects the op groups defined in the sibling
modules (`elementwise`, `elementwise_math`, `nn`, `tensor`, `reduce`, `creation`,
`structure`, `algorithm`, `einsum`, `vision`).
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xrelay.dialects.relay import (
    algorithm,
    creation,
    einsum,
    elementwise,
    elementwise_math,
    nn,
    nn_pool,
    reduce,
    structure,
    tensor,
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
    ],
    [],
)
