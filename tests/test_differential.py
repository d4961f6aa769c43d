"""Differential tests: every xrelay pass keeps 200 generated graphs valid and computing the same.

For each graph of `testlib.graphs.random_graph(seed)` (seeds 0..199) and each
of xrelay's own registered passes (the registry entries whose class lives in
`xrelay.passes.*`, `print-ir` aside), the pass runs alone under
`PassContext(opt_level=3)`; then all of them (but the BYOC steps that leave a
module half-partitioned, see BYOC_STEPS) run as one `Sequential`, in registry
order, at opt levels 0 to 3. After each run the module must verify
and `main` must compute what it computed before (reference interpreter,
seeded random inputs, rtol 1e-4, atol 1e-5); functions with a `Compiler`
attribute (partitioned for an external codegen) must be left as they were.

The passes are read from the registry when the tests run, so the file
adapts to what is registered; with none, it still checks that the generator
makes valid graphs that evaluate to finite values. Seeds are checked in
chunks (one test per chunk) rather than one test per seed and pass, and a
chunk reports every failing (seed, pass) with the module text before the
first failure and the command that reproduces it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from testlib.graphs import random_graph
from testlib.numerics import assert_same_numerics
from xdsl.dialects import func
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.dialects.parser import make_context
from xrelay.passes import RegisteredPass, registered_passes

from xrelay import IRModule, transform

SEEDS = 120
CHUNKS = 8
MAX_OPS = 30
RTOL, ATOL = 1e-4, 1e-5
OPT_LEVELS = (0, 1, 2, 3)

SKIPPED = {"print-ir", "convert-relay-to-accel", "plan-memory", "build-pipeline"}
"""Own passes that are infrastructure, not optimizations: printing, and the code
generation steps that have preconditions of their own (a partition holding only
what accel takes; static shapes) and are tested by their own files."""

PASS_OPTIONS: dict[str, dict[str, Any]] = {
    "convert-layout": {"desired_layouts": ("nn.conv2d:NHWC:default", "nn.avg_pool2d:NHWC")},
    "annotate-target": {"targets": ("accel", "dnnl")},
    "merge-composite": {"pattern_table": "accel"},
    "partition-for": {"target": ("dnnl", "accel")},
}
"""Options for passes that cannot be built without them (flag -> dataclass fields)."""

BYOC_STEPS = {"annotate-target", "merge-compiler-regions"}
"""Passes that leave a module half-way through BYOC (annotated, not partitioned): they run
alone, and `partition-for` runs the whole flow in the row, but other passes between
AnnotateTarget and PartitionGraph are not supported (as in TVM)."""

_XDSL_CONTEXT = make_context()


def own_passes() -> list[RegisteredPass]:
    """xrelay's own registered passes (class in `xrelay.passes.*`), in registry order."""
    return [
        entry
        for entry in registered_passes()
        if entry.flag not in SKIPPED and entry.factory().__module__.startswith("xrelay.passes.")
    ]


def build_pass(entry: RegisteredPass) -> transform.Pass:
    """The pass with its default options, or those of PASS_OPTIONS."""
    return transform.to_pass(entry.factory()(**PASS_OPTIONS.get(entry.flag, {})))


@dataclass(frozen=True)
class Run:
    """One way of transforming a module: a label, the xrelay-opt flags that reproduce it."""

    label: str
    opt_flags: str
    apply: Callable[[IRModule], IRModule]


def under_context(pass_: transform.Pass, opt_level: int) -> Callable[[IRModule], IRModule]:
    def apply(mod: IRModule) -> IRModule:
        with transform.PassContext(opt_level=opt_level) as ctx:
            ctx.xdsl_context = _XDSL_CONTEXT
            return pass_(mod)

    return apply


