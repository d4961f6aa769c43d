"""Pass instruments: TVM's `tests/python/relay/test_pass_instrument.py` and the printing instruments.

The event strings are TVM's (`shared/tvm-semantics.md` A.13, B.2, B.3). TVM's
AnnotateSpans, ToANormalForm and InferType passes do not exist in xrelay; the
tests use identity module passes with those names (`tvm_passes`), since only
the names matter to the instruments.
"""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator

import pytest
import testlib.passes  # noqa: F401  (registers the test-* passes)
from testlib.pass_helpers import get_test_model

from xrelay import IRModule, relay, transform
from xrelay.instrument import (
    PassInstrument,
    PassPrintingInstrument,
    PassTimingInstrument,
    PrintAfterAll,
    PrintBeforeAll,
    pass_instrument,
)
from xrelay.transform import PassContext, PassInfo

# ----------------------------------------------------------------- helpers


def get_add_model() -> IRModule:
    """`x + y` with `f32[3,4]` (TVM's `test_run_after_exception` model)."""
    x = relay.var("x", shape=(3, 4))
    y = relay.var("y", shape=(3, 4))
    return IRModule.from_expr(relay.Function([x, y], relay.add(x, y)))


def identity_pass(name: str, opt_level: int = 0) -> transform.Pass:
    """A module pass that returns its input, named `name`."""

    def body(mod: IRModule, ctx: PassContext) -> IRModule:
        return mod

    return transform.module_pass(body, opt_level=opt_level, name=name)


def tvm_passes() -> list[transform.Pass]:
    """Stand-ins for TVM's AnnotateSpans, ToANormalForm and InferType (identity passes)."""
    return [identity_pass(name) for name in ("AnnotateSpans", "ToANormalForm", "InferType")]


def run_tvm_passes(mod: IRModule) -> IRModule:
    for pass_ in tvm_passes():
        mod = pass_(mod)
    return mod


@pass_instrument
class Recorder:
    """Records every hook call as `<hook> <pass name>` (and `enter`/`exit`)."""

    def __init__(self) -> None:
        self.events: list[str] = []

    def enter_pass_ctx(self) -> None:
        self.events.append("enter")

    def exit_pass_ctx(self) -> None:
        self.events.append("exit")

    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        self.events.append(f"should_run {info.name}")
        return True

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(f"before {info.name}")

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(f"after {info.name}")


@pytest.fixture
def default_ctx() -> Iterator[PassContext]:
    """The thread's default context, left with no instruments whatever the test does."""
    ctx = PassContext.current()
    assert ctx.instruments == []
    try:
        yield ctx
    finally:
        try:
            ctx.override_instruments(None)
        finally:
            ctx.instruments = []


# ------------------------------------------------------- custom instruments


class BaseTest:
    def __init__(self) -> None:
        self.events: list[str] = []

    def enter_pass_ctx(self) -> None:
        self.events.append("enter ctx")

    def exit_pass_ctx(self) -> None:
        self.events.append("exit ctx")

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append("run before " + info.name)

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append("run after " + info.name)


def get_test_instrument(definition: str) -> BaseTest:
    if definition == "decorator":
        return pass_instrument(BaseTest)()

    class MyTest(BaseTest, PassInstrument):
        def __init__(self) -> None:
            BaseTest.__init__(self)
            PassInstrument.__init__(self)

    return MyTest()


@pytest.mark.parametrize("definition", ["decorator", "subclass"])
def test_custom_instrument(definition: str) -> None:
    instrument = get_test_instrument(definition)
    assert isinstance(instrument, PassInstrument)
    infer_type = identity_pass("InferType")
    with PassContext(instruments=[instrument]):
        infer_type(get_test_model())
    assert instrument.events == [
        "enter ctx",
        "run before InferType",
        "run after InferType",
        "exit ctx",
    ]


def test_pass_instrument_keeps_class_name_and_is_its_repr() -> None:
    instrument = pass_instrument(BaseTest)()
    assert instrument.name == "BaseTest"
    assert repr(instrument) == "BaseTest"


def test_disable_pass() -> None:
    @pass_instrument
    class CustomPI:
        def __init__(self) -> None:
            self.run_before_events: list[str] = []

        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            # Only run passes whose name contains "InferType".
            return "InferType" in info.name

        def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
            self.run_before_events.append(info.name)

    instrument = CustomPI()
    with PassContext(instruments=[instrument]):
        run_tvm_passes(get_test_model())
    assert instrument.run_before_events == ["InferType"]


