"""Depth: recursion in the interpreter, recursion on the C target, memory errors, deep IR.

The interpreter runs calls and regions on its own frame stack (a recursion
10,000 calls deep works, a deeper one is a located error); the C target
rejects any call cycle before building; a result that cannot be allocated is
a located error; IR nested deeper than xDSL's recursive walks can follow is a
`NestingTooDeepError`, and a long flat chain never recurses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.deep_ir import builder_ifs, negation_chain, nested_ifs, nested_tuples
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects import interpreter
from xrelay.dialects.depth import NestingTooDeepError
from xrelay.dialects.diagnostics import DiagnosticError, check_module
from xrelay.dialects.interpreter import MAX_CALL_DEPTH, EvaluationError, Evaluator
from xrelay.dialects.ir_module import IRModule, function_from_op
from xrelay.dialects.relay.elementwise import NegativeOp
from xrelay.dialects.walk import Nested, trampoline
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import PassDiagnosticError, Sequential
from xrelay.tools.run_main import RunMain

import xrelay
from xrelay import transform

COUNTDOWN = """\
func.func @countdown(%n: tensor<i32>) -> tensor<i32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.less_equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<i32> {
    relay.yield %n : tensor<i32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : tensor<i32>
    %c = func.call @countdown(%m) : (tensor<i32>) -> tensor<i32>
    relay.yield %c : tensor<i32>
  }
  func.return %r : tensor<i32>
}
func.func @main(%n: tensor<i32>) -> tensor<i32> {
  %c = func.call @countdown(%n) : (tensor<i32>) -> tensor<i32>
  func.return %c : tensor<i32>
}
"""

SELF_RECURSIVE = """\
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = func.call @main(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c : tensor<2xf32>
}
"""

MUTUAL = """\
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c : tensor<2xf32>
}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c : tensor<2xf32>
}
func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c : tensor<2xf32>
}
"""

# 2^24 x 2^24 f32: 2^50 bytes, more than any address space holds.
HUGE_ZEROS = """\
func.func @main() -> tensor<16777216x16777216xf32> {
  %z = relay.zeros {shape = [16777216, 16777216], dtype = f32} : tensor<16777216x16777216xf32>
  func.return %z : tensor<16777216x16777216xf32>
}
"""


def int32(value: int) -> np.ndarray[Any, Any]:
    return np.array(value, dtype=np.int32)


# ------------------------------------------------------------- interpreter


def test_recursion_deeper_than_pythons_stack_runs() -> None:
    """5,000 nested calls (each through a relay.if) are far beyond Python's recursion limit."""
    mod = xrelay.parse(COUNTDOWN, "countdown.mlir")
    assert int(xrelay.evaluate(mod, int32(5000))) == 0
    assert int(xrelay.evaluate(mod, int32(3))) == 0


def test_recursion_deeper_than_the_limit_is_a_located_error() -> None:
    mod = xrelay.parse(COUNTDOWN, "countdown.mlir")
    evaluator = Evaluator(mod.module, max_call_depth=50)
    assert evaluator.call("main", [int32(49)])[0] == 0  # main + 49 countdowns + the base case
    with pytest.raises(EvaluationError) as info:
        evaluator.call("main", [int32(60)])
    assert str(info.value) == (
        "countdown.mlir:9:10: error: 'func.call' op call depth exceeds 50 "
        "(infinite recursion?) in @countdown"
    )
    with pytest.raises(EvaluationError, match="call depth exceeds 20 "):
        xrelay.evaluate(mod, int32(60), max_call_depth=20)


def test_self_recursive_main_stops_at_the_default_limit() -> None:
    mod = xrelay.parse(SELF_RECURSIVE, "self.mlir")
    with pytest.raises(DiagnosticError) as info:
        xrelay.evaluate(mod, np.zeros(2, np.float32))
    assert isinstance(info.value, EvaluationError)
    assert str(info.value) == (
        f"self.mlir:2:8: error: 'func.call' op call depth exceeds {MAX_CALL_DEPTH} "
        "(infinite recursion?) in @main"
    )


def test_nested_ifs_run_without_python_recursion() -> None:
    """1,000 nested relay.if regions: verified and evaluated on the interpreter's own stack."""
    mod = nested_ifs(1000)
    check_module(mod.module)
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(xrelay.evaluate(mod, np.array(True), x), -x)
    np.testing.assert_array_equal(xrelay.evaluate(mod, np.array(False), x), x)


