"""Reference semantics of the tensor-manipulation relay ops, in numpy."""

from __future__ import annotations
