"""accel's Winograd kernel (`codegen/accel/conv_winograd.py`) against the interpreter.

Each test builds one-op `accel.conv2d_winograd` functions (`testlib/accel_cases.py`:
printed by the real emitter, compiled, run as a runtime `Library`) on random
data and the transformed weights of random filters, F(2x2) and F(4x4), and
compares every output with `xrelay.evaluate` (whose reference is the Winograd
one, `winograd_conv2d` in float64) at rtol/atol 1e-4: on outputs of up to
about 12, the kernel's float32 rounding moves them by at most about 2.5e-6
with F(2x2) and 3.5e-5 with F(4x4). The cases cover tinyres's shapes, channel
counts that are not multiples of the 16-channel blocks, widths whose last
group of tiles is partial, odd extents and rows that end inside a tile, every
padding the pass takes, batches, every epilogue, NaN through the pool,
threads, the three vector widths (the build machine's, 16 with AVX-512, from the
target's own flags; 8 with AVX2 and 4 with the host's flags from `test_vector_widths`)
and runs under ASan and UBSan.
"""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from testlib.accel_cases import ATOL, RTOL, Partitions, accel_code, build, emit
from testlib.onednn import AVX512
from testlib.sanitized import main_inputs, main_outputs, run_main
from xrelay.codegen.build import find_compiler
from xrelay.dialects.accel_winograd import Conv2DWinogradOp, winograd_weights
from xrelay.dialects.relay.nn import pad_2d

import xrelay
from xrelay.runtime import Library

PAD1 = (1, 1, 1, 1)
CPUINFO = Path("/proc/cpuinfo").read_text()


def add(
    p: Partitions,
    label: str,
    data: tuple[int, int, int, int],
    k: int,
    padding: Sequence[int] = PAD1,
    *,
    tile: int = 2,
    bias: bool = False,
    residual: bool = False,
    relu: bool = False,
    pool: bool = False,
) -> None:
    """A Winograd case: NCHW `data`, `k` output channels, F(tile x tile), the epilogue asked
    for. The weights are those of a random filter (`winograd_weights`), scaled as a trained
    layer's (outputs of about the inputs' size): F(4x4)'s transforms of unrelated random
    weights would cancel to outputs thousands of times smaller than their terms."""
    n, c, h, w = data
    top, left, bottom, right = pad_2d(tuple(padding))
    shapes = [data, (tile + 2, tile + 2, k, c)]
    if bias:
        shapes.append((k,))
    if residual:
        shapes.append((n, k, h + top + bottom - 2, w + left + right - 2))
    p.add(label, Conv2DWinogradOp, shapes, padding=list(padding), tile=tile, has_bias=bias,
          has_residual=residual, has_relu=relu, has_max_pool=pool)  # fmt: skip
    weight = len(p.values) - len(shapes) + 1
    scale = 3.0 / np.sqrt(9 * c)
    p.values[weight] = winograd_weights(
        p.rng.uniform(-scale, scale, (k, c, 3, 3)).astype("float32"), tile
    )


def shapes_cases(tile: int) -> Partitions:
    """Extents, channels, padding and batches, for F(tile x tile)."""
    p = Partitions(21 + tile)
    t = {"tile": tile}
    add(p, "tinyres 16->16 at 32x32", (1, 16, 32, 32), 16, bias=True, relu=True, **t)
    add(p, "tinyres 16->16 at 64x64, residual", (1, 16, 64, 64), 16, bias=True, residual=True,
        relu=True, **t)  # fmt: skip
    add(p, "tinyres 16->32 at 32x32, pool", (1, 16, 32, 32), 32, bias=True, relu=True,
        pool=True, **t)  # fmt: skip
    add(p, "C 20, K 24, width 18", (1, 20, 6, 18), 24, bias=True, **t)
    add(p, "K 40 (16 + 16 + 8), width 50", (1, 16, 5, 50), 40, relu=True, **t)
    add(p, "K 8 (one short block), width 70", (1, 8, 4, 70), 8, bias=True, residual=True, **t)
    add(p, "C 9, K 17, width 34", (1, 9, 7, 34), 17, **t)
    add(p, "C 32, K 33, width 130", (1, 32, 4, 130), 33, bias=True, **t)
    if tile == 2:
        add(p, "C 64", (1, 64, 4, 40), 16, bias=True, **t)
    add(p, "odd extents, padding 0", (1, 16, 9, 13), 16, (0, 0, 0, 0), relu=True, **t)
    add(p, "odd extents, padding 1, residual", (1, 8, 7, 21), 8, residual=True, **t)
    add(p, "rows 2 past a tile of 4", (1, 8, 6, 23), 8, residual=True, relu=True, **t)
    add(p, "padding 2", (1, 8, 6, 20), 16, (2, 2, 2, 2), bias=True, residual=True, **t)
    add(p, "asymmetric padding", (1, 8, 7, 19), 8, (2, 0, 1, 2), bias=True, residual=True,
        relu=True, **t)  # fmt: skip
    add(p, "asymmetric padding, pool", (1, 8, 8, 22), 8, (0, 1, 2, 1), residual=True,
        pool=True, **t)  # fmt: skip
    add(p, "pool of 6 x 6: half tiles of 4", (1, 8, 6, 6), 8, residual=True, pool=True, **t)
    add(p, "padding [1]", (1, 8, 5, 8), 8, (1,), **t)
    add(p, "padding [2, 0]", (1, 8, 5, 9), 8, (2, 0), **t)
    add(p, "N 2", (2, 16, 10, 24), 16, bias=True, residual=True, relu=True, **t)
    add(p, "N 3, pool", (3, 8, 6, 36), 16, bias=True, residual=True, pool=True, **t)
    add(p, "one row, one column", (1, 8, 1, 1), 8, **t)
    add(p, "a window over the padding", (1, 8, 2, 2), 8, (2, 2, 2, 2), residual=True, **t)
    return p


