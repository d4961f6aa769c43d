"""How long a large `relay.constant` takes to print and to parse, in each of MLIR's forms.

One f32 constant of `--elements` values (default 25M: 100 MB, ResNet-50's weights),
printed as a hex dense literal (`dense<"0x...">`), as a `dense_resource<w>` blob in
the `{-# dialect_resources #-}` section, and elided (`dense_resource<__elided__>`,
`--elide-constants-if-larger`); then parsed and verified back (`xrelay.parse`).
Run: `python benchmarks/large_constants.py [--elements 25000000]`.
"""

from __future__ import annotations

import argparse
import io
import time

import numpy as np
from xrelay.dialects.dense_literal import ExactPrinter

import xrelay
from xrelay import IRModule, relay

FORMS: dict[str, tuple[int | None, int | None]] = {
    'dense<"0x...">': (None, None),
    "dense_resource<w>": (100, None),
    "dense_resource<__elided__>": (None, 100),
}
"""Each form's printer options: (resources_if_larger, elide_if_larger)."""


def module(elements: int) -> IRModule:
    """`main(x) = x + w` with a random constant `w` of `elements` f32 values."""
    x = relay.var("x", shape=(elements,), dtype="float32")
    values = np.random.default_rng(0).standard_normal(elements).astype("float32")
    w = relay.const(values)
    return IRModule.from_expr(relay.Function([x], relay.add(x, w)))


def main() -> None:
    """Print the table for one constant of `--elements` values."""
    parser = argparse.ArgumentParser(description="Time printing and parsing a large constant.")
    parser.add_argument("--elements", type=int, default=25_000_000)
    args = parser.parse_args()
    mod = module(args.elements)
    print(f"one f32 constant of {args.elements} elements ({args.elements * 4 / 1e6:.0f} MB)")
    print("| form | text MB | print s | parse + verify s |")
    print("| --- | ---: | ---: | ---: |")
    for form, (resources, elide) in FORMS.items():
        start = time.perf_counter()
        stream = io.StringIO()
        printer = ExactPrinter(stream=stream, resources_if_larger=resources, elide_if_larger=elide)
        printer.print_op(mod.module)
        text = stream.getvalue()
        printed = time.perf_counter()
        xrelay.parse(text)
        parsed = time.perf_counter()
        print(
            f"| `{form}` | {len(text) / 1e6:.3f} | {printed - start:.2f} | {parsed - printed:.2f} |"
        )


if __name__ == "__main__":
    main()
