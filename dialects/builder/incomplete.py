"""TVM's `IncompleteType`: the type of an expression before InferType solves it.

`relay.var("w")` with neither a type nor a shape has no type yet, as in TVM:
its type is solved from the ops that use it (`builder/solve.py`), when the
expression becomes IR (`IRModule.from_expr`, `Function.to_func_op`,
InferType). Until then it is an `IncompleteType`, and so is every call that
reads it. Each one is a fresh unknown: two untyped variables never share one.

The attribute is never part of verified IR: solving replaces every one, and an
unsolved variable is an error naming it and the op that uses it.
"""

from __future__ import annotations

import itertools

from xdsl.dialects.builtin import IntAttr
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition

_ids = itertools.count()


@irdl_attr_definition
class IncompleteType(ParametrizedAttribute, TypeAttribute):
    """An unknown type (`?` in messages); `ident` keeps two unknowns apart."""

    name = "relay.incomplete"

    ident: IntAttr

    def __str__(self) -> str:
        return "?"


def incomplete() -> IncompleteType:
    """A fresh unknown type."""
    return IncompleteType(IntAttr(next(_ids)))


def is_complete(ty: Attribute) -> bool:
    """Whether `ty` is known. Unknowns are never nested: a call reading an unknown is
    unknown as a whole (a tuple of an untyped variable too), and a solved type is complete,
    so this needs no walk of deep tuple types."""
    return not isinstance(ty, IncompleteType)
