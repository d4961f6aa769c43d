"""How BYOC partitioning scales: each step of `partition_for` on growing graphs.

Two graph families, built with the Python builder:

- `resnet_like(N)`: a chain of residual blocks (conv2d + bias_add + relu,
  conv2d + bias_add, add, relu) with host-only ops between them (tanh,
  reshape pairs, a pool with padding the accelerator does not take), about N
  ops; for `accel` this makes many small regions alternating with host code.
- `densenet_like(L)`: L layers, each `concatenate` of every earlier layer's
  output (host) then conv2d + bias_add + relu (accel): L²/2 skip edges, the
  shape on which TVM's MergeCompilerRegions once hung (apache/tvm#5195, #5227).

Each step (InferType, MergeComposite, AnnotateTarget, MergeCompilerRegions,
PartitionGraph) runs as its own pass on the previous step's output, under
`PassContext(opt_level=3)` with `transform.transactional=False` so that the
passes' own cost is measured; the graph is built once per size and cloned
outside the timed region. Prints ms per step, µs per op and µs per operand
(an edge of the graph; flat across sizes = linear: the DenseNet-like graph has
L²/2 operands for 4L ops). The result is checked: it verifies, and for the smallest size the
interpreter gives the same numbers before and after.

Run: `python benchmarks/partition_scaling.py [--sizes 1000 10000] [--layers 50 100 200]`.
"""

from __future__ import annotations

import argparse
import gc
import time

import numpy as np
from xdsl.dialects import func
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.passes.adapters import get_pass, to_pass
from xrelay.passes.annotate_target import AnnotateTargetPass
from xrelay.passes.merge_composite import MergeCompositePass
from xrelay.passes.partition_graph import PartitionGraphPass

from xrelay import IRModule, relay, transform

TARGET = "accel"


def _const(rng: np.random.Generator, shape: tuple[int, ...]) -> relay.Constant:
    return relay.const((rng.standard_normal(shape) * 0.3).astype("float32"))


def _conv_bias(rng: np.random.Generator, x: relay.Expr, cin: int, cout: int) -> relay.Expr:
    y = relay.nn.conv2d(x, _const(rng, (cout, cin, 1, 1)), channels=cout, kernel_size=(1, 1))
    return relay.nn.bias_add(y, _const(rng, (cout,)))


def resnet_like(n_ops: int) -> tuple[IRModule, int]:
    """About `n_ops` ops of residual blocks with host ops between them; (module, op count)."""
    rng = np.random.default_rng(0)
    c = 4
    x = relay.var("x", shape=(1, c, 4, 4))
    y: relay.Expr = x
    ops = 0
    while ops < n_ops:
        a = relay.nn.relu(_conv_bias(rng, y, c, c))
        b = _conv_bias(rng, a, c, c)
        y = relay.nn.relu(relay.add(b, y))  # 8 ops: accel
        y = relay.tanh(y)  # host
        y = relay.reshape(relay.reshape(y, (1, c * 16)), (1, c, 4, 4))  # host
        y = relay.nn.avg_pool2d(y, pool_size=(3, 3), padding=(1, 1), layout="NHWC")
        y = relay.nn.max_pool2d(y, pool_size=(1, 1))  # accel
        ops += 13
    return IRModule.from_expr(relay.Function([x], y)), ops


def densenet_like(layers: int) -> tuple[IRModule, int]:
    """`layers` densely connected layers: concatenate (host) -> conv + bias + relu (accel)."""
    rng = np.random.default_rng(0)
    growth = 2
    x = relay.var("x", shape=(1, growth, 4, 4))
    outputs: list[relay.Expr] = [x]
    ops = 0
    for _ in range(layers):
        merged = relay.concatenate(outputs, 1) if len(outputs) > 1 else outputs[0]
        y = relay.nn.relu(_conv_bias(rng, merged, growth * len(outputs), growth))
        outputs.append(y)
        ops += 4
    return IRModule.from_expr(relay.Function([x], outputs[-1])), ops


def steps() -> list[tuple[str, transform.Pass]]:
    """partition_for's steps for the accel target, as separate passes."""
    return [
        ("InferType", get_pass("InferType")),
        ("MergeComposite", to_pass(MergeCompositePass(pattern_table=TARGET))),
        ("AnnotateTarget", to_pass(AnnotateTargetPass(targets=(TARGET,)))),
        ("MergeCompilerRegions", get_pass("MergeCompilerRegions")),
        ("PartitionGraph", to_pass(PartitionGraphPass())),
    ]


def run_steps(base: IRModule) -> tuple[dict[str, float], IRModule]:
    """Seconds per step, and the partitioned module."""
    mod = base.clone()
    times: dict[str, float] = {}
    with transform.PassContext(opt_level=3, config={"transform.transactional": False}):
        for name, pass_ in steps():
            gc.collect()
            start = time.perf_counter()
            mod = pass_(mod)
            times[name] = time.perf_counter() - start
    return times, mod


def measure(label: str, base: IRModule, n_ops: int, repeat: int, check: bool) -> None:
    """Print one table row: best time per step over `repeat` runs; check the result."""
    best: dict[str, float] = {}
    out = base
    for _ in range(repeat):
        times, out = run_steps(base)
        for name, seconds in times.items():
            best[name] = min(best.get(name, seconds), seconds)
    out.module.verify()
    partitions = sum(
        1 for op in out.module.ops if isinstance(op, func.FuncOp) and "Compiler" in op.attributes
    )
    if check:
        main = next(
            f for f in base.module.ops if isinstance(f, func.FuncOp) and f.sym_name.data == "main"
        )
        inputs = random_inputs(main, 0)
        expected = evaluate_module(base.module, inputs)
        actual = evaluate_module(out.module, inputs)
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)
    total = sum(best.values())
    edges = sum(len(op.operands) for op in base.module.walk() if op.name.startswith("relay."))
    cells = " | ".join(f"{best[name] * 1e3:.0f}" for name, _ in steps())
    print(
        f"| {label} | {n_ops} | {edges} | {partitions} | {cells} | {total * 1e3:.0f} | "
        f"{total / n_ops * 1e6:.0f} | {total / edges * 1e6:.0f} |"
    )


def main() -> None:
    """Print the table for the sizes asked for."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--layers", type=int, nargs="+", default=[50, 100, 200])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    names = " | ".join(f"{name} ms" for name, _ in steps())
    print(f"| graph | ops | operands | partitions | {names} | total ms | µs/op | µs/operand |")
    print("| --- " * (7 + len(steps())) + "|")
    for index, size in enumerate(args.sizes):
        mod, n_ops = resnet_like(size)
        measure(f"resnet-like {size}", mod, n_ops, args.repeat, check=index == 0)
    for index, layers in enumerate(args.layers):
        mod, n_ops = densenet_like(layers)
        measure(f"densenet-like L={layers}", mod, n_ops, args.repeat, check=index == 0)


if __name__ == "__main__":
    main()
