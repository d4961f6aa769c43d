"""`relay.create_executor(kind, mod, device, target).evaluate(expr)(*args)` on the interpreter.

TVM's `debug`, `graph` and `vm` executors all run xrelay's numpy reference interpreter here
(results are numpy arrays): it runs dynamic shapes (`relay.dyn.*`, `?` dims), the reason
TVM has its VM. The `aot` executor is not part of xrelay.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute

from xrelay.api import evaluate
from xrelay.devices import Device
from xrelay.dialects.builder.analysis import free_vars
from xrelay.dialects.builder.expr import Expr, Function
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.relay.types import numpy_dtype, tensor_element_type

KINDS = ("debug", "graph", "vm")


class Executor:
    """What `create_executor` returns: `evaluate(expr=None)` gives a callable."""

    def __init__(self, kind: str, mod: IRModule | None, device: Device | None, target: object):
        if kind not in KINDS:
            raise ValueError(
                f"executor kind '{kind}' is not supported: xrelay runs {', '.join(KINDS)} "
                "on its reference interpreter (no AOT executor)"
            )
        if device is not None and device.device_type != "cpu":
            raise ValueError(f"device {device} is not supported: xrelay runs on the CPU")
        self.kind = kind
        self.mod = mod
        self.target = target

    def evaluate(self, expr: Expr | None = None) -> Any:
        """As TVM's: a callable running `expr` (a Function) or `mod`'s main (no `expr`); the
        value of a closed expression that is not a Function (run once, now)."""
        if expr is None:
            if self.mod is None:
                raise ValueError("evaluate() needs an expression or a module")
            mod = self.mod
        else:
            if not isinstance(expr, Function) and free_vars(expr):
                names = ", ".join(v.name_hint or "?" for v in free_vars(expr))
                raise ValueError(f"cannot evaluate an expression with free variables: {names}")
            mod = self.mod.clone() if self.mod is not None else IRModule()
            mod["main"] = expr if isinstance(expr, Function) else Function([], expr)
        main_params = mod["main"].params
        params = [p.name_hint for p in main_params]
        dtypes = [_dtype(p.checked_type) for p in main_params]

        def run(*args: Any, **kwargs: Any) -> Any:
            values = list(args)
            for name in params[len(values) :]:
                if name not in kwargs:
                    raise TypeError(f"missing argument '{name}'")
                values.append(kwargs.pop(name))
            if kwargs:
                raise TypeError(f"unexpected arguments {sorted(kwargs)}")
            # As TVM's executors copy each input into an array of the parameter's dtype.
            values = [_as_dtype(v, d) for v, d in zip(values, dtypes, strict=False)]
            return evaluate(mod, *values)

        if expr is not None and not isinstance(expr, Function):
            return run()
        return run


def _dtype(ty: object) -> np.dtype[Any] | None:
    """The numpy dtype of a tensor parameter type, else None."""
    if not isinstance(ty, TensorType):
        return None
    return numpy_dtype(tensor_element_type(cast(Attribute, ty)))


def _as_dtype(value: Any, dtype: np.dtype[Any] | None) -> Any:
    """A number or numpy array as an array of the parameter's dtype (TVM copies inputs into
    arrays of that dtype); anything else (a tuple) as it is."""
    if dtype is None or not isinstance(value, np.ndarray | np.generic | int | float | bool):
        return value
    return np.asarray(value).astype(dtype, copy=False)


def create_executor(
    kind: str = "debug",
    mod: IRModule | None = None,
    device: Device | None = None,
    target: object = "c",
    params: dict[str, Any] | None = None,
) -> Executor:
    """TVM's `relay.create_executor`; `params` are bound into `mod`'s main by name."""
    if params:
        from xrelay.passes.partition_for import bind_params_by_name

        mod = bind_params_by_name(mod.clone() if mod is not None else IRModule(), params)
    return Executor(kind, mod, device, target)


__all__ = ["Executor", "create_executor"]
