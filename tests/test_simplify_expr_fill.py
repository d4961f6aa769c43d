"""SimplifyExpr's identity test `_is_fill` reads a constant's first element to rule it out
quickly; its answers are those of comparing every element, over dtypes and edge values."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_from_numpy, dense_to_numpy
from xrelay.passes import simplify_expr
from xrelay.passes.simplify_expr import _is_fill  # pyright: ignore[reportPrivateUsage]

DTYPES = ["float32", "float16", "float64", "int32", "int8", "uint8", "bool", "bfloat16"]


def arrays(rng: np.random.Generator, dtype: str) -> list[np.ndarray]:
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)
    shapes = [(), (1,), (3,), (2, 3), (0,), (2, 0, 3)]
    out: list[np.ndarray] = []
    for shape in shapes:
        for fill in (0, 1):
            out.append(np.full(shape, fill).astype(np_dtype))
        noisy = np.full(shape, 1).astype(np_dtype)
        if noisy.size > 1:
            noisy.flat[-1] = 0  # only the last element differs
        out.append(noisy)
        out.append((rng.uniform(-3, 3, shape) * 2).astype(np_dtype))
    if dtype in ("float32", "float16", "float64", "bfloat16"):
        out += [np.array([-0.0, 0.0]).astype(np_dtype), np.array([np.nan, 1.0]).astype(np_dtype)]
        out.append(np.array([1.0, np.nan]).astype(np_dtype))
        # -0.0 is 0 (also first), -1.0 is not 1 (the float32 byte test sees both)
        out += [np.array([-0.0, -0.0]).astype(np_dtype), np.array([-1.0, -1.0]).astype(np_dtype)]
    return out


def slow(dense: DenseIntOrFPElementsAttr, fill: int) -> bool:
    return bool(np.all(dense_to_numpy(dense) == fill))


@pytest.mark.parametrize("dtype", DTYPES)
def test_is_fill_answers_as_comparing_every_element(dtype: str) -> None:
    rng = np.random.default_rng(0)
    seen = set()
    for array in arrays(rng, dtype):
        constant = ConstantOp(dense_from_numpy(array))
        for fill in (0, 1):
            want = slow(constant.value, fill)
            assert _is_fill(constant.result, fill) == want, (array, fill)
            seen.add(want)
    assert seen == {True, False}


def test_the_first_element_rules_constants_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards the test above: a constant whose first element differs is never decoded."""
    decoded: list[int] = []
    real = simplify_expr.dense_to_numpy

    def counted(dense: DenseIntOrFPElementsAttr) -> np.ndarray:
        decoded.append(1)
        return real(dense)

    monkeypatch.setattr(simplify_expr, "dense_to_numpy", counted)
    weight = ConstantOp(dense_from_numpy(np.arange(2, 50, dtype=np.float32)))
    assert not _is_fill(weight.result, 1)
    assert not _is_fill(weight.result, 0)
    assert decoded == []
    ones = ConstantOp(dense_from_numpy(np.ones(4, dtype=np.float32)))
    assert _is_fill(ones.result, 1)
    assert decoded == [1]
