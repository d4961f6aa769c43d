"""`RelayOp.inferred_type` memoizes by (op class, operand types, properties): a cached
answer is the one inference gives, errors are raised every time, constants' values are
not kept, and the table stays bounded."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i32
from xdsl.ir import Attribute
from xrelay.dialects.builder.attrs import int_
from xrelay.dialects.relay import base
from xrelay.dialects.relay.base import RelayOp, RelayTypeError
from xrelay.dialects.relay.elementwise import AddOp, EqualOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.tensor import ExpandDimsOp
from xrelay.dialects.relay.types import dense_from_numpy, tensor_type

CASES: list[tuple[type[RelayOp], list[Attribute], dict[str, Attribute]]] = [
    (AddOp, [tensor_type([2, 3], f32), tensor_type([3], f32)], {}),
    (AddOp, [tensor_type([4, 1], i32), tensor_type([1, 5], i32)], {}),
    (EqualOp, [tensor_type([2, 3], f32), tensor_type([2, 3], f32)], {}),
    (ExpandDimsOp, [tensor_type([4], f32)], {"axis": int_(1), "num_newaxis": int_(2)}),
    (ExpandDimsOp, [tensor_type([4], f32)], {"axis": int_(0), "num_newaxis": int_(1)}),
]


def uncached(cls: type[RelayOp], types: list[Attribute], props: dict[str, Attribute]) -> Attribute:
    (result,) = cls.infer_result_types(types, cls.default_properties() | props)
    return result


@pytest.mark.parametrize("case", range(len(CASES)))
def test_cached_answers_are_inference_answers(case: int) -> None:
    cls, types, props = CASES[case]
    base._INFERRED.clear()  # pyright: ignore[reportPrivateUsage]
    first = cls.inferred_type(types, props)
    again = cls.inferred_type(list(types), dict(props))
    assert first == again == uncached(cls, types, props)
    # Every case is its own entry: another case's answer is never returned for it.
    answers = {i: CASES[i][0].inferred_type(CASES[i][1], CASES[i][2]) for i in range(len(CASES))}
    for i, (c, t, p) in enumerate(CASES):
        assert answers[i] == uncached(c, t, p)


def test_type_errors_are_raised_every_time() -> None:
    types = [tensor_type([2, 3], f32), tensor_type([4], f32)]
    for _ in range(2):
        with pytest.raises(RelayTypeError, match="do not broadcast"):
            AddOp.inferred_type(types, {})


def test_constant_values_are_not_kept() -> None:
    base._INFERRED.clear()  # pyright: ignore[reportPrivateUsage]
    value = dense_from_numpy(np.zeros((64, 64), np.float32))
    assert ConstantOp.inferred_type([], {"value": value}) == value.type
    assert not base._INFERRED  # pyright: ignore[reportPrivateUsage]


def test_the_table_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(base, "_INFERRED_MAX", 3)
    base._INFERRED.clear()  # pyright: ignore[reportPrivateUsage]
    for n in range(1, 10):
        assert AddOp.inferred_type([tensor_type([n], f32)] * 2, {}) == tensor_type([n], f32)
        assert len(base._INFERRED) <= 3  # pyright: ignore[reportPrivateUsage]
