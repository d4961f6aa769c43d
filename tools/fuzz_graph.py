"""`python -m xrelay.tools.fuzz_graph`: seeded random graphs over every relay op, differential.

Each graph is made around one relay op (`fuzz_graph_ops.GENERATORS`, in a
seeded order that covers every op before repeating), with edge-case inputs.
It is printed, parsed and verified (and must print the same again), then run
by the reference interpreter.
The graphs of a batch (`--batch`, default 8) become one module whose `main`
returns every graph's output, built with `xrelay.build` for each target
(`c`, `accel,c`, `dnnl,c`) and run; every output must equal the
interpreter's: exactly for integers and booleans, NaN in the same places
and floats within a tolerance that grows with the graph's op chain.

Everything runs in a forked worker under a time limit (`fuzz_worker.Worker`).
A finding is an exception or crash in parsing, the interpreter or a build, or
a mismatch; each distinct one (by stage, target, op and exception place) is
written to `--findings DIR` as `fuzz-graph-NNN.mlir` (the graph alone) and
`fuzz-graph-NNN.npz` (its inputs as `arg0`, `arg1`, ...); `--replay FILE.mlir`
reruns one. The run prints `fuzz-graph: N graphs (K ops), T builds, M
findings, S s` and exits 1 if there are findings.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import re
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, TensorType
from xrelay.dialects.relay.types import BFLOAT16, is_float_dtype
from xrelay.tools.fuzz_graph_ops import GENERATORS, HUGE, Array, GraphMaker
from xrelay.tools.fuzz_worker import Findings, Outcome, Worker, traceback_signature

TARGETS: dict[str, list[str]] = {"c": ["c"], "accel": ["accel", "c"], "dnnl": ["dnnl", "c"]}
DEFAULT_SECONDS = 90.0
BUILD_SECONDS = 120.0


def _flat(value: Any) -> list[Array]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in _flat(item)]  # pyright: ignore[reportUnknownVariableType]
    return [np.asarray(value)]


_CC_ERROR = re.compile(r"error: (.*)")


def _failure(error: BaseException, stage: str) -> Outcome:
    """A failed stage: its signature, and the error's message (at most 20 lines).

    A C compiler's error is signed by its first message, names and numbers
    left out (one bug in the emitted C is one finding, whatever the graph).
    """
    text = "".join(traceback.format_exception(error))
    message = "\n".join(f"{type(error).__name__}: {error}".splitlines()[:20])
    compiler = _CC_ERROR.search(str(error)) if type(error).__name__ == "BuildError" else None
    if compiler is not None:
        unquoted = re.sub("[\u2018'][^\u2019']*[\u2019']", "X", compiler.group(1))
        detail = re.sub(r"\d+", "N", unquoted)
        return Outcome(3, message, f"{stage}: cc: {detail}")
    return Outcome(3, message, f"{stage}: " + traceback_signature(text))


def serve(request: tuple[Any, ...]) -> list[Array] | Outcome:
    """The worker side: `("eval", text, inputs)` or `("build", text, inputs, targets, cache)`."""
    import warnings

    import xrelay

    kind, text, inputs = request[0], request[1], request[2]
    warnings.simplefilter("ignore")
    try:
        mod = xrelay.parse(text, "graph.mlir")
    except Exception as error:
        return _failure(error, "parse")
    if kind == "eval":
        if str(mod) != text:
            return Outcome(3, str(mod), "print-parse: the printed graph changes when parsed")
        try:
            with np.errstate(all="ignore"):
                return _flat(xrelay.evaluate(mod, *inputs))
        except Exception as error:
            return _failure(error, "interpreter")
    targets, cache = request[3], request[4]
    try:
        library = xrelay.build(mod, target=targets, options={"cache_dir": cache})
    except Exception as error:
        return _failure(error, "build")
    try:
        return _flat(library(*inputs))
    except Exception as error:
        return _failure(error, "run")


OVERFLOW_MARGIN = 2.0**20
"""How close to the type's largest a finite value counts as overflowed: a sum or a
reassociated product (SimplifyInference's `x * scale + shift`) near the top of the range can
leave it on one side only (docs/semantics.md, known exceptions)."""


HALF_RTOL = {np.dtype(np.float16): 2.0**-10, BFLOAT16: 2.0**-7}
"""Per op of depth, for f16 and bf16 results: about one unit in the last place. Both sides
compute in float32 and round once per op, but libm, numpy and summation orders differ in
the last float32 bits, which can round to the neighbouring half float."""


BFLOAT16_MAX = (2.0 - 2.0**-7) * 2.0**127
"""The largest finite bfloat16 (numpy's finfo does not know the type)."""


def _is_bfloat16(type_: Any) -> bool:
    return isinstance(type_, TensorType) and isinstance(type_.get_element_type(), BFloat16Type)


def _overflowed(got: Array, want: Array) -> Array:
    """Where one side is ±Inf or NaN and the other too, or near the top of the range: what an
    overflow inside a sum may give in any order (docs/semantics.md, known exceptions)."""
    top = BFLOAT16_MAX if want.dtype == BFLOAT16 else float(np.finfo(want.dtype).max)
    top /= OVERFLOW_MARGIN
    with np.errstate(all="ignore"):
        wide = [np.abs(a.astype(np.float64)) for a in (got, want)]
        beyond = [~np.isfinite(w) | (w >= top) for w in wide]
    return (~np.isfinite(got) | ~np.isfinite(want)) & beyond[0] & beyond[1]


def compare(
    got: Array, want: Array, depth: int, scale: float, overflow_prone: bool = False
) -> str | None:
    """None if `got` matches the interpreter's `want`, else what differs. With
    `overflow_prone` (huge finite inputs), positions where a sum may have overflowed on one
    side (`_overflowed`) are left out."""
    if got.shape != want.shape:
        return f"shape {got.shape} != {want.shape}"
    if got.dtype != want.dtype:
        return f"dtype {got.dtype} != {want.dtype}"
    half = HALF_RTOL.get(want.dtype)
    if overflow_prone and is_float_dtype(want.dtype):
        keep = ~_overflowed(got, want)
        got, want = got[keep], want[keep]
    if half is not None:
        got, want = got.astype(np.float32), want.astype(np.float32)
    if not np.issubdtype(want.dtype, np.floating):
        if not np.array_equal(got, want):
            return "integer values differ"
        return None
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return "NaN positions differ"
    finite = np.isfinite(want) & np.isfinite(got)
    infinite = ~finite & ~np.isnan(want)
    if not np.array_equal(got[infinite], want[infinite]):
        return "infinities differ"
    rtol = (half or 1e-4) * max(depth, 1)
    atol = 1e-5 * max(depth, 1) * scale
    with np.errstate(all="ignore"):
        if not np.allclose(got[finite], want[finite], rtol=rtol, atol=atol):
            err = np.max(np.abs(got[finite].astype(np.float64) - want[finite]))
            return f"values differ (max abs error {err:.3g})"
    return None


@dataclass
class Graph:
    """One generated graph: its focus op, its text, its inputs by name, its op count."""

    op: str
    index: int
    expr: Any
    params: list[Any]
    inputs: list[Array]
    depth: int
    ops: int
    text: str
    overflow_prone: bool = False
    """A value of magnitude HUGE or more is among the inputs or constants."""
    want: list[Array] = field(default_factory=lambda: list[Array]())

    @property
    def scale(self) -> float:
        wide = [a.astype(np.float64) for a in self.inputs if is_float_dtype(a.dtype)]
        finite = [np.abs(a[np.isfinite(a)]) for a in wide]
        return max([1.0, *(float(a.max()) for a in finite if a.size)])

    def npz(self) -> bytes:
        """The inputs as `arg<i>`; bf16 ones as their bits (npz has no bfloat16), which
        `--replay` reads back by the parameter types."""
        out = io.BytesIO()
        arrays = {
            f"arg{i}": a.view(np.uint16) if a.dtype == BFLOAT16 else a
            for i, a in enumerate(self.inputs)
        }
        np.savez(out, **arrays)  # pyright: ignore[reportArgumentType]
        return out.getvalue()


def make_graph(seed: int, index: int, op: str) -> Graph | None:
    """Graph `index` of run `seed` around `op`; None if the builder rejected it."""
    from xrelay.dialects.relay.base import RelayTypeError

    import xrelay
    from xrelay import relay

    maker = GraphMaker(random.Random(f"{seed}:{index}"), f"g{index}")
    try:
        outs = maker.make(op)
        mod = xrelay.IRModule.from_expr(relay.Function(maker.params, outs[0]))
    except RelayTypeError:
        return None
    ops = sum(1 for o in mod.module.walk() if o.name.startswith("relay."))
    return Graph(
        op,
        index,
        outs[0],
        maker.params,
        maker.inputs,
        maker.depth,
        ops,
        str(mod),
        maker.values.huge,
    )


@dataclass
class GraphFuzzer:
    """Generates graphs, runs them in a worker, compares, records findings."""

    seed: int = 0
    batch: int = 8
    targets: dict[str, list[str]] = field(default_factory=lambda: dict(TARGETS))
    findings_dir: Path | None = None
    build_seconds: float = BUILD_SECONDS
    log: Callable[[str], None] = lambda line: print(line, file=sys.stderr)

    def __post_init__(self) -> None:
        self.worker = Worker(serve)
        self.findings = Findings(self.findings_dir, "fuzz-graph")
        self.order = sorted(GENERATORS)
        random.Random(self.seed).shuffle(self.order)
        self.graphs = self.ops = self.builds = self.rejected = 0
        self.cache = tempfile.mkdtemp(prefix="xrelay-fuzz-cache-")
        self.signatures: list[str] = []

    def call(self, request: tuple[Any, ...], timeout: float) -> list[Array] | Outcome:
        return self.worker.call(request, timeout)

    def run(self, seconds: float, graphs: int | None = None) -> int:
        """Batches until the time or graph budget ends; the number of distinct findings."""
        deadline = time.monotonic() + seconds
        index = 0
        try:
            while time.monotonic() < deadline and (graphs is None or index < graphs):
                count = self.batch if graphs is None else min(self.batch, graphs - index)
                self.run_batch(index, count, deadline)
                index += count
        finally:
            self.worker.stop()
            shutil.rmtree(self.cache, ignore_errors=True)
        return len(self.findings)

    def run_batch(self, start: int, count: int, deadline: float) -> None:
        ready: list[Graph] = []
        for index in range(start, start + count):
            graph = make_graph(self.seed, index, self.order[index % len(self.order)])
            if graph is None:
                self.rejected += 1
                continue
            result = self.call(("eval", graph.text, graph.inputs), 30.0)
            self.graphs += 1
            self.ops += graph.ops
            if isinstance(result, Outcome):
                signature = result.signature or "interpreter: failed"
                if not signature.startswith("print-parse"):  # that one is about text, not op
                    signature = f"{graph.op}: {signature}"
                self.found(signature, graph, result.output)
                continue
            graph.want = result
            ready.append(graph)
        if not ready:
            return
        text = self.batch_text(ready)
        inputs = [a for g in ready for a in g.inputs]
        for name, target in self.targets.items():
            if time.monotonic() > deadline:
                return
            self.builds += 1
            result = self.call(("build", text, inputs, target, self.cache), self.build_seconds)
            if isinstance(result, Outcome):
                self.blame(name, target, ready, result)
                continue
            outputs = iter(result)
            for graph in ready:
                got = [next(outputs, None) for _ in graph.want]
                for g, w in zip(got, graph.want, strict=True):
                    problem = (
                        "missing output"
                        if g is None
                        else compare(g, w, graph.depth + 1, graph.scale, graph.overflow_prone)
                    )
                    if problem is not None:
                        signature = f"{name}: {graph.op}: {problem.split(' (')[0]}"
                        self.found(signature, graph, problem, name)
                        break

    def blame(self, name: str, target: list[str], graphs: list[Graph], batch: Outcome) -> None:
        """A batch's build failed: build its graphs one by one to find the culprits."""
        culprits = 0
        for graph in graphs:
            if len(graphs) > 1:
                self.builds += 1
                request = ("build", graph.text, graph.inputs, target, self.cache)
                result = self.call(request, self.build_seconds)
            else:
                result = batch
            if isinstance(result, Outcome):
                culprits += 1
                signature = f"{name}: {result.signature}"
                if "cc: " not in signature:
                    signature = f"{name}: {graph.op}: {result.signature}"
                self.found(signature, graph, result.output, name)
        if not culprits:
            self.log(f"fuzz-graph: batch failed on {name} but no graph alone: {batch.signature}")
            self.found(f"{name}: batch: {batch.signature}", graphs[0], batch.output, name)

    @staticmethod
    def batch_text(graphs: Sequence[Graph]) -> str:
        import xrelay
        from xrelay import relay

        params = [p for g in graphs for p in g.params]
        body = relay.Tuple([g.expr for g in graphs]) if len(graphs) > 1 else graphs[0].expr
        return str(xrelay.IRModule.from_expr(relay.Function(params, body)))

    def found(self, signature: str, graph: Graph, detail: str, target: str = "") -> None:
        if signature in self.findings:
            return
        targets = ",".join(self.targets.get(target, []))
        header = (
            f"// {signature}\n// found by: fuzz_graph --seed {self.seed}, graph {graph.index}\n"
            f"// reproduce: python -m xrelay.tools.fuzz_graph --replay FILE.mlir"
            f"{' --target ' + targets if targets else ''}\n"
        )
        header += "".join(f"// {line[:300]}\n" for line in detail.strip().splitlines())
        files = {".mlir": (header + graph.text).encode(), ".npz": graph.npz()}
        path = self.findings.add(signature, files)
        self.signatures.append(signature)
        where = f" -> {path}.mlir" if path else ""
        self.log(f"fuzz-graph: finding: {signature} (graph {graph.index}){where}")


def replay(path: Path, targets: list[str] | None) -> int:
    """Rerun a saved finding: interpreter, then the targets; print what differs."""
    import xrelay

    text = path.read_text(encoding="utf-8")
    mod = xrelay.parse(text, str(path))
    arrays = np.load(path.with_suffix(".npz"))
    inputs = [arrays[f"arg{i}"] for i in range(len(arrays.files))]
    bf16 = [_is_bfloat16(p.checked_type) for p in mod["main"].params]
    inputs = [a.view(BFLOAT16) if b else a for a, b in zip(inputs, bf16, strict=True)]
    want = _flat(xrelay.evaluate(mod, *inputs))
    with np.errstate(invalid="ignore"):
        wide = [a.astype(np.float64) for a in inputs if is_float_dtype(a.dtype)]
        prone = any((np.abs(a) >= HUGE).any() for a in wide)
    prone = prone or re.search(r"e\+(3\d)\b", text) is not None  # a constant of 1e30 or more
    status = 0
    for target in [targets] if targets else list(TARGETS.values()):
        got = _flat(xrelay.build(mod, target=target)(*inputs))
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            problem = compare(g, w, 8, 1.0, prone)
            print(f"{','.join(target)} output {i}: {problem or 'matches'}")
            status = status or int(problem is not None)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; exit status 1 if there are findings."""
    parser = argparse.ArgumentParser(prog="fuzz_graph", description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    seconds = float(os.environ.get("XRELAY_FUZZ_SECONDS", DEFAULT_SECONDS))
    parser.add_argument("--seconds", type=float, default=seconds, help="time budget")
    parser.add_argument("--cases", type=int, help="stop after this many graphs")
    parser.add_argument("--batch", type=int, default=8, help="graphs per built module")
    parser.add_argument("--targets", default="c,accel,dnnl", help="of: c, accel, dnnl")
    parser.add_argument("--findings", type=Path, help="write findings here")
    parser.add_argument("--replay", type=Path, help="rerun a saved finding (FILE.mlir)")
    parser.add_argument("--target", help="with --replay: one target list, e.g. accel,c")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args.replay, args.target.split(",") if args.target else None)
    chosen = {name: TARGETS[name] for name in args.targets.split(",") if name}
    start = time.monotonic()
    fuzzer = GraphFuzzer(args.seed, args.batch, chosen, args.findings)
    count = fuzzer.run(args.seconds, args.cases)
    elapsed = time.monotonic() - start
    print(
        f"fuzz-graph: {fuzzer.graphs} graphs ({fuzzer.ops} ops), {fuzzer.builds} builds, "
        f"{count} findings, {elapsed:.0f} s"
    )
    for signature in fuzzer.signatures:
        print(f"  {signature}")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
