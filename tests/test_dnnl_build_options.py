"""The dnnl target's build options that trade relay's exact numerics or xrelay's kernel
choices for oneDNN's own (`codegen/dnnl/__init__.py`), timed by
`benchmarks/dnnl_variants.py`:

- `-DXRELAY_DNNL_WINOGRAD_DEFAULT`: oneDNN's first Winograd kernel (2x3) even where xrelay
  asks for the 4x3 one;
- `-DXRELAY_DNNL_RELU_POST_OP`: a convolution's relu runs as oneDNN's post-op, turning NaN
  into 0; by default a run whose inputs (and the function's constants) are all finite runs
  oneDNN's relu post-op too, where it cannot meet a NaN, and any other run xrelay's pass
  after the primitive, keeping NaN as relay does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.onednn import AVX512, onednn_log

import xrelay
from xrelay import IRModule, relay


def conv_relu(cin: int, cout: int, side: int) -> IRModule:
    """relu(conv3x3(x) + bias)."""
    rng = np.random.default_rng(cin + cout)
    x = relay.var("x", shape=(1, cin, side, side))
    w = relay.const((rng.standard_normal((cout, cin, 3, 3)) * 0.2).astype("float32"))
    b = relay.const((rng.standard_normal(cout) * 0.1).astype("float32"))
    y = relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1), channels=cout), b)
    return IRModule.from_expr(relay.Function([x], relay.nn.relu(y)))


def test_winograd_default_leaves_the_kernel_to_onednn(cache: Path, tmp_path: Path) -> None:
    mod = conv_relu(32, 32, 28)
    kernels = {}
    for flags in ([], ["-DXRELAY_DNNL_WINOGRAD_DEFAULT"]):
        lib = xrelay.build(
            mod, ["dnnl", "c"], options={"cache_dir": cache, "num_threads": 1, "cflags": flags}
        )
        log = onednn_log(lib, (1, 32, 28, 28), tmp_path)
        (kernels[bool(flags)],) = [entry[4] for entry in log if entry[3] == "convolution"]
        x = np.random.default_rng(0).standard_normal((1, 32, 28, 28)).astype("float32")
        want = xrelay.evaluate(mod, x)
        np.testing.assert_allclose(lib(x), want, rtol=0, atol=1e-5 * float(np.max(np.abs(want))))
    if AVX512:
        assert "wino_4x3" in kernels[False], kernels
        assert "wino_2x3" in kernels[True], kernels
    else:
        assert kernels[False] == kernels[True], kernels


def test_relu_post_op_drops_nan_and_the_default_keeps_it(cache: Path) -> None:
    mod = conv_relu(8, 8, 6)
    x = np.random.default_rng(1).standard_normal((1, 8, 6, 6)).astype("float32")
    x[0, :, 2, 3] = np.nan  # every output pixel whose window holds it is NaN in relay
    want = xrelay.evaluate(mod, x)
    nan = np.isnan(want)
    assert nan.sum() == 8 * 9, nan.sum()
    exact = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache})
    np.testing.assert_allclose(exact(x), want, rtol=1e-5, atol=1e-6)  # NaN where relay's are
    fast = xrelay.build(
        mod, ["dnnl", "c"], options={"cache_dir": cache, "cflags": ["-DXRELAY_DNNL_RELU_POST_OP"]}
    )
    got = np.asarray(fast(x))
    assert not np.isnan(got).any()
    assert (got[nan] == 0).all()
    np.testing.assert_allclose(got[~nan], want[~nan], rtol=1e-5, atol=1e-6)
    source = "".join(str(v) for k, v in exact.sources.files.items() if k.startswith("dnnl"))
    assert "#ifndef XRELAY_DNNL_RELU_POST_OP" in source


def relu_post_ops(lib: Any, shape: tuple[int, ...], tmp_path: Path, fill: float) -> list[bool]:
    """Per convolution the second run executes on `fill`s: whether oneDNN ran its relu."""
    log = onednn_log(lib, shape, tmp_path, fill=fill)
    return ["eltwise_relu" in ",".join(e) for e in log if e[3] == "convolution"]


@pytest.mark.parametrize(("cin", "side"), [(8, 6), (32, 28)])  # direct; Winograd on AVX-512
def test_finite_inputs_run_onednns_relu_and_others_keep_nan(
    cache: Path, tmp_path: Path, cin: int, side: int
) -> None:
    mod = conv_relu(cin, cin, side)
    shape = (1, cin, side, side)
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache, "num_threads": 1})
    unit = lib.sources.files["dnnl.c"]
    assert isinstance(unit, str)
    assert f"s->finite = xd_finite((const float *)p0, {cin * side * side});" in unit
    assert relu_post_ops(lib, shape, tmp_path, 1.0) == [True]  # oneDNN's relu, no pass
    for fill in ("nan", "inf", "-inf"):
        assert relu_post_ops(lib, shape, tmp_path, float(fill)) == [False], fill
    x = np.random.default_rng(2).standard_normal(shape).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, x))
    np.testing.assert_allclose(lib(x), want, rtol=1e-5, atol=1e-5 * float(np.max(want)))
    out = np.asarray(lib(np.full(shape, -0.0, "float32")))  # relu(bias): its zeros are +0
    assert (out == 0).any()
    assert not np.signbit(out[out == 0]).any()
    if cin >= 16:
        return  # Winograd spreads a non-finite input over its tile (docs/semantics.md)
    x[0, 1, 2, 3] = np.inf  # +inf * a negative weight: -inf sums, relu 0; and NaN from inf-inf
    want = np.asarray(xrelay.evaluate(mod, x))
    got = np.asarray(lib(x))
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-4)


def test_a_constant_that_is_not_finite_keeps_the_relu_pass(cache: Path, tmp_path: Path) -> None:
    # A non-finite weight leaves the convolution to the host (docs/semantics.md); a bias
    # does not.
    rng = np.random.default_rng(3)
    x = relay.var("x", shape=(1, 8, 6, 6))
    weight = (rng.standard_normal((8, 8, 3, 3)) * 0.2).astype("float32")
    bias = (rng.standard_normal(8) * 0.1).astype("float32")
    bias[5] = np.nan
    conv = relay.nn.conv2d(x, relay.const(weight), padding=(1, 1), channels=8)
    y = relay.nn.relu(relay.nn.bias_add(conv, relay.const(bias)))
    mod = IRModule.from_expr(relay.Function([x], y))
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache, "num_threads": 1})
    unit = lib.sources.files["dnnl.c"]
    assert isinstance(unit, str)
    assert "s->finite = 0;" in unit
    assert relu_post_ops(lib, (1, 8, 6, 6), tmp_path, 1.0) == [False]
    data = rng.standard_normal((1, 8, 6, 6)).astype("float32")
    want = np.asarray(xrelay.evaluate(mod, data))
    got = np.asarray(lib(data))
    assert np.isnan(want[0, 5]).all()
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-5, atol=1e-5)


def test_the_variants_benchmark_runs(tmp_path: Path) -> None:
    """`benchmarks/dnnl_variants.py` on tinyres at 32x32, one short round: a row per variant,
    each output equal to the default's within the benchmark's check."""
    root = Path(__file__).resolve().parent.parent
    argv = [sys.executable, str(root / "benchmarks" / "dnnl_variants.py"), "--model", "tinyres"]
    argv += ["--size", "32", "--rounds", "1", "--slice", "0.05"]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ")][2:]
    assert [row.split(" | ")[0][2:] for row in rows] == [
        "default",
        "-DXRELAY_DNNL_WINOGRAD_DEFAULT",
        "-DXRELAY_DNNL_RELU_POST_OP",
    ], result.stdout
    for row in rows:
        assert float(row.split(" | ")[-1].rstrip(" |")) < 1e-5, row


def test_the_shapes_profile_runs(tmp_path: Path) -> None:
    """`benchmarks/dnnl_shapes_profile.py` on tinyres at 32x32 (oneDNN's side; onnxruntime's
    is asked for with `--onnxruntime`, not a test dependency): the wall time, oneDNN's total,
    and a row per primitive and problem, convolutions among them."""
    root = Path(__file__).resolve().parent.parent
    argv = [sys.executable, str(root / "benchmarks" / "dnnl_shapes_profile.py")]
    argv += ["--model", "tinyres", "--size", "32", "--runs", "2"]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"wall [\d.]+ ms per call; oneDNN's primitives [\d.]+ ms", lines[1]), lines
    rows = [line.split(" | ") for line in lines if line.startswith("| ") and "---" not in line]
    kinds = {row[1] for row in rows[1:]}
    assert "convolution" in kinds, result.stdout
    assert any("ic16oc16_ih32" in row[3] for row in rows[1:]), result.stdout