def test_skipped_pass_returns_its_input_without_running() -> None:
    @pass_instrument
    class SkipAll:
        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            return False

    ran: list[str] = []

    @transform.module_pass(opt_level=0, name="Marker")
    def marker(mod: IRModule, ctx: PassContext) -> IRModule:
        ran.append("marker")
        return get_add_model()

    mod = get_test_model()
    with PassContext(instruments=[SkipAll()]):
        assert marker(mod) is mod
    assert ran == []


def test_multiple_instrument() -> None:
    @pass_instrument
    class SkipPass:
        def __init__(self, skip_pass_name: str) -> None:
            self.skip_pass_name = skip_pass_name
            self.calls = 0

        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            self.calls += 1
            return self.skip_pass_name not in info.name

    @pass_instrument
    class PrintPassName:
        def __init__(self) -> None:
            self.events: list[str] = []
            self.calls = 0

        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            self.calls += 1
            return True

        def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
            self.events.append(info.name)

    skip_annotate = SkipPass("AnnotateSpans")
    skip_anf = SkipPass("ToANormalForm")
    print_pass_name = PrintPassName()
    with PassContext(instruments=[skip_annotate, skip_anf, print_pass_name]):
        run_tvm_passes(get_test_model())
    assert print_pass_name.events == ["InferType"]
    # No short-circuit: every instrument is asked about every pass.
    assert (skip_annotate.calls, skip_anf.calls, print_pass_name.calls) == (3, 3, 3)


def test_instrument_pass_counts() -> None:
    @pass_instrument
    class PassesCounter:
        def __init__(self) -> None:
            self.run_before_count = 0
            self.run_after_count = 0

        def __clear(self) -> None:
            self.run_before_count = 0
            self.run_after_count = 0

        def enter_pass_ctx(self) -> None:
            self.__clear()

        def exit_pass_ctx(self) -> None:
            self.__clear()

        def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
            self.run_before_count += 1

        def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
            self.run_after_count += 1

    counter = PassesCounter()
    # TVM runs relay.build here; a small pipeline does the same job.
    pipeline = transform.Sequential(
        [transform.get_pass("cse"), transform.get_pass("dce"), *tvm_passes()]
    )
    with PassContext(instruments=[counter]):
        pipeline(get_test_model())
        # sequential + its five passes
        assert counter.run_after_count == counter.run_before_count == 6
    assert counter.run_before_count == 0
    assert counter.run_after_count == 0


# ------------------------------------------------------------ required_pass


def test_required_pass_skips_should_run_but_not_before_after() -> None:
    recorder = Recorder()
    infer_type, annotate = identity_pass("InferType"), identity_pass("AnnotateSpans")
    with PassContext(required_pass=["InferType"], instruments=[recorder]):
        mod = infer_type(get_test_model())
        annotate(mod)
    assert recorder.events == [
        "enter",
        "before InferType",
        "after InferType",
        "should_run AnnotateSpans",
        "before AnnotateSpans",
        "after AnnotateSpans",
        "exit",
    ]


def test_required_pass_given_as_flag_never_asks_should_run() -> None:
    @pass_instrument
    class SkipAll:
        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            raise AssertionError("should_run must not be asked about a required pass")

    ran: list[str] = []

    @transform.module_pass(opt_level=0, name="InferType")
    def infer_type(mod: IRModule, ctx: PassContext) -> IRModule:
        ran.append(ctx.required_pass[0])
        return mod

    with PassContext(required_pass=["infer-type"], instruments=[SkipAll()]):
        infer_type(get_test_model())
    assert ran == ["infer-type"]


# --------------------------------------------------------- nested invocations


def test_sequential_invocations_nest_inside_the_sequential() -> None:
    recorder = Recorder()
    seq = transform.Sequential([identity_pass("A"), identity_pass("B")], name="Outer")
    with PassContext(instruments=[recorder]):
        seq(get_test_model())
    assert recorder.events == [
        "enter",
        "should_run Outer",
        "before Outer",
        "should_run A",
        "before A",
        "after A",
        "should_run B",
        "before B",
        "after B",
        "after Outer",
        "exit",
    ]


