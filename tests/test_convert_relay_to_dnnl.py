"""`convert-relay-to-dnnl`: lowered functions compute what they computed, in both layouts.

- Generated graphs (`testlib.graphs.random_graph`) partitioned for dnnl, then
  lowered with `layout=NHWC` and `layout=keep`: every dnnl function holds only
  dnnl ops and structure, and `main` computes what it computed before (the
  interpreter runs the dnnl ops' reference semantics).
- tinyres: every convolution (batch norm folded in) and the dense become dnnl
  primitives, the residual add a sum post-op; with NHWC, the only reorders are
  at the partitions' boundaries.
- The pass's option, its registration, and a failed lowering leaving the
  module unchanged.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from testlib.graphs import random_graph
from testlib.numerics import assert_same_numerics
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xrelay.dialects import dnnl
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes.adapters import get_pass
from xrelay.passes.convert_relay_to_dnnl import (
    ConvertRelayToDnnl,
    ConvertRelayToDnnlPass,
    convert_module,
)
from xrelay.passes.partition_for import partition_for

import xrelay
from xrelay import IRModule

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
from tinyres import tinyres  # noqa: E402

SEEDS = 60
STRUCTURE = {
    "relay.constant",
    "relay.tuple",
    "relay.tuple_get_item",
    "relay.reshape",
    "func.return",
}


def dnnl_functions(mod: IRModule) -> list[func.FuncOp]:
    return [
        op
        for op in mod.module.ops
        if isinstance(op, func.FuncOp) and op.attributes.get("Compiler") == StringAttr("dnnl")
    ]


def partitioned(seed: int) -> IRModule:
    mod = random_graph(seed, 30)
    for op in mod.module.ops:
        if isinstance(op, func.FuncOp):
            op.attributes.pop("Compiler", None)
    return partition_for(mod, "dnnl")


@pytest.mark.parametrize("layout", ["NHWC", "keep"])
def test_generated_graphs_compute_the_same(layout: str) -> None:
    lowered_functions = 0
    for seed in range(SEEDS):
        before = partitioned(seed)
        after = ConvertRelayToDnnl(layout)(before.clone())
        after.module.verify()
        for function in dnnl_functions(after):
            names = {op.name for op in function.body.walk()} - {"func.func"}
            stray = {n for n in names if not n.startswith("dnnl.") and n not in STRUCTURE}
            assert not stray, f"seed {seed}: {stray} left in @{function.sym_name.data}"
            lowered_functions += 1
        assert_same_numerics(before, after, seeds=(seed,), rtol=1e-4, atol=1e-5)
    assert lowered_functions >= SEEDS // 2


def test_tinyres_becomes_primitives_with_reorders_only_at_the_boundaries() -> None:
    mod = partition_for(tinyres(32), "dnnl")
    after = ConvertRelayToDnnl()(xrelay.optimize(mod.clone(), opt_level=3))
    names = [op.name for f in dnnl_functions(after) for op in f.body.walk()]
    assert names.count("dnnl.conv2d") == 4, names
    assert names.count("dnnl.dense") == 1, names
    sums = [
        op
        for f in dnnl_functions(after)
        for op in f.body.walk()
        if isinstance(op, dnnl.Conv2DOp) and op.has_sum.value.data
    ]
    assert len(sums) == 1  # the residual add is the second block conv's sum post-op
    for function in dnnl_functions(after):
        reorders = [op for op in function.body.walk() if op.name == "dnnl.reorder"]
        for reorder in reorders:  # in from a parameter, or out to the return
            source, (use,) = reorder.operands[0], reorder.results[0].uses
            assert source.owner is function.body.block or use.operation.name == "func.return"
    assert_same_numerics(mod, after, seeds=(0,), rtol=1e-4, atol=1e-6)


def test_registered_with_its_option() -> None:
    assert get_pass("convert-relay-to-dnnl").info.name == "ConvertRelayToDnnl"
    assert ConvertRelayToDnnlPass(layout="keep").layout == "keep"
    with pytest.raises(ValueError, match="layout must be one of NHWC, keep, got 'NCHW'"):
        ConvertRelayToDnnlPass(layout="NCHW")


def test_a_failed_lowering_changes_nothing() -> None:
    mod = xrelay.parse(
        """func.func @part(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {
  %0 = relay.nn.relu %x : tensor<4xf32>
  %1 = relay.exp %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}"""
    )
    text = str(mod)
    with pytest.raises(
        DiagnosticError, match=r"'relay\.exp' op cannot be lowered to target 'dnnl'"
    ):
        convert_module(mod.module)
    assert str(mod) == text
