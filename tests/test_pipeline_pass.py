"""Named pipelines (`XdslPipelinePass`): an xDSL pass with options that runs as a Sequential."""

from __future__ import annotations

import pytest
import testlib.passes  # noqa: F401  (registers the test-* passes)
from testlib.pass_helpers import Recorder
from testlib.passes import Pipeline
from xdsl.passes import PassPipeline
from xrelay.dialects.parser import make_context

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
    with pytest.raises(transform.PassError, match="pass 'TestFail' failed"):
        transform.to_pass(Failing())(mod)
    assert str(mod) == before
