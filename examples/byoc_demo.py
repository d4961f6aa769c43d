"""A small network for the BYOC pictures: conv-bias-relu blocks, a skip add, pools, a tanh.

Writes `byoc_demo.mlir` (weights from `default_rng(0)`). `tanh` is not in the
accel kernel set, so partitioning for accel cuts the graph in two regions:

    python examples/byoc_demo.py [output.mlir]
    xrelay-opt examples/byoc_demo.mlir -t dot | dot -Tpng -o docs/byoc_before.png
    xrelay-opt examples/byoc_demo.mlir -p 'partition-for{target=accel}' -t dot \\
        | dot -Tpng -o docs/byoc_partitioned.png
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from xrelay import IRModule, relay


def byoc_demo() -> IRModule:
    """conv-bias-relu x2 with a skip add, max pool, tanh, conv-relu, global average pool."""
    rng = np.random.default_rng(0)

    def const(*shape: int) -> relay.Expr:
        return relay.const(rng.standard_normal(shape).astype("float32"))

    def conv_bias_relu(x: relay.Expr, cin: int, cout: int, k: int) -> relay.Expr:
        y = relay.nn.conv2d(x, const(cout, cin, k, k), padding=(k // 2, k // 2))
        return relay.nn.relu(relay.nn.bias_add(y, const(cout)))

    x = relay.var("x", shape=(1, 3, 16, 16), dtype="float32")
    a = conv_bias_relu(x, 3, 8, 3)
    b = conv_bias_relu(a, 8, 8, 3)
    c = relay.nn.max_pool2d(relay.add(a, b), pool_size=(2, 2), strides=(2, 2))
    d = relay.tanh(c)  # not in the accel kernel set: stays on the host
    e = relay.nn.relu(relay.nn.conv2d(d, const(4, 8, 1, 1)))
    return IRModule.from_expr(relay.Function([x], relay.nn.global_avg_pool2d(e)))


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).with_name("byoc_demo.mlir"))
    out.write_text(str(byoc_demo()))
