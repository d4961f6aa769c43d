"""xDSL-side pass kinds: `XdslFunctionPass` (TVM's function-pass skip rule) and named
pipelines (`XdslPipelinePass`: an xDSL pass with options that runs as a Sequential)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
import testlib.passes  # noqa: F401  (registers the test-* passes)
from testlib.pass_helpers import Recorder
from testlib.passes import Pipeline
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.passes import PassPipeline
from xrelay.dialects.parser import make_context
from xrelay.tools.pass_options import pass_summary

from xrelay import IRModule, relay, transform


def duplicated_add() -> IRModule:
    x = relay.var("x", shape=(4,))
    return IRModule.from_expr(relay.Function([x], relay.multiply(x + x, x + x)))


def test_pipeline_pass_runs_as_a_sequential_named_after_it() -> None:
    built = transform.to_pass(Pipeline(value="v"))
    assert isinstance(built, transform.Sequential)
    assert built.info.name == "TestPipeline"
    assert [p.info.name for p in built.passes] == ["TestTag", "CSE"]
    assert transform.get_pass("test-pipeline").info.name == "TestPipeline"


def test_pipeline_children_are_gated_and_instrumented() -> None:
    recorder = Recorder()
    with transform.PassContext(opt_level=0, instruments=[recorder]):
        out = transform.Sequential([Pipeline(value="v")])(duplicated_add())
    # TestTag (opt_level 1) is gated inside the pipeline at opt_level 0; CSE runs.
    assert recorder.ran == ["sequential", "TestPipeline", "CSE"]
    assert "tagged" not in str(out)
    assert str(out).count("relay.add") == 1


def test_pipeline_applied_by_xdsl_runs_in_place() -> None:
    mod = duplicated_add()
    module = mod.module
    PassPipeline.parse_spec({"test-pipeline": lambda: Pipeline}, "test-pipeline{value=w}").apply(
        make_context(), module
    )
    text = IRModule(module=module).astext()
    assert 'tagged = "w"' in text
    assert text.count("relay.add") == 1


def test_failure_inside_a_pipeline_rolls_back_all_of_it() -> None:
    class Failing(Pipeline):
        def passes(self) -> list[object]:
            return [*super().passes(), transform.get_pass("test-fail")]

    mod = duplicated_add()
    before = str(mod)
    # A DiagnosticError in a pass stays located and names the innermost pass's flag.
    with pytest.raises(transform.PassError, match=r"deliberate failure \(in pass 'test-fail'\)"):
        transform.to_pass(Failing())(mod)
    assert str(mod) == before


@dataclass(frozen=True)
class MarkFunctions(transform.XdslFunctionPass):
    """Mark every function it visits."""

    name = "mark-functions"

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        function.attributes["marked"] = StringAttr("yes")


@dataclass(frozen=True)
class MarkAllFunctions(MarkFunctions):
    """Mark every function, external ones included."""

    name = "mark-all-functions"
    include_external: ClassVar[bool] = True


def with_external() -> IRModule:
    x = relay.var("x", shape=(4,))
    plain = relay.Function([x], relay.exp(x))
    return IRModule(
        {
            "main": plain,
            "accel_0": plain.with_attr("Compiler", "accel"),
            "skip": plain.with_attr("SkipOptimization", 1),
            "extern": plain.with_attr("Extern", 1),
            "not_extern": plain.with_attr("Extern", 0),
        }
    )


def marked(mod: IRModule) -> set[str]:
    return {name for name, f in mod.functions.items() if "marked" in f.attrs}


def test_xdsl_function_pass_skips_external_functions() -> None:
    pass_ = transform.to_pass(MarkFunctions())
    assert pass_.kind == "function"
    assert pass_summary(MarkFunctions)[1] == "function"
    assert marked(pass_(with_external())) == {"main", "not_extern"}


def test_xdsl_function_pass_can_include_external_functions() -> None:
    out = transform.to_pass(MarkAllFunctions())(with_external())
    assert marked(out) == {"main", "accel_0", "skip", "extern", "not_extern"}
