"""TVM's `bind_params_by_name` on a Function: named parameters become constants."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt
from xrelay.dialects.builder.expr import Constant, Expr, Function, Var
from xrelay.dialects.builder.expr_functor import substitute_vars


def bind_function_params(function: Function, params: Mapping[str, npt.ArrayLike]) -> Function:
    """A new Function whose parameters named in `params` are constants; `function` unchanged.

    As in TVM: a name that is no parameter is ignored, a name two parameters share is a
    ValueError, and the value is bound as given (its type flows into the body's inference).
    """
    by_name: dict[str, Var] = {}
    for param in function.params:
        name = param.name_hint or ""
        if name in params and name in by_name:
            raise ValueError(f"multiple parameters are named '{name}'")
        by_name[name] = param
    mapping: dict[int, Expr] = {}
    for name, value in params.items():
        param = by_name.get(name)
        if param is None:
            continue
        array = np.asarray(value)
        mapping[id(param)] = Constant(np.array(array, order="C"))
    if not mapping:
        return function
    body = substitute_vars(function.body, mapping)
    kept = [p for p in function.params if id(p) not in mapping]
    out = Function(kept, body, attrs=function.attrs)
    out.multi_result = function.multi_result
    return out
