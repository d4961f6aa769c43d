"""Differential test of BYOC: 200 generated graphs through `partition_for`, for each target.

Each graph of `testlib.graphs.random_graph(seed)` (seeds 0..199) is
partitioned for `accel`, for `dnnl` and for both (`["accel", "dnnl"]`) under
`PassContext(opt_level=3)`. After each run:

- the module verifies and `main` computes what it computed before (reference
  interpreter, which follows the calls into partitioned functions);
- no `compiler_begin`/`compiler_end` is left;
- every new function with `Compiler = "<t>"` is named
  `tvmgen_default_<t>_<caller>_<region id>` and carries `global_symbol` (its
  name), `Primitive = 1` and `Inline = 1`, and holds only what `<t>` takes:
  ops its predicates accept, its composites, tuples and constants;
- nothing `<t>` takes is left outside its functions (partitioning is complete);
- functions that had `Compiler` before are left as they were.
"""

from __future__ import annotations

import re

import pytest
from testlib.graphs import random_graph
from testlib.numerics import assert_same_numerics
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Operation
from xrelay.passes.byoc_registry import op_supported
from xrelay.passes.partition_for import partition_for

from xrelay import IRModule, transform

SEEDS = 200
CHUNKS = 4
MAX_OPS = 30
RTOL, ATOL = 1e-4, 1e-5
TARGETS: tuple[tuple[str, ...], ...] = (("accel",), ("dnnl",), ("accel", "dnnl"))

STRUCTURAL = frozenset({"relay.tuple", "relay.tuple_get_item", "relay.constant"})


def functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in mod.module.ops if isinstance(op, func.FuncOp)}


def compiler_of(function: func.FuncOp) -> str | None:
    attr = function.attributes.get("Compiler")
    return attr.data if isinstance(attr, StringAttr) else None


def top_level_ops(function: func.FuncOp) -> list[Operation]:
    """Ops of the function and of nested `relay.if` regions, not inside composites."""
    out: list[Operation] = []
    stack = list(function.body.blocks)
    while stack:
        block = stack.pop()
        for op in block.ops:
            out.append(op)
            if op.name != "relay.composite":
                for region in op.regions:
                    stack.extend(region.blocks)
    return out


def takes(op: Operation, target: str) -> bool:
    """Whether `target` takes `op` as a single op or a composite."""
    if op.name == "relay.composite":
        return op.properties["composite"] == StringAttr(f"{target}.{_suffix(op)}")
    return len(op.results) == 1 and op_supported(op.results[0], target)


def _suffix(op: Operation) -> str:
    name = op.properties["composite"]
    assert isinstance(name, StringAttr)
    return name.data.split(".", 1)[1] if "." in name.data else ""


def check_partitioned(before: IRModule, after: IRModule, targets: tuple[str, ...]) -> None:
    after.module.verify()
    assert_same_numerics(before, after, seeds=(0,), rtol=RTOL, atol=ATOL)
    old = functions(before)
    for name, function in functions(after).items():
        for op in top_level_ops(function):
            assert op.name not in ("relay.compiler_begin", "relay.compiler_end"), (
                f"@{name} still has {op.name}"
            )
        target = compiler_of(function)
        if name in old:
            if compiler_of(old[name]) is not None:
                assert str(function) == str(old[name]), f"@{name} has Compiler but was changed"
                continue
            for op in top_level_ops(function):  # host code: nothing a target takes is left
                for t in targets:
                    assert not takes(op, t), f"@{name} keeps {op.name}, which '{t}' takes"
            continue
        assert target in targets, f"new function @{name} has Compiler {target!r}"
        assert re.fullmatch(rf"tvmgen_default_{target}_\w+_\d+", name), name
        assert function.attributes["global_symbol"] == StringAttr(name)
        for key in ("Primitive", "Inline"):
            attr = function.attributes[key]
            assert isinstance(attr, IntegerAttr), f"@{name} {key}"
            assert attr.value.data == 1, f"@{name} {key}"
        for op in top_level_ops(function):
            if op.name in STRUCTURAL or op.name == "func.return":
                continue
            assert takes(op, target), f"@{name} ({target}) holds {op.name}"


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_partition_for_keeps_numerics_and_partitions_completely(chunk: int) -> None:
    failures: list[str] = []
    for seed in range(chunk * SEEDS // CHUNKS, (chunk + 1) * SEEDS // CHUNKS):
        original = random_graph(seed, MAX_OPS)
        for targets in TARGETS:
            try:
                with transform.PassContext(opt_level=3):
                    out = partition_for(original.clone(), list(targets))
                check_partitioned(original, out, targets)
            except Exception as error:
                lines = f"{type(error).__name__}: {error}".splitlines()
                failures.append(f"seed {seed}, targets {','.join(targets)}: " + lines[0])
    assert not failures, (
        f"{len(failures)} failures:\n  "
        + "\n  ".join(failures[:20])
        + "\nreproduce: python -c 'from testlib.graphs import random_graph; "
        "print(random_graph(SEED, 30))' > g.mlir; "
        "xrelay-opt g.mlir -p 'partition-for{target=TARGETS}' --verify-numerics"
    )


def test_partitioning_offloads_something() -> None:
    """The generated graphs are not all host-only: most get at least one partition."""
    partitioned = 0
    for seed in range(40):
        mod = random_graph(seed, MAX_OPS)
        with transform.PassContext(opt_level=3):
            out = partition_for(mod, "accel")
        if any(n.startswith("tvmgen_default_accel_") for n in functions(out)):
            partitioned += 1
    assert partitioned >= 30, f"only {partitioned} of 40 graphs got an accel partition"
