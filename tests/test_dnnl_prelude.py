"""Per-target preludes (`CodegenTarget.prelude`) and dnnl's: NHWC convolutions before partitioning.

A prelude runs on the whole module after the build's common `PARTITION_PRELUDE`
and before `partition-for`, only for the targets being built, in the target
list's order; it is gated like the common prelude (the build's opt_level, not
at all with `optimize=False`); a bad pass spec is an error naming the target.
dnnl's prelude (ConvertLayout to NHWC, then FoldConstant) leaves tinyres with
NHWC convolutions whose constant weights are bound into the partitions, the
pools in oneDNN too, and the two layout transforms at the model's edges only
(its input, and before the flatten), as `dnnl.reorder`s at the start and end of
its first partition; numerics equal the interpreter's.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from testlib.pass_helpers import Recorder
from xdsl.dialects import func
from xrelay.codegen.c.pipeline import lower
from xrelay.codegen.dnnl import PRELUDE
from xrelay.codegen.targets import get_codegen, prelude_passes, register_codegen
from xrelay.dialects.relay.base import get_str

import xrelay
from xrelay import IRModule, transform

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
from tinyres import tinyres  # noqa: E402


@contextmanager
def prelude_of(name: str, prelude: Sequence[str]) -> Iterator[None]:
    """Target `name`'s code generator with another prelude, for the `with` block."""
    saved = get_codegen(name)
    assert saved is not None
    register_codegen(dataclasses.replace(saved, prelude=tuple(prelude)))
    try:
        yield
    finally:
        register_codegen(saved)


def preludes_ran(mod: IRModule, targets: Sequence[str], opt_level: int | None = 3) -> list[str]:
    """The passes `lower` ran between the common prelude and partitioning, by name."""
    recorder = Recorder()
    with transform.PassContext(instruments=[recorder]):
        lower(mod, opt_level=opt_level, targets=targets)
    before = recorder.ran[: recorder.ran.index("PartitionFor")]
    if "SimplifyExpr" not in before:  # no common prelude (optimize=False): no prelude at all
        assert "ConvertLayout" not in recorder.ran
        return []
    return before[before.index("SimplifyExpr") + 2 :]  # after SimplifyExpr, FoldConstant


def test_dnnl_prelude_runs_only_when_dnnl_is_built() -> None:
    assert PRELUDE == ('convert-layout{desired-layouts="nn.conv2d:NHWC:default"}', "fold-constant")
    assert preludes_ran(tinyres(8), ["dnnl"]) == ["ConvertLayout", "FoldConstant"]
    assert preludes_ran(tinyres(8), ["accel"]) == []
    names = [op.name for op in lower(tinyres(8), targets=["accel"]).module.walk()]
    assert "relay.layout_transform" not in names  # accel's convolutions stay NCHW


def test_preludes_run_in_the_target_lists_order() -> None:
    with prelude_of("accel", ["dead-code-elimination"]):
        assert preludes_ran(tinyres(8), ["dnnl", "accel"]) == [
            "ConvertLayout",
            "FoldConstant",
            "DeadCodeElimination",
        ]
        assert preludes_ran(tinyres(8), ["accel", "dnnl"]) == [
            "DeadCodeElimination",
            "ConvertLayout",
            "FoldConstant",
        ]
        assert preludes_ran(tinyres(8), ["accel"]) == ["DeadCodeElimination"]


def test_preludes_are_gated_like_the_common_prelude() -> None:
    assert preludes_ran(tinyres(8), ["dnnl"], opt_level=None) == []  # optimize=False
    assert preludes_ran(tinyres(8), ["dnnl"], opt_level=2) == ["FoldConstant"]  # ConvertLayout: 3


def test_a_bad_prelude_is_an_error_naming_the_target() -> None:
    for spec, reason in (
        ("no-such-pass", "Unrecognized passes"),
        ("convert-layout{bogus=1}", "bogus"),
        ('convert-layout{desired-layouts="nn.conv2d:NCWH"}', "unsupported data layout 'NCWH'"),
        ("convert-layout{", "Expected argument name"),
    ):
        with (
            prelude_of("dnnl", [spec]),
            pytest.raises(ValueError, match=re.escape(reason)) as error,
        ):
            prelude_passes(["dnnl"])
        assert str(error.value).startswith(f"target 'dnnl': bad prelude pass '{spec}': ")
    assert prelude_passes(["no-such-target"]) == []


def test_dnnl_builds_of_tinyres_are_nhwc_with_transforms_at_the_edges_only(cache: Path) -> None:
    mod = tinyres(32)
    lib = xrelay.build(mod, target=["dnnl", "c"], options={"cache_dir": cache})
    functions = [op for op in lib.module.module.ops if isinstance(op, func.FuncOp)]
    ops = [op for f in functions for op in f.walk()]
    convs = [op for op in ops if op.name == "dnnl.conv2d"]
    assert len(convs) == 4
    assert all(get_str(op.properties, "data_layout") == "NHWC" for op in convs)
    assert all(op.operands[1].owner.name == "relay.constant" for op in convs)  # bound weights
    names = [op.name for op in ops]
    assert names.count("dnnl.max_pool2d") == 2
    assert "relay.layout_transform" not in names  # the edges' transforms run in oneDNN too
    main = next(f for f in functions if f.sym_name.data == "main")
    calls = [op for op in main.walk() if isinstance(op, func.CallOp)]
    assert [c.callee.root_reference.data for c in calls] == [
        "tvmgen_default_dnnl_main_0",  # to NHWC, every conv and pool, back to NCHW
        "fused_nn_batch_flatten",  # a view: no copy
        "tvmgen_default_dnnl_main_9",  # the dense and the softmax
    ]
    first = next(f for f in functions if f.sym_name.data == "tvmgen_default_dnnl_main_0")
    body = list(first.body.block.ops)
    reorders = [op for op in body if op.name == "dnnl.reorder"]
    assert [(get_str(op.properties, "src_layout"), body.index(op)) for op in reorders] == [
        ("NCHW", 0 + sum(op.name == "relay.constant" for op in body)),  # the parameter, first
        ("NHWC", len(body) - 2),  # the result, last
    ]
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal((1, 3, 32, 32)).astype("float32")
        np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-5, atol=1e-6)


def test_without_the_prelude_the_partitions_transpose_at_their_boundaries(cache: Path) -> None:
    """What the prelude saves: NCHW convolutions made NHWC inside each partition, with a
    `dnnl.reorder` in and out of each of the two, and the pools left on the host."""
    mod = tinyres(32)
    with prelude_of("dnnl", []):
        lib = xrelay.build(mod, target=["dnnl", "c"], options={"cache_dir": cache})
    names = [op.name for op in lib.module.module.walk()]
    assert names.count("dnnl.reorder") == 4
    assert "dnnl.max_pool2d" not in names
    x = np.random.default_rng(4).standard_normal((1, 3, 32, 32)).astype("float32")
    np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-5, atol=1e-6)
