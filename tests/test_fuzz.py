"""The fuzzers of issue 14: determinism, planted bugs found and minimized, every op generated."""

from __future__ import annotations

import os
import random
import re
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from xrelay.dialects.relay import RELAY
from xrelay.tools import fuzz_graph, fuzz_text
from xrelay.tools.fuzz_graph import GraphFuzzer, compare, make_graph
from xrelay.tools.fuzz_graph_ops import GENERATORS, IMPLIED
from xrelay.tools.fuzz_text import TextFuzzer
from xrelay.tools.fuzz_text_mutate import Mutator, corpus_chunks, render, tokenize
from xrelay.tools.fuzz_worker import Outcome, Worker, capture, traceback_signature

import xrelay

ROOT = Path(__file__).resolve().parent.parent

SMALL = """\
// RUN: xrelay-opt %s | filecheck %s
// CHECK: relay.exp
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.exp %x : tensor<2x3xf32>
  %1 = relay.add %0, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.nn.relu %x : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "corpus").mkdir()
    (tmp_path / "corpus" / "small.mlir").write_text(SMALL)
    return tmp_path / "corpus"


def test_corpus_is_split_and_stripped(corpus: Path) -> None:
    chunks = corpus_chunks(corpus)
    assert len(chunks) == 2
    assert not any("CHECK" in c or "RUN" in c for c in chunks)
    assert chunks[0].startswith("func.func @main(%x: tensor<2x3xf32>)")


def test_tokens_render_back_to_every_corpus_chunk() -> None:
    chunks = corpus_chunks(ROOT / "tests" / "filecheck")
    assert len(chunks) > 100
    for chunk in chunks:
        assert render(tokenize(chunk)) == chunk
    kinds = {t.kind for t in tokenize(chunks[0])}
    assert {"ssa", "symbol", "type", "ident", "punct"} <= kinds


def test_mutations_are_deterministic_per_seed(corpus: Path) -> None:
    chunks = corpus_chunks(corpus)
    one, two = TextFuzzer(chunks, seed=7), TextFuzzer(chunks, seed=7)
    cases = [one.case(i) for i in range(30)]
    assert cases == [two.case(i) for i in reversed(range(30))][::-1]
    other = [TextFuzzer(chunks, seed=8).case(i) for i in range(30)]
    assert cases != other
    assert any(text not in chunks for _, text in cases)


def test_every_mutation_changes_the_text() -> None:
    chunks = corpus_chunks(ROOT / "tests" / "filecheck" / "dialects" / "relay")
    text = next(c for c in chunks if "relay.nn.conv2d" in c and "padding = [" in c)
    mutator = Mutator.from_corpus([text])
    for name, mutation in mutator.mutations.items():
        changed = [mutation(random.Random(s), tokenize(text)) for s in range(20)]
        assert any(t is not None and render(t) != text for t in changed), name


def _planted(text: str) -> Outcome:
    """A fake entry point with two bugs: a traceback for `relay.exp`, exit 2 for `relu`."""
    if "relay.exp" in text:
        return capture(lambda: int("relay.exp is a bug"))
    if "relu" in text:
        return Outcome(2, "error: internal error")
    return Outcome(1 if "@main" not in text else 0, "")


def test_a_planted_bug_is_found_and_minimized(corpus: Path, tmp_path: Path) -> None:
    findings = tmp_path / "findings"
    fuzzer = TextFuzzer(
        corpus_chunks(corpus), seed=3, entries={"planted": _planted}, findings_dir=findings
    )
    assert fuzzer.run(seconds=60, cases=20) == 2
    signatures = {r.signature: r for r in fuzzer.reports}
    assert set(signatures) == {"ValueError at test_fuzz.py:<lambda>", "exit 2"}
    exp = signatures["ValueError at test_fuzz.py:<lambda>"]
    assert "relay.exp" in exp.text
    assert len(tokenize(exp.text)) <= 3, exp.text  # minimized: the token and little else
    assert "relu" in signatures["exit 2"].text
    saved = sorted(findings.glob("*.mlir"))
    assert len(saved) == 2
    assert "// planted: " in saved[0].read_text()


def test_the_text_fuzzer_command_line(corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = fuzz_text.main(
        ["--seed", "1", "--seconds", "60", "--cases", "4", "--corpus", str(corpus)]
    )
    out = capsys.readouterr().out
    assert re.search(r"^fuzz-text: 4 cases, (\d+) distinct findings, \d+ s$", out, re.M), out
    assert status == (0 if " 0 distinct findings" in out else 1)


def test_the_worker_survives_crashes_and_timeouts() -> None:
    def handler(request: str) -> Outcome:
        if request == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if request == "hang":
            time.sleep(60)
        return Outcome(0, request)

    worker = Worker(handler)
    try:
        assert worker.call("segv", 10).status == 139
        assert worker.call("hang", 0.5).output.startswith("timeout")
        assert worker.call("fine", 10) == Outcome(0, "fine")
    finally:
        worker.stop()


def test_signatures() -> None:
    assert capture(lambda: 0).signature is None
    assert capture(lambda: 1).signature is None
    assert capture(lambda: 2).signature == "exit 2"
    assert capture(lambda: int("x")).signature == "ValueError at test_fuzz.py:<lambda>"
    deep = (
        'Traceback (most recent call last):\n  File "a.py", line 1, in f\n'
        + ('  File "p.py", line 2, in parse\n' * 3 + '  File "q.py", line 3, in peek\n')
        + "RecursionError: maximum recursion depth exceeded\n"
    )
    assert traceback_signature(deep) == "RecursionError at p.py:parse"


def test_every_relay_op_has_a_graph_generator() -> None:
    ops = {op.name for op in RELAY.operations}
    assert not set(GENERATORS) & set(IMPLIED)
    assert set(GENERATORS) | set(IMPLIED) == ops
    assert len(IMPLIED) <= 4  # only what the builder cannot write


@pytest.mark.parametrize("op", sorted(GENERATORS))
def test_each_generator_makes_graphs_that_verify(op: str) -> None:
    graphs = [g for g in (make_graph(0, i, op) for i in range(6)) if g is not None]
    assert len(graphs) >= 3, op
    for graph in graphs:
        mod = xrelay.parse(graph.text)
        assert op in graph.text or op in IMPLIED
        assert len(graph.inputs) == len(next(iter(mod.module.ops)).regions[0].blocks[0].args)


def test_compare() -> None:
    nan = np.float32(np.nan)
    a = np.array([1.0, nan, np.inf, -0.0], np.float32)
    assert compare(a, a.copy(), 1, 1.0) is None
    assert (
        compare(a, np.array([1.0, 0.0, np.inf, 0.0], np.float32), 1, 1.0) == "NaN positions differ"
    )
    assert compare(a, np.array([1.0, nan, -np.inf, 0.0], np.float32), 1, 1.0) == "infinities differ"
    assert compare(a, a + np.float32(0.5), 1, 1.0).startswith("values differ")  # type: ignore[union-attr]
    # Without huge inputs an overflow on one side only is a finding; with them, an infinity
    # against a value near the top of the range is not, an infinity against a modest one is.
    big = np.array([3.0e38, -3.0e38], np.float32)
    infinities = np.array([np.inf, -np.inf], np.float32)
    assert compare(big, infinities, 1, 1.0) == "infinities differ"
    assert compare(big, infinities, 1, 1.0, overflow_prone=True) is None
    assert (
        compare(
            np.array([1.0e30], np.float32),
            np.array([np.inf], np.float32),
            1,
            1.0,
            overflow_prone=True,
        )
        == "infinities differ"
    )
    # With huge finite inputs a sum may overflow on one side only, in either sign or as NaN:
    # such positions are left out; a NaN against a modest value is still a finding.
    got = np.array([np.nan, np.inf, -2.0e38, 1.0], np.float32)
    want = np.array([np.inf, np.nan, np.inf, 1.0], np.float32)
    assert compare(got, want, 1, 1.0) == "NaN positions differ"
    assert compare(got, want, 1, 1.0, overflow_prone=True) is None
    modest = np.array([np.nan, np.inf, -2.0e38, 5.0], np.float32)
    assert compare(modest, want, 1, 1.0, overflow_prone=True).startswith("values differ")  # type: ignore[union-attr]
    assert (
        compare(
            np.array([np.nan], np.float32), np.array([3.0], np.float32), 1, 1.0, overflow_prone=True
        )
        == "NaN positions differ"
    )
    ints = np.array([2**53 + 1], np.int64)
    assert compare(ints, ints - 1, 1, 1.0) == "integer values differ"
    assert compare(ints, ints.astype(np.int32), 1, 1.0) == "dtype int64 != int32"


def test_a_short_graph_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fuzzer = GraphFuzzer(seed=5, batch=3, targets={"c": ["c"]}, findings_dir=tmp_path)
    fuzzer.run(seconds=120, graphs=3)
    assert fuzzer.graphs + fuzzer.rejected == 3
    assert fuzzer.builds >= 1
    assert fuzzer.ops >= fuzzer.graphs
    status = fuzz_graph.main(["--seed", "5", "--cases", "2", "--targets", "c", "--seconds", "120"])
    out = capsys.readouterr().out
    assert re.search(
        r"^fuzz-graph: 2 graphs \(\d+ ops\), \d+ builds, \d+ findings, \d+ s$", out, re.M
    )
    assert status in (0, 1)
