"""The debugging instruments find deliberately broken passes (`testlib.passes`).

- `IRDiffInstrument` shows which pass changed the IR, and how;
- `VerifyEachInstrument` names the pass after which the IR stops verifying;
- `NumericsCheckInstrument` names the first pass that changes what `main` computes;
- the `transform.crash_reproducer` config writes the module before a failing pass.
"""

from __future__ import annotations

import io
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import testlib.passes
from testlib.pass_helpers import get_test_model

from xrelay import IRModule, parse, relay, transform
from xrelay.instrument import (
    IRDiffInstrument,
    NumericsCheckError,
    NumericsCheckInstrument,
    VerifyEachError,
    VerifyEachInstrument,
)
from xrelay.transform import PassContext

# ----------------------------------------------------------------- helpers


SCALE = 3.0


def get_scale_model(scale: float = SCALE) -> IRModule:
    """`main(x: f32[3,4]) = x * const(scale)`."""
    x = relay.var("x", shape=(3, 4))
    c = relay.const(np.full((3, 4), scale, dtype="float32"))
    return IRModule.from_expr(relay.Function([x], relay.multiply(x, c)))


def scale_constant_pass(relative: float, name: str) -> transform.Pass:
    """A module pass rebuilding `main` of the scale model with its constant off by `relative`."""

    def body(mod: IRModule, ctx: PassContext) -> IRModule:
        (x,) = mod["main"].params
        c = relay.const(np.full((3, 4), SCALE * (1 + relative), dtype="float32"))
        mod["main"] = relay.Function([x], relay.multiply(x, c))
        return mod

    return transform.module_pass(body, opt_level=0, name=name)


def tag() -> transform.Pass:
    return transform.get_pass("test-tag")


def set_attr(mod: IRModule, key: str) -> None:
    mod["main"] = mod["main"].with_attr(key, "1")


# ------------------------------------------------------------------ IR diff


def test_ir_diff_names_exactly_the_passes_that_changed_the_ir() -> None:
    stream = io.StringIO()
    instrument = IRDiffInstrument(file=stream)
    seq = transform.Sequential(
        [tag(), transform.get_pass("cse"), transform.get_pass("test-perturb-numerics")]
    )
    with PassContext(instruments=[instrument]):
        seq(get_test_model())
    # CSE finds nothing to merge in this model; the Sequential's own entry adds nothing.
    assert [name for name, _ in instrument.diffs] == ["TestTag", "TestPerturbNumerics"]
    text = stream.getvalue()
    assert "// ----- IR changed by pass 'TestTag' -----\n" in text
    assert "// ----- IR changed by pass 'TestPerturbNumerics' -----\n" in text
    assert "CSE" not in text
    assert "sequential" not in text


def test_ir_diff_is_a_unified_diff_of_the_change() -> None:
    instrument = IRDiffInstrument(file=io.StringIO())
    seq = transform.Sequential([tag(), transform.get_pass("test-perturb-numerics")])
    with PassContext(instruments=[instrument]):
        seq(get_test_model())
    (_, tag_diff), (_, perturb_diff) = instrument.diffs
    tag_lines = tag_diff.splitlines()
    assert tag_lines[:2] == ["--- before TestTag", "+++ after TestTag"]
    removed = [line for line in tag_lines[2:] if line.startswith("-")]
    added = [line for line in tag_lines[2:] if line.startswith("+")]
    assert len(removed) == len(added) == 1
    assert "func.func @main" in removed[0]
    assert "tagged" not in removed[0]
    assert 'attributes {tagged = "yes"}' in added[0]

    perturb_lines = perturb_diff.splitlines()
    assert perturb_lines[:2] == ["--- before TestPerturbNumerics", "+++ after TestPerturbNumerics"]
    assert [line for line in perturb_lines[2:] if line[:1] in "+-"] == [
        "-    %0 = relay.add %x, %y : tensor<3x4xf32>",
        "+    %0 = relay.subtract %x, %y : tensor<3x4xf32>",
    ]
    # The tag, unchanged by this pass, is context at most, never a change.
    assert all("tagged" not in line for line in perturb_lines[2:] if line[:1] in "+-")


