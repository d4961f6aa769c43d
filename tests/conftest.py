"""Fixtures shared by every test module."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def cache(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh build cache directory for the test module (`cache_dir=cache`), named after it:
    the module's builds share it, other modules do not."""
    return tmp_path_factory.mktemp(f"{request.path.stem}-cache")
