"""accel's vector type and helpers: the shared kernel library's vector prelude
(`codegen/kernels/vectors.py`), which every accel function is printed after."""

from __future__ import annotations

from xrelay.codegen.kernels.vectors import PRELUDE, VL_MAX

__all__ = ["PRELUDE", "VL_MAX"]