def test_ir_diff_writes_to_stderr_by_default(capfd: pytest.CaptureFixture[str]) -> None:
    with PassContext(instruments=[IRDiffInstrument()]):
        tag()(get_test_model())
    captured = capfd.readouterr()
    assert captured.out == ""
    assert "// ----- IR changed by pass 'TestTag' -----\n--- before TestTag\n" in captured.err


def test_ir_diff_nothing_when_nothing_changes() -> None:
    instrument = IRDiffInstrument(file=io.StringIO())
    with PassContext(instruments=[instrument]):
        transform.Sequential([transform.get_pass("cse"), transform.get_pass("dce")])(
            get_test_model()
        )
    assert instrument.diffs == []


def test_ir_diff_attributes_an_outer_pass_its_own_changes() -> None:
    @transform.module_pass(opt_level=0, name="Outer")
    def outer(mod: IRModule, ctx: PassContext) -> IRModule:
        set_attr(mod, "outer_first")
        mod = tag()(mod)
        set_attr(mod, "outer_second")
        return mod

    instrument = IRDiffInstrument(file=io.StringIO())
    with PassContext(instruments=[instrument]):
        outer(get_test_model())
    assert [name for name, _ in instrument.diffs] == ["Outer", "TestTag", "Outer"]
    first, inner, second = (diff for _, diff in instrument.diffs)

    def added(diff: str) -> str:
        return "\n".join(line for line in diff.splitlines()[2:] if line.startswith("+"))

    assert "outer_first" in added(first)
    assert "tagged" not in added(first)
    assert "tagged" in added(inner)
    assert "outer_first" in inner  # the state the inner pass started from
    assert "outer_second" not in added(inner)
    assert "outer_second" in added(second)
    assert first.startswith("--- before Outer\n+++ after Outer\n")
    assert inner.startswith("--- before TestTag\n+++ after TestTag\n")


def test_ir_diff_resets_when_a_context_is_entered() -> None:
    instrument = IRDiffInstrument(file=io.StringIO())
    with PassContext(instruments=[instrument]):
        tag()(get_test_model())
    assert len(instrument.diffs) == 1
    with PassContext(instruments=[instrument]):
        pass
    assert instrument.diffs == []


# -------------------------------------------------------------- verify each


def test_verify_each_names_the_pass_that_broke_the_ir() -> None:
    mod = get_test_model()
    original = str(mod)
    seq = transform.Sequential([tag(), transform.get_pass("test-break-types")])
    with (
        pytest.raises(VerifyEachError) as info,
        PassContext(instruments=[VerifyEachInstrument()]),
    ):
        seq(mod)
    text = str(info.value)
    assert "'TestBreakTypes'" in text
    assert "'relay.add'" in text
    assert "TestTag" not in text
    assert info.value.pass_name == "TestBreakTypes"
    # Every failing invocation rolls back: the Sequential failed too, so the module
    # is as it was before the Sequential (TestTag's change is undone as well).
    assert str(mod) == original
    mod.module.verify()


def test_verify_each_failure_restores_the_module_before_the_failing_pass() -> None:
    mod = tag()(get_test_model())
    tagged = str(mod)
    with (
        pytest.raises(VerifyEachError, match="TestBreakTypes"),
        PassContext(instruments=[VerifyEachInstrument()]),
    ):
        transform.get_pass("test-break-types")(mod)
    assert str(mod) == tagged
    mod.module.verify()


def test_verify_each_passes_a_clean_pipeline() -> None:
    mod = get_test_model()
    seq = transform.Sequential([tag(), transform.get_pass("cse"), transform.get_pass("dce")])
    with PassContext(instruments=[VerifyEachInstrument()]):
        result = seq(mod)
    assert 'tagged = "yes"' in str(result)


def test_verify_each_max_depth_checks_only_outer_passes() -> None:
    seq = transform.Sequential([tag(), transform.get_pass("test-break-types")])
    with (
        pytest.raises(VerifyEachError) as info,
        PassContext(instruments=[VerifyEachInstrument(max_depth=0)]),
    ):
        seq(get_test_model())
    # The inner passes are not verified; the Sequential, at depth 0, is blamed.
    assert info.value.pass_name == "sequential"
    assert "(after pass 'sequential')" in str(info.value)


# ---------------------------------------------------------------- numerics


