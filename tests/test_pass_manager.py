"""The pass manager: ports of TVM's tests/python/relay/test_pass_manager.py (B.1), the
decorators, FunctionPass rules and transactional passes (gating and `required` are in
test_pass_dependencies.py, PassContext and config in test_pass_config.py).

TVM compares modules with `assert_structural_equal`; here the printed text of a module
built the expected way is compared instead.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import xrelay.passes.pass_manager as pass_manager
from testlib.pass_helpers import (
    Recorder,
    abs_module,
    double_vars,
    function_text,
    identity_pass,
    tagging_pass,
)
from testlib.passes import Fail, Tag

import xrelay
from xrelay import IRModule, relay, transform


def x10(name: str = "x") -> relay.Var:
    return relay.var(name, relay.TensorType((10,), "float32"))


def data(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).uniform(0.5, 2.0, shape).astype("float32")


def log_module() -> IRModule:
    x = x10()
    return IRModule.from_expr(relay.Function([x], relay.log(x)))


def is_tagged(mod: IRModule) -> bool:
    return "tagged" in mod["main"].attrs


# ------------------------------------------------------------------ B.1 ports


def add_abs(mod: IRModule, ctx: transform.PassContext) -> IRModule:
    """OptTester.transform on a module: a new module with myAbs, updated with the input."""
    new = abs_module((5, 10))
    new.update(mod)
    return new


def test_module_pass() -> None:
    x = relay.var("x", shape=(5, 10))
    y = relay.var("y", shape=(5, 10))
    mod = IRModule({"myAdd": relay.Function([x, y], relay.add(x, y))})
    add_before = function_text(mod, "myAdd")

    pass_ = transform.module_pass(opt_level=0, name="module_pass_test")(add_abs)
    assert isinstance(pass_, transform.ModulePass)
    assert pass_.info.name == "module_pass_test"
    assert pass_.info.opt_level == 0
    assert "module_pass_test" in str(pass_)
    assert "module_pass_test" in repr(pass_)

    result = pass_(mod)
    assert sorted(result) == ["myAbs", "myAdd"]
    assert function_text(result, "myAbs") == function_text(abs_module((5, 10)), "myAbs")
    assert function_text(result, "myAdd") == add_before
    a, b = data((5, 10), 1) - 1.25, data((5, 10), 2)
    np.testing.assert_allclose(xrelay.evaluate(result, a, entry="myAbs"), np.abs(a))
    np.testing.assert_allclose(xrelay.evaluate(result, a, b, entry="myAdd"), a + b)


def test_module_pass_without_decorator_is_named_after_the_function() -> None:
    # TVM defines this sub-test but never calls it (a missing `()`).
    pass_ = transform.module_pass(add_abs, opt_level=0)
    assert isinstance(pass_, transform.ModulePass)
    assert pass_.info.name == "add_abs"
    assert "myAbs" in pass_(log_module())


def test_function_class_pass() -> None:
    x = relay.var("x", shape=(10, 20))
    mod = IRModule.from_expr(relay.Function([x], relay.log(x)))
    x1 = relay.var("x", shape=(10, 20))
    f1 = relay.Function([x1], x1)

    @transform.function_pass(opt_level=1)
    class TestReplaceFunc:
        def __init__(self, new_func: relay.Function) -> None:
            self.new_func = new_func

        def transform_function(self, func, mod, ctx):
            return self.new_func

    pass_ = TestReplaceFunc(f1)
    assert isinstance(pass_, transform.FunctionPass)
    assert pass_.info.opt_level == 1
    assert pass_.info.name == "TestReplaceFunc"
    result = pass_(mod)
    assert str(result) == str(IRModule.from_expr(f1))


def test_function_pass() -> None:
    x = x10()
    mod = IRModule({"myLog": relay.Function([x], relay.log(x))})

    @transform.function_pass(opt_level=1, name="function_pass_test")
    def doubling(func, mod, ctx):
        return double_vars(func)

    assert isinstance(doubling, transform.FunctionPass)
    assert doubling.info.name == "function_pass_test"
    assert doubling.info.opt_level == 1
    assert "function_pass_test" in str(doubling)

    result = doubling(mod)
    xe = x10()
    expected = IRModule({"myLog": relay.Function([xe], relay.log(relay.add(xe, xe)))})
    assert str(result) == str(expected)
    v = data((10,))
    np.testing.assert_allclose(xrelay.evaluate(result, v, entry="myLog"), np.log(2 * v), rtol=1e-6)


def test_function_pass_without_decorator_is_named_after_the_function() -> None:
    def direct_transform(func, mod, ctx):
        return func

    pass_ = transform.function_pass(direct_transform, opt_level=0)
    assert isinstance(pass_, transform.FunctionPass)
    assert pass_.info.name == "direct_transform"
    assert pass_.info.opt_level == 0


def test_module_class_pass() -> None:
    x = relay.var("x", shape=(10, 20))
    m1 = IRModule.from_expr(relay.Function([x], x))
    y = relay.var("x", shape=(10, 20))
    m2 = IRModule.from_expr(relay.Function([y], relay.log(y)))

    @transform.module_pass(opt_level=1)
    class TestPipeline:
        """Replace the module with `new_mod`, or keep it."""

        def __init__(self, new_mod: IRModule, replace: bool) -> None:
            self.new_mod = new_mod
            self.replace = replace

        def transform_module(self, mod, ctx):
            return self.new_mod if self.replace else mod

    replacing = TestPipeline(m2, replace=True)
    assert isinstance(replacing, transform.ModulePass)
    assert replacing.info.name == "TestPipeline"
    assert replacing(m1) is m2
    assert TestPipeline(m2, False)(m1) is m1


def test_pass_info() -> None:
    info = transform.PassInfo(opt_level=1, name="xyz")
    assert info.opt_level == 1
    assert info.name == "xyz"
    assert info.required == ()
    assert info.traceable is False
    assert repr(info) == (
        "The meta data of the pass - pass name: xyz, opt_level: 1, required passes: []\n"
    )
    with_required = transform.PassInfo(1, "xyz", ["A", "B"])
    assert with_required.required == ("A", "B")
    assert repr(with_required) == (
        "The meta data of the pass - pass name: xyz, opt_level: 1, required passes: [\nA, B, ]\n"
    )


# test_sequential_pass: {mySub: fn(x, y) { x - y }, myLog: fn(z) { log(z) }}


def sub_log_module() -> IRModule:
    x, y, z = x10("x"), x10("y"), x10("z")
    return IRModule(
        {
            "mySub": relay.Function([x, y], relay.subtract(x, y)),
            "myLog": relay.Function([z], relay.log(z)),
        }
    )


def add_abs10(mod: IRModule, ctx: transform.PassContext) -> IRModule:
    new = abs_module((10,))
    new.update(mod)
    return new


def double_all(func, mod, ctx):
    return double_vars(func)


mod_transform = transform.module_pass(add_abs10, opt_level=1, name="mod_transform")
func_transform = transform.function_pass(double_all, opt_level=1, name="func_transform")


def test_sequential_info() -> None:  # (a)
    seq = transform.Sequential([mod_transform, func_transform], opt_level=2)
    assert seq.info.name == "sequential"
    assert seq.info.opt_level == 2
    assert seq.pass_info is seq.info
    assert seq.passes == [mod_transform, func_transform]
    assert transform.Sequential().info.opt_level == 0


def test_empty_sequential_leaves_module_unchanged() -> None:  # (b)
    mod = sub_log_module()
    before = str(mod)
    assert str(transform.Sequential()(mod)) == before


def test_sequential_required_pass_overrides_opt_level() -> None:  # (c)
    # TVM's (c) runs an opt_level-1 pass at the default opt_level 2, which shows nothing;
    # an opt_level-3 pass does show the gate.
    slow = transform.module_pass(add_abs10, opt_level=3, name="mod_transform3")
    sub_before = function_text(sub_log_module(), "mySub")

    assert "myAbs" not in transform.Sequential([slow])(sub_log_module())
    with transform.PassContext(required_pass=["mod_transform3"]):
        result = transform.Sequential([slow])(sub_log_module())
    assert "myAbs" in result
    assert function_text(result, "mySub") == sub_before
    assert "myAbs" in slow(sub_log_module())  # a direct call is never gated


def test_sequential_function_pass() -> None:  # (d)
    result = transform.Sequential([func_transform])(sub_log_module())
    x, y, z = x10("x"), x10("y"), x10("z")
    expected = IRModule(
        {
            "mySub": relay.Function([x, y], relay.subtract(relay.add(x, x), relay.add(y, y))),
            "myLog": relay.Function([z], relay.log(relay.add(z, z))),
        }
    )
    assert str(result) == str(expected)
    a, b = data((10,), 1), data((10,), 2)
    np.testing.assert_allclose(xrelay.evaluate(result, a, b, entry="mySub"), 2 * a - 2 * b)
    np.testing.assert_allclose(xrelay.evaluate(result, a, entry="myLog"), np.log(2 * a), rtol=1e-6)


def test_sequential_function_pass_sees_function_added_before() -> None:  # (e)
    result = transform.Sequential([mod_transform, func_transform])(sub_log_module())
    a = relay.var("a", shape=(10,))
    expected_abs = abs_module((10,))
    expected_abs["myAbs"] = relay.Function([a], relay.abs(relay.add(a, a)))
    assert function_text(result, "myAbs") == function_text(expected_abs, "myAbs")
    v, w = data((10,), 1) - 1.25, data((10,), 2)
    np.testing.assert_allclose(xrelay.evaluate(result, v, entry="myAbs"), np.abs(2 * v))
    np.testing.assert_allclose(xrelay.evaluate(result, v, w, entry="mySub"), 2 * v - 2 * w)
    np.testing.assert_allclose(xrelay.evaluate(result, w, entry="myLog"), np.log(2 * w), rtol=1e-6)


def test_nested_sequential_default_opt_level_runs_under_low_opt_level() -> None:
    # PR #8634: the inner Sequential defaults to opt_level 0, so opt_level=1 does not skip it.
    inner = transform.Sequential([transform.to_pass(Tag())])
    assert inner.info.opt_level == 0
    with transform.PassContext(opt_level=1):
        result = transform.Sequential([inner])(log_module())
    assert is_tagged(result)


def test_nested_sequential_disabled_by_name() -> None:
    def run(disabled: list[str]) -> tuple[bool, list[str]]:
        recorder = Recorder()
        inner = transform.Sequential([transform.to_pass(Tag())], name="Inner")
        with transform.PassContext(disabled_pass=disabled, instruments=[recorder]):
            result = transform.Sequential([inner])(log_module())
        return is_tagged(result), recorder.ran

    assert run([]) == (True, ["sequential", "Inner", "TestTag"])
    assert run(["Inner"]) == (False, ["sequential"])
    assert run(["TestTag"]) == (False, ["sequential", "Inner"])


def test_print_ir(capfd: pytest.CaptureFixture[str]) -> None:
    x = relay.var("x", shape=(1, 2, 3))
    mod = IRModule.from_expr(relay.Function([x], relay.multiply(relay.add(x, x), relay.const(2.0))))
    before = str(mod)
    result = transform.Sequential([transform.PrintIR("hdr")])(mod)
    out, err = capfd.readouterr()
    assert "PrintIR(hdr):" in err
    assert "relay.multiply" in err
    assert "relay.add" in err
    assert "PrintIR" not in out
    assert str(result) == before


def test_print_debug_callback() -> None:
    @transform.pass_instrument
    class PassCounter:
        def __init__(self) -> None:
            self.counts = 1234

        def enter_pass_ctx(self) -> None:
            self.counts = 0

        def exit_pass_ctx(self) -> None:
            self.counts = 0

        def run_before_pass(self, mod, info) -> None:
            self.counts += 1

    # TVM runs Sequential([InferType, FoldConstant, DeadCodeElimination]) and counts 6:
    # sequential, InferType, FoldConstant, the eager InferType TVM's FunctionPass runs after
    # every function pass, InferType (required by DCE), DCE. xrelay's FunctionPass runs no
    # eager InferType, so the analogous pipeline (a module pass, a function pass, a module
    # pass requiring the first one) counts 5: sequential, CSE, func_transform, CSE (rerun:
    # the function pass changed the module), needs_cse.
    needs_cse = identity_pass("needs_cse", required=["CSE"])
    seq = transform.Sequential([transform.get_pass("CSE"), func_transform, needs_cse])
    counter = PassCounter()
    assert counter.counts == 1234
    with transform.PassContext(opt_level=3, instruments=[counter]):
        assert counter.counts == 0
        seq(sub_log_module())
        assert counter.counts == 5
    assert counter.counts == 0


# ---------------------------------------------------------------- decorators


def test_module_pass_decorator_call_styles() -> None:
    @transform.module_pass(opt_level=2)
    def decorated(mod, ctx):
        return mod

    def plain(mod, ctx):
        return mod

    called = transform.module_pass(plain, opt_level=3, name="renamed", required=("CSE",))
    assert isinstance(decorated, transform.ModulePass)
    assert (decorated.info.name, decorated.info.opt_level) == ("decorated", 2)
    assert isinstance(called, transform.ModulePass)
    assert (called.info.name, called.info.opt_level, called.info.required) == (
        "renamed",
        3,
        ("CSE",),
    )


def test_class_decorator_call_styles() -> None:
    class Keep:
        def transform_module(self, mod, ctx):
            return mod

    class KeepFunc:
        def transform_function(self, func, mod, ctx):
            return func

    module_cls = transform.module_pass(Keep, opt_level=3)
    function_cls = transform.function_pass(opt_level=2)(KeepFunc)
    assert isinstance(module_cls, type)
    assert isinstance(function_cls, type)
    module_pass = module_cls()
    function_pass = function_cls()
    assert isinstance(module_pass, transform.ModulePass)
    assert isinstance(function_pass, transform.FunctionPass)
    assert (module_pass.info.name, module_pass.info.opt_level) == ("Keep", 3)
    assert (function_pass.info.name, function_pass.info.opt_level) == ("KeepFunc", 2)
    mod = log_module()
    assert module_pass(mod) is mod


@pytest.mark.parametrize("kind", ["module", "function"])
def test_decorator_requires_opt_level(kind: str) -> None:
    decorator = transform.module_pass if kind == "module" else transform.function_pass
    with pytest.raises(
        ValueError, match=f"^{re.escape(f'Please provide opt_level for the {kind} pass.')}$"
    ):
        decorator(lambda *args: args[0])
    with pytest.raises(ValueError, match="Please provide opt_level"):
        decorator()


@pytest.mark.parametrize("decorator", [transform.module_pass, transform.function_pass])
def test_decorator_rejects_non_callable(decorator) -> None:
    with pytest.raises(TypeError, match="must be a callable"):
        decorator("not a function", opt_level=1)
    with pytest.raises(TypeError, match="must be a callable"):
        decorator(opt_level=1)(42)


@pytest.mark.parametrize("decorator", [transform.module_pass, transform.function_pass])
@pytest.mark.parametrize("required", ["CSE", {"CSE"}, 3])
def test_decorator_rejects_required_that_is_not_a_list(decorator, required) -> None:
    with pytest.raises(TypeError, match="list/tuple"):
        decorator(lambda *args: args[0], opt_level=1, required=required)


def test_class_without_transform_method_is_rejected_at_decoration() -> None:
    class NoMethod:
        pass

    class WrongMethod:
        def transform_function(self, func, mod, ctx):
            return func

    with pytest.raises(TypeError, match="transform_module"):
        transform.module_pass(opt_level=1)(NoMethod)
    with pytest.raises(TypeError, match="transform_module"):
        transform.module_pass(WrongMethod, opt_level=1)
    with pytest.raises(TypeError, match="transform_function"):
        transform.function_pass(NoMethod, opt_level=1)


def test_decorated_class_keeps_name_doc_and_instance_attributes() -> None:
    @transform.function_pass(opt_level=1)
    class ReplaceFunc:
        """Replace every function by `new_func`."""

        def __init__(self, new_func: relay.Function) -> None:
            self.new_func = new_func

        def transform_function(self, func, mod, ctx):
            return self.new_func

    assert ReplaceFunc.__name__ == "ReplaceFunc"
    assert ReplaceFunc.__doc__ == "Replace every function by `new_func`."
    assert ReplaceFunc.__module__ == __name__
    x = x10()
    new_func = relay.Function([x], relay.abs(x))
    pass_ = ReplaceFunc(new_func)
    assert pass_.new_func is new_func
    with pytest.raises(AttributeError):
        _ = pass_.no_such_attribute
    assert "relay.abs" in str(pass_(log_module()))


# -------------------------------------------------------------- FunctionPass


def external_module() -> IRModule:
    def fn() -> relay.Function:
        x = x10()
        return relay.Function([x], relay.log(x))

    return IRModule(
        {
            "plain": fn(),
            "compiler": fn().with_attr("Compiler", "ccompiler"),
            "extern1": fn().with_attr("Extern", 1),
            "extern0": fn().with_attr("Extern", 0),
            "skip": fn().with_attr("SkipOptimization", 1),
        }
    )


@pytest.mark.parametrize(
    ("include_external", "expected"),
    [
        (False, ["plain", "extern0"]),
        (True, ["plain", "compiler", "extern1", "extern0", "skip"]),
    ],
)
def test_function_pass_skips_external_functions(
    include_external: bool, expected: list[str]
) -> None:
    visited: list[str] = []

    def visit(func, mod, ctx):
        visited.append(func.op.sym_name.data)
        return double_vars(func)

    mod = external_module()
    before = {name: function_text(mod, name) for name in mod}
    pass_ = transform.function_pass(visit, opt_level=0, include_external=include_external)
    result = pass_(mod)
    assert visited == expected
    for name, text in before.items():
        changed = function_text(result, name) != text
        assert changed == (name in expected), name


def test_function_pass_updates_after_visiting_all() -> None:
    seen: list[str] = []
    x, y = x10("x"), x10("y")
    mod = IRModule({"f": relay.Function([x], relay.log(x)), "g": relay.Function([y], relay.abs(y))})
    original = str(mod)

    def visit(func, mod, ctx):
        seen.append(str(mod))
        return double_vars(func)

    result = transform.function_pass(visit, opt_level=0)(mod)
    assert seen == [original, original]
    assert str(result).count("relay.add") == 2


def test_function_pass_adding_a_function_fails_and_rolls_back() -> None:
    def add_function(func, mod, ctx):
        x = x10()
        mod["extra"] = relay.Function([x], relay.abs(x))
        return double_vars(func)

    mod = log_module()
    before = str(mod)
    with pytest.raises(transform.PassError, match=r"'adder'.*added or removed functions"):
        transform.function_pass(add_function, opt_level=0, name="adder")(mod)
    assert str(mod) == before


def test_function_pass_removing_a_function_fails_and_rolls_back() -> None:
    x, y = x10("x"), x10("y")
    mod = IRModule({"f": relay.Function([x], relay.log(x)), "g": relay.Function([y], relay.abs(y))})
    before = str(mod)

    def remove_other(func, mod, ctx):
        if func.op.sym_name.data == "g":
            first = next(iter(mod.module.ops))
            mod.module.body.block.erase_op(first)
        return func

    with pytest.raises(transform.PassError, match="'remover'"):
        transform.function_pass(remove_other, opt_level=0, name="remover")(mod)
    assert str(mod) == before


# -------------------------------------------------------------- transactions


def test_failing_pass_rolls_back_and_names_the_pass() -> None:
    mod = log_module()
    before = str(mod)
    with pytest.raises(transform.PassError) as caught:
        transform.to_pass(Fail(kind="crash"))(mod)
    assert str(mod) == before
    assert "half_done" not in str(mod)
    assert "'TestFail'" in str(caught.value)
    assert caught.value.info.name == "TestFail"
    assert isinstance(caught.value.__cause__, ValueError)
    assert str(caught.value.__cause__) == "test-fail: deliberate crash"


def test_failing_python_pass_rolls_back() -> None:
    boom = RuntimeError("boom")

    @transform.module_pass(opt_level=0)
    def half_done(mod, ctx):
        x = x10()
        mod["main"] = relay.Function([x], relay.abs(x))
        raise boom

    mod = log_module()
    before = str(mod)
    with pytest.raises(
        transform.PassError, match="pass 'half_done' failed: RuntimeError: boom"
    ) as caught:
        half_done(mod)
    assert caught.value.__cause__ is boom
    assert str(mod) == before


def test_failure_inside_sequential_restores_module_before_the_sequential() -> None:
    mod = log_module()
    before = str(mod)
    with pytest.raises(transform.PassError, match="'TestFail'") as caught:
        transform.Sequential([Tag(), Fail(kind="crash")])(mod)
    assert str(mod) == before
    assert not is_tagged(mod)
    assert isinstance(caught.value.__cause__, ValueError)


@transform.module_pass(opt_level=0, name="keep_as_is")
def keep_as_is(mod: IRModule, ctx: transform.PassContext) -> IRModule:
    return mod


def count_snapshots(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the pass manager's snapshot clones from now on (one list item per clone)."""
    taken: list[int] = []
    real = pass_manager.take_snapshot

    def counted(module):
        taken.append(1)
        return real(module)

    monkeypatch.setattr(pass_manager, "take_snapshot", counted)
    return taken