def test_pass_called_inside_a_pass_goes_through_instruments() -> None:
    recorder = Recorder()
    inner = identity_pass("Inner")

    @transform.module_pass(opt_level=0, name="Outer")
    def outer(mod: IRModule, ctx: PassContext) -> IRModule:
        return inner(mod)

    with PassContext(instruments=[recorder]):
        outer(get_test_model())
    assert recorder.events == [
        "enter",
        "should_run Outer",
        "before Outer",
        "should_run Inner",
        "before Inner",
        "after Inner",
        "after Outer",
        "exit",
    ]


def test_sequential_gating_happens_before_instruments() -> None:
    """A pass the Sequential skips by opt_level never reaches the instruments."""
    recorder = Recorder()
    seq = transform.Sequential([identity_pass("Low", 1), identity_pass("High", 3)])
    with PassContext(opt_level=2, instruments=[recorder]):
        seq(get_test_model())
    assert "should_run High" not in recorder.events
    assert "before High" not in recorder.events
    assert "before Low" in recorder.events


# ------------------------------------------------------ exception semantics


class PI(PassInstrument):
    """Records enter/exit as `<id> enter ctx` / `<id> exit ctx` into a shared list."""

    def __init__(self, id: str, events: list[str]) -> None:
        super().__init__()
        self.id = id
        self.events = events

    def enter_pass_ctx(self) -> None:
        self.events.append(self.id + " enter ctx")

    def exit_pass_ctx(self) -> None:
        self.events.append(self.id + " exit ctx")


class PIEnterBroken(PI):
    def enter_pass_ctx(self) -> None:
        self.events.append(self.id + " enter ctx")
        raise RuntimeError("Just a dummy error")


class PIExitBroken(PI):
    def exit_pass_ctx(self) -> None:
        self.events.append(self.id + " exit ctx")
        raise RuntimeError("Just a dummy error")


class PIShouldRunBroken(PI):
    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        self.events.append(self.id + " should_run")
        raise RuntimeError("Just a dummy error")


class PIBeforeBroken(PI):
    def should_run(self, mod: IRModule, info: PassInfo) -> bool:
        self.events.append(self.id + " should_run")
        return True

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(self.id + " run_before_pass")
        raise RuntimeError("Just a dummy error")


class PIAfterBroken(PIBeforeBroken):
    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(self.id + " run_before_pass")

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(self.id + " run_after_pass")
        raise RuntimeError("Just a dummy error")


class PICall(PIBeforeBroken):
    """Every hook recorded, none raising."""

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(self.id + " run_before_pass")

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.events.append(self.id + " run_after_pass")


def recording_pass(name: str, events: list[str], label: str = "transform pass") -> transform.Pass:
    def body(mod: IRModule, ctx: PassContext) -> IRModule:
        events.append(label)
        return mod

    return transform.module_pass(body, opt_level=2, name=name)


def test_enter_pass_ctx_exception() -> None:
    events: list[str] = []
    ctx = PassContext(instruments=[PI("%1", events), PIEnterBroken("%2", events), PI("%3", events)])
    with pytest.raises(RuntimeError, match="Just a dummy error"), ctx:
        pass
    assert events == ["%1 enter ctx", "%2 enter ctx", "%1 exit ctx"]
    assert PassContext.current() is not ctx
    assert PassContext.current().instruments == []
    assert ctx.instruments == []


def test_enter_pass_ctx_exception_exits_entered_instruments_in_reverse() -> None:
    events: list[str] = []
    ctx = PassContext(instruments=[PI("%1", events), PI("%2", events), PIEnterBroken("%3", events)])
    with pytest.raises(RuntimeError, match="Just a dummy error"), ctx:
        pass
    assert events == ["%1 enter ctx", "%2 enter ctx", "%3 enter ctx", "%2 exit ctx", "%1 exit ctx"]
    assert ctx.instruments == []


def test_enter_pass_ctx_exception_global(default_ctx: PassContext) -> None:
    events: list[str] = []
    with pytest.raises(RuntimeError, match="Just a dummy error"):
        default_ctx.override_instruments([PI("%1", events), PIEnterBroken("%2", events)])
    assert events == ["%1 enter ctx", "%2 enter ctx", "%1 exit ctx"]
    assert default_ctx.instruments == []
    assert PassContext.current() is default_ctx