def test_numerics_check_names_the_pass_that_changed_the_numbers() -> None:
    mod = get_test_model()
    original = str(mod)
    instrument = NumericsCheckInstrument()
    seq = transform.Sequential([tag(), transform.get_pass("test-perturb-numerics")])
    with pytest.raises(NumericsCheckError) as info, PassContext(instruments=[instrument]):
        seq(mod)
    assert "'TestPerturbNumerics'" in str(info.value)
    assert info.value.mismatch.pass_name == "TestPerturbNumerics"
    assert info.value.mismatch.max_abs_diff > 0
    assert instrument.mismatch == info.value.mismatch
    assert str(mod) == original  # rolled back like any failing pass


def test_numerics_check_without_raising_records_the_first_culprit_only() -> None:
    mod = get_scale_model()
    instrument = NumericsCheckInstrument(raise_on_mismatch=False)
    seq = transform.Sequential(
        [
            scale_constant_pass(1e-2, "FirstCulprit"),
            scale_constant_pass(0.5, "SecondCulprit"),
            tag(),
        ]
    )
    with PassContext(instruments=[instrument]):
        result = seq(mod)
    assert instrument.mismatch is not None
    assert instrument.mismatch.pass_name == "FirstCulprit"
    assert "'FirstCulprit'" in instrument.mismatch.message
    assert "dense<4.500000e+00>" in str(result)  # SecondCulprit ran
    assert 'tagged = "yes"' in str(result)  # and so did the rest of the pipeline
    assert instrument.checks == 1  # nothing is compared after the first mismatch
    assert [m.pass_name for m in instrument.mismatches] == ["FirstCulprit"]


def test_numerics_check_without_raising_checks_each_pipeline_run() -> None:
    instrument = NumericsCheckInstrument(raise_on_mismatch=False)
    with PassContext(instruments=[instrument]):
        scale_constant_pass(1e-2, "FirstRun")(get_scale_model())
        tag()(get_scale_model())  # a clean run in between finds nothing
        scale_constant_pass(1e-2, "ThirdRun")(get_scale_model())
    assert [m.pass_name for m in instrument.mismatches] == ["FirstRun", "ThirdRun"]
    assert instrument.mismatch == instrument.mismatches[0]
    assert instrument.checks == 3


def test_numerics_check_passes_a_neutral_pipeline_one_check_per_invocation() -> None:
    instrument = NumericsCheckInstrument()
    seq = transform.Sequential([transform.get_pass("cse"), tag()])
    with PassContext(instruments=[instrument]):
        seq(get_test_model())
    assert instrument.mismatch is None
    assert instrument.checks == 3  # cse, test-tag, and the Sequential itself


def test_numerics_check_counts_nested_and_top_level_invocations() -> None:
    instrument = NumericsCheckInstrument()
    with PassContext(instruments=[instrument]):
        mod = tag()(get_test_model())
        transform.get_pass("cse")(mod)
    assert instrument.checks == 2
    assert instrument.mismatch is None


def test_numerics_check_tolerates_a_tiny_change_within_rtol() -> None:
    mod = get_scale_model()
    before = str(mod)
    instrument = NumericsCheckInstrument()  # rtol 1e-4, atol 1e-5
    with PassContext(instruments=[instrument]):
        result = scale_constant_pass(1e-7, "Nudge")(mod)
    assert str(result) != before  # the constant did change (float32 has room for 3e-7)
    assert instrument.mismatch is None
    assert instrument.checks == 1


def test_numerics_check_catches_a_tiny_change_with_tight_tolerances() -> None:
    instrument = NumericsCheckInstrument(rtol=1e-9, atol=0.0)
    with (
        pytest.raises(NumericsCheckError, match="'Nudge'") as info,
        PassContext(instruments=[instrument]),
    ):
        scale_constant_pass(1e-7, "Nudge")(get_scale_model())
    assert 0 < info.value.mismatch.max_abs_diff < 1e-5


def test_numerics_check_catches_a_one_percent_change() -> None:
    instrument = NumericsCheckInstrument()
    with (
        pytest.raises(NumericsCheckError, match="'Shift'") as info,
        PassContext(instruments=[instrument]),
    ):
        scale_constant_pass(1e-2, "Shift")(get_scale_model())
    # |x| * 3 * 1e-2 for standard normal x: well above the tolerances, well below 1.
    assert 1e-3 < info.value.mismatch.max_abs_diff < 1.0
    assert "rtol 0.0001, atol 1e-05" in str(info.value)


