"""`python -m xrelay.tools.onnx_conformance`: ONNX's own backend test suite against xrelay.

The cases are the ones `onnx.backend.test.BackendTest` runs from the installed
`onnx` package: the node cases (generated in Python by
`onnx.backend.test.case.node`) and the `pytorch-converted` and
`pytorch-operator` models shipped with their data. Each case is imported by
`xrelay.relay.frontend.onnx_backend(target)`, run on every data set, and
compared with ONNX's own `Runner.assert_similar_outputs` at the case's rtol
and atol (the dtype must match too). `--target interpreter` runs the reference
interpreter; `c`, `accel,c`, `dnnl,c` run `xrelay.build`.

Every case runs in a forked worker under a time limit (`fuzz_worker.Worker`),
`--jobs` of them at once, so a crash or a hang fails that case only.

`--expected FILE` makes the run strict: FILE lists the cases expected to fail,
one per line as `name: reason`. The run fails (exit 1) if a case outside the
list fails or a listed case passes, naming each, so the list always says
exactly what fails. `--update FILE` rewrites the list from this run's failures.
`--summary` prints the failures by reason as a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from xrelay.tools.fuzz_worker import Outcome, Worker

KINDS = ("node", "pytorch-converted", "pytorch-operator")
"""The suite's case kinds that carry data (the `real`/`simple` kinds download models)."""

TARGETS = ("interpreter", "c", "accel,c", "dnnl,c")

TIMEOUT_SECONDS = 120.0
"""A case running longer than this fails (the slowest cases build a few C functions)."""

Arrays = list[Any]


@dataclass(frozen=True)
class Case:
    """One suite case: its model (serialized) and data sets, with ONNX's tolerances."""

    name: str
    kind: str
    model: bytes
    data_sets: list[tuple[Arrays, Arrays]]
    rtol: float
    atol: float


@dataclass(frozen=True)
class Result:
    """Whether a case passed, and if not the first line of why."""

    name: str
    passed: bool
    reason: str = ""


def collect(kinds: Sequence[str] = KINDS, pattern: str | None = None) -> list[Case]:
    """The suite's cases of `kinds`, those whose name contains `pattern` if given, by name."""
    import warnings

    from onnx.backend.test.loader import load_model_tests

    cases: list[Case] = []
    search = re.compile(pattern) if pattern else None
    for kind in kinds:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the case generators' own numpy overflow warnings
            tests = load_model_tests(kind=kind)
        for test in tests:
            if search is not None and not search.search(test.name):
                continue
            if test.model is not None and test.data_sets is not None:
                model = test.model.SerializeToString()
                data = [(list(i), list(o)) for i, o in test.data_sets]
            elif test.model_dir is not None:
                model, data = _read_model_dir(Path(test.model_dir))
            else:
                continue
            cases.append(Case(test.name, kind, model, data, test.rtol, test.atol))
    cases.sort(key=lambda c: c.name)
    return cases


def _read_model_dir(directory: Path) -> tuple[bytes, list[tuple[Arrays, Arrays]]]:
    """A shipped case: `model.onnx` and each `test_data_set_*` of `input_i.pb`/`output_i.pb`."""
    import onnx

    model = (directory / "model.onnx").read_bytes()
    proto = onnx.load_model_from_string(model)
    sets: list[tuple[Arrays, Arrays]] = []
    for data_dir in sorted(directory.glob("test_data_set_*")):
        inputs = _read_protos(data_dir, "input", list(proto.graph.input))
        outputs = _read_protos(data_dir, "output", list(proto.graph.output))
        sets.append((inputs, outputs))
    return model, sets


def _read_protos(data_dir: Path, prefix: str, infos: Sequence[Any]) -> Arrays:
    """The `prefix_i.pb` files of a data set, read by the type of the i-th graph value."""
    import onnx
    from onnx import numpy_helper

    values: Arrays = []
    count = len(list(data_dir.glob(f"{prefix}_*.pb")))
    for i in range(count):
        raw = (data_dir / f"{prefix}_{i}.pb").read_bytes()
        kind = infos[i].type.WhichOneof("value") if i < len(infos) else "tensor_type"
        if kind == "sequence_type":
            sequence = onnx.SequenceProto()
            sequence.ParseFromString(raw)
            values.append(numpy_helper.to_list(sequence))
        elif kind == "optional_type":
            optional = onnx.OptionalProto()
            optional.ParseFromString(raw)
            values.append(numpy_helper.to_optional(optional))
        else:
            tensor = onnx.TensorProto()
            tensor.ParseFromString(raw)
            values.append(numpy_helper.to_array(tensor))
    return values


