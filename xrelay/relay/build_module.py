"""`xrelay.relay.build_module`: TVM's `relay.build` and `bind_params_by_name`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy.typing as npt

from xrelay.api import build as _build
from xrelay.dialects.builder.bind_params import bind_function_params
from xrelay.dialects.builder.expr import Function
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.partition_for import bind_params_by_name as _bind_module

if TYPE_CHECKING:
    from xrelay.codegen.c.pipeline import BuiltLibrary


def build(
    ir_mod: IRModule | Function,
    target: str | Sequence[str] | None = None,
    target_host: object = None,
    params: Mapping[str, npt.ArrayLike] | None = None,
    mod_name: str = "default",
    **options: Any,
) -> BuiltLibrary:
    """TVM's `relay.build(ir_mod, target, params=...)` on xrelay's targets (`"c"` by default).

    A Function is built as the `main` of a new module, as TVM allows; the caller's module is
    not changed. `target_host` and `mod_name` are accepted for TVM's signature (the host is
    always the C target); other keywords are `xrelay.build` options.
    """
    del target_host, mod_name
    mod = IRModule.from_expr(ir_mod) if isinstance(ir_mod, Function) else ir_mod
    return _build(mod, target or "c", params, options or None)


def optimize(
    mod: IRModule | Function,
    target: object = None,
    params: Mapping[str, npt.ArrayLike] | None = None,
) -> tuple[IRModule, dict[str, npt.ArrayLike]]:
    """TVM's `relay.optimize(mod, target=None, params=None)`: `(optimized module, params)`.

    Binds `params` as constants, then runs the `optimize` pipeline (what `relay.build`
    applies, FuseOps included) at the current PassContext's opt level, required and
    disabled passes, on a copy: the caller's module is not changed. xrelay's optimizations
    do not depend on the target, which is accepted for TVM's signature; the params
    returned are the ones given (xrelay binds them into the module as constants).
    """
    del target
    from xrelay.api import optimize as _optimize

    copy = IRModule.from_expr(mod) if isinstance(mod, Function) else mod.clone()
    if params:
        _bind_module(copy, params, "main")
    return _optimize(copy), dict(params or {})


@overload
def bind_params_by_name(
    func: Function, params: Mapping[str, npt.ArrayLike], function: str = "main"
) -> Function: ...


@overload
def bind_params_by_name(
    func: IRModule, params: Mapping[str, npt.ArrayLike], function: str = "main"
) -> IRModule: ...


def bind_params_by_name(
    func: Function | IRModule, params: Mapping[str, npt.ArrayLike], function: str = "main"
) -> Function | IRModule:
    """TVM's `bind_params_by_name(func, params)`: a new Function with those parameters bound.

    Given an IRModule, binds `function`'s parameters in place (xrelay's form, see
    `xrelay.byoc.bind_params_by_name`).
    """
    if isinstance(func, Function):
        return bind_function_params(func, params)
    return _bind_module(func, params, function)


__all__ = ["bind_params_by_name", "build", "optimize"]
