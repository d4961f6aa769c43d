"""`PassContext`: defaults, scoping, the per-thread stack, and typed config options
(ports of TVM's test_node_reflection.py::test_pass_config and test_list_pass_configs).

Registered config keys cannot be unregistered, so this file uses its own `test.pc.*` keys.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable

import pytest
from xrelay.passes.pass_context import PassContext

from xrelay import transform

transform.register_pass_config_option("test.pc.Opt", int, default=7, description="an int option")


@transform.register_pass_config_option("test.pc.UnrollLike")
@dataclasses.dataclass
class UnrollLike:
    """Options shaped like TVM's `tir.UnrollLoop`."""

    auto_max_step: int = 0
    explicit_unroll: bool = True


def in_thread(work: Callable[[], object]) -> object:
    """The value `work()` returns when run in a new thread."""
    results: list[object] = []
    thread = threading.Thread(target=lambda: results.append(work()))
    thread.start()
    thread.join()
    assert len(results) == 1, "the thread raised"
    return results[0]


# ------------------------------------------------------------------- context


def test_defaults() -> None:
    ctx = PassContext()
    assert ctx.opt_level == 2
    assert ctx.required_pass == []
    assert ctx.disabled_pass == []
    assert ctx.instruments == []
    assert ctx.config == {}
    assert transform.PassContext is PassContext


def test_with_returns_the_context_and_current_is_it_inside_only() -> None:
    outside = PassContext.current()
    ctx = PassContext(opt_level=3)
    with ctx as entered:
        assert entered is ctx
        assert PassContext.current() is ctx
    assert PassContext.current() is not ctx
    assert PassContext.current() is outside


def test_nesting_restores_the_outer_context() -> None:
    with PassContext(opt_level=1) as outer:
        with PassContext(opt_level=3) as inner:
            assert PassContext.current() is inner
        assert PassContext.current() is outer
        assert PassContext.current().opt_level == 1


def test_default_context_is_opt_level_2() -> None:
    assert PassContext.current().opt_level == 2
    assert PassContext.current() is PassContext.current()


def test_context_is_thread_local() -> None:
    with PassContext(opt_level=3) as ctx:
        other = in_thread(PassContext.current)
        assert PassContext.current() is ctx
    assert isinstance(other, PassContext)
    assert other is not ctx
    assert other.opt_level == 2


def test_each_thread_has_its_own_default_context() -> None:
    mine = PassContext.current()
    theirs = in_thread(PassContext.current)
    assert theirs is not mine
    assert isinstance(theirs, PassContext)
    assert theirs.opt_level == 2


def test_override_instruments_on_a_thread_default_stays_in_that_thread() -> None:
    instrument = transform.PassInstrument()

    def override() -> list[object]:
        default = PassContext.current()
        default.override_instruments([instrument])
        installed = list(PassContext.current().instruments)
        default.override_instruments(None)
        return installed

    assert in_thread(override) == [instrument]
    assert PassContext.current().instruments == []


def test_entered_context_is_not_seen_by_another_thread() -> None:
    entered = threading.Event()
    release = threading.Event()
    seen: list[PassContext] = []

    def hold() -> None:
        with PassContext(opt_level=3) as ctx:
            seen.append(ctx)
            entered.set()
            release.wait()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert entered.wait(timeout=10)
        assert PassContext.current() is not seen[0]
        assert PassContext.current().opt_level == 2
    finally:
        release.set()
        thread.join()


def test_exiting_out_of_order_raises() -> None:
    outer, inner = PassContext(), PassContext()
    outer.__enter__()
    inner.__enter__()
    try:
        with pytest.raises(RuntimeError, match="out of order"):
            outer.__exit__(None, None, None)
        assert PassContext.current() is inner
    finally:
        inner.__exit__(None, None, None)
        outer.__exit__(None, None, None)
    assert PassContext.current() is not outer
    with pytest.raises(RuntimeError):
        outer.__exit__(None, None, None)


def test_repr() -> None:
    ctx = PassContext(opt_level=3, disabled_pass=["CSE"])
    text = repr(ctx)
    assert text.startswith("Pass context information")
    assert "opt_level: 3" in text
    assert "disabled passes: ['CSE']" in text


def test_pass_lists_accept_any_iterable() -> None:
    ctx = PassContext(required_pass=("a", "b"), disabled_pass=(n for n in ["c"]))
    assert ctx.required_pass == ["a", "b"]
    assert ctx.disabled_pass == ["c"]


