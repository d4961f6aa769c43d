"""Which passes run: opt_level / required_pass / disabled_pass gating, the pass registry
(lookup by TVM name or flag, registering Python and xDSL passes) and `required`
resolution (transitive order, cycles, reruns, TVM-compatible mode)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import ClassVar

import pytest
from testlib.pass_helpers import Recorder, identity_pass, tagging_pass
from testlib.passes import Tag
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass as XdslModulePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

import xrelay
from xrelay import IRModule, relay, transform

TVM_COMPAT = {"transform.resolve_required": False}


@pytest.fixture
def register() -> Iterator[Callable[..., object]]:
    """`transform.register_pass`, undoing every registration when the test ends."""
    before = {entry.flag for entry in transform.registered_passes()}
    yield transform.register_pass
    for entry in transform.registered_passes():
        if entry.flag not in before:
            transform.unregister_pass(entry.flag)


def log_module() -> IRModule:
    x = relay.var("x", shape=(3,))
    return IRModule.from_expr(relay.Function([x], relay.log(x)))


def is_tagged(mod: IRModule) -> bool:
    return "tagged" in mod["main"].attrs


def run(seq: transform.Pass, config: dict[str, object] | None = None, **kw: object) -> list[str]:
    """The passes that ran (by name) when `seq` ran on a fresh module."""
    recorder = Recorder()
    with transform.PassContext(instruments=[recorder], config=config, **kw):
        seq(log_module())
    return recorder.ran


# -------------------------------------------------------------------- gating


def test_disabled_wins_over_required() -> None:
    with transform.PassContext(required_pass=["TestTag"], disabled_pass=["TestTag"]):
        assert not is_tagged(transform.Sequential([Tag()])(log_module()))


@pytest.mark.parametrize("name", ["test-tag", "TestTag"])
def test_disabled_pass_matches_name_or_flag(name: str) -> None:
    assert is_tagged(transform.Sequential([Tag()])(log_module()))
    with transform.PassContext(disabled_pass=[name]):
        assert not is_tagged(transform.Sequential([Tag()])(log_module()))


@pytest.mark.parametrize("name", ["test-tag", "TestTag"])
def test_required_pass_matches_name_or_flag(name: str) -> None:
    with transform.PassContext(opt_level=0):
        assert not is_tagged(transform.Sequential([Tag()])(log_module()))
    with transform.PassContext(opt_level=0, required_pass=[name]):
        assert is_tagged(transform.Sequential([Tag()])(log_module()))


def test_opt_level_gates_only_inside_sequential() -> None:
    tag = transform.to_pass(Tag())
    assert tag.info.opt_level == 1
    with transform.PassContext(opt_level=0):
        assert not is_tagged(transform.Sequential([tag])(log_module()))
        assert is_tagged(tag(log_module()))
    with transform.PassContext(opt_level=1):
        assert is_tagged(transform.Sequential([tag])(log_module()))


def test_direct_call_ignores_disabled_pass() -> None:
    recorder = Recorder()
    with transform.PassContext(disabled_pass=["TestTag", "sequential"], instruments=[recorder]):
        assert is_tagged(transform.to_pass(Tag())(log_module()))
        # The Sequential itself is called directly (not gated); its member is gated.
        assert not is_tagged(transform.Sequential([Tag()])(log_module()))
    assert recorder.ran == ["TestTag", "sequential"]


# ------------------------------------------------------------------ registry


def test_get_pass_by_flag_or_name() -> None:
    by_flag = transform.get_pass("cse")
    by_name = transform.get_pass("CSE")
    assert isinstance(by_flag, transform.XdslPass)
    assert isinstance(by_name, transform.XdslPass)
    assert type(by_flag.xdsl_pass) is type(by_name.xdsl_pass) is CommonSubexpressionElimination
    assert by_flag.info == by_name.info
    assert by_flag.info.name == "CSE"


def test_get_pass_unknown_name() -> None:
    with pytest.raises(transform.PassDependencyError, match="'no-such-pass' is not a registered"):
        transform.get_pass("no-such-pass")


def test_registered_function_pass_resolves_by_flag_and_name(register) -> None:
    @transform.function_pass(opt_level=1, name="TestDoubleLog")
    def double_log(func, mod, ctx):
        return relay.Function(func.params, relay.log(func.body))

    assert register(double_log) is double_log
    assert transform.get_pass("TestDoubleLog") is double_log
    assert transform.get_pass("test-double-log") is double_log
    text = str(transform.get_pass("test-double-log")(log_module()))
    assert text.count("relay.log") == 2


def test_registered_pass_usable_in_required(register) -> None:
    @transform.module_pass(opt_level=0, name="TestTagMain")
    def tag_main(mod, ctx):
        mod["main"] = mod["main"].with_attr("tag_main", 1)
        return mod

    register(tag_main)
    user = identity_pass("User", required=["test-tag-main"])
    recorder = Recorder()
    with transform.PassContext(instruments=[recorder]):
        result = transform.Sequential([user])(log_module())
    assert recorder.ran == ["sequential", "TestTagMain", "User"]
    assert result["main"].attrs["tag_main"] == 1


def test_unregister_pass(register) -> None:
    register(identity_pass("TestGone"))
    transform.unregister_pass("test-gone")
    with pytest.raises(transform.PassDependencyError):
        transform.get_pass("TestGone")
    with pytest.raises(KeyError):
        transform.unregister_pass("TestGone")


def test_register_twice_is_an_error(register) -> None:
    register(identity_pass("TestTwice"))
    with pytest.raises(ValueError, match="already registered"):
        register(identity_pass("TestTwice"))


def test_xdsl_pass_runs_in_sequential_under_instruments() -> None:
    mod = xrelay.parse(
        """builtin.module {
  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = relay.log %x : tensor<3xf32>
    %1 = relay.abs %x : tensor<3xf32>
    func.return %1 : tensor<3xf32>
  }
}
"""
    )
    recorder = Recorder()
    with transform.PassContext(instruments=[recorder]):
        result = transform.Sequential([DeadCodeElimination()])(mod)
    assert recorder.ran == ["sequential", "DCE"]
    assert "relay.log" not in str(result)
    assert "relay.abs" in str(result)


@dataclass(frozen=True)
class SlowPass(XdslModulePass):
    """An xDSL pass declaring its TVM metadata as class variables."""

    name = "test-slow-pass"
    opt_level: ClassVar[int] = 3
    required: ClassVar[tuple[str, ...]] = ("CSE", "dce")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


def test_xdsl_pass_class_variables_become_pass_info(register) -> None:
    info = transform.to_pass(SlowPass()).info
    assert info.opt_level == 3
    assert info.required == ("CSE", "dce")
    assert info.name == "TestSlowPass"
    register(SlowPass)
    assert transform.get_pass("test-slow-pass").info == info
    # Gated at the default opt_level 2; its requirements run before it at opt_level 3.
    assert run(transform.Sequential([SlowPass()])) == ["sequential"]
    assert run(transform.Sequential([SlowPass()]), opt_level=3) == [
        "sequential",
        "CSE",
        "DCE",
        "TestSlowPass",
    ]


# ---------------------------------------------------------------- resolution


@pytest.fixture
def chain(register) -> transform.Pass:
    """DepC requires DepB requires DepA (all registered); returns DepC."""
    register(identity_pass("DepA"))
    register(identity_pass("DepB", required=["DepA"]))
    return register(identity_pass("DepC", required=["dep-b"]))


def test_required_resolved_transitively_in_order(chain) -> None:
    assert run(transform.Sequential([chain])) == ["sequential", "DepA", "DepB", "DepC"]


def test_resolve_required_function(chain) -> None:
    assert [p.info.name for p in transform.resolve_required(chain.info)] == ["DepA", "DepB"]


def test_tvm_compat_required_is_not_transitive(chain) -> None:
    assert run(transform.Sequential([chain]), TVM_COMPAT) == ["sequential", "DepB", "DepC"]


def test_dependency_cycle_fails_before_any_pass_runs(register) -> None:
    register(identity_pass("CycA", required=["CycB"]))
    register(identity_pass("CycB", required=["cyc-a"]))
    tag = transform.to_pass(Tag())
    mod = log_module()
    before = str(mod)
    recorder = Recorder()
    with (
        transform.PassContext(instruments=[recorder]),
        pytest.raises(transform.PassDependencyError, match="CycA -> CycB -> CycA"),
    ):
        transform.Sequential([tag, transform.get_pass("CycA")])(mod)
    assert recorder.ran == ["sequential"]
    assert str(mod) == before


def test_self_dependency_is_a_cycle(register) -> None:
    register(identity_pass("SelfDep", required=["SelfDep"]))
    with pytest.raises(transform.PassDependencyError, match="SelfDep -> SelfDep"):
        transform.Sequential([transform.get_pass("SelfDep")])(log_module())


@pytest.mark.parametrize("config", [None, TVM_COMPAT])
def test_unknown_required_names_the_requirer(config) -> None:
    needs = identity_pass("Needy", required=["NoSuchPass"])
    with (
        transform.PassContext(config=config),
        pytest.raises(transform.PassDependencyError, match="'Needy' requires 'NoSuchPass'"),
    ):
        transform.Sequential([needs])(log_module())


def test_unknown_required_in_nested_sequential_is_not_wrapped() -> None:
    inner = transform.Sequential([identity_pass("Needy", required=["NoSuchPass"])])
    with pytest.raises(transform.PassDependencyError, match="'Needy' requires 'NoSuchPass'"):
        transform.Sequential([inner])(log_module())


def test_dependency_error_inside_a_pass_body_is_that_pass_failure() -> None:
    @transform.module_pass(opt_level=0)
    def runs_bad_pipeline(mod, ctx):
        return transform.Sequential([identity_pass("Needy", required=["NoSuchPass"])])(mod)

    with pytest.raises(transform.PassError, match="'runs_bad_pipeline'") as caught:
        transform.Sequential([runs_bad_pipeline])(log_module())
    assert isinstance(caught.value.__cause__, transform.PassDependencyError)


def test_direct_call_does_not_run_required() -> None:
    recorder = Recorder()
    with transform.PassContext(instruments=[recorder]):
        identity_pass("Needy", required=["NoSuchPass"])(log_module())
    assert recorder.ran == ["Needy"]


def test_dependency_not_rerun_while_module_unchanged(register) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([identity_pass("U1", ["Dep"]), identity_pass("U2", ["Dep"])])
    assert run(seq) == ["sequential", "Dep", "U1", "U2"]


def test_changing_dependency_not_rerun_while_module_unchanged() -> None:
    # test-tag changes the module the first time; nothing changes it after that.
    seq = transform.Sequential(
        [identity_pass("U1", ["test-tag"]), identity_pass("U2", ["TestTag"])]
    )
    assert run(seq) == ["sequential", "TestTag", "U1", "U2"]


def test_dependency_rerun_after_a_pass_changed_the_module(register) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([tagging_pass("Changer", ["Dep"]), identity_pass("U2", ["Dep"])])
    assert run(seq) == ["sequential", "Dep", "Changer", "Dep", "U2"]


def test_listed_pass_counts_as_a_dependency_run(register) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([transform.get_pass("Dep"), identity_pass("U1", ["Dep"])])
    assert run(seq) == ["sequential", "Dep", "U1"]


def test_tvm_compat_reruns_required_before_every_pass(register) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([identity_pass("U1", ["Dep"]), identity_pass("U2", ["Dep"])])
    assert run(seq, TVM_COMPAT) == ["sequential", "Dep", "U1", "Dep", "U2"]


@pytest.mark.parametrize("config", [None, TVM_COMPAT])
def test_required_dependency_runs_even_when_disabled(register, config) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([identity_pass("U1", ["Dep"])])
    assert run(seq, config, disabled_pass=["Dep"]) == ["sequential", "Dep", "U1"]
    # Disabling the requiring pass skips its dependencies too.
    assert run(seq, config, disabled_pass=["U1"]) == ["sequential"]


def test_dependencies_of_a_skipped_pass_do_not_run(register) -> None:
    register(identity_pass("Dep"))
    seq = transform.Sequential([identity_pass("Slow", ["Dep"], opt_level=3)])
    assert run(seq) == ["sequential"]