def test_exit_pass_ctx_exception() -> None:
    events: list[str] = []
    ctx = PassContext(instruments=[PI("%1", events), PIExitBroken("%2", events), PI("%3", events)])
    with pytest.raises(RuntimeError, match="Just a dummy error"), ctx:
        events.clear()
    assert events == ["%1 exit ctx", "%2 exit ctx"]
    assert PassContext.current() is not ctx
    assert ctx.instruments == []
    assert PassContext.current().instruments == []


def test_exit_pass_ctx_exception_global(default_ctx: PassContext) -> None:
    events: list[str] = []
    broken = PIExitBroken("%1", events)
    default_ctx.override_instruments([broken])
    assert default_ctx.instruments == [broken]
    with pytest.raises(RuntimeError, match="Just a dummy error"):
        default_ctx.override_instruments([broken])
    assert events == ["%1 enter ctx", "%1 exit ctx"]  # the new list was not entered
    assert default_ctx.instruments == []


def test_override_instruments_exits_old_and_enters_new(default_ctx: PassContext) -> None:
    events: list[str] = []
    default_ctx.override_instruments([PI("%1", events)])
    default_ctx.override_instruments([PI("%2", events), PI("%3", events)])
    default_ctx.override_instruments(None)
    assert events == [
        "%1 enter ctx",
        "%1 exit ctx",
        "%2 enter ctx",
        "%3 enter ctx",
        "%2 exit ctx",
        "%3 exit ctx",
    ]
    assert default_ctx.instruments == []


def test_pass_exception() -> None:
    events: list[str] = []

    @pass_instrument
    class PIAll:
        def enter_pass_ctx(self) -> None:
            events.append("enter_pass_ctx")

        def exit_pass_ctx(self) -> None:
            events.append("exit_pass_ctx")

        def should_run(self, mod: IRModule, info: PassInfo) -> bool:
            events.append("should_run")
            return True

        def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
            events.append("run_before_pass")

        def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
            events.append("run_after_pass")

    dummy = RuntimeError("Just a dummy error")

    @transform.module_pass(opt_level=2)
    def transform_pass(mod: IRModule, ctx: PassContext) -> IRModule:
        events.append("transform pass")
        raise dummy

    with pytest.raises(transform.PassError) as info, PassContext(instruments=[PIAll()]):
        transform_pass(get_test_model())
    assert events == [
        "enter_pass_ctx",
        "should_run",
        "run_before_pass",
        "transform pass",
        "exit_pass_ctx",
    ]
    assert info.value.__cause__ is dummy
    assert info.value.info.name == "transform_pass"
    assert "transform_pass" in str(info.value)
    assert "Just a dummy error" in str(info.value)


def test_should_run_exception() -> None:
    events: list[str] = []
    first, second = PIShouldRunBroken("%1", events), PIShouldRunBroken("%2", events)
    transform_pass = recording_pass("transform", events)
    ctx = PassContext(instruments=[first, second])
    with pytest.raises(RuntimeError, match="Just a dummy error"), ctx:
        transform_pass(get_test_model())
    assert events == [
        "%1 enter ctx",
        "%2 enter ctx",
        "%1 should_run",
        "%1 exit ctx",
        "%2 exit ctx",
    ]
    assert ctx.instruments == [first, second]  # not cleared


def test_run_before_exception() -> None:
    events: list[str] = []
    transform_pass = recording_pass("transform", events)
    with (
        pytest.raises(RuntimeError, match="Just a dummy error"),
        PassContext(instruments=[PIBeforeBroken("%1", events), PIBeforeBroken("%2", events)]),
    ):
        transform_pass(get_test_model())
    assert events == [
        "%1 enter ctx",
        "%2 enter ctx",
        "%1 should_run",
        "%2 should_run",
        "%1 run_before_pass",
        "%1 exit ctx",
        "%2 exit ctx",
    ]


def test_run_after_exception() -> None:
    events: list[str] = []
    transform_pass = recording_pass("transform", events)
    with (
        pytest.raises(RuntimeError, match="Just a dummy error") as info,
        PassContext(instruments=[PIAfterBroken("%1", events), PIAfterBroken("%2", events)]),
    ):
        transform_pass(get_add_model())
    assert type(info.value) is RuntimeError  # an instrument's error is not wrapped
    assert events == [
        "%1 enter ctx",
        "%2 enter ctx",
        "%1 should_run",
        "%2 should_run",
        "%1 run_before_pass",
        "%2 run_before_pass",
        "transform pass",
        "%1 run_after_pass",
        "%1 exit ctx",
        "%2 exit ctx",
    ]