def _normalize(value: Any) -> Any:
    """A data-set item as numpy (node cases may hold TensorProtos)."""
    import onnx
    from onnx import numpy_helper

    if isinstance(value, onnx.TensorProto):
        return numpy_helper.to_array(value)
    return value


def run_case(case: Case, target: str, cflags: Sequence[str] = ()) -> Result:
    """Import, run and compare one case on `target` (C built with `cflags` last).

    Any exception is a failure with its reason.
    """
    import onnx
    from onnx.backend.test.runner import Runner

    from xrelay.relay.frontend import onnx_backend

    if target == "interpreter":
        backend = onnx_backend(None)
    else:
        backend = onnx_backend(target, {"cflags": list(cflags)})
    np.seterr(all="ignore")  # the suite's inputs hold NaN, Inf and overflowing values
    try:
        model = onnx.load_model_from_string(case.model)
        prepared = backend.prepare(model, "CPU")
        assert prepared is not None
        for inputs, expected in case.data_sets:
            outputs = prepared.run([_normalize(x) for x in inputs])
            Runner.assert_similar_outputs(
                [_normalize(x) for x in expected], list(outputs), rtol=case.rtol, atol=case.atol
            )
    except Exception as error:  # every failure is a result, with its reason
        return Result(case.name, False, _reason(error))
    return Result(case.name, True)


def _reason(error: BaseException) -> str:
    """The first meaningful line of an exception, short enough for a list line."""
    text = str(error).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    if first.startswith("Not equal to tolerance") or first.startswith("Arrays are not"):
        mismatch = next((line for line in lines if line.startswith("Mismatched")), first)
        first = f"wrong values ({mismatch})"
    elif "has incorrect shape" in text:
        first = "wrong output shape"
    elif first.startswith("Items are not equal") and "dtype" in text:
        first = "wrong output dtype"
    reason = f"{type(error).__name__}: {first}" if first else type(error).__name__
    return reason.replace("\n", " ")[:200]


_CASES: list[Case] = []
"""The cases of this run, set before the workers fork (they read them by index)."""


def _handle(request: tuple[int, str, tuple[str, ...]]) -> Result:
    index, target, cflags = request
    return run_case(_CASES[index], target, cflags)


def run_all(
    cases: Sequence[Case], target: str, jobs: int, timeout: float, cflags: Sequence[str] = ()
) -> list[Result]:
    """Every case on `target`, `jobs` forked workers at a time; crashes and hangs fail a case."""
    _CASES[:] = cases
    workers = [Worker(_handle) for _ in range(jobs)]
    free = list(workers)

    def one(index: int) -> Result:
        worker = free.pop()
        try:
            answer = worker.call((index, target, tuple(cflags)), timeout)
        finally:
            free.append(worker)
        if isinstance(answer, Result):
            return answer
        assert isinstance(answer, Outcome)
        line = answer.output.strip().splitlines()[-1:] or [f"exit {answer.status}"]
        return Result(cases[index].name, False, f"crashed: {line[0]}"[:200])

    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            return list(pool.map(one, range(len(cases))))
    finally:
        for worker in workers:
            worker.stop()


def read_expected(path: Path) -> dict[str, str]:
    """An expected-failure list: `name: reason` lines; `#` comments and blank lines ignored."""
    expected: dict[str, str] = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        name, sep, reason = text.partition(":")
        if not sep or not name.strip().startswith("test_"):
            raise ValueError(f"{path}:{number}: expected 'test_name: reason', got {text!r}")
        expected[name.strip()] = reason.strip()
    return expected


def write_expected(path: Path, target: str, results: Sequence[Result]) -> None:
    """Write the expected-failure list of `results`' failures."""
    failed = sorted((r for r in results if not r.passed), key=lambda r: r.name)
    header = [
        f"# ONNX backend suite cases expected to fail on target {target!r}, one per line",
        "# as 'name: reason'. Checked strictly by scripts/conformance: a case that starts",
        "# passing or stops passing fails CI. Regenerate with",
        f"#   python -m xrelay.tools.onnx_conformance --target {target} --update {path.name}",
        f"# {len(failed)} of {len(results)} cases fail.",
    ]
    lines = [f"{r.name}: {r.reason}" for r in failed]
    path.write_text("\n".join(header + lines) + "\n")