def vector_width(flags: Sequence[str]) -> int:
    """The floats in accel's vectors when compiled with `flags` (the compiler's macros)."""
    probe = ["-dM", "-E", "-x", "c", "-"]
    compiler = find_compiler().command
    defines = subprocess.run(
        [*compiler, *flags, *probe], input="", capture_output=True, text=True, check=True
    ).stdout
    return 16 if "__AVX512F__" in defines else 8 if "__AVX__" in defines else 4


@pytest.mark.parametrize("tile", [2, 4])
def test_extents_channels_padding_and_batches(cache: Path, tile: int) -> None:
    p = shapes_cases(tile)
    sources = p.check(cache)
    unit = accel_code(sources)
    # The target's own flags give the build machine's widest vectors: 16 floats with AVX-512.
    flags = next(f for n, f in sources.unit_cflags.items() if n.startswith("accel"))
    assert vector_width(flags) == (16 if AVX512 else 8 if " avx2" in CPUINFO else 4)
    assert "/* accel.conv2d_winograd */" in unit
    assert "xa_ld_span(" in unit
    assert "__builtin_shuffle(" in unit


def epilogue_cases(tile: int) -> Partitions:
    """Every combination of bias, residual, relu and pool, at a width of two groups and a bit
    (of 16 lanes) and rows that end inside a tile of 4."""
    p = Partitions(22 + tile)
    for bias, residual, relu, pool in product((False, True), repeat=4):
        label = f"bias={bias} residual={residual} relu={relu} pool={pool}"
        add(p, label, (2, 8, 6, 36 * tile // 2), 12, tile=tile, bias=bias, residual=residual,
            relu=relu, pool=pool)  # fmt: skip
    return p


@pytest.mark.parametrize("tile", [2, 4])
def test_every_epilogue(cache: Path, tile: int) -> None:
    p = epilogue_cases(tile)
    unit = accel_code(p.check(cache))
    assert "xa_max(xa_max(" in unit  # the pool of each 2x2 window
    assert "XA_ZIP_LO" in unit  # the rows interleaved back into columns


@pytest.mark.parametrize(
    ("flags", "lanes"),
    [
        (None, 4),  # the host's flags: no AVX
        (["-O3", "-mavx2", "-mfma", "-ffp-contract=fast", "-fopenmp"], 8),
    ],
)
def test_vector_widths(cache: Path, flags: list[str] | None, lanes: int) -> None:
    """The shapes and epilogues with vectors of 4 (SSE: the portable `xa_ld_span` and the
    XA_VL 4 masks) and 8 floats (AVX2). The tests above build them with the target's own
    flags, `-march=native`: 16 floats (AVX-512 masked loads) on CI's machines."""
    assert vector_width(flags or []) == lanes
    for tile in (2, 4):
        for p in (shapes_cases(tile), epilogue_cases(tile)):
            p.check(cache, target_flags=flags is not None, unit_flags=flags)


@pytest.mark.parametrize("num_threads", [1, 2, 3])
def test_threads(cache: Path, num_threads: int) -> None:
    """Tile rows split across threads, on counts 2 and 3 do not divide, across images."""
    p = Partitions(23)
    add(p, "15 tile rows", (1, 16, 30, 64), 16, bias=True, residual=True, relu=True)
    add(p, "2 images of 7 tile rows, pool", (2, 16, 14, 64), 32, bias=True, relu=True,
        pool=True)  # fmt: skip
    add(p, "3 images of 5 tile rows, odd height", (3, 16, 9, 48), 16, residual=True)
    add(p, "F(4x4): 9 tile rows, the last cut", (1, 16, 34, 64), 16, tile=4, bias=True,
        residual=True, relu=True)  # fmt: skip
    add(p, "F(4x4): 2 images of 5 tile rows, pool", (2, 16, 18, 64), 16, tile=4, residual=True,
        pool=True)  # fmt: skip
    unit = accel_code(p.check(cache, num_threads=num_threads))
    assert f"#define XA_NUM_THREADS {num_threads}\n" in unit
    regions = unit.count("xn_parallel(xa_nt, ")
    assert regions == (0 if num_threads == 1 else 5)


@pytest.mark.parametrize("tile", [2, 4])
def test_nan_reaches_the_pooled_output(cache: Path, tile: int) -> None:
    """A NaN of the input (or of the residual) makes NaN the pooled values whose tiles read
    it, as the interpreter does, through the residual's and the relu's lanes too; the others
    are numbers. Without a pool too."""
    p = Partitions(24 + tile)
    nans: list[tuple[int, tuple[int, int, int, int]]] = []

    def case(label: str, data: tuple[int, int, int, int], where: tuple[int, int, int, int],
             operand: int = 0, **epilogue: bool) -> None:  # fmt: skip
        nans.append((len(p.values) + operand, where))
        add(p, label, data, 8, tile=tile, **epilogue)

    case("pool, the last input column", (1, 8, 8, 36), (0, 2, 3, 35), pool=True)
    case("pool, relu, the first corner", (1, 8, 8, 36), (0, 5, 0, 0), relu=True, pool=True)
    case("pool, residual, relu", (1, 8, 8, 36), (0, 1, 7, 17), bias=True, residual=True,
         relu=True, pool=True)  # fmt: skip
    case("pool, the residual's NaN", (1, 8, 8, 36), (0, 4, 6, 1), 3, bias=True, residual=True,
         pool=True)  # fmt: skip
    case("no pool, relu", (1, 8, 7, 35), (0, 0, 6, 34), relu=True)
    for index, where in nans:
        p.values[index][where] = np.nan
    mod = p.module()
    got = Library(build(emit(mod), cache))(*p.values)
    want = xrelay.evaluate(mod, *p.values)
    assert isinstance(got, tuple)
    assert isinstance(want, tuple)
    for label, g, w in zip(p.labels, got, want, strict=True):
        w = np.asarray(w)
        assert 0 < np.isnan(w).sum() < w.size, label
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w), err_msg=label)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True, err_msg=label)


