"""`xrelay-opt`'s MLIR pipeline flags (`tools/opt_pipeline.py`): per-pass flags, --pass-pipeline,
and --dump-pass-pipeline reading back to the same pipeline."""

from __future__ import annotations

from pathlib import Path

import pytest
from xrelay.passes import get_all_passes
from xrelay.tools import opt_pipeline
from xrelay.tools.opt_main import OptMain, UsageError
from xrelay.tools.specs import option_infos

TINYRES = Path(__file__).parent.parent / "examples" / "tinyres.mlir"


def dumped(*args: str) -> str:
    """The pipeline line `--dump-pass-pipeline` prints for these flags."""
    tool = OptMain(["-", *args])
    passes = tool.make_pipeline()
    text = opt_pipeline.dump(passes, tool.make_pass_context())
    header, pipeline, *rest = text.split("\n")
    assert header.startswith("Pass Manager with ")
    assert rest == ["", ""]
    return pipeline


NEEDS_OPTIONS = {"annotate-target": "{targets=accel}", "partition-for": "{target=accel}"}
"""Passes that cannot run without an option (a target), with one."""


def registered_specs() -> list[str]:
    return sorted(
        flag + NEEDS_OPTIONS.get(flag, "")
        for flag, factory in get_all_passes().items()
        if not any(info.required for info in option_infos(factory()))
    )


@pytest.mark.parametrize("spec", registered_specs())
def test_every_pass_dump_reads_back(spec: str) -> None:
    # Every option spelled, then read back by --pass-pipeline to the same pipeline.
    first = dumped("-p", spec)
    assert dumped("--pass-pipeline", first) == first


def test_dump_reads_back_to_the_same_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pipeline = "partition-for{target=accel},optimize{opt-level=3},convert-relay-to-accel"
    assert OptMain.main([str(TINYRES), "-p", pipeline, "--dump-pass-pipeline"]) == 0
    first = capsys.readouterr()
    text = first.err.splitlines()[1]
    assert text.startswith("builtin.module(infer-type,func.func(merge-composite{")
    assert OptMain.main([str(TINYRES), "--pass-pipeline", text, "--dump-pass-pipeline"]) == 0
    second = capsys.readouterr()
    assert (second.out, second.err) == (first.out, first.err)


def test_options_spelled_so_they_read_back() -> None:
    # Strings that would read as numbers or booleans, or hold spaces, are quoted.
    assert opt_pipeline.format_spec(opt_pipeline.parse_spec("p{a=1 b=x c=true}")) == (
        "p{a=1 b=x c=true}"
    )
    spec = opt_pipeline.ArgSpec(
        "p", {"a": ("1",), "b": ("two words",), "c": ("true",), "d": (), "e": ("relay.exp",)}
    )
    assert opt_pipeline.format_spec(spec) == 'p{a="1" b="two words" c="true" e="relay.exp"}'
    assert opt_pipeline.parse_spec(opt_pipeline.format_spec(spec)).parameters == {
        "a": ("1",),
        "b": ("two words",),
        "c": ("true",),
        "e": ("relay.exp",),
    }


def test_per_pass_flags_are_rewritten_in_order() -> None:
    flags = {"cse", "fold-constant"}
    argv = ["in.mlir", "-cse", "--fold-constant=fold-qnn", "-c", "cse", "-cx", "--", "-cse"]
    assert opt_pipeline.expand_pass_flags(argv, flags) == [
        "in.mlir",
        "--pass-flag=cse",
        "--pass-flag=fold-constant{fold-qnn}",
        "-c",
        "cse",
        "-cx",
        "--",
        "-cse",
    ]


def test_single_dash_long_options_as_mlir_opt_takes_them() -> None:
    longs = {"pass-pipeline", "split-input-file", "output-file"}
    argv = ["-pass-pipeline=builtin.module(cse)", "-split-input-file", "-p", "-x", "--", "-o"]
    assert opt_pipeline.single_dash_long(argv, longs) == [
        "--pass-pipeline=builtin.module(cse)",
        "--split-input-file",
        "-p",
        "-x",
        "--",
        "-o",
    ]
    assert dumped("-pass-pipeline=builtin.module(dce)") == "builtin.module(dce)"


def test_flags_mix_with_p_in_command_line_order() -> None:
    assert dumped("-dce", "-p", "cse", "-fold-constant") == (
        "builtin.module(dce,cse,func.func(fold-constant{fold-qnn=false}))"
    )


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("builtin.module(fold-constant{fold-qnn", "at column 29: unbalanced '{'"),
        ("builtin.module(func.func(func.func(cse)))", "cannot nest a pipeline on 'func.func'"),
        ("builtin.module(cse) x", "at column 21: unexpected 'x' after the pipeline"),
        ("builtin.module(,)", "at column 16: expected a pass or operation name, found ','"),
    ],
)
def test_malformed_pass_pipeline(pipeline: str, message: str) -> None:
    with pytest.raises(UsageError, match="malformed --pass-pipeline") as error:
        OptMain(["-", "--pass-pipeline", pipeline]).make_pipeline()
    assert message in str(error.value)


def test_empty_pipeline_runs_nothing() -> None:
    assert OptMain(["-", "--pass-pipeline", "builtin.module()"]).make_pipeline() == ()
    assert dumped("--pass-pipeline", "builtin.module(func.func())") == "builtin.module()"
