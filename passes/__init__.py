"""The pass registry: every pass `xrelay-opt -p` and the pass manager can name.

Passes register lazily, by flag (`cse`, `fold-constant`): a factory returns
the `ModulePass` class, so listing passes imports nothing heavy. Later issues
register TVM's passes here (with their TVM names beside their flags).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]

_REGISTRY: dict[str, PassFactory] = {}


def register_pass(name: str, factory: PassFactory) -> None:
    """Register a pass class under its flag; a second registration of a name is an error."""
    if name in _REGISTRY:
        raise ValueError(f"pass '{name}' is already registered")
    _REGISTRY[name] = factory


def _canonicalize() -> type[ModulePass]:
    from xdsl.transforms.canonicalize import CanonicalizePass

    return CanonicalizePass


def _cse() -> type[ModulePass]:
    from xdsl.transforms.common_subexpression_elimination import (
        CommonSubexpressionElimination,
    )

    return CommonSubexpressionElimination


def _dce() -> type[ModulePass]:
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return DeadCodeElimination


register_pass("canonicalize", _canonicalize)
register_pass("cse", _cse)
register_pass("dce", _dce)


def get_all_passes() -> dict[str, PassFactory]:
    """Every registered pass, by flag, as lazy factories."""
    return dict(_REGISTRY)


_DESCRIPTIONS = {
    "cse": "Eliminate common subexpressions (xDSL's pass).",
    "dce": "Remove unused side-effect-free ops (xDSL's pass).",
    "canonicalize": "Fold ops and apply canonicalization patterns (xDSL's pass).",
}


def describe(pass_class: type[ModulePass]) -> str:
    """A one-line description of a pass (its docstring's first line)."""
    if pass_class.name in _DESCRIPTIONS:
        return _DESCRIPTIONS[pass_class.name]
    doc = (pass_class.__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""
