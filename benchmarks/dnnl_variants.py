"""One model on the dnnl target, built with each of the dnnl build options that trade
exactness or oneDNN's own choices for speed, timed interleaved in one process.

Variants (`--variants`, each a `+`-joined list of C flags, or `default`; a leading `+`
gets a variant past argparse: `--variants default +-DXRELAY_DNNL_NO_WINOGRAD`):

- `default`: what `xrelay.build(..., ["dnnl", "c"])` makes;
- `-DXRELAY_DNNL_WINOGRAD_DEFAULT`: oneDNN's first Winograd kernel (2x3) for every
  candidate convolution, not the 2x3 or 4x3 one `codegen/dnnl/conv.winograd_kernels` asks for;
- `-DXRELAY_DNNL_RELU_POST_OP`: relu post-ops run by oneDNN on every run (NaN become 0);
  by default only runs whose inputs are all finite do, the others run xrelay's NaN-keeping
  pass over each result: what relay's exact numerics cost (the scan of the inputs);
- `-DXRELAY_DNNL_NO_WINOGRAD`: every convolution direct.

Every variant's output is compared with the first variant's (the largest difference over the
largest magnitude); timing: `--rounds` rounds, each running every variant for `--slice`
seconds in turn after two warm-up calls; the median and the minimum of the per-call means,
and each median's ratio to the first variant's (`default` unless `--variants` says otherwise). Run:
`python benchmarks/dnnl_variants.py --model light-resnet50 --threads 1`.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from typing import Any

import numpy as np
from inference_cases import MODELS, load_case
from inference_report import XRELAY_TARGETS

import xrelay

VARIANTS = (
    "default",
    "-DXRELAY_DNNL_WINOGRAD_DEFAULT",
    "-DXRELAY_DNNL_RELU_POST_OP",
)


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default="light-resnet50", choices=MODELS)
    parser.add_argument("--size", type=int, default=224, help="tinyres's image size")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--slice", type=float, default=0.4, help="seconds per variant a round")
    return parser.parse_args()


def main() -> None:
    """Build every variant, check its output against the default's, time them interleaved."""
    args = parse_args()
    case = load_case(args.model, args.size, False)
    libs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as cache:
        for variant in args.variants:
            flags = [] if variant == "default" else [f for f in variant.split("+") if f]
            options: dict[str, Any] = {
                "cache_dir": cache,
                "num_threads": args.threads,
                "cflags": flags,
            }
            libs[variant] = xrelay.build(case.mod, XRELAY_TARGETS["dnnl"], case.params, options)
        first = np.asarray(next(iter(libs.values()))(case.x), np.float64)
        scale = float(np.max(np.abs(first))) or 1.0
        means: dict[str, list[float]] = {variant: [] for variant in libs}
        for _ in range(args.rounds):
            for variant, lib in libs.items():
                lib(case.x)
                lib(case.x)
                start, calls = time.perf_counter(), 0
                while time.perf_counter() - start < args.slice:
                    lib(case.x)
                    calls += 1
                means[variant].append((time.perf_counter() - start) / calls)
        print(f"{args.model} on dnnl, {args.threads} thread(s), {args.rounds} rounds")
        print("| variant | median | min | ratio | max difference / max magnitude |")
        print("| --- | --- | --- | --- | --- |")
        base = statistics.median(next(iter(means.values())))
        for variant, lib in libs.items():
            out = np.asarray(lib(case.x), np.float64)
            median, low = statistics.median(means[variant]), min(means[variant])
            differs = float(np.max(np.abs(out - first))) / scale
            print(
                f"| {variant} | {median * 1e3:.2f} ms | {low * 1e3:.2f} ms "
                f"| {median / base:.3f} | {differs:.1e} |"
            )


if __name__ == "__main__":
    main()
