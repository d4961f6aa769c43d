"""Locations through passes: every op a pass leaves has a file location (MLIR's rule).

Each pipeline runs through `xrelay-opt --mlir-print-debuginfo` on the example
networks; the printed text is parsed back and every op and block argument must
name a line of the input (ops a pass made from others: the source op's
location, or `loc(fused[...])` of several).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects.builtin import FusedLoc
from xrelay.dialects.diagnostics import file_location
from xrelay.dialects.locations import fused_location
from xrelay.dialects.parser import parse_module
from xrelay.dialects.walk import walk_ops
from xrelay.tools.opt_main import OptMain

EXAMPLES = Path(__file__).parent.parent / "examples"

PIPELINES = [
    "fold-constant",
    "simplify-inference,fold-constant",
    "simplify-expr",
    "canonicalize-ops",
    "fold-scale-axis",
    "alter-op-layout",
    'convert-layout{desired-layouts="nn.conv2d:NHWC:default"}',
    "eliminate-common-subexpr",
    "fuse-ops",
    "optimize",
    "partition-for{target=accel}",
    "partition-for{target=dnnl}",
    "partition-for{target=accel},convert-relay-to-accel",
    "partition-for{target=dnnl},convert-relay-to-dnnl",
    "optimize,fuse-ops,plan-memory",
    "partition-for{target=accel},convert-relay-to-accel,accel-fuse-pool,accel-fuse-residual,"
    "accel-winograd",
    "annotate-target{targets=accel},merge-compiler-regions,partition-graph,inline",
    "build-pipeline",
    "build-pipeline{target=accel,c}",
    "build-pipeline{target=dnnl,c}",
]


def run_opt(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    status = OptMain.main(argv)
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


@pytest.mark.parametrize("example", ["tinyres.mlir", "byoc_demo.mlir"])
@pytest.mark.parametrize("pipeline", PIPELINES)
def test_every_op_keeps_a_location(
    example: str, pipeline: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(EXAMPLES / example)
    text = run_opt([path, "-p", pipeline, "--mlir-print-debuginfo"], capsys)
    module = parse_module(text, "printed.mlir")
    lines = len(Path(path).read_text().splitlines())
    for op in walk_ops(module):
        location = file_location(op.location)
        assert location is not None, f"{op.name} has no location after {pipeline}"
        assert location.filename.data == path, f"{op.name}: {op.location}"
        assert 1 <= location.line.data <= lines
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    assert file_location(arg.location) is not None, f"an argument of {op.name}"


def test_fused_ops_get_fused_locations(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "tinyres.mlir")
    text = run_opt([path, "-p", "partition-for{target=accel}", "--mlir-print-debuginfo"], capsys)
    module = parse_module(text, "printed.mlir")
    composites = [op for op in walk_ops(module) if op.name == "relay.composite"]
    assert composites
    for composite in composites:
        assert isinstance(composite.location, FusedLoc)
        inner = [o.location for o in walk_ops(composite) if o is not composite]
        assert all(file_location(loc) is not None for loc in inner)


def test_fused_location_flattens_and_dedupes() -> None:
    module = parse_module(
        "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = relay.exp %x : tensor<2xf32>\n"
        '  %1 = relay.exp %0 : tensor<2xf32> loc(fused["a":1:1, "b":2:2])\n'
        "  func.return %1 : tensor<2xf32>\n}\n",
        "f.mlir",
    )
    ops = list(walk_ops(module))[2:5]
    fused = fused_location([ops[0].location, ops[1].location, ops[0].location])
    assert isinstance(fused, FusedLoc)
    assert [str(file_location(loc)) for loc in fused.locations.data] == [
        str(file_location(ops[0].location)),
        str(file_location(fused.locations.data[1])),
        str(file_location(fused.locations.data[2])),
    ]
    assert len(fused.locations.data) == 3
    assert fused_location([ops[2].location]) == ops[2].location
