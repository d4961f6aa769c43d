"""Fixtures shared by every test module; the signal ones (`signal_dispositions_kept`, autouse,
and `terminal_signals`) live in testlib/signal_dispositions.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from testlib.signal_dispositions import signal_dispositions_kept, terminal_signals

__all__ = ["cache", "signal_dispositions_kept", "terminal_signals"]


@pytest.fixture(scope="module")
def cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build cache directory for the test module (`cache_dir=cache`), named after it:
    the module's builds share it, other modules do not."""
    return tmp_path_factory.mktemp(f"{request.path.stem}-cache")
