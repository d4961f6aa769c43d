"""The xDSL context xrelay parses with: an unknown dialect loads the installed plugins first.

`make_context` (dialects/parser.py) builds a `DiscoveringContext`: when the
parser asks for an op, type or attribute of a dialect the context does not
know, it loads the installed plugins (`xrelay.plugins.discover`, once per
process), adds the dialects they registered (`register_dialect`) and looks
again. A context that only meets known dialects loads no plugin.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.ir import Attribute, Operation, TypeAttribute


class DiscoveringContext(Context):
    """A Context that loads installed plugins on its first unknown dialect (module docstring)."""

    def _discover(self, name: str) -> None:
        if "." not in name:
            return
        dialect = name.split(".", 1)[0]
        if self.get_optional_dialect(dialect) is not None:
            return
        from xrelay.dialects.parser import load_extra_dialects

        from xrelay.plugins import discover

        if discover():
            load_extra_dialects(self)

    def get_optional_op(
        self, name: str, *, dialect_stack: Sequence[str] = ()
    ) -> type[Operation] | None:
        self._discover(name)
        return super().get_optional_op(name, dialect_stack=dialect_stack)

    def get_optional_type(self, name: str) -> type[TypeAttribute] | None:
        self._discover(name)
        return super().get_optional_type(name)

    def get_optional_attr(self, name: str) -> type[Attribute] | None:
        self._discover(name)
        return super().get_optional_attr(name)
