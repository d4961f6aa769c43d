"""The fast path for printed relay op lines (`dialects/relay_lines.py`) reads every text as
xDSL's parser does: the same module (ops, properties, attributes, types, names and
locations, compared as generic text with locations) or the same diagnostics. Inputs: every
relay op's round-trip file, as written and as printed (custom form, with and without
`loc(...)`), and seeded mutations of them (the text fuzzer's mutator)."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.diagnostics import DiagnosticError, format_diagnostics, verify_located
from xrelay.dialects.parser import LocatingParser, make_context, parse_module
from xrelay.tools.files import split_input
from xrelay.tools.fuzz_text_mutate import Mutator, render, tokenize

ROOT = Path(__file__).parent / "filecheck" / "dialects" / "relay"


def printed(text: str, debuginfo: bool, generic: bool = False) -> str:
    module = parse_module(text, "t.mlir")
    out = io.StringIO()
    ExactPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo).print_op(
        module
    )
    return out.getvalue() + "\n"


def outcome(text: str, fast: bool) -> str:
    """The module as generic text with locations, or the diagnostics, by one of the paths."""
    saved = LocatingParser.fast_relay_lines
    LocatingParser.fast_relay_lines = fast
    try:
        module = parse_module(text, "t.mlir")
    except DiagnosticError as error:
        return "error: " + format_diagnostics(error.diagnostics)
    finally:
        LocatingParser.fast_relay_lines = saved
    out = io.StringIO()
    ExactPrinter(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    problems = verify_located(module)
    return out.getvalue() + "\n" + format_diagnostics(problems)


def corpus() -> Iterator[str]:
    """Each chunk of the round-trip files as written, and printed both ways if it parses."""
    for path in sorted(ROOT.glob("ops_*.mlir")):
        for chunk in split_input(path.read_text(encoding="utf-8")):
            yield chunk.text
            try:
                yield printed(chunk.text, debuginfo=False)
                yield printed(chunk.text, debuginfo=True)
            except DiagnosticError:
                pass


CORPUS = list(corpus())


def test_the_fast_path_reads_most_printed_lines() -> None:
    """Not vacuous: most relay ops of the printed corpus go through the fast path."""
    read = total = 0
    for text in CORPUS:
        if "relay." not in text or "// RUN" in text:
            continue
        parser = LocatingParser(make_context(), text, "t.mlir")
        try:
            parser.parse_module()
        except Exception:  # only counting: errors are the other tests
            continue
        read += parser.relay_lines.read
        total += text.count("= relay.")
    assert total > 300
    assert read > total // 2


def test_fast_and_xdsl_paths_read_the_same_module() -> None:
    differ = [t for t in CORPUS if outcome(t, fast=True) != outcome(t, fast=False)]
    assert differ == []


def differential(seed: int, cases: int) -> list[str]:
    """Mutated corpus texts on which the two paths disagree (empty: none)."""
    chunks = [t for t in CORPUS if "relay." in t]
    mutator = Mutator.from_corpus(chunks)
    found: list[str] = []
    for case in range(cases):
        rng = random.Random(f"{seed}:{case}")
        _, tokens = mutator.mutate(rng, tokenize(rng.choice(chunks)), rng.randint(1, 3))
        text = render(tokens)
        if outcome(text, fast=True) != outcome(text, fast=False):
            found.append(text)
    return found


def read_module(text: str, fast: bool) -> ModuleOp | None:
    """The module one of the paths reads (None if the text does not parse)."""
    saved = LocatingParser.fast_relay_lines
    LocatingParser.fast_relay_lines = fast
    try:
        return parse_module(text, "t.mlir")
    except DiagnosticError:
        return None
    finally:
        LocatingParser.fast_relay_lines = saved


def op_locations(module: ModuleOp) -> list[tuple[str, str, int, int]]:
    """Each op's name and `file:line:col` (line and column apart), in order."""
    found: list[tuple[str, str, int, int]] = []
    for op in module.walk():
        location = op.location
        assert isinstance(location, FileLineColLoc), op.name
        found.append((op.name, location.filename.data, location.line.data, location.column.data))
    return found


def test_both_paths_locate_every_op_at_its_name_token() -> None:
    """Every op of every corpus text: the same line and column by both paths, and (where
    the text spells no `loc(...)`) that column is the op's name token, as mlir-opt's
    (`"name"` in the generic form; the first token of an op without results)."""
    checked = 0
    for text in CORPUS:
        fast, slow = read_module(text, fast=True), read_module(text, fast=False)
        if fast is None or slow is None:
            assert (fast, slow) == (None, None)
            continue
        located = op_locations(fast)
        assert located == op_locations(slow)
        if "loc(" in text:
            continue
        lines = text.split("\n")
        for name, _, line, column in located[1:]:  # not the implicit module
            at = lines[line - 1][column - 1 :]
            assert at.startswith((name, f'"{name}"')) or (
                name == "func.return" and at.startswith("return")
            ), (name, lines[line - 1], column)
            checked += 1
    assert checked > 500


def test_mutated_texts_read_the_same_by_both_paths() -> None:
    assert differential(seed=0, cases=120) == []


def test_an_error_on_a_fast_line_is_where_xdsl_reports_it() -> None:
    """A type mismatch, an undefined operand and a bad property in printed lines."""
    base = (
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = relay.add %x, %x : tensor<4xf32>\n"
        "  %1 = relay.nn.softmax %0 {axis = 0} : tensor<4xf32>\n"
        "  func.return %1 : tensor<4xf32>\n"
        "}\n"
    )
    for bad in (
        base.replace("relay.add %x, %x : tensor<4xf32>", "relay.add %x, %x : tensor<4xi32>"),
        base.replace("relay.add %x, %x", "relay.add %x, %y"),
        base.replace("{axis = 0}", '{axis = "0"}'),
        base.replace("{axis = 0}", "{axis = [}"),
    ):
        fast = outcome(bad, fast=True)
        assert fast == outcome(bad, fast=False)
        assert fast.startswith("error: t.mlir:") or "error" in fast


CONTINUED = [
    "  %0 = relay.add %x, %x : (tensor<4xf32>,\n      tensor<4xf32>) -> tensor<4xf32>\n",
    '  %0 = relay.add %x, %x : tensor<4xf32> loc(fused[callsite("a":1:2 at "b":3:4)\n  ])\n',
]


@pytest.mark.parametrize("line", CONTINUED)
def test_an_op_continued_on_the_next_line_reads_as_xdsl_reads_it(line: str) -> None:
    """A line's types (or location) end where the next line's text starts: an op that
    goes on is xDSL's to read (the fast path once took its first line alone)."""
    text = (
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        + line
        + "  func.return %0 : tensor<4xf32>\n}\n"
    )
    fast = outcome(text, fast=True)
    assert fast == outcome(text, fast=False)
    assert not fast.startswith("error")
