"""Converters for ONNX shape ops."""

from __future__ import annotations