def test_instrument_error_inside_sequential_is_not_wrapped() -> None:
    events: list[str] = []
    seq = transform.Sequential([recording_pass("transform", events)])
    with (
        pytest.raises(RuntimeError, match="Just a dummy error") as info,
        PassContext(instruments=[PIAfterBroken("%1", events)]),
    ):
        seq(get_add_model())
    assert type(info.value) is RuntimeError


def test_instrument_call_sequence() -> None:
    events: list[str] = []
    transform1 = recording_pass("transform1", events, "transform1 pass")
    transform2 = recording_pass("transform2", events, "transform2 pass")
    mod = get_test_model()
    with PassContext(instruments=[PICall("%1", events), PICall("%2", events)]):
        mod = transform1(mod)
        mod = transform2(mod)

    def one_pass(n: int) -> list[str]:
        return [
            "%1 should_run",
            "%2 should_run",
            "%1 run_before_pass",
            "%2 run_before_pass",
            f"transform{n} pass",
            "%1 run_after_pass",
            "%2 run_after_pass",
        ]

    assert events == [
        "%1 enter ctx",
        "%2 enter ctx",
        *one_pass(1),
        *one_pass(2),
        "%1 exit ctx",
        "%2 exit ctx",
    ]


# ------------------------------------------------------------------ timing

LINE = re.compile(
    r"^(\t*)(\S+): (\d+)us \[(\d+)us\] \((\d+\.\d\d)%; (\d+\.\d\d)%\)$",
)


def profile_lines(text: str) -> list[tuple[int, str, int, int, float, float]]:
    """Parse render() output: (depth, name, total, self, % of top-level total, % of parent)."""
    rows: list[tuple[int, str, int, int, float, float]] = []
    assert text.endswith("\n")
    for line in text.splitlines():
        match = LINE.match(line)
        assert match is not None, f"bad profile line: {line!r}"
        tabs, name, total, self_, of_top, of_parent = match.groups()
        rows.append((len(tabs), name, int(total), int(self_), float(of_top), float(of_parent)))
    return rows


def test_pass_timing_instrument(default_ctx: PassContext) -> None:
    """TVM's test: `override_instruments(None)` takes the instrument out and clears its
    profile (`render()` is `""`), as TVM's. One deliberate difference stays: leaving a
    `with` block keeps the profile (TVM clears it in `exit_pass_ctx`), so `render()`
    works after the block, and entering again starts an empty profile.
    """
    instrument = PassTimingInstrument()
    default_ctx.override_instruments([instrument])
    run_tvm_passes(get_test_model())
    profiles = PassTimingInstrument.render()
    for name in ("AnnotateSpans", "ToANormalForm", "InferType"):
        assert name in profiles
    assert [row[1] for row in profile_lines(profiles)] == [
        "AnnotateSpans",
        "ToANormalForm",
        "InferType",
    ]

    default_ctx.override_instruments(None)
    run_tvm_passes(get_test_model())  # not timed: no instruments
    assert PassTimingInstrument.render() == ""
    assert instrument.render() == ""

    with PassContext(instruments=[instrument]):
        assert PassTimingInstrument.render() == ""
        identity_pass("Again")(get_test_model())
    assert [row[1] for row in profile_lines(instrument.render())] == ["Again"]


def test_pass_timing_render_format_and_nesting() -> None:
    instrument = PassTimingInstrument()
    seq = transform.Sequential([identity_pass("A"), identity_pass("B")], name="Seq")
    with PassContext(instruments=[instrument]):
        seq(get_test_model())
    rows = profile_lines(PassTimingInstrument.render())
    assert [(depth, name) for depth, name, *_ in rows] == [(0, "Seq"), (1, "A"), (1, "B")]
    for _, _, total, self_, of_top, of_parent in rows:
        assert 0 <= self_ <= total
        assert 0.0 <= of_parent <= 100.0
        assert 0.0 <= of_top <= 100.0
    # The only top-level pass is all of the time, both ways.
    assert rows[0][4:] == (100.0, 100.0)
    # Children of the only top-level pass: % of all == % of parent, and they add up to <= 100.
    assert rows[1][4] == rows[1][5]
    assert rows[1][5] + rows[2][5] <= 100.0 + 0.01


