"""The pass registry: every pass that `xrelay-opt -p` and the pass manager can name.

Passes register lazily under their command-line flag (`cse`,
`fold-constant`): the registry holds a factory returning the `ModulePass`
class, so listing or validating names imports no pass module. A pass file
registers itself with `register_pass(flag, factory, description)`; the
one-line description is what `xrelay-opt --list-passes` prints. The pass
manager (`passes/pass_manager.py`, a later issue) looks passes up here too,
by flag or, once passes carry them, by TVM name.

For now the registry holds xDSL's generic cleanups: `canonicalize`, `cse`
and `dce`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]
"""A zero-argument callable returning a pass class (imported on first call)."""

_REGISTRY: dict[str, PassFactory] = {}
_DESCRIPTIONS: dict[str, str] = {}


def register_pass(name: str, factory: PassFactory, description: str = "") -> None:
    """Register a pass class under its flag, with a one-line description.

    The factory must return a class whose `name` is `name` (a test checks
    this for every registered pass). Registering a flag twice is an error:
    two passes must not silently shadow each other.
    """
    if name in _REGISTRY:
        raise ValueError(f"pass '{name}' is already registered")
    _REGISTRY[name] = factory
    _DESCRIPTIONS[name] = description


def get_all_passes() -> dict[str, PassFactory]:
    """Every registered pass, by flag, as lazy factories (a fresh dict; changing it is safe)."""
    return dict(_REGISTRY)


def describe_pass(name: str) -> str:
    """The one-line description of a registered pass.

    Falls back to the first line of the pass class's docstring when none was
    given at registration; raises KeyError for an unknown flag.
    """
    factory = _REGISTRY[name]
    if _DESCRIPTIONS[name]:
        return _DESCRIPTIONS[name]
    doc = (factory().__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


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


register_pass(
    "canonicalize",
    _canonicalize,
    "Apply folders and canonicalization patterns, dropping unused pure ops (xDSL)",
)
register_pass("cse", _cse, "Merge identical pure ops computing the same value (xDSL)")
register_pass("dce", _dce, "Remove pure ops whose results are unused (xDSL)")
