"""How long a large `relay.constant` takes to parse: decimal elements against a hex blob.

Both texts hold the same random f32 values; the decimal one lists each element
(`dense<[1.234567e-01, ...]>`), the hex one is what xrelay prints for more than
100 elements (`dense<"0x...">`). Decimal reading is linear (dialects/dense_literal.py),
so its time should stay within a few times that of hex at every size.
Run: `python benchmarks/parse_dense.py [--sizes 100000 1000000]`.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from xrelay.dialects.parser import parse_module


def constant_text(values: np.ndarray[tuple[int], np.dtype[np.float32]], hex_blob: bool) -> str:
    """A module returning `values` as one constant, written as decimals or as a hex blob."""
    n = values.size
    if hex_blob:
        body = f'"0x{values.astype("<f4").tobytes().hex().upper()}"'
    else:
        body = "[" + ", ".join(f"{v:.6e}" for v in values.tolist()) + "]"
    return (
        f"func.func @main() -> tensor<{n}xf32> {{\n"
        f"  %0 = relay.constant dense<{body}> : tensor<{n}xf32>\n"
        f"  func.return %0 : tensor<{n}xf32>\n}}\n"
    )


def parse_seconds(text: str) -> float:
    """Wall time of one parse."""
    start = time.perf_counter()
    parse_module(text)
    return time.perf_counter() - start


def main() -> None:
    """Print a markdown table of parse times per size and form."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("| elements | decimal (s) | hex (s) | decimal / hex |")
    print("|---:|---:|---:|---:|")
    for n in args.sizes:
        values: np.ndarray[tuple[int], np.dtype[np.float32]] = np.asarray(
            rng.standard_normal(n), dtype=np.float32
        )
        decimal = parse_seconds(constant_text(values, hex_blob=False))
        blob = parse_seconds(constant_text(values, hex_blob=True))
        print(f"| {n} | {decimal:.3f} | {blob:.3f} | {decimal / blob:.1f} |")


if __name__ == "__main__":
    main()