def test_builder_nests_ifs_deeper_than_pythons_stack() -> None:
    """The builder emits (and function passes rebuild) nested ifs without Python recursion."""
    mod = builder_ifs(600)
    check_module(mod.module)
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(xrelay.evaluate(mod, np.array(True), x), x + 600)
    np.testing.assert_array_equal(xrelay.evaluate(mod, np.array(False), x), x)
    main = mod.module.body.block.first_op
    assert isinstance(main, func.FuncOp)
    again = IRModule.from_expr(function_from_op(main))
    np.testing.assert_array_equal(xrelay.evaluate(again, np.array(True), x), x + 600)


def test_trampoline_raises_into_the_caller() -> None:
    """A sub-procedure's exception reaches the procedure that yielded it: its `finally` runs
    and it may catch it."""
    log: list[str] = []

    def inner(n: int) -> Nested[int]:
        if n == 0:
            raise ValueError("bottom")
        try:
            return (yield inner(n - 1)) + 1
        finally:
            log.append(f"left {n}")

    def outer() -> Nested[str]:
        try:
            yield inner(3000)
        except ValueError as error:
            return f"caught {error}"
        return "not raised"

    assert trampoline(outer()) == "caught bottom"
    assert log == [f"left {n}" for n in range(1, 3001)]
    assert trampoline(_count(5000)) == 5000


def _count(n: int) -> Nested[int]:
    return (yield _count(n - 1)) + 1 if n else 0


def test_unallocatable_result_is_a_located_error() -> None:
    mod = xrelay.parse(HUGE_ZEROS, "zeros.mlir")
    with pytest.raises(EvaluationError) as info:
        xrelay.evaluate(mod)
    assert str(info.value) == (
        f"zeros.mlir:2:8: error: 'relay.zeros' op cannot allocate {2**50} bytes for its result "
        "(out of memory)"
    )
    assert not isinstance(info.value, MemoryError)


def test_memory_error_without_a_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain MemoryError (not numpy's, so no size) is still a located one-line error."""

    def exhausted(ev: Evaluator, op: Any, args: list[Any]) -> Any:
        raise MemoryError()

    monkeypatch.setitem(interpreter._REFERENCE, NegativeOp, exhausted)  # pyright: ignore[reportPrivateUsage]
    mod = xrelay.parse(
        "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
        "  %0 = relay.negative %x : tensor<2xf32>\n"
        "  func.return %0 : tensor<2xf32>\n"
        "}\n",
        "neg.mlir",
    )
    with pytest.raises(EvaluationError, match=r"^neg.mlir:2:8: error: 'relay.negative' op ran out"):
        xrelay.evaluate(mod, np.zeros(2, np.float32))


# ------------------------------------------------------------ the C target


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            SELF_RECURSIVE,
            "m.mlir:2:8: error: 'func.call' op recursive call to @main: "
            "the C target does not support recursion",
        ),
        (
            MUTUAL,
            "m.mlir:10:8: error: 'func.call' op recursive call to @f: "
            "the C target does not support recursion (calls @f -> @g -> @f)",
        ),
        (
            COUNTDOWN.replace("countdown.mlir", ""),
            "m.mlir:9:10: error: 'func.call' op recursive call to @countdown: "
            "the C target does not support recursion",
        ),
    ],
)
def test_c_target_rejects_recursion_before_any_pass(text: str, message: str) -> None:
    ran: list[str] = []

    class Record(transform.PassInstrument):
        def run_before_pass(self, mod: IRModule, info: transform.PassInfo) -> None:
            ran.append(info.name)

    mod = xrelay.parse(text, "m.mlir")
    with PassContext(instruments=[Record()]), pytest.raises(DiagnosticError) as info:
        xrelay.build(mod, target="c")
    assert str(info.value) == message
    assert ran == []


# ------------------------------------------------------------------ deep IR


def failure(step: Callable[[], object]) -> DiagnosticError | None:
    """The DiagnosticError `step` raises, None if it works (a RecursionError fails the test)."""
    try:
        step()
    except DiagnosticError as error:
        return error
    return None


