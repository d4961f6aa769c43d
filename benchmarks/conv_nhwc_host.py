"""The host `"c"` target's float32 NHWC conv2d against its NCHW kernel (issue 16).

    python benchmarks/conv_nhwc_host.py [--rounds 20] [--loops]

Builds, on target `"c"` only (1 thread), each conv three ways from the same weights: NCHW
data with OIHW weights (the blocked or depthwise kernel, `kernels_conv2d.py`), NHWC with
HWIO weights and NHWC with OHWI weights (`codegen/kernels/conv_nhwc.py`); `--loops` adds
NHWC through the scalar loops the host used before (`kernels_conv2d_nhwc.direct_plan`
told to take nothing). Checks every build against a float64 numpy conv (1e-4 of the
output's magnitude), then times them interleaved, `--rounds` rounds of one call each
(through the raw C ABI: `inference_runners.XrelayModel`), and prints the median and
GFLOP/s (2 flops per multiply-add). Not a test: nothing is asserted on times.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from inference_runners import XrelayModel
from xrelay.codegen.c import kernels_conv2d_nhwc

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(16)

CONVS: dict[str, tuple[int, int, int, int, int, int]] = {
    # name: (channels, height = width, output channels, kernel, stride, groups)
    "3x3 64->64 at 56x56": (64, 56, 64, 3, 1, 1),
    "depthwise 3x3 96 ch at 112x112, stride 2": (96, 112, 96, 3, 2, 96),
    "3x3 32->32 groups 2 at 56x56": (32, 56, 32, 3, 1, 2),
}


def build(
    layout: str, spec: tuple[int, int, int, int, int, int], oihw: Array, tmp: str
) -> tuple[XrelayModel, Array, Callable[[Array], Array]]:
    """One conv in `layout` (NCHW, HWIO or OHWI): the model, its input and a map from its
    output to NCHW."""
    c, size, _, k, stride, groups = spec
    nchw = RNG.standard_normal((1, c, size, size)).astype("float32")
    kwargs: dict[str, Any] = {"padding": (k // 2, k // 2), "strides": (stride, stride)}
    kwargs["groups"] = groups
    if layout == "NCHW":
        data, weights = nchw, oihw

        def back(out: Array) -> Array:
            return out

    else:
        data = np.ascontiguousarray(nchw.transpose(0, 2, 3, 1))
        order = (2, 3, 1, 0) if layout == "HWIO" else (0, 2, 3, 1)
        weights = np.ascontiguousarray(oihw.transpose(order))
        kwargs |= {"data_layout": "NHWC", "kernel_layout": layout}

        def back(out: Array) -> Array:
            return out.transpose(0, 3, 1, 2)

    x = relay.var("x", shape=data.shape, dtype="float32")
    y = relay.nn.conv2d(x, relay.const(weights), **kwargs)
    lib = xrelay.build(IRModule.from_expr(relay.Function([x], y)), target="c")
    path = str(Path(tmp) / f"{layout}-{c}-{size}-{groups}-{id(lib)}.so")
    lib.export_library(path)
    return XrelayModel(path, data), nchw, back


def reference(x: Array, w: Array, stride: int, groups: int) -> Array:
    """The float64 conv (NCHW, padding k // 2)."""
    k = w.shape[2]
    pad = k // 2
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    o, cg = w.shape[:2]
    size = (x.shape[2] + 2 * pad - k) // stride + 1
    out = np.zeros((1, o, size, size))
    og = o // groups
    for ky in range(k):
        for kx in range(k):
            window = xp[:, :, ky : ky + size * stride : stride, kx : kx + size * stride : stride]
            for g in range(groups):
                part = window[:, g * cg : (g + 1) * cg]
                taps = w[g * og : (g + 1) * og, :, ky, kx].astype(np.float64)
                out[:, g * og : (g + 1) * og] += np.einsum("nchw,oc->nohw", part, taps)
    return out


def main() -> None:
    """Build, check and time every conv in every layout; print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--loops", action="store_true", help="also NHWC's old scalar loops")
    args = parser.parse_args()
    runners: dict[tuple[str, str], XrelayModel] = {}
    flops: dict[str, float] = {}
    layouts = ["NCHW", "HWIO", "OHWI"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in CONVS.items():
            c, _, o, k, stride, groups = spec
            oihw = RNG.standard_normal((o, c // groups, k, k)) / np.sqrt(c * k * k / groups)
            oihw = oihw.astype("float32")
            variants = [(layout, layout) for layout in layouts]
            if args.loops:
                variants.append(("HWIO loops", "HWIO"))
            for label, layout in variants:
                saved = kernels_conv2d_nhwc.direct_plan
                if label.endswith("loops"):
                    kernels_conv2d_nhwc.direct_plan = lambda op: None
                try:
                    model, nchw, back = build(layout, spec, oihw, tmp)
                finally:
                    kernels_conv2d_nhwc.direct_plan = saved
                want = reference(nchw, oihw, stride, groups)
                model()
                error = float(np.max(np.abs(back(model.out) - want)))
                assert error <= 1e-4 * max(1.0, float(np.max(np.abs(want)))), (name, label)
                runners[(name, label)] = model
                flops[name] = 2.0 * want.size * (c // groups) * k * k
        times: dict[tuple[str, str], list[float]] = {key: [] for key in runners}
        for _ in range(args.rounds):
            for key, run in runners.items():
                start = time.perf_counter()
                run()
                times[key].append(time.perf_counter() - start)
    print(f"{'conv':42} {'layout':11} {'median ms':>10} {'GFLOP/s':>8}")
    for (name, label), samples in times.items():
        median = statistics.median(samples)
        print(f"{name:42} {label:11} {median * 1e3:10.3f} {flops[name] / median / 1e9:8.1f}")


if __name__ == "__main__":
    main()
