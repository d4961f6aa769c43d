"""`dtype_of` and `numpy_dtype` remember answers by element type object: equal types built
anew get the same answers, unsupported ones raise every time, and the table stays bounded."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import BFloat16Type, Float32Type, Float64Type, IntegerType, Signedness
from xrelay.dialects.relay import types
from xrelay.dialects.relay.types import dtype_of, numpy_dtype


def test_fresh_equal_types_get_the_same_answers() -> None:
    for _ in range(3):
        assert dtype_of(Float32Type()) == "float32"
        assert numpy_dtype(Float64Type()) == np.dtype("float64")
        assert numpy_dtype(BFloat16Type()) == np.dtype(ml_dtypes.bfloat16)
        assert dtype_of(IntegerType(8, Signedness.UNSIGNED)) == "uint8"
        assert numpy_dtype(IntegerType(1)) == np.dtype("bool")


def test_unsupported_types_raise_every_time() -> None:
    for _ in range(2):
        with pytest.raises(ValueError, match="unsupported element type i3"):
            dtype_of(IntegerType(3))
        with pytest.raises(ValueError, match="unsupported element type i3"):
            numpy_dtype(IntegerType(3))


def test_table_is_bounded() -> None:
    kept = [IntegerType(32) for _ in range(3000)]  # alive: each its own id
    assert all(dtype_of(t) == "int32" for t in kept)
    assert len(types._dtypes_of) <= 1024  # pyright: ignore[reportPrivateUsage]
