"""The sanitizers (`test_build_differential.run_sanitized`: ASan and UBSan, run from C, on
OpenMP's default team) on the host's threaded pools and row copies: a ceil-mode max pool,
an average pool, a global pool, a concatenation, ShuffleNet's channel shuffle and a split,
all big enough to open a team, on host `c` and on accel."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_build_differential import SANITIZE, main_object, run_sanitized  # noqa: F401

from xrelay import IRModule, relay


def threaded_model() -> IRModule:
    rng = np.random.default_rng(7)
    x = relay.var("x", shape=(1, 24, 45, 47))
    pooled = relay.nn.max_pool2d(x, (3, 3), (2, 2), ceil_mode=True)
    averaged = relay.nn.avg_pool2d(relay.exp(x), (3, 3), (1, 1), padding=(1, 1))
    joined = relay.concatenate([averaged, x], 1)  # 48 channels
    shuffled = relay.reshape(
        relay.transpose(relay.reshape(joined, (1, 3, 16, 45, 47)), (0, 2, 1, 3, 4)),
        (1, 48, 45, 47),
    )
    w = relay.const((rng.standard_normal((8, 48, 1, 1)) * 0.2).astype(np.float32))
    conv = relay.nn.conv2d(shuffled, w)
    parts = relay.split(relay.sigmoid(shuffled), [20], 1)
    return IRModule.from_expr(
        relay.Function(
            [x],
            relay.Tuple([pooled, relay.nn.global_avg_pool2d(joined), conv, parts[0], parts[1]]),
        )
    )


@pytest.mark.parametrize("target", ["c", "accel"])
def test_sanitizers_find_nothing(
    target: str,
    main_object: Path,  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CFLAGS", f"{SANITIZE} -fopenmp")  # the teams run, sanitized
    problem = run_sanitized(threaded_model(), target, tmp_path / "cache", main_object, tmp_path)
    assert not problem
