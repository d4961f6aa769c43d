"""The sanitizers (`test_build_differential.run_sanitized`: ASan and UBSan, run from C) on
the float32 LRN row kernel (`codegen/kernels/lrn.py`, chunk tails included) and on
SqueezeNet-like fire modules after `split-concat-conv`, host and accel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_build_differential import SANITIZE, main_object, run_sanitized  # noqa: F401

from xrelay import IRModule, relay


def fire_model() -> IRModule:
    """lrn, then two fire modules: squeeze 1x1, expand 1x1 and 3x3, concatenate, squeeze."""
    rng = np.random.default_rng(2)

    def conv(x: relay.Expr, cin: int, cout: int, k: int) -> relay.Expr:
        w = relay.const((rng.standard_normal((cout, cin, k, k)) * 0.2).astype(np.float32))
        b = relay.const(rng.standard_normal(cout).astype(np.float32))
        y = relay.nn.conv2d(x, w, padding=(k // 2, k // 2))
        return relay.nn.relu(relay.nn.bias_add(y, b))

    x = relay.var("x", shape=(1, 6, 23, 25))
    y = relay.nn.lrn(x, 5, 1, bias=1.0, alpha=1e-2, beta=0.75)
    cin = 6
    for _ in range(2):
        s = conv(y, cin, 4, 1)
        y = relay.concatenate([conv(s, 4, 8, 1), conv(s, 4, 8, 3)], 1)
        cin = 16
    return IRModule.from_expr(relay.Function([x], conv(y, cin, 5, 1)))


@pytest.mark.parametrize("target", ["c", "accel"])
def test_sanitizers_find_nothing(
    target: str,
    main_object: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CFLAGS", SANITIZE)
    problem = run_sanitized(fire_model(), target, tmp_path / "cache", main_object, tmp_path)
    assert not problem