def test_a_sequential_takes_one_snapshot_for_all_its_passes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    taken = count_snapshots(monkeypatch)
    mod = log_module()
    inner = transform.Sequential([keep_as_is, Tag()])
    new = transform.Sequential([keep_as_is, Tag(), keep_as_is, inner, keep_as_is])(mod)
    # The copy the top-level call works on; it is also the outer Sequential's snapshot (the
    # untouched input is the state to return to), and nested passes and Sequentials take none.
    assert len(taken) == 1
    assert is_tagged(new)
    assert not is_tagged(mod)
    taken.clear()
    transform.Sequential([keep_as_is, Tag(), keep_as_is, inner]).run_in_place(mod)
    assert len(taken) == 1  # in place: the outer Sequential's snapshot
    assert is_tagged(mod)


def test_a_failure_under_one_snapshot_names_the_pass_and_restores_the_module() -> None:
    mod = log_module()
    before = str(mod)
    inner = transform.Sequential([Tag(), Fail(kind="crash")])
    with pytest.raises(transform.PassError, match="'TestFail'") as caught:
        transform.Sequential([keep_as_is, Tag(), inner])(mod)
    assert str(mod) == before
    # The module kept is the one before the Sequential whose snapshot served the pass.
    assert caught.value.module_before is not None
    assert caught.value.module_before == str(log_module())


