"""What the objects builds share save (`codegen/object_cache.py`): the compiler's CPU time
and the wall time of building several models, each alone (a fresh cache and process memory
per model: every shared unit compiled for each) and one after another in one cache (each
shared unit compiled once).

The models are ONNX's light models (`--models`, default SqueezeNet, Inception v1 and
ResNet-50) on `--target` (default `c`), with the target's own flags. Compiler CPU is the
user and system time of the compiler processes (`resource.getrusage(RUSAGE_CHILDREN)`);
the two ways alternate `--rounds` times (default 1) and each prints every round. Run:
`python benchmarks/shared_objects.py`
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from xrelay.codegen import object_cache

import xrelay
from xrelay.relay.frontend import from_onnx
from xrelay.relay.frontend.onnx_light import light_model


def children_cpu() -> float:
    """CPU seconds of this process's finished children (the compilers)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build_all(models: list[str], target: list[str], shared: bool) -> tuple[float, float]:
    """(compiler CPU s, wall s) of building `models`; `shared`: in one cache."""
    imported = [from_onnx(light_model(name)[0]) for name in models]
    object_cache.clear()
    with tempfile.TemporaryDirectory() as tmp:
        cpu, wall = children_cpu(), time.perf_counter()
        for number, (mod, params) in enumerate(imported):
            if not shared:
                object_cache.clear()
            cache = Path(tmp) / ("cache" if shared else f"cache-{number}")
            xrelay.build(mod, target=target, params=params, options={"cache_dir": str(cache)})
        return children_cpu() - cpu, time.perf_counter() - wall


def main() -> None:
    """Build the models both ways, `--rounds` times, and print the times."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", nargs="+", default=["squeezenet", "inception_v1", "resnet50"])
    parser.add_argument("--target", default="c", help="comma-separated, as xrelay-run's")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    target = args.target.split(",")
    print(f"models {' '.join(args.models)} on {args.target}")
    for round_ in range(args.rounds):
        for shared in (False, True):
            cpu, wall = build_all(args.models, target, shared)
            way = "one cache, shared objects" if shared else "each alone"
            print(f"round {round_ + 1}: {way:26} compiler CPU {cpu:6.1f} s, wall {wall:6.1f} s")


if __name__ == "__main__":
    main()
