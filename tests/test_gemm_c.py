"""The shared float32 GEMM (`codegen/kernels/gemm.py`) behind the host's `nn.dense`, `matmul`
and `nn.batch_matmul`, against the interpreter (float64 sums rounded once).

Bound: the GEMM sums the `k` products of each output in float32 (with fused
multiply-adds), so its error is at most about `k * 2^-24 * sum_q |a_q * b_q|`
(docs/semantics.md); every element is checked against twice that, plus the
reference's own rounding. The issue's rule, every output within 1e-4 of its
largest magnitude, is checked too. Shapes cover one row, many rows (past the
row block), odd sizes, depths past and not a multiple of the depth block,
columns past the column block, empty dims, every transpose and batch broadcast.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import emit
from testlib.sanitized import main_inputs, main_outputs, run_main

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Product = Callable[[Array, Array], Array]
"""The op's product in float64 on |values| or values: its sum bound and its reference."""


class Cases:
    """Many products in one module (one compile), each with its seeded inputs."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.params: list[relay.Var] = []
        self.values: list[Array] = []
        self.outputs: list[relay.Expr] = []
        self.labels: list[str] = []
        self.products: list[tuple[Product, int, int, int]] = []
        """(product, index of the first operand, of the second, depth) per case."""

    def var(self, shape: tuple[int, ...], dtype: str = "float32") -> relay.Var:
        v = relay.var(f"v{len(self.params)}", shape=shape, dtype=dtype)
        self.params.append(v)
        self.values.append(self.rng.standard_normal(shape).astype(dtype))
        return v

    def add(
        self,
        label: str,
        shapes: tuple[tuple[int, ...], tuple[int, ...]],
        make: Callable[[relay.Var, relay.Var], relay.Expr],
        product: Product,
        depth: int,
    ) -> None:
        first = len(self.values)
        a, b = self.var(shapes[0]), self.var(shapes[1])
        self.labels.append(label)
        self.outputs.append(make(a, b))
        self.products.append((product, first, first + 1, depth))

    def module(self) -> IRModule:
        return IRModule.from_expr(relay.Function(self.params, relay.Tuple(self.outputs)))

    def check(self, got: list[Array], want: list[Array], values: list[Array]) -> None:
        for label, g, w, (product, i, j, depth) in zip(
            self.labels, got, want, self.products, strict=True
        ):
            a, b = values[i].astype(np.float64), values[j].astype(np.float64)
            assert g.shape == w.shape, label
            bound = 2 * depth * 2.0**-24 * product(np.abs(a), np.abs(b))
            bound = bound + 2.0**-24 * np.abs(w.astype(np.float64))
            error = np.abs(g.astype(np.float64) - w.astype(np.float64))
            assert np.all(error <= bound), (label, float(np.max(error - bound)))
            scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
            assert float(np.max(error, initial=0.0)) <= 1e-4 * scale, label


def dense_cases(seed: int, shapes: list[tuple[tuple[int, ...], int]]) -> Cases:
    """`nn.dense` of data `(*lead, depth)` by `(units, depth)` for each ((*lead, depth), units)."""
    cases = Cases(seed)
    for data, units in shapes:
        depth = data[-1]
        cases.add(
            f"dense {data} x {units}",
            (data, (units, depth)),
            lambda a, b: relay.nn.dense(a, b),
            lambda a, b: a @ b.T,
            depth,
        )
    return cases


DENSE = [
    ((1, 37), 5),  # one row
    ((2, 64), 9),  # two rows: dot products, the depth a whole number of vectors
    ((200, 300), 45),  # rows past the row block, depth past the depth block, odd units
    ((7, 13), 600),  # units past the column block
    ((2, 3, 17), 33),  # leading dims
    ((5, 0), 4),  # empty depth: zeros
    ((0, 8), 4),  # no rows
    ((4, 8), 0),  # no units
    ((6, 256), 32),  # exactly one tile per block
    ((3, 1024), 10),  # a long depth
]


def matmul_cases(seed: int) -> Cases:
    cases = Cases(seed)
    for ta in (False, True):
        for tb in (False, True):
            for batch_a, batch_b, m, n, depth in (
                ((), (), 9, 21, 19),
                ((3,), (3,), 5, 17, 260),
                ((2, 1), (3,), 7, 6, 11),  # broadcast batch dims
                ((1,), (4,), 1, 40, 8),
                ((2,), (), 0, 3, 5),  # no rows
                ((2,), (2,), 3, 4, 0),  # empty depth
            ):
                a = (*batch_a, depth, m) if ta else (*batch_a, m, depth)
                b = (*batch_b, n, depth) if tb else (*batch_b, depth, n)

                def product(x: Array, y: Array, ta: bool = ta, tb: bool = tb) -> Array:
                    return np.matmul(
                        np.swapaxes(x, -1, -2) if ta else x, (np.swapaxes(y, -1, -2) if tb else y)
                    )

                cases.add(
                    f"matmul {a} {b} ta={ta} tb={tb}",
                    (a, b),
                    lambda x, y, ta=ta, tb=tb: relay.matmul(x, y, transpose_a=ta, transpose_b=tb),
                    product,
                    depth,
                )
    return cases


def batch_matmul_cases(seed: int) -> Cases:
    cases = Cases(seed)
    for ta in (False, True):
        for tb in (False, True):
            for bx, by, m, n, depth in (
                (2, 2, 13, 35, 300),
                (1, 3, 6, 9, 7),  # x broadcast
                (4, 1, 1, 5, 16),  # y broadcast, one row
                (2, 2, 4, 3, 0),  # empty depth
            ):
                x = (bx, depth, m) if ta else (bx, m, depth)
                y = (by, n, depth) if tb else (by, depth, n)

                def product(p: Array, q: Array, ta: bool = ta, tb: bool = tb) -> Array:
                    return np.matmul(
                        np.swapaxes(p, -1, -2) if ta else p, (np.swapaxes(q, -1, -2) if tb else q)
                    )

                cases.add(
                    f"batch_matmul {x} {y} ta={ta} tb={tb}",
                    (x, y),
                    lambda p, q, ta=ta, tb=tb: relay.nn.batch_matmul(
                        p, q, transpose_a=ta, transpose_b=tb
                    ),
                    product,
                    depth,
                )
    return cases


def run(cases: Cases, cache: Path, optimize: bool) -> None:
    mod = cases.module()
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    got = [np.asarray(g) for g in lib(*cases.values)]
    want = [np.asarray(w) for w in xrelay.evaluate(mod, *cases.values)]
    cases.check(got, want, cases.values)


@pytest.mark.parametrize("optimize", [False, True])
def test_dense_matches_the_interpreter(cache: Path, optimize: bool) -> None:
    run(dense_cases(1, DENSE), cache, optimize)


def test_matmul_matches_the_interpreter(cache: Path) -> None:
    run(matmul_cases(2), cache, optimize=False)


def test_batch_matmul_matches_the_interpreter(cache: Path) -> None:
    run(batch_matmul_cases(3), cache, optimize=False)


def test_float32_products_call_the_library_once_and_other_dtypes_keep_loops() -> None:
    cases = dense_cases(4, [((3, 8), 5)])
    cases.add("matmul", ((4, 6), (6, 2)), relay.matmul, np.matmul, 6)
    sources = emit(cases.module())
    assert "kernels_gemm.c" in sources.files
    assert "-O3" in sources.unit_cflags["kernels_gemm.c"]
    host = str(sources.files["model.c"])
    assert host.count("xg_sgemm(") == 2
    assert "xg_sgemm(" in str(sources.files["model.h"])
    x = relay.var("x", shape=(3, 8), dtype="float64")
    y = relay.var("y", shape=(5, 8), dtype="float64")
    mod = IRModule.from_expr(relay.Function([x, y], relay.nn.dense(x, y)))
    other = emit(mod)
    assert "kernels_gemm.c" not in other.files
    assert "xg_sgemm" not in str(other.files["model.c"])


def test_the_library_is_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    """Odd shapes through every path of the GEMM (edge tiles, several depth and row blocks,
    transposes, broadcast) under ASan and UBSan, outputs against the interpreter."""
    cases = dense_cases(5, [((150, 260), 7), ((1, 3), 40), ((2, 0), 3)])
    for ta, tb in ((False, True), (True, False)):
        x = (1, 5, 3) if ta else (1, 3, 5)
        y = (2, 9, 5) if tb else (2, 5, 9)
        cases.add(
            f"batch_matmul ta={ta} tb={tb}",
            (x, y),
            lambda p, q, ta=ta, tb=tb: relay.nn.batch_matmul(p, q, transpose_a=ta, transpose_b=tb),
            lambda p, q, ta=ta, tb=tb: np.matmul(
                np.swapaxes(p, -1, -2) if ta else p, np.swapaxes(q, -1, -2) if tb else q
            ),
            5,
        )
    mod = cases.module()
    stdout = run_main(emit(mod), cache, tmp_path)
    inputs = main_inputs(cases.values)
    want = [np.asarray(w) for w in xrelay.evaluate(mod, *inputs)]
    got = [
        np.array(printed, dtype=np.float64).reshape(w.shape)
        for printed, w in zip(main_outputs(stdout), want, strict=True)
    ]
    cases.check(got, want, inputs)
