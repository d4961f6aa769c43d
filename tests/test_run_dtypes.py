"""xrelay-run with bf16, f16 and unsigned inputs and outputs in .npy/.npz files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xrelay.tools.run_main import RunMain

BF16 = np.dtype(ml_dtypes.bfloat16)

MODEL = """\
func.func @main(%x: tensor<3xbf16>, %w: tensor<3xbf16>, %u: tensor<3xui32>)
    -> (tensor<3xbf16>, tensor<3xui32>) {
  %0 = relay.multiply %x, %w : tensor<3xbf16>
  %1 = relay.negative %u : tensor<3xui32>
  func.return %0, %1 : tensor<3xbf16>, tensor<3xui32>
}
"""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("target", [None, "c"])
def test_bfloat16_files_read_back_as_bfloat16(
    target: str | None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """numpy saves bf16 as 2-byte void; an --input or --params array of that kind is bf16
    again for a bf16 parameter, and the outputs saved are the values computed."""
    model = tmp_path / "m.mlir"
    model.write_text(MODEL)
    x = np.array([1.5, -2.0, 0.1], np.float32).astype(BF16)
    w = np.array([3.0, 0.5, 10.0], np.float32).astype(BF16)
    np.save(tmp_path / "x.npy", x)
    np.savez(tmp_path / "params.npz", w=w)
    u = np.array([0, 1, 7], "uint32")
    np.save(tmp_path / "u.npy", u)
    args = [str(model), "--input", f"x={tmp_path / 'x.npy'}", "--input", f"u={tmp_path / 'u.npy'}"]
    args += ["--params", str(tmp_path / "params.npz"), "--save", str(tmp_path / "out.npz")]
    args += ["--target", target] if target else []
    assert RunMain.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("output0: bfloat16[3] min=-1 max=4.5")
    with np.load(tmp_path / "out.npz") as saved:
        product: Any = saved["output0"]
        negated: Any = saved["output1"]
    assert product.view(BF16).astype(np.float32).tolist() == [4.5, -1.0, 1.0]  # 0.1 * 10 rounds
    assert negated.tolist() == [0, 2**32 - 1, 2**32 - 7]
