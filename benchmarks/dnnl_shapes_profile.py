"""Where a model's time goes on the dnnl target, by oneDNN primitive and shape, beside
onnxruntime's time by op and input shapes: the per-layer comparison behind the README's
"where we are closest to losing".

The model (`--model`, one of `inference.py`'s) is built for dnnl with `--cflags` (written
`--cflags=-D...`) and run `--runs` times in a child process with `ONEDNN_VERBOSE=1` after 5
warm-up calls; oneDNN's logged execution times are summed per (primitive, implementation,
problem) and divided by the runs, beside the child's wall time per call (what oneDNN does
not log is the difference: xrelay's own kernels and glue). With `--onnxruntime`, the same
model's ONNX file runs in onnxruntime with profiling on (5 warm-up calls, then `--runs`),
its node times summed per (op, input shapes). The two run one after the other, so a
machine whose speed drifts skews their totals; compare shapes within a table first.
Run: `OMP_NUM_THREADS=1 python benchmarks/dnnl_shapes_profile.py --model light-resnet50
--onnxruntime`.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
import xrelay
from inference_cases import load_case
from inference_report import XRELAY_TARGETS
case = load_case(sys.argv[2], int(sys.argv[3]), False)
options = {"cache_dir": sys.argv[4], "num_threads": int(sys.argv[5]), "cflags": sys.argv[7:]}
lib = xrelay.build(case.mod, XRELAY_TARGETS["dnnl"], case.params, options)
for _ in range(5):
    lib(case.x)
print("=====", flush=True)
runs = int(sys.argv[6])
start = time.perf_counter()
for _ in range(runs):
    lib(case.x)
print(f"wall {(time.perf_counter() - start) / runs * 1e3:.3f}", flush=True)
"""


def onednn_rows(args: argparse.Namespace, cache: str) -> tuple[float, dict[tuple[str, ...], float]]:
    """The child's wall ms per call and oneDNN's ms per call by (primitive, impl, problem)."""
    here = str(Path(__file__).resolve().parent)
    argv = [sys.executable, "-c", CHILD, here, args.model, str(args.size), cache]
    argv += [str(args.threads), str(args.runs), *args.cflags]
    env = {**os.environ, "ONEDNN_VERBOSE": "1", "OMP_NUM_THREADS": str(args.threads)}
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    timed = out.split("=====", 1)[1]
    wall, totals = 0.0, defaultdict[tuple[str, ...], float](float)
    for line in timed.splitlines():
        if line.startswith("wall "):
            wall = float(line.split()[1])
        elif line.startswith("onednn_verbose,exec,"):
            fields = line.split(",")
            key = (fields[3], fields[4].split(":")[0], fields[-2])
            totals[key] += float(fields[-1]) / args.runs
    return wall, dict(totals)


def onnxruntime_rows(args: argparse.Namespace, tmp: str) -> dict[tuple[str, ...], float]:
    """onnxruntime's ms per call by (op, input shapes, output shape), from its profile."""
    import numpy as np
    from inference_cases import load_case

    ort: Any = importlib.import_module("onnxruntime")  # a bench extra, no type stubs

    case = load_case(args.model, args.size, True)
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = args.threads, 1
    options.enable_profiling = True
    options.profile_file_prefix = str(Path(tmp) / "ort")
    model: Any = str(case.onnx) if isinstance(case.onnx, Path) else case.onnx
    session = ort.InferenceSession(model, options)
    feed = {session.get_inputs()[0].name: np.asarray(case.x, np.float32)}
    for _ in range(5 + args.runs):
        session.run(None, feed)
    events = json.loads(Path(session.end_profiling()).read_text())
    starts = sorted(e["ts"] for e in events if e.get("name") == "model_run")
    after_warm_up = starts[5]
    totals: dict[tuple[str, ...], float] = defaultdict(float)
    for event in events:
        if (
            event.get("cat") == "Node"
            and event["name"].endswith("_kernel_time")
            and event["ts"] >= after_warm_up
        ):
            extra = event["args"]
            ins = [next(iter(d.values())) for d in extra.get("input_type_shape", [])[:2]]
            outs = [next(iter(d.values())) for d in extra.get("output_type_shape", [])[:1]]
            key = (extra.get("op_name", "?"), str(ins), str(outs))
            totals[key] += event["dur"] / 1e3 / args.runs
    return dict(totals)


def main() -> None:
    """Profile, then print both tables, largest first."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default="light-resnet50")
    parser.add_argument("--size", type=int, default=224, help="tinyres's image size")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument(
        "--cflags", nargs="*", default=[], help="e.g. --cflags=-DXRELAY_DNNL_RELU_POST_OP"
    )
    parser.add_argument("--onnxruntime", action="store_true", help="also onnxruntime's profile")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        wall, rows = onednn_rows(args, tmp)
        print(f"{args.model} on dnnl, {args.threads} thread(s), {args.runs} runs")
        print(f"wall {wall:.2f} ms per call; oneDNN's primitives {sum(rows.values()):.2f} ms")
        print("| ms | primitive | implementation | problem |")
        print("| --- | --- | --- | --- |")
        for (kind, impl, problem), ms in sorted(rows.items(), key=lambda kv: -kv[1]):
            print(f"| {ms:.3f} | {kind} | {impl} | {problem} |")
        if args.onnxruntime:
            ort_rows = onnxruntime_rows(args, tmp)
            print(f"\nonnxruntime, nodes {sum(ort_rows.values()):.2f} ms per call")
            print("| ms | op | inputs | output |")
            print("| --- | --- | --- | --- |")
            for (op, ins, outs), ms in sorted(ort_rows.items(), key=lambda kv: -kv[1]):
                print(f"| {ms:.3f} | {op} | {ins} | {outs} |")


if __name__ == "__main__":
    main()
