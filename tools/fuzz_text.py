"""`python -m xrelay.tools.fuzz_text`: a seeded, time-bounded fuzzer of textual IR.

Each case takes a chunk of the corpus (the `.mlir` files under
`tests/filecheck`, split on `// -----`, `RUN`/`CHECK` lines stripped), applies
one to three structure-aware mutations (`fuzz_text_mutate.Mutator`) and feeds
the text to every entry point (`ENTRY_POINTS`): `xrelay-opt` with no pass,
with `-p canonicalize,cse` and with `-p optimize`, a print-parse round trip,
and `xrelay-run --random` (the interpreter; skipped for modules with over
`MAX_ELEMENTS` tensor elements). The entry points run in a forked worker
(`fuzz_worker.Worker`) under a per-case time limit.

A finding is an exit status other than 0 or 1, a Python traceback in the
output, a worker that died, a case over the time limit, or a round trip that
does not reproduce its IR. Each distinct finding (by signature: entry point
and exception type and place, or exit status) is minimized by greedy token
deletion while the signature persists, and written to `--findings DIR` as
`fuzz-text-NNN.mlir` with the command that reproduces it in a comment. The
run prints `fuzz-text: N cases, M distinct findings, T s` and exits 1 if
there are findings. The same `--seed` gives the same cases (case `i` is
seeded by `seed` and `i` alone), so a longer run extends a shorter one.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from xrelay.tools.fuzz_text_mutate import Mutator, Token, corpus_chunks, render, tokenize
from xrelay.tools.fuzz_worker import Findings, Outcome, Worker, capture

EntryPoint = Callable[[str], Outcome]
"""Runs one input text (in the worker) and says what happened."""

MAX_ELEMENTS = 1_000_000
"""`run-random` skips modules whose tensors hold more elements than this in total."""

DEFAULT_SECONDS = 60.0
CASE_SECONDS = 10.0


def _input_file(text: str) -> str:
    """The path of a per-process scratch file holding `text`."""
    path = os.path.join(tempfile.gettempdir(), f"xrelay-fuzz-{os.getpid()}.mlir")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(text)
    return path


def opt(*flags: str) -> EntryPoint:
    """`xrelay-opt FILE FLAGS...`."""

    def run(text: str) -> Outcome:
        from xrelay.tools.opt_main import OptMain

        path = _input_file(text)
        return capture(lambda: OptMain.main([path, *flags]))

    return run


def round_trip(text: str) -> Outcome:
    """Print, parse the printed text, print again: both prints must be equal."""
    from xrelay.tools.opt_main import OptMain

    path = _input_file(text)
    first = capture(lambda: OptMain.main([path, "-o", path + ".1"]))
    if first.status != 0 or first.signature is not None:
        return first if first.signature is not None else Outcome(0, "")
    with open(path + ".1", encoding="utf-8") as stream:
        printed = stream.read()
    for generic in ([], ["--print-op-generic"]):
        second = capture(lambda g=generic: OptMain.main([path + ".1", *g, "-o", path + ".2"]))
        if second.signature is not None:
            return second
        if second.status != 0:
            return Outcome(1, second.output, "round-trip: the printed IR does not parse")
        if generic:
            break
        with open(path + ".2", encoding="utf-8") as stream:
            if stream.read() != printed:
                return Outcome(1, printed, "round-trip: the IR changes when printed and parsed")
    return Outcome(0, "")


def element_count(text: str) -> int | None:
    """The total element count of the module's tensor values, None if it does not parse."""
    from xdsl.dialects.builtin import TensorType
    from xdsl.ir import Attribute

    import xrelay

    try:
        module = xrelay.parse(text).module
    except Exception:
        return None
    total = 0
    for op in module.walk():
        values = [*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)]
        for value in values:
            ty = value.type
            if isinstance(ty, TensorType):
                count = 1
                for dim in cast(TensorType[Attribute], ty).get_shape():
                    count *= max(int(dim), 1)
                total += count
    return total


def run_random(text: str) -> Outcome:
    """`xrelay-run FILE --random` (the interpreter), unless the tensors are too big."""
    from xrelay.tools.run_main import RunMain

    count = element_count(text)
    if count is not None and count > MAX_ELEMENTS:
        return Outcome(0, f"skipped: {count} elements")
    path = _input_file(text)
    return capture(lambda: RunMain.main([path, "--random"]))


ENTRY_POINTS: dict[str, EntryPoint] = {
    "opt": opt(),
    "opt-canonicalize-cse": opt("-p", "canonicalize,cse"),
    "opt-optimize": opt("-p", "optimize"),
    "round-trip": round_trip,
    "run-random": run_random,
}
"""Every entry point a case goes through, by name."""

COMMANDS: dict[str, str] = {
    "opt": "xrelay-opt {file}",
    "opt-canonicalize-cse": "xrelay-opt {file} -p canonicalize,cse",
    "opt-optimize": "xrelay-opt {file} -p optimize",
    "round-trip": "xrelay-opt {file} | xrelay-opt | diff - <(xrelay-opt {file})",
    "run-random": "xrelay-run {file} --random",
}


