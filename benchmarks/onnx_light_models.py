"""ONNX's nine light models through xrelay: import time, build time and who takes the FLOPs.

For each model shipped in `onnx/backend/test/data/light/`: the seconds to load
and import it (`from_onnx`), then for each target (`c`, `accel,c`, `dnnl,c`)
the seconds `xrelay.build` takes with an empty build cache, and the share of
the model's FLOPs (2 x MACs of conv2d, dense, matmul and batch_matmul) that
lands in each BYOC target's partitions after `partition_for` (the rest runs on
the host C). Every built model's output is checked against the reference
output shipped beside it (rtol 1e-3, atol 1e-5).

    python benchmarks/onnx_light_models.py [--models resnet50,vgg19] [--targets c,accel,c]
"""

from __future__ import annotations

import argparse
import math
import tempfile
import time
from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Operation
from xrelay.dialects.relay.types import TensorType

import xrelay
from xrelay.relay.frontend import from_onnx
from xrelay.relay.frontend.onnx_light import LIGHT_MODELS, light_model

MODELS = LIGHT_MODELS
TARGETS = ("c", "accel,c", "dnnl,c")
MAC_OPS = ("relay.nn.conv2d", "relay.nn.dense", "relay.matmul", "relay.nn.batch_matmul")


def _shape(op: Operation, index: int, result: bool = False) -> tuple[int, ...]:
    value = op.results[index] if result else op.operands[index]
    type_ = value.type
    assert isinstance(type_, TensorType)
    return tuple(int(d) for d in type_.get_shape())


def flops(op: Operation) -> int:
    """2 x the multiply-adds of a conv2d, dense, matmul or batch_matmul; 0 for other ops."""
    if op.name not in MAC_OPS:
        return 0
    out = _shape(op, 0, result=True)
    weight = _shape(op, 1)
    if op.name == "relay.nn.conv2d":
        attr = op.properties.get("kernel_layout")
        layout = attr.data if isinstance(attr, StringAttr) else "OIHW"
        layout = layout if len(layout) == len(weight) else "OIHW"
        per_output = math.prod(weight) // weight[layout.index("O")]
    else:
        a = _shape(op, 0)
        flag = op.properties.get("transpose_a")
        transposed = isinstance(flag, IntegerAttr) and flag.value.data != 0
        per_output = a[-2] if transposed else a[-1]
    return 2 * math.prod(out) * per_output


def flop_shares(
    mod: xrelay.IRModule, params: Mapping[str, npt.ArrayLike], target: str
) -> dict[str, float]:
    """Share of the FLOPs in each target's partitions (and `host`) after partition_for."""
    from xrelay.codegen.c.build_steps import partition_steps
    from xrelay.passes.partition_for import bind_params_by_name

    targets = [t for t in target.split(",") if t != "c"]
    lowered = mod.clone()
    bind_params_by_name(lowered, params)
    for step in partition_steps(targets, 3):
        lowered = step.run(lowered)
    totals: dict[str, int] = {}
    for function in lowered.module.ops:
        if not isinstance(function, func.FuncOp):
            continue
        compiler = function.attributes.get("Compiler")
        owner = str(compiler).strip('"') if compiler is not None else "host"
        count = sum(flops(op) for op in function.walk())
        totals[owner] = totals.get(owner, 0) + count
    whole = sum(totals.values()) or 1
    return {owner: n / whole for owner, n in totals.items()}


def main(argv: Sequence[str] | None = None) -> None:
    """Print one Markdown row per model and target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--targets", default=";".join(TARGETS), help="';'-separated")
    args = parser.parse_args(argv)
    print("| model | nodes | GFLOP | import s | target | build s | FLOPs taken | output |")
    print("|---|---:|---:|---:|---|---:|---|---|")
    for name in args.models.split(","):
        model, inputs, expected = light_model(name)
        start = time.perf_counter()
        mod, params = from_onnx(model)
        imported = time.perf_counter() - start
        total = sum(flops(op) for op in mod.module.walk()) / 1e9
        for target in args.targets.split(";"):
            shares = flop_shares(mod, params, target)
            with tempfile.TemporaryDirectory() as cache:
                start = time.perf_counter()
                lib = xrelay.build(
                    mod, target=target.split(","), params=params, options={"cache_dir": cache}
                )
                built = time.perf_counter() - start
                good = np.allclose(lib(*inputs), expected, rtol=1e-3, atol=1e-5)
            taken = ", ".join(
                f"{owner} {100 * share:.1f}%" for owner, share in sorted(shares.items())
            )
            print(
                f"| {name} | {len(model.graph.node)} | {total:.2f} | {imported:.2f} | "
                f"`{target}` | {built:.1f} | {taken} | {'matches' if good else 'WRONG'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
