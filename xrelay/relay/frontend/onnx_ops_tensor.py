"""Converters for ONNX tensor ops."""

from __future__ import annotations