@pytest.mark.parametrize("target_flags", [True, False])
def test_under_the_sanitizers(cache: Path, tmp_path: Path, target_flags: bool) -> None:
    """Winograd kernels built with ASan and UBSan (accel's flags on 3 threads: AVX-512 masked
    loads; the host's: the portable `xa_ld_span`, whose loads ASan checks), run from C
    (`tests/c/main.c`, inputs of exactly their size): no report, the interpreter's outputs.
    The edges read past: the first and last columns and rows, padding 2, partial groups."""
    p = Partitions(25)
    add(p, "padding 2, width 17", (2, 3, 5, 17), 5, (2, 2, 2, 2), bias=True, residual=True,
        relu=True)  # fmt: skip
    add(p, "padding 0, width 35", (1, 4, 6, 35), 8, (0, 0, 0, 0), residual=True)
    add(p, "asymmetric, pool", (2, 3, 6, 34), 4, (2, 0, 0, 2), residual=True, pool=True)
    add(p, "one column", (1, 2, 3, 1), 3)
    add(p, "threads", (1, 16, 30, 64), 16, bias=True, residual=True, relu=True, pool=True)
    add(p, "F(4x4), padding 2, width 17", (2, 3, 5, 17), 5, (2, 2, 2, 2), tile=4, bias=True,
        residual=True, relu=True)  # fmt: skip
    add(p, "F(4x4), asymmetric, pool", (2, 3, 6, 34), 4, (2, 0, 0, 2), tile=4, residual=True,
        pool=True)  # fmt: skip
    add(p, "F(4x4), one column", (1, 2, 3, 1), 3, tile=4)
    add(p, "F(4x4), threads", (1, 16, 34, 64), 16, tile=4, bias=True, residual=True,
        relu=True)  # fmt: skip
    mod = p.module()
    stdout = run_main(emit(mod, num_threads=3), cache, tmp_path, target_flags=target_flags)
    got, inputs = main_outputs(stdout), main_inputs(p.values)
    want = xrelay.evaluate(mod, *inputs)
    assert isinstance(want, tuple)
    for label, printed, w in zip(p.labels, got, want, strict=True):
        values = np.array(printed, dtype=np.float64)
        assert np.allclose(values, np.asarray(w).ravel(), rtol=RTOL, atol=ATOL), label