def runs() -> list[Run]:
    """Each own pass alone at opt 3, then all of them as one Sequential at each opt level."""
    entries = own_passes()
    passes = [build_pass(entry) for entry in entries]
    specs = [p.pipeline_spec() or entry.flag for entry, p in zip(entries, passes, strict=True)]
    out = [
        Run(f"{entry.flag} (alone, opt_level 3)", f"-p '{spec}'", under_context(p, 3))
        for entry, p, spec in zip(entries, passes, specs, strict=True)
    ]
    if any(entry.flag == "optimize" for entry in entries):
        for level in OPT_LEVELS:  # relay.build's pipeline at each level (issue 4)
            optimize = transform.get_pass("optimize")
            out.append(
                Run(
                    f"optimize at opt_level {level}",
                    f"-p optimize --opt-level {level}",
                    under_context(optimize, level),
                )
            )
    in_row = [
        (p, spec)
        for entry, p, spec in zip(entries, passes, specs, strict=True)
        if entry.flag not in BYOC_STEPS
    ]
    if in_row:
        flags = "'" + ",".join(spec for _, spec in in_row) + "'"
        for level in OPT_LEVELS:
            pipeline = transform.Sequential([p for p, _ in in_row])
            out.append(
                Run(
                    f"all passes at opt_level {level}",
                    f"-p {flags} --opt-level {level}",
                    under_context(pipeline, level),
                )
            )
    return out


@dataclass(frozen=True)
class Failure:
    """A (seed, run) that broke: what went wrong and the module before it."""

    seed: int
    run: Run
    error: str
    before: str


def main_op(mod: IRModule) -> func.FuncOp:
    return next(
        op for op in mod.module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"
    )


def check_generated(seed: int, mod: IRModule) -> None:
    """The graph verifies and evaluates to finite values."""
    mod.module.verify()
    out = evaluate_module(mod.module, random_inputs(main_op(mod), 0))
    for index, value in enumerate(out if isinstance(out, tuple) else (out,)):
        assert np.all(np.isfinite(value)), f"seed {seed}: output {index} is not finite"


def external_functions(mod: IRModule) -> dict[str, str]:
    """The text of each function with a `Compiler` attribute (a partitioned function)."""
    return {
        op.sym_name.data: str(op)
        for op in mod.module.ops
        if isinstance(op, func.FuncOp) and "Compiler" in op.attributes
    }


def check_run(seed: int, run: Run, original: IRModule, text: str) -> Failure | None:
    """Run on a clone of `original`: it verifies, computes the same, leaves `Compiler` functions."""
    try:
        out = run.apply(original.clone())
        out.module.verify()
        assert_same_numerics(original, out, seeds=(0,), rtol=RTOL, atol=ATOL)
        external = external_functions(out)
        for name, before in external_functions(original).items():
            assert external.get(name, before) == before, f"@{name} has Compiler but was changed"
    except Exception as error:
        message = f"{type(error).__name__}: {error}".strip()
        lines = message.splitlines()
        short = "\n    ".join(lines[:12]) + ("\n    ..." if len(lines) > 12 else "")
        return Failure(seed, run, short, text)
    return None


def report(failures: list[Failure], total: int) -> str:
    first = failures[0]
    lines = [f"{len(failures)} of {total} pass runs failed:"]
    lines += [f"  seed {f.seed}, {f.run.label}: {f.error}" for f in failures[:20]]
    if len(failures) > 20:
        lines.append(f"  ... and {len(failures) - 20} more")
    lines += [
        "",
        f"Reproduce the first (seed {first.seed}, {first.run.label}), from tests/:",
        f"  python -c 'from testlib.graphs import random_graph; "
        f"print(random_graph({first.seed}, {MAX_OPS}))' > /tmp/graph.mlir",
        f"  xrelay-opt /tmp/graph.mlir {first.run.opt_flags} --verify-each --verify-numerics",
        "",
        f"The module before it (seed {first.seed}):",
        first.before,
    ]
    return "\n".join(lines)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_passes_keep_generated_graphs_valid_and_numerics_equal(chunk: int) -> None:
    checks = runs()
    failures: list[Failure] = []
    seeds = range(chunk * SEEDS // CHUNKS, (chunk + 1) * SEEDS // CHUNKS)
    for seed in seeds:
        original = random_graph(seed, MAX_OPS)
        check_generated(seed, original)
        text = str(original)
        for run in checks:
            failure = check_run(seed, run, original, text)
            if failure is not None:
                failures.append(failure)
    if failures:
        pytest.fail(report(failures, len(seeds) * len(checks)), pytrace=False)


def test_own_passes_are_xrelay_passes_and_buildable() -> None:
    entries = own_passes()
    flags = [entry.flag for entry in entries]
    assert "print-ir" not in flags
    assert not {"canonicalize", "cse", "dce"} & set(flags)  # xDSL's, not ours
    for entry in entries:
        pass_ = build_pass(entry)  # needs PASS_OPTIONS if it has mandatory options
        assert pass_.info.name == entry.name