DEEP: dict[str, Callable[[Path], object]] = {
    "ifs-print": lambda _: str(nested_ifs(500)),
    "tuples-print": lambda _: str(nested_tuples(2000)),
    "builder-ifs-optimize": lambda _: xrelay.optimize(builder_ifs(500)),
    "ifs-optimize": lambda _: xrelay.optimize(nested_ifs(500)),
    "ifs-build": lambda tmp: xrelay.build(
        nested_ifs(500), target="c", options={"cache_dir": str(tmp), "cflags": ["-O0"]}
    ),
    "tuples-optimize": lambda _: xrelay.optimize(nested_tuples(2000)),
    "tuples-build": lambda tmp: xrelay.build(
        nested_tuples(2000), target="c", options={"cache_dir": str(tmp), "cflags": ["-O0"]}
    ),
}


@pytest.mark.parametrize("case", DEEP)
def test_deep_ir_from_python_works_or_is_too_deep(case: str, tmp_path: Path) -> None:
    """It works, or stops with a NestingTooDeepError (raised in a pass: the cause of a
    PassDiagnosticError), never with a RecursionError."""
    error = failure(lambda: DEEP[case](tmp_path))
    if isinstance(error, PassDiagnosticError):
        assert isinstance(error.cause, NestingTooDeepError)
        assert str(error).startswith("IR nested too deep for this pass (depth ")
    elif error is not None:
        assert isinstance(error, NestingTooDeepError)
        assert str(error).startswith("IR nested too deep for ")


def test_tuples_deeper_than_pythons_stack_evaluate() -> None:
    """Tuple values are conformed to their types on an explicit stack (1,500 > the recursion
    limit; conforming each level again makes this quadratic, so not larger)."""
    x = np.array([3.0, 4.0], np.float32)
    np.testing.assert_array_equal(xrelay.evaluate(nested_tuples(1500), x), x)


def test_xrelay_build_of_deep_ifs_names_the_depth() -> None:
    with pytest.raises(NestingTooDeepError) as info:
        xrelay.build(nested_ifs(500), target="c")
    assert str(info.value) == (
        "IR nested too deep for xrelay.build (depth 502, more than Python's stack allows)"
    )


def test_xrelay_run_reports_deep_ir_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Deep IR (as if the parser had accepted it) is exit status 1 and one line."""
    monkeypatch.setattr(RunMain, "read_module", lambda self: nested_ifs(500))  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path))
    assert RunMain.main(["-", "--target", "c"]) == 1
    err = capsys.readouterr().err
    assert re.match(r"xrelay-run: error: '[a-z.]+' op IR nested too deep for xrelay.build ", err)
    assert err.count("\n") == 1


def test_recursion_in_a_pass_is_too_deep_and_rolls_back() -> None:
    """A RecursionError in a pass is the IR's depth, not a crash: a DiagnosticError naming
    the pass, and the module as it was."""

    def recurse(mod: IRModule, ctx: PassContext) -> IRModule:
        mod.module.body.block.first_op.detach()  # pyright: ignore[reportOptionalMemberAccess]

        def down(n: int) -> int:
            return down(n + 1)

        down(0)
        return mod

    mod = nested_ifs(3)
    before = str(mod)
    deep = transform.module_pass(recurse, opt_level=0, name="Recurse")
    with pytest.raises(PassDiagnosticError) as info:
        Sequential([deep])(mod)
    assert isinstance(info.value, DiagnosticError)
    assert info.value.pass_name == "recurse"
    assert str(info.value) == (
        "IR nested too deep for this pass (depth 5, more than Python's stack allows) "
        "(in pass 'recurse')"
    )
    assert str(mod) == before


def test_long_chain_never_recurses() -> None:
    """100,000 ops in a row: built, verified, printed and evaluated without recursion."""
    mod = negation_chain(100_000)
    check_module(mod.module)
    assert str(mod).count("relay.negative") == 100_000
    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_array_equal(xrelay.evaluate(mod, x), x)


def test_chain_longer_than_the_recursion_limit_optimizes_and_builds(tmp_path: Path) -> None:
    mod = negation_chain(5_001)
    x = np.array([1.0, 2.0], np.float32)
    lib = xrelay.build(mod, target="c", options={"cache_dir": str(tmp_path), "cflags": ["-O0"]})
    np.testing.assert_array_equal(lib(x), -x)
    assert isinstance(xrelay.optimize(mod).module, ModuleOp)
