"""Build the tinyres network of `perf-anchors.md` with the Relay-style builder.

Writes `tinyres.mlir` (input 1x3x32x32, weights from `default_rng(0)`) and
checks that the text parses back to the same module:

    python examples/tinyres.py [output.mlir]
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import xrelay
from xrelay import IRModule, relay


def conv(x: relay.Expr, rng: np.random.Generator, cin: int, cout: int, name: str) -> relay.Expr:
    """3x3 convolution (padding 1) plus bias."""
    w = relay.const((rng.standard_normal((cout, cin, 3, 3)) * 0.1).astype("float32"))
    b = relay.const((rng.standard_normal(cout) * 0.1).astype("float32"))
    del name
    return relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1), channels=cout, kernel_size=3), b)


def tinyres(size: int = 32) -> IRModule:
    """conv+bn+relu, a residual block, pool, conv, pool, dense, softmax."""
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(1, 3, size, size))
    y = conv(x, rng, 3, 16, "conv0")
    gamma = relay.const(rng.random(16).astype("float32") + 0.5)
    beta = relay.const(rng.standard_normal(16).astype("float32") * 0.1)
    mean = relay.const(rng.standard_normal(16).astype("float32") * 0.1)
    var = relay.const(rng.random(16).astype("float32") + 0.5)
    y = relay.nn.relu(relay.nn.batch_norm(y, gamma, beta, mean, var, epsilon=1e-5)[0])
    block = relay.nn.relu(conv(y, rng, 16, 16, "conv1"))
    block = conv(block, rng, 16, 16, "conv2")
    y = relay.nn.relu(relay.add(block, y))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    y = relay.nn.relu(conv(y, rng, 16, 32, "conv3"))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    y = relay.nn.batch_flatten(y)
    features = 32 * (size // 4) * (size // 4)
    wd = relay.const((rng.standard_normal((10, features)) * 0.05).astype("float32"))
    bd = relay.const((rng.standard_normal(10) * 0.1).astype("float32"))
    y = relay.nn.softmax(relay.nn.bias_add(relay.nn.dense(y, wd, units=10), bd))
    return IRModule.from_expr(relay.Function([x], y))


def main() -> None:
    """Write the model's text and check it round-trips and runs."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("tinyres.mlir")
    mod = tinyres()
    text = str(mod)
    assert str(xrelay.parse(text)) == text
    probabilities = xrelay.evaluate(mod, np.ones((1, 3, 32, 32), "float32"))
    assert abs(float(probabilities.sum()) - 1.0) < 1e-5
    out.write_text(text)
    print(f"wrote {out} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
