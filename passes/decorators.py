"""`module_pass` and `function_pass`: TVM's decorators, on functions and on classes.

On a function, `@module_pass(opt_level=2)` over `def f(mod, ctx)` (or
`module_pass(f, opt_level=2)`) gives a `ModulePass` named `f`. On a class
with `transform_module(self, mod, ctx)` it gives a new class whose instances
are passes: `MyPass(args)` builds the user's class with `args` and wraps its
method. `function_pass` is the same with `(func, mod, ctx)` and
`transform_function`, plus `include_external` to reach `Compiler` functions.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any, cast

from xrelay.dialects.ir_module import IRModule
from xrelay.passes.pass_context import PassContext, PassInfo
from xrelay.passes.pass_manager import FunctionPass, ModulePass, Pass

PassOrClass = Pass | type[Pass]


def _check(kind: str, opt_level: int | None, required: Sequence[str] | None) -> list[str]:
    if opt_level is None:
        raise ValueError(f"Please provide opt_level for the {kind} pass.")
    if required is None:
        return []
    if not isinstance(required, list | tuple):
        raise TypeError("Required is expected to be the type of list/tuple.")
    return list(required)


def _wrap_class(
    cls: type, method: str, make: Callable[[Callable[..., Any], PassInfo], Pass], info: PassInfo
) -> type[Pass]:
    if not callable(getattr(cls, method, None)):
        raise TypeError(f"class '{cls.__name__}' must define {method}() to be made a pass")
    base = type(make(cls, info))

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        instance = cls(*args, **kwargs)
        # The pass wraps the bound method of `instance`, not of self: no reference cycle.
        self.__dict__.update(make(getattr(instance, method), info).__dict__)
        self.__dict__["_instance"] = instance

    def __getattr__(self: Any, name: str) -> Any:
        instance = self.__dict__.get("_instance")
        if instance is None:
            raise AttributeError(name)
        return getattr(instance, name)

    namespace: dict[str, Any] = {
        "__init__": __init__,
        "__getattr__": __getattr__,
        "__doc__": cls.__doc__,
        "__module__": cls.__module__,
        "__qualname__": cls.__qualname__,
    }
    return type(cls.__name__, (base,), namespace)


def module_pass(
    pass_func: Callable[..., Any] | type | None = None,
    opt_level: int | None = None,
    name: str | None = None,
    required: Sequence[str] | None = None,
    traceable: bool = False,
) -> Any:
    """Make a module pass from `f(mod, ctx) -> IRModule`, or from a class with `transform_module`.

    Parameters
    ----------
    pass_func : callable or class, optional
        Given: the pass is built at once. Omitted: a decorator is returned.
    opt_level : int
        Required (ValueError without it).
    name : str, optional
        Defaults to the function's or class's name.
    required : list or tuple of str, optional
        Passes that must run before this one (TypeError for other types).
    """
    needed = _check("module", opt_level, required)
    assert opt_level is not None

    def create(pass_arg: Any) -> PassOrClass:
        if not callable(pass_arg):
            raise TypeError("pass_func must be a callable for Module pass")
        info = PassInfo(opt_level, name or pass_arg.__name__, needed, traceable)
        if inspect.isclass(pass_arg):
            return _wrap_class(pass_arg, "transform_module", ModulePass, info)
        body = cast(Callable[[IRModule, PassContext], IRModule], pass_arg)
        return ModulePass(body, info)

    return create(pass_func) if pass_func is not None else create


def function_pass(
    pass_func: Callable[..., Any] | type | None = None,
    opt_level: int | None = None,
    name: str | None = None,
    required: Sequence[str] | None = None,
    include_external: bool = False,
) -> Any:
    """Make a function pass from `f(func, mod, ctx)`, or from a class with `transform_function`.

    As `module_pass`; `include_external=True` also visits functions with
    `Compiler`, `Extern` or `SkipOptimization` (which TVM never visits).
    """
    needed = _check("function", opt_level, required)
    assert opt_level is not None

    def make(body: Callable[..., Any], info: PassInfo) -> Pass:
        return FunctionPass(body, info, include_external)

    def create(pass_arg: Any) -> PassOrClass:
        if not callable(pass_arg):
            raise TypeError("pass_func must be a callable for Function pass")
        info = PassInfo(opt_level, name or pass_arg.__name__, needed)
        if inspect.isclass(pass_arg):
            return _wrap_class(pass_arg, "transform_function", make, info)
        return make(pass_arg, info)

    return create(pass_func) if pass_func is not None else create