def test_opt_level_must_be_an_int() -> None:
    with pytest.raises(TypeError, match="opt_level"):
        PassContext(opt_level="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="opt_level"):
        PassContext(opt_level=True)


# -------------------------------------------------------------------- config


def test_pass_config_dict_builds_options_with_defaults() -> None:
    ctx = PassContext(opt_level=1, config={"test.pc.UnrollLike": {"auto_max_step": 10}})
    options = ctx.config["test.pc.UnrollLike"]
    assert isinstance(options, UnrollLike)
    assert options.auto_max_step == 10
    assert options.explicit_unroll is True


def test_pass_config_accepts_an_options_instance() -> None:
    options = UnrollLike(auto_max_step=3, explicit_unroll=False)
    ctx = PassContext(config={"test.pc.UnrollLike": options})
    assert ctx.config["test.pc.UnrollLike"] is options


@pytest.mark.parametrize(
    "config",
    [
        {"test.pc.UnrollLike": {"invalid": 1}},
        {"inavlid-opt": True},
        {"test.pc.UnrollLike": 1},
        {"test.pc.UnrollLike": {"auto_max_step": "ten"}},
        {"test.pc.UnrollLike": {"explicit_unroll": 1}},
        {"test.pc.Opt": "abc"},
        {"test.pc.Opt": True},
        {"test.pc.Opt": 1.5},
        {"transform.transactional": 1},
    ],
)
def test_invalid_config_raises_attribute_error(config: dict[str, object]) -> None:
    with pytest.raises(AttributeError):
        PassContext(config=config)


def test_unknown_config_key_lists_registered_keys() -> None:
    with pytest.raises(AttributeError, match="Invalid config option 'inavlid-opt'") as caught:
        PassContext(config={"inavlid-opt": True})
    message = str(caught.value)
    assert "candidates are:" in message
    for key in ("test.pc.Opt", "test.pc.UnrollLike", "transform.transactional"):
        assert key in message


def test_none_config_value_raises() -> None:
    with pytest.raises(AttributeError, match=r"test\.pc\.Opt is None"):
        PassContext(config={"test.pc.Opt": None})


def test_wrong_scalar_type_message_names_key_and_type() -> None:
    with pytest.raises(AttributeError, match=r"expect config test\.pc\.Opt to have type int"):
        PassContext(config={"test.pc.Opt": "abc"})


def test_get_config() -> None:
    ctx = PassContext(config={"test.pc.Opt": 3})
    assert ctx.get_config("test.pc.Opt", 5) == 3
    assert PassContext().get_config("test.pc.Opt", 5) == 5
    # Without a default, the registered one (7); an unregistered key gives None.
    assert PassContext().get_config("test.pc.Opt") == 7
    assert PassContext().get_config("test.pc.NeverRegistered") is None


def test_list_configs() -> None:
    configs = PassContext.list_configs()
    assert configs["transform.transactional"]["type"] == "IntImm"  # TVM's type keys
    assert configs["transform.transactional"]["default"] is True
    assert configs["testing.immutable_module"]["type"] == "IntImm"
    assert configs["transform.crash_reproducer"]["type"] == "runtime.String"
    assert configs["test.pc.Opt"] == {
        "type": "IntImm",
        "default": 7,
        "description": "an int option",
    }
    assert configs["test.pc.UnrollLike"]["type"] == "UnrollLike"
    assert (
        configs["test.pc.UnrollLike"]["description"]
        == "Options shaped like TVM's `tir.UnrollLoop`."
    )


def test_reregistering_a_key() -> None:
    # The same type again is a no-op: the first default and description stay.
    transform.register_pass_config_option("test.pc.Opt", int, default=99, description="other")
    assert PassContext.list_configs()["test.pc.Opt"] == {
        "type": "IntImm",
        "default": 7,
        "description": "an int option",
    }
    with pytest.raises(ValueError, match="already registered with type int"):
        transform.register_pass_config_option("test.pc.Opt", str)
    assert PassContext.list_configs()["test.pc.Opt"]["type"] == "IntImm"


def test_config_value_type_must_be_scalar_or_dataclass() -> None:
    with pytest.raises(TypeError, match="value type"):
        transform.register_pass_config_option("test.pc.BadType", list)
    assert "test.pc.BadType" not in PassContext.list_configs()