def test_unchanged_passes_share_one_snapshot(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With a crash reproducer each pass snapshots (the reproducer holds the module before
    the failing pass itself); unchanged passes still share one."""
    taken = count_snapshots(monkeypatch)
    mod = log_module()
    config = {"transform.crash_reproducer": str(tmp_path / "r.mlir")}
    with transform.PassContext(config=config):
        transform.Sequential([keep_as_is, keep_as_is, Tag(), keep_as_is]).run_in_place(mod)
    # The two keep_as_is and Tag start from the same IR: one clone; Tag changes it, so the
    # last keep_as_is takes a second.
    assert len(taken) == 2
    assert is_tagged(mod)


@pytest.mark.parametrize("unchanged", [1, 2])
def test_failure_after_unchanged_passes_restores_the_module(unchanged: int) -> None:
    # The failing pass reuses the Sequential's own snapshot: restored once, not emptied.
    mod = log_module()
    before = str(mod)
    with pytest.raises(transform.PassError, match="'TestFail'"):
        transform.Sequential([*[keep_as_is] * unchanged, Fail(kind="crash")])(mod)
    assert str(mod) == before
    inner = transform.Sequential([keep_as_is, Fail(kind="crash")])
    with pytest.raises(transform.PassError, match="'TestFail'"):
        transform.Sequential([keep_as_is, Tag(), keep_as_is, inner])(mod)
    assert str(mod) == before
    assert not is_tagged(mod)


def test_non_transactional_failure_keeps_the_half_done_change() -> None:
    # The trade-off: no snapshot per pass, so a failing pass leaves its partial change.
    mod = log_module()
    with (
        transform.PassContext(config={"transform.transactional": False}),
        pytest.raises(transform.PassError, match="'TestFail'"),
    ):
        transform.Sequential([Tag(), Fail(kind="crash")]).run_in_place(mod)
    assert is_tagged(mod)
    assert "half_done" in str(mod)


def test_non_transactional_reproducer_still_keeps_the_half_done_change(tmp_path) -> None:
    path = tmp_path / "r.mlir"
    mod = log_module()
    config = {"transform.transactional": False, "transform.crash_reproducer": str(path)}
    with (
        transform.PassContext(config=config),
        pytest.raises(transform.PassError, match="'TestFail'"),
    ):
        transform.to_pass(Fail(kind="crash")).run_in_place(mod)
    assert "half_done" in str(mod)
    assert str(log_module()) in path.read_text()


@pytest.mark.parametrize("transactional", [True, False])
def test_immutable_module_check(transactional: bool) -> None:
    config = {"testing.immutable_module": True, "transform.transactional": transactional}
    mod = log_module()
    before = str(mod)
    with transform.PassContext(config=config):
        assert identity_pass("Untouched")(mod) is mod
        assert transform.Sequential([identity_pass("Untouched")])(mod) is mod
        with pytest.raises(
            transform.PassError, match="Immutable module has been modified in pass: Changer"
        ):
            tagging_pass("Changer")(mod)
    if transactional:
        assert str(mod) == before


def test_crash_reproducer(tmp_path) -> None:
    path = tmp_path / "r.mlir"
    mod = log_module()
    with (
        transform.PassContext(config={"transform.crash_reproducer": str(path)}),
        pytest.raises(transform.PassError) as caught,
    ):
        transform.Sequential([Tag(), Fail(kind="crash")])(mod)
    assert caught.value.reproducer == str(path)
    text = path.read_text()
    assert "-p 'test-fail{kind=\"crash\"}'" in text
    assert "test-fail: deliberate crash" in text
    tagged = transform.to_pass(Tag())(log_module())
    assert str(tagged) in text  # the module before the failing pass
    assert str(xrelay.parse(text)) == str(tagged)


def test_a_pass_call_leaves_its_input_as_it_was() -> None:
    """TVM's contract at the Python API: `new = pass_(mod)` does not change `mod`, whatever
    the pass (module, Sequential, nested), the setting (transactional or not, reproducer)
    and the outcome (changed, unchanged: then the input itself, failed)."""
    configs: list[dict[str, object]] = [
        {},
        {"transform.transactional": False},
        {"testing.immutable_module": False, "transform.crash_reproducer": ""},
    ]
    for config in configs:
        with transform.PassContext(config=config):
            mod = log_module()
            before = str(mod)
            for pass_ in (
                transform.to_pass(Tag()),
                transform.Sequential([keep_as_is, Tag()]),
                transform.Sequential([transform.Sequential([Tag()]), keep_as_is]),
            ):
                new = pass_(mod)
                assert str(mod) == before
                assert is_tagged(new)
                assert new is not mod
            assert transform.Sequential([keep_as_is])(mod) is mod
            with pytest.raises(transform.PassError):
                transform.Sequential([Tag(), Fail(kind="crash")])(mod)
            assert str(mod) == before