def compare(results: Sequence[Result], expected: dict[str, str]) -> list[str]:
    """The differences between this run and the expected-failure list, one line each."""
    problems: list[str] = []
    names = {r.name for r in results}
    for r in results:
        if r.passed and r.name in expected:
            problems.append(f"{r.name}: passes now; remove it from the expected-failure list")
        elif not r.passed and r.name not in expected:
            problems.append(f"{r.name}: fails ({r.reason}); it is not an expected failure")
    problems.extend(
        f"{name}: listed as an expected failure but the suite has no such case"
        for name in sorted(set(expected) - names)
    )
    return problems


_CATEGORIES: tuple[tuple[str, str], ...] = (
    (r"element type (FLOAT\d*E\d+M\d+\w*|U?INT[24]|FLOAT4\w*)\b", "8-, 4- and 2-bit types"),
    (
        r"element type STRING|op (StringNormalizer|StringConcat|StringSplit|RegexFullMatch)",
        "strings",
    ),
    (
        r"sequence|optional|op (Sequence|Optional|SplitToSequence|ConcatFromSequence)",
        "sequences, optionals",
    ),
    (r"custom domain", "other domains (ai.onnx.ml, training, preview)"),
    (r"training_mode", "training mode"),
    (
        r"op (NonMaxSuppression|Unique)|BitCast of a value unknown",
        "output shape or bits known only at run time",
    ),
    (r"op (Bernoulli|Random\w+)", "random numbers"),
    (r"^crashed", "crash or timeout"),
    (r"wrong values", "wrong values"),
    (r"wrong output", "wrong output shape or dtype"),
)
"""Coarse failure categories (regex on the reason, first match wins), for the README table."""


def category(reason: str) -> str:
    """A coarse category of a failure reason, for the summary table."""
    for pattern, name in _CATEGORIES:
        if re.search(pattern, reason):
            return name
    unsupported = re.search(r"unsupported op (\w+)", reason)
    if unsupported:
        return f"not converted yet: {unsupported.group(1)}"
    head = reason.split(": ", 1)[-1]
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "…", head)[:90]


def summary(results: Sequence[Result]) -> str:
    """A Markdown table of the failures by category, most frequent first."""
    failed = [r for r in results if not r.passed]
    counts = Counter(category(r.reason) for r in failed)
    rows = ["| failures | reason |", "|---:|---|"]
    rows += [f"| {n} | {c.replace('|', '/')} |" for c, n in counts.most_common()]
    return "\n".join(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the suite; exit 1 if `--expected` is given and the run differs from it."""
    parser = argparse.ArgumentParser(
        prog="onnx_conformance", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--target", choices=TARGETS, default="interpreter")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS)
    parser.add_argument(
        "--cflags",
        default="",
        help="C compiler flags of every build, after the units' own (e.g. '-O1': faster compiles)",
    )
    parser.add_argument("-k", dest="pattern", help="only cases whose name matches this regex")
    parser.add_argument("--expected", type=Path, help="strict: the expected-failure list")
    parser.add_argument("--update", type=Path, help="write the expected-failure list")
    parser.add_argument("--summary", action="store_true", help="failures by reason (Markdown)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failure")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    cases = collect(pattern=args.pattern)
    results = run_all(cases, args.target, max(1, args.jobs), args.timeout, shlex.split(args.cflags))
    passed = sum(r.passed for r in results)
    seconds = time.perf_counter() - start
    print(
        f"onnx-conformance ({args.target}): {passed} of {len(results)} cases pass, {seconds:.0f} s"
    )
    if args.verbose:
        for r in results:
            if not r.passed:
                print(f"  {r.name}: {r.reason}")
    if args.summary:
        print(summary(results))
    if args.update is not None:
        write_expected(args.update, args.target, results)
    if args.expected is not None:
        problems = compare(results, read_expected(args.expected))
        if args.pattern:  # a partial run cannot tell a missing case from a filtered one
            problems = [p for p in problems if "no such case" not in p]
        for problem in problems:
            print(f"onnx-conformance: {problem}", file=sys.stderr)
        if problems:
            print(
                f"onnx-conformance: {len(problems)} cases differ from {args.expected}",
                file=sys.stderr,
            )
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
