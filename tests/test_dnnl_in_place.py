"""dnnl without copies: the sum post-op in place, Winograd over the NHWC buffers themselves.

- A conv2d's sum post-op offers its sum operand's buffer to its result
  (`xrelay.reuse_operand`); when plan-memory grants it the run adds in place
  (`/* sum in place */`, no memcpy), else the operand is copied into the result
  first: when it is read again later, or when it is also the convolution's data.
- Winograd (the default, `-DXRELAY_DNNL_NO_WINOGRAD` to keep convolutions direct):
  oneDNN's blocked layout of a 16-channel tensor holds its NHWC bytes, so such
  a source or destination is used as it is; others are reordered. Checked
  with oneDNN's own log (`DNNL_VERBOSE=1`, in a child process), and every
  combination (source and destination alike or not, with a sum, batch 2)
  against the interpreter.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.onednn import onednn_log

import xrelay
from xrelay import IRModule, relay

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
from tinyres import tinyres  # noqa: E402

Array = np.ndarray[Any, Any]
NO_WINOGRAD = "-DXRELAY_DNNL_NO_WINOGRAD"


def run_function(sources: dict[str, object], symbol: str) -> str:
    """The body of the run function `symbol` in the dnnl units."""
    text = "".join(str(v) for k, v in sources.items() if k.startswith("dnnl"))
    start = text.index(f"void {symbol}(unsigned char *arena")
    return text[start : text.index("\n}\n", start)]


def conv(y: relay.Expr, rng: np.random.Generator, cin: int, cout: int) -> relay.Expr:
    """3x3 convolution (padding 1) plus bias."""
    w = relay.const((rng.standard_normal((cout, cin, 3, 3)) * 0.2).astype("float32"))
    b = relay.const((rng.standard_normal(cout) * 0.1).astype("float32"))
    return relay.nn.bias_add(relay.nn.conv2d(y, w, padding=(1, 1), channels=cout, kernel_size=3), b)


def check(
    mod: IRModule, shape: tuple[int, ...], cache: Path, flags: list[str] | None = None
) -> Any:
    """`mod` built for dnnl, equal to the interpreter on three inputs; the library."""
    lib = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache, "cflags": flags or []})
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal(shape).astype("float32")
        np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-4, atol=1e-5)
    return lib


def test_tinyres_adds_its_residual_in_place(cache: Path) -> None:
    lib = check(tinyres(32), (1, 3, 32, 32), cache)
    body = run_function(lib.sources.files, "xk_tvmgen_default_dnnl_main_0")
    assert body.count("/* sum in place */") == 1
    assert "memcpy(" not in body


def residual(channels: int, reread: str) -> IRModule:
    """y = relu(conv(x)); z = relu(conv(relu(conv(y))) + y), then y `reread`: `no` (return z),
    `after` (return z * y) or `data` (z's last conv reads y as its data: conv(y) + y)."""
    rng = np.random.default_rng(channels)
    x = relay.var("x", shape=(1, channels, 12, 12))
    y = relay.nn.relu(conv(x, rng, channels, channels))
    inner = y if reread == "data" else relay.nn.relu(conv(y, rng, channels, channels))
    z = relay.nn.relu(relay.add(conv(inner, rng, channels, channels), y))
    out = relay.multiply(z, y) if reread == "after" else z
    return IRModule.from_expr(relay.Function([x], out))


@pytest.mark.parametrize("channels", [16, 8])
def test_a_sum_operand_read_elsewhere_is_copied(channels: int, cache: Path) -> None:
    """8 channels: direct convolutions; 16: Winograd (over the NHWC buffers, in place too)."""
    for reread, copies in (("no", 0), ("after", 1), ("data", 1)):
        lib = check(residual(channels, reread), (1, channels, 12, 12), cache)
        body = run_function(lib.sources.files, "xk_tvmgen_default_dnnl_main_0")
        assert body.count("memcpy(") == copies, reread
        assert body.count("/* sum in place */") == 1 - copies, reread


def test_winograd_uses_16_channel_buffers_as_they_are(cache: Path, tmp_path: Path) -> None:
    """tinyres: conv 3->16 is direct; the two 16->16 (one with the sum in place) and 16->32 run
    Winograd; of the latter only the 32-channel result is reordered (to NHWC). The other two
    reorders are the model's input to NHWC and its last pool's result back to NCHW."""
    lib = check(tinyres(32), (1, 3, 32, 32), cache)
    log = onednn_log(lib, (1, 3, 32, 32), tmp_path)
    convs = [entry[4] for entry in log if entry[3] == "convolution"]
    assert len(convs) == 4, log
    assert "wino" not in convs[0], convs
    assert all("wino" in impl for impl in convs[1:]), convs
    reorders = [entry[-2] for entry in log if entry[3] == "reorder"]
    assert reorders == ["1x3x32x32", "1x32x16x16", "1x8x8x32"], log
    direct = check(tinyres(32), (1, 3, 32, 32), cache, [NO_WINOGRAD])
    log = onednn_log(direct, (1, 3, 32, 32), tmp_path)
    assert not any("wino" in entry[4] for entry in log), log
    assert [entry[-2] for entry in log if entry[3] == "reorder"] == ["1x3x32x32", "1x8x8x32"]


@pytest.mark.parametrize(
    ("cin", "cout", "with_sum", "batch"),
    [
        (16, 16, True, 1),
        (16, 32, False, 1),
        (32, 16, True, 1),
        (32, 32, True, 1),
        (16, 16, True, 2),
    ],
)
def test_winograd_with_and_without_reorders_equals_the_interpreter(
    cin: int, cout: int, with_sum: bool, batch: int, cache: Path
) -> None:
    """Source and destination alike (16 channels) or reordered (32), a sum operand reordered in
    (32 channels) or in place (16), and a batch of 2."""
    rng = np.random.default_rng(cin + cout)
    x = relay.var("x", shape=(batch, cin, 10, 10))
    first = relay.nn.relu(conv(x, rng, cin, cin))
    out = conv(first, rng, cin, cout)
    if with_sum:
        out = relay.add(out, relay.nn.relu(conv(x, rng, cin, cout)))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(out)))
    lib = check(mod, (batch, cin, 10, 10), cache)
    body = run_function(lib.sources.files, "xk_tvmgen_default_dnnl_main_0")
    assert "memcpy(" not in body
