"""The models of `benchmarks/inference.py` stay correct, without onnxruntime.

Each of issue 16's families, built with the xrelay builder, runs on `c` within 1e-4 (of
the output's magnitude) of its float64 reference (the interpreter on the same graph in
float64), and the ONNX model the benchmark gives onnxruntime computes the same: imported
back with `from_onnx` and run on the interpreter. The reference itself is checked against
hand-written numpy for the MLP. Then the script runs end to end with onnxruntime made
unimportable: it says so and still times xrelay's runners.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from xrelay.passes.partition_for import bind_params_by_name

import xrelay
from xrelay.relay.frontend import from_onnx

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def cases() -> Iterator[Any]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import inference_cases

        yield inference_cases
    finally:
        sys.path.remove(str(BENCHMARKS))


def _scaled_error(got: np.ndarray[Any, Any], want: np.ndarray[Any, Any]) -> float:
    return float(np.max(np.abs(got - want)) / np.max(np.abs(want)))


@pytest.mark.parametrize("model", ["mobilenet", "resnet", "vgg", "transformer", "mlp"])
def test_family_on_c_and_its_onnx_match_the_float64_reference(
    cases: Any, model: str, tmp_path: Path
) -> None:
    case = cases.load_case(model, 0, True)
    assert case.want.dtype == np.float64
    assert float(np.max(np.abs(case.want))) > 0.5  # activations kept near 1, not vanishing
    lib = xrelay.build(case.mod, "c", options={"cache_dir": tmp_path})
    got = np.asarray(lib(case.x))
    assert got.shape == case.want.shape
    assert _scaled_error(got, case.want) <= 1e-4
    mod, params = from_onnx(onnx.load_from_string(case.onnx))
    assert set(params) >= set(cases.FAMILY_WEIGHTS[model]())  # every weight, by name
    bind_params_by_name(mod, params)
    imported = np.asarray(xrelay.evaluate(mod, case.x))
    assert _scaled_error(imported, case.want) <= 1e-4


def test_mlp_reference_is_the_numpy_forward_pass(cases: Any) -> None:
    import inference_families

    case = cases.load_case("mlp", 0, False)
    p = {k: v.astype(np.float64) for k, v in inference_families.mlp_weights().items()}
    y = case.x.astype(np.float64)
    for i in range(3):
        y = y @ p[f"fc{i}"].T + p[f"fc{i}.b"]
        y = np.maximum(y, 0) if i < 2 else y
    np.testing.assert_allclose(case.want, y, rtol=1e-12, atol=1e-12)


def test_quick_run_without_onnxruntime(tmp_path: Path) -> None:
    stub = tmp_path / "stub"
    stub.mkdir()
    (stub / "onnxruntime.py").write_text("raise ImportError('hidden by the test')\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CFLAGS", "LDFLAGS")}
    env["PYTHONPATH"] = os.pathsep.join([str(stub), env.get("PYTHONPATH", "")])
    env["TMPDIR"] = str(tmp_path)
    argv = [sys.executable, str(BENCHMARKS / "inference.py"), "--quick", "--models", "mlp"]
    argv += ["--threads", "1", "--runners", "c", "onnxruntime", "--no-profile"]
    result = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=600, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "note: onnxruntime: n/a (onnx or onnxruntime is not installed" in result.stderr
    lines = result.stdout.splitlines()
    assert any(line.startswith("Note: onnxruntime: n/a") for line in lines), result.stdout
    rows = [line for line in lines if line.startswith("| mlp (85.6 MFLOP) |")]
    assert len(rows) == 1, result.stdout
    assert "GFLOP/s" in rows[0], rows
    assert "| mlp | best xrelay | c, " in result.stdout
    assert "- latency ratios: n/a (no onnxruntime: the ratios need it)" in lines
    assert "OUTPUTS DISAGREE" not in result.stdout