@dataclass
class _Handler:
    """The worker side: run entry point `name` on `text`."""

    entries: dict[str, EntryPoint]

    def __call__(self, request: tuple[str, str]) -> Outcome:
        name, text = request
        return self.entries[name](text)


@dataclass
class Report:
    """One finding: its signature (the same from any entry point), the entry point that
    found it first, the minimized text."""

    signature: str
    entry: str
    text: str
    path: Path | None


@dataclass
class TextFuzzer:
    """Generates, runs, minimizes and records the cases of one seeded run."""

    chunks: Sequence[str]
    seed: int = 0
    entries: dict[str, EntryPoint] = field(default_factory=lambda: dict(ENTRY_POINTS))
    case_seconds: float = CASE_SECONDS
    minimize_seconds: float = 10.0
    findings_dir: Path | None = None
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)

    def __post_init__(self) -> None:
        self.mutator = Mutator.from_corpus(self.chunks)
        self.tokens = [tokenize(chunk) for chunk in self.chunks]
        self.worker = Worker(_Handler(self.entries))
        self.findings = Findings(self.findings_dir, "fuzz-text")
        self.reports: list[Report] = []
        self.cases = 0

    def case(self, index: int) -> tuple[str, str]:
        """Case `index` of this seed: a description and the mutated text (deterministic)."""
        rng = random.Random(f"{self.seed}:{index}")
        chunk = rng.randrange(len(self.tokens))
        names, tokens = self.mutator.mutate(rng, list(self.tokens[chunk]), rng.randint(1, 3))
        return f"chunk {chunk}: {names}", render(tokens)

    def check(self, entry: str, text: str) -> str | None:
        """The failure signature of `entry` on `text`, None if it behaved."""
        outcome = self.worker.call((entry, text), self.case_seconds)
        if not isinstance(outcome, Outcome):
            return f"bad worker response {outcome!r}"
        return outcome.signature

    def run(self, seconds: float, cases: int | None = None) -> int:
        """Run cases until the time or case budget ends; the number of distinct findings."""
        deadline = time.monotonic() + seconds
        index = 0
        try:
            while time.monotonic() < deadline and (cases is None or index < cases):
                description, text = self.case(index)
                for entry in self.entries:
                    signature = self.check(entry, text)
                    if signature is not None:
                        self.found(signature, entry, text, description, index)
                index += 1
        finally:
            self.worker.stop()
        self.cases = index
        return len(self.findings)

    def found(self, signature: str, entry: str, text: str, description: str, index: int) -> None:
        if signature in self.findings:
            return
        small = text if "timeout" in signature else self.minimize(entry, text, signature)
        command = COMMANDS.get(entry, entry).format(file="FILE.mlir")
        header = (
            f"// {entry}: {signature}\n// found by: fuzz_text --seed {self.seed}, case {index} "
            f"({description})\n// reproduce: {command}\n"
        )
        path = self.findings.add(signature, {".mlir": (header + small).encode()})
        self.reports.append(Report(signature, entry, small, path))
        where = f" -> {path}.mlir" if path else ""
        self.log(f"fuzz-text: finding: {entry}: {signature} (case {index}){where}")

    def minimize(self, entry: str, text: str, signature: str) -> str:
        """Greedy token deletion (halving chunk sizes) while `signature` persists."""
        tokens: list[Token] = tokenize(text)
        deadline = time.monotonic() + self.minimize_seconds
        size = max(len(tokens) // 2, 1)
        while size >= 1 and time.monotonic() < deadline:
            start, removed = 0, False
            while start < len(tokens) and time.monotonic() < deadline:
                trial = tokens[:start] + tokens[start + size :]
                if trial and self.check(entry, render(trial)) == signature:
                    tokens, removed = trial, True
                else:
                    start += size
            if not removed:
                size //= 2
        return render(tokens)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; exit status 1 if there are findings."""
    parser = argparse.ArgumentParser(prog="fuzz_text", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    seconds = float(os.environ.get("XRELAY_FUZZ_SECONDS", DEFAULT_SECONDS))
    parser.add_argument("--seconds", type=float, default=seconds, help="time budget")
    parser.add_argument("--cases", type=int, help="stop after this many cases")
    parser.add_argument("--corpus", type=Path, default=Path("tests/filecheck"))
    parser.add_argument("--findings", type=Path, help="write minimized findings here")
    parser.add_argument("--case-seconds", type=float, default=CASE_SECONDS)
    args = parser.parse_args(argv)
    chunks = corpus_chunks(args.corpus)
    if not chunks:
        print(f"fuzz-text: error: no .mlir input under {args.corpus}", file=sys.stderr)
        return 1
    start = time.monotonic()
    fuzzer = TextFuzzer(
        chunks, args.seed, case_seconds=args.case_seconds, findings_dir=args.findings
    )
    count = fuzzer.run(args.seconds, args.cases)
    elapsed = time.monotonic() - start
    print(f"fuzz-text: {fuzzer.cases} cases, {count} distinct findings, {elapsed:.0f} s")
    for report in fuzzer.reports:
        print(f"  {report.entry}: {report.signature}")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