def test_pass_timing_top_level_percentages_add_up() -> None:
    instrument = PassTimingInstrument()
    with PassContext(instruments=[instrument]):
        for name in ("A", "B", "C"):
            identity_pass(name)(get_test_model())
    rows = profile_lines(instrument.render())
    assert [row[0] for row in rows] == [0, 0, 0]
    assert all(row[4] == row[5] for row in rows)
    assert sum(row[4] for row in rows) == pytest.approx(100.0, abs=0.02)


def test_pass_timing_percent_of_parent_and_of_all() -> None:
    """A child's first percentage is of all top-level time, its second of its parent's."""

    def slow(mod: IRModule, ctx: PassContext) -> IRModule:
        time.sleep(0.02)
        return mod

    instrument = PassTimingInstrument()
    seq = transform.Sequential([identity_pass("A")], name="Seq")
    with PassContext(instruments=[instrument]):
        seq(get_test_model())
        transform.module_pass(slow, opt_level=0, name="Slow")(get_test_model())
    rows = profile_lines(instrument.render())
    assert [(depth, name) for depth, name, *_ in rows] == [(0, "Seq"), (1, "A"), (0, "Slow")]
    (_, _, _, _, seq_top, _), (_, _, _, _, a_top, a_parent), slow_row = rows
    assert slow_row[2] >= 20000
    assert slow_row[4] > 50.0
    assert seq_top + slow_row[4] == pytest.approx(100.0, abs=0.02)
    # A is most of Seq's time but a sliver of all the time.
    assert a_parent > a_top
    assert a_top == pytest.approx(a_parent * seq_top / 100, abs=0.05)


def test_pass_timing_closes_a_failed_pass_on_exit() -> None:
    """A pass that raised never reaches run_after_pass; exiting the context closes its entry."""

    def broken(mod: IRModule, ctx: PassContext) -> IRModule:
        raise RuntimeError("Just a dummy error")

    instrument = PassTimingInstrument()
    seq = transform.Sequential(
        [identity_pass("A"), transform.module_pass(broken, opt_level=0, name="Broken")],
        name="Seq",
    )
    with pytest.raises(transform.PassError), PassContext(instruments=[instrument]):
        seq(get_test_model())
    rows = profile_lines(instrument.render())
    assert [(depth, name) for depth, name, *_ in rows] == [(0, "Seq"), (1, "A"), (1, "Broken")]


def test_pass_timing_after_a_failed_pass_later_passes_are_not_nested_in_it() -> None:
    def broken(mod: IRModule, ctx: PassContext) -> IRModule:
        raise RuntimeError("Just a dummy error")

    broken_pass = transform.module_pass(broken, opt_level=0, name="Broken")

    @transform.module_pass(opt_level=0, name="Outer")
    def outer(mod: IRModule, ctx: PassContext) -> IRModule:
        with pytest.raises(transform.PassError):
            broken_pass(mod)
        return mod

    instrument = PassTimingInstrument()
    mod = get_test_model()
    with PassContext(instruments=[instrument]):
        with pytest.raises(transform.PassError):
            broken_pass(mod)
        identity_pass("After")(mod)
        outer(mod)
        time.sleep(0.05)
        identity_pass("Last")(mod)
    rows = profile_lines(instrument.render())
    assert [(depth, name) for depth, name, *_ in rows] == [
        (0, "Broken"),
        (0, "After"),
        (0, "Outer"),
        (1, "Broken"),
        (0, "Last"),
    ]
    # Outer ended when it returned, not when the next pass started.
    assert rows[2][2] < 50000


def test_pass_timing_render_inside_a_pass_is_an_error() -> None:
    seen: list[str] = []

    @transform.module_pass(opt_level=0, name="Peek")
    def peek(mod: IRModule, ctx: PassContext) -> IRModule:
        with pytest.raises(RuntimeError, match="still in a pass"):
            PassTimingInstrument.render()
        seen.append("peeked")
        return mod

    with PassContext(instruments=[PassTimingInstrument()]):
        peek(get_test_model())
    assert seen == ["peeked"]
    assert "Peek" in PassTimingInstrument.render()


def test_pass_timing_render_on_class_is_last_entered_instrument() -> None:
    first, second = PassTimingInstrument(), PassTimingInstrument()
    with PassContext(instruments=[first]):
        identity_pass("First")(get_test_model())
    with PassContext(instruments=[second]):
        identity_pass("Second")(get_test_model())
    assert "Second" in PassTimingInstrument.render()
    assert "First" not in PassTimingInstrument.render()
    assert "First" in first.render()
    assert "Second" not in first.render()


