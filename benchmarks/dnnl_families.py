"""What `["dnnl", "c"]` takes of two of issue 16's model families, and how fast they run.

A MobileNetV2-style block (1x1 expand, ReLU6, 3x3 depthwise, ReLU6, 1x1 project, residual;
112x112, 32 -> 192 -> 32 channels) and a transformer encoder block (seq 128, hidden 256,
4 heads, FFN 1024, GELU by erf, post-norm), seeded weights. For each: the relay ops left on
the host after lowering, and the median run time at 1 thread (warm-up, then `--runs`):

    python benchmarks/dnnl_families.py [--runs 20] [--target dnnl,c]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def _const(rng: np.random.Generator, *shape: int, scale: float = 0.1) -> relay.Expr:
    return relay.const((rng.standard_normal(shape) * scale).astype("float32"))


def mobilenet_block(size: int = 112, channels: int = 32, expand: int = 6) -> IRModule:
    """x + project(relu6(depthwise(relu6(expand(x))))), NCHW as a user writes it."""
    rng = np.random.default_rng(0)
    hidden = channels * expand
    x = relay.var("x", shape=(1, channels, size, size))

    def conv(y: relay.Expr, cin: int, cout: int, k: int, groups: int = 1) -> relay.Expr:
        w = _const(rng, cout, cin // groups, k, k)
        y = relay.nn.conv2d(y, w, padding=(k // 2, k // 2), groups=groups, channels=cout,
                            kernel_size=k)  # fmt: skip
        return relay.nn.bias_add(y, _const(rng, cout))

    y = relay.clip(conv(x, channels, hidden, 1), 0.0, 6.0)
    y = relay.clip(conv(y, hidden, hidden, 3, groups=hidden), 0.0, 6.0)
    y = relay.add(conv(y, hidden, channels, 1), x)
    return IRModule.from_expr(relay.Function([x], y))


def encoder_block(seq: int = 128, hidden: int = 256, heads: int = 4, ffn: int = 1024) -> IRModule:
    """Multi-head self-attention and an erf-GELU FFN, each with a residual and a layer norm."""
    rng = np.random.default_rng(0)
    head = hidden // heads
    x = relay.var("x", shape=(seq, hidden))

    def dense(y: relay.Expr, units: int, depth: int) -> relay.Expr:
        return relay.nn.bias_add(relay.nn.dense(y, _const(rng, units, depth)), _const(rng, units))

    def split(y: relay.Expr) -> relay.Expr:  # (seq, hidden) -> (heads, seq, head)
        return relay.transpose(relay.reshape(y, (seq, heads, head)), (1, 0, 2))

    def norm(y: relay.Expr) -> relay.Expr:
        gamma = relay.const((1 + rng.standard_normal(hidden) * 0.1).astype("float32"))
        return relay.nn.layer_norm(y, gamma, _const(rng, hidden))

    q, k, v = (split(dense(x, hidden, hidden)) for _ in range(3))
    scores = relay.multiply(relay.nn.batch_matmul(q, k), relay.const(np.float32(head**-0.5)))
    attention = relay.nn.softmax(scores)
    context = relay.nn.batch_matmul(attention, relay.transpose(v, (0, 2, 1)))
    context = relay.reshape(relay.transpose(context, (1, 0, 2)), (seq, hidden))
    y = norm(relay.add(dense(context, hidden, hidden), x))
    inner = dense(y, ffn, hidden)
    half = relay.const(np.float32(0.5))
    root = relay.const(np.float32(2**-0.5))
    gelu = relay.multiply(relay.multiply(inner, half),
                          relay.add(relay.erf(relay.multiply(inner, root)),
                                    relay.const(np.float32(1.0))))  # fmt: skip
    out = norm(relay.add(dense(gelu, hidden, ffn), y))
    return IRModule.from_expr(relay.Function([x], out))


MODELS: dict[str, tuple[Callable[[], IRModule], tuple[int, ...]]] = {
    "mobilenetv2 block": (mobilenet_block, (1, 32, 112, 112)),
    "transformer encoder": (encoder_block, (128, 256)),
}


def host_ops(lib: Any) -> Counter[str]:
    """The relay ops of the lowered module outside the BYOC functions."""
    ops: Counter[str] = Counter()
    for function in lib.module.module.ops:
        if "Compiler" in function.attributes:
            continue
        for op in function.walk():
            if op.name.startswith("relay.") and op.name not in ("relay.constant",):
                ops[op.name.removeprefix("relay.")] += 1
    return ops


def main() -> None:
    """Build, check and time each model."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--target", default="dnnl,c")
    args = parser.parse_args()
    target = args.target.split(",")
    for name, (make, shape) in MODELS.items():
        mod = make()
        x = np.random.default_rng(1).standard_normal(shape).astype("float32")
        with tempfile.TemporaryDirectory() as cache:
            lib = xrelay.build(mod, target, options={"num_threads": 1, "cache_dir": cache})
            got = lib(x)
            want = np.asarray(xrelay.evaluate(mod, x))
            error = float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
            lib(x)
            times: list[float] = []
            for _ in range(args.runs):
                start = time.perf_counter()
                lib(x)
                times.append(time.perf_counter() - start)
        left = ", ".join(f"{op} x{n}" for op, n in sorted(host_ops(lib).items())) or "none"
        print(f"{name}: {statistics.median(times) * 1e3:.3f} ms median of {args.runs} "
              f"(max scaled error {error:.1e}); on the host: {left}")  # fmt: skip


if __name__ == "__main__":
    main()