def test_numerics_check_rtol_and_atol_loosen_the_check() -> None:
    for loose in (NumericsCheckInstrument(rtol=0.05), NumericsCheckInstrument(rtol=0, atol=1.0)):
        with PassContext(instruments=[loose]):
            scale_constant_pass(1e-2, "Shift")(get_scale_model())
        assert loose.mismatch is None
        assert loose.checks == 1


def test_numerics_check_compares_with_the_reference_before_the_pipeline() -> None:
    """Drift that each pass keeps within tolerance is caught once it adds up."""
    instrument = NumericsCheckInstrument(rtol=1.5e-3, atol=0.0)
    seq = transform.Sequential(
        [scale_constant_pass(1e-3, "Drift1"), scale_constant_pass(2e-3, "Drift2")]
    )
    with (
        pytest.raises(NumericsCheckError, match="'Drift2'"),
        PassContext(instruments=[instrument]),
    ):
        seq(get_scale_model())
    assert instrument.checks == 2


def test_numerics_check_needs_main() -> None:
    x = relay.var("x", shape=(3, 4))
    mod = IRModule({"f": relay.Function([x], relay.add(x, x))})
    with (
        pytest.raises(NumericsCheckError, match="module has no 'main'"),
        PassContext(instruments=[NumericsCheckInstrument()]),
    ):
        tag()(mod)
    instrument = NumericsCheckInstrument(entry="f")
    with PassContext(instruments=[instrument]):
        tag()(mod)
    assert instrument.checks == 1
    assert instrument.mismatch is None


# --------------------------------------------------------- crash reproducer


def test_crash_reproducer_holds_the_module_before_the_failing_pass(tmp_path: Path) -> None:
    path = str(tmp_path / "repro.mlir")
    mod = get_test_model()
    seq = transform.Sequential([tag(), transform.get_pass("test-fail")])
    with (
        pytest.raises(transform.PassError) as info,
        PassContext(config={"transform.crash_reproducer": path}),
    ):
        seq(mod)
    assert info.value.reproducer == path
    assert info.value.info.name == "TestFail"
    text = Path(path).read_text()
    assert seq.passes[1].pipeline_spec() == "test-fail"
    assert "-p 'test-fail'" in text
    assert "test-fail: deliberate failure" in text
    assert "half_done" not in text
    assert 'tagged = "yes"' in text  # after TestTag, before TestFail
    reparsed = parse(text)
    assert str(reparsed) == str(tag()(get_test_model()))
    assert info.value.module_before is not None
    assert info.value.module_before in text


def test_crash_reproducer_for_a_crash_keeps_the_pass_options(tmp_path: Path) -> None:
    path = tmp_path / "repro.mlir"
    crash = transform.to_pass(testlib.passes.Fail(kind="crash"))
    with (
        pytest.raises(transform.PassError, match="deliberate crash") as info,
        PassContext(config={"transform.crash_reproducer": str(path)}),
    ):
        transform.Sequential([crash])(get_test_model())
    assert isinstance(info.value.__cause__, ValueError)
    text = path.read_text()
    assert f"-p '{crash.pipeline_spec()}'" in text
    assert """-p 'test-fail{kind="crash"}'""" in text
    assert "half_done" not in text
    parse(text)


def test_no_reproducer_without_the_config(tmp_path: Path) -> None:
    with pytest.raises(transform.PassError) as info:
        transform.Sequential([transform.get_pass("test-fail")])(get_test_model())
    assert info.value.reproducer is None
    assert list(tmp_path.iterdir()) == []


def test_crash_reproducer_command_reproduces_the_failure(tmp_path: Path) -> None:
    path = tmp_path / "repro.mlir"
    with (
        pytest.raises(transform.PassError),
        PassContext(config={"transform.crash_reproducer": str(path)}),
    ):
        transform.Sequential([tag(), transform.get_pass("test-fail")])(get_test_model())
    text = path.read_text()
    (line,) = [line for line in text.splitlines() if line.startswith("//   xrelay-opt ")]
    command = shlex.split(line.removeprefix("//   ").replace("<this file>", str(path)))
    plugin = Path(__file__).parent / "testlib" / "passes.py"
    run = subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", *command[1:], "--load-pass-plugin", str(plugin)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    assert "test-fail: deliberate failure" in run.stderr
