"""`relay.var` and `relay.const`: the leaves of Relay expressions, with TVM's defaults."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from xdsl.ir import Attribute
from xrelay.dialects.builder.expr import Constant, TensorType_, Var


def var(
    name_hint: str,
    type_annotation: Attribute | str | None = None,
    shape: Sequence[int | None] | None = None,
    dtype: str = "float32",
) -> Var:
    """`relay.var(name, type_annotation=None, shape=None, dtype="float32")`.

    `type_annotation` may be a type, or a dtype string for a scalar, as in TVM.
    With neither a type nor a shape the variable is untyped, as in TVM (`dtype`
    alone does not type it): InferType solves its type from the ops that use it
    (`solve.py`).
    """
    if type_annotation is not None and shape is not None:
        raise ValueError("relay.var: give either type_annotation or shape, not both")
    if shape is not None:
        return Var(name_hint, TensorType_(tuple(shape), dtype))
    if isinstance(type_annotation, str):
        return Var(name_hint, TensorType_((), type_annotation))
    return Var(name_hint, type_annotation)


_NARROW = {np.dtype(np.int64): np.dtype(np.int32), np.dtype(np.float64): np.dtype(np.float32)}


def const(value: npt.ArrayLike, dtype: str | None = None) -> Constant:
    """`relay.const(value, dtype=None)`.

    Without a dtype, int64 and float64 values narrow to 32 bits, as in TVM.
    """
    array = np.asarray(value)
    if dtype is not None:
        array = array.astype(dtype)
    elif array.dtype in _NARROW:
        array = array.astype(_NARROW[array.dtype])
    return Constant(np.array(array, order="C"))