def test_pass_timing_times_nested_calls_as_children() -> None:
    inner = identity_pass("Inner")

    @transform.module_pass(opt_level=0, name="Outer")
    def outer(mod: IRModule, ctx: PassContext) -> IRModule:
        return inner(mod)

    instrument = PassTimingInstrument()
    with PassContext(instruments=[instrument]):
        outer(get_test_model())
    rows = profile_lines(instrument.render())
    assert [(depth, name) for depth, name, *_ in rows] == [(0, "Outer"), (1, "Inner")]


# ---------------------------------------------------------------- printing


def test_print_all_passes_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    mod = get_test_model()
    seq = transform.Sequential([transform.get_pass("test-tag"), identity_pass("InferType")])
    with PassContext(instruments=[PrintBeforeAll(), PrintAfterAll()]):
        seq(mod)
    out = capsys.readouterr().out
    assert "Before Running Pass:" in out
    assert "After Running Pass:" in out
    for name in ("sequential", "TestTag", "InferType"):
        assert f"pass name: {name}," in out
    assert out.count("Before Running Pass:") == 3
    assert out.count("After Running Pass:") == 3
    assert "relay.multiply" in out
    assert 'attributes {tagged = "yes"}' in out  # printed after TestTag


def test_print_before_all_prints_module_before_the_pass() -> None:
    before, after = io.StringIO(), io.StringIO()
    mod = get_test_model()
    original = str(mod)
    with PassContext(instruments=[PrintBeforeAll(file=before), PrintAfterAll(file=after)]):
        new = transform.get_pass("test-tag")(mod)
    assert before.getvalue() == f"Before Running Pass: {PassInfo(1, 'TestTag')}\n{original}\n"
    assert after.getvalue() == f"After Running Pass: {PassInfo(1, 'TestTag')}\n{new}\n"
    assert str(mod) == original
    assert "tagged" not in before.getvalue()
    assert "tagged" in after.getvalue()


def test_print_all_passes_to_file_leaves_stdout_alone(capsys: pytest.CaptureFixture[str]) -> None:
    stream = io.StringIO()
    with PassContext(instruments=[PrintBeforeAll(file=stream), PrintAfterAll(file=stream)]):
        identity_pass("InferType")(get_test_model())
    assert capsys.readouterr().out == ""
    text = stream.getvalue()
    assert "Before Running Pass:" in text
    assert "After Running Pass:" in text
    assert "pass name: InferType" in text
    assert "relay.divide" in text


def test_pass_printing_instrument(capsys: pytest.CaptureFixture[str]) -> None:
    passes = [identity_pass("A"), identity_pass("B")]
    with PassContext(instruments=[PassPrintingInstrument(["A"], ["B"])]):
        for pass_ in passes:
            pass_(get_test_model())
    out = capsys.readouterr().out
    assert out.count("Print IR before: A\n") == 1
    assert out.count("Print IR after: B\n") == 1
    assert "Print IR after: A" not in out
    assert "Print IR before: B" not in out
    assert out.count("relay.divide") == 2
    assert out.index("Print IR before: A") < out.index("Print IR after: B")


def test_pass_printing_instrument_takes_flags() -> None:
    stream = io.StringIO()
    instrument = PassPrintingInstrument(["annotate-spans"], ["test-tag"], file=stream)
    mod = get_test_model()
    with PassContext(instruments=[instrument]):
        identity_pass("AnnotateSpans")(mod)
        transform.get_pass("test-tag")(mod)
    text = stream.getvalue()
    assert "Print IR before: AnnotateSpans\n" in text
    assert "Print IR after: TestTag\n" in text
    assert "Print IR after: AnnotateSpans" not in text
    assert "Print IR before: TestTag" not in text
    assert 'tagged = "yes"' in text


def test_print_ir(capfd: pytest.CaptureFixture[str]) -> None:
    mod = get_test_model()
    text = str(mod)
    result = transform.PrintIR("hdr")(mod)
    captured = capfd.readouterr()
    assert result is mod
    assert str(result) == text
    assert captured.err.startswith("PrintIR(hdr):\n")
    assert text in captured.err
    assert captured.out == ""
