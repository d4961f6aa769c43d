"""Converters for ONNX nn ops."""

from __future__ import annotations
