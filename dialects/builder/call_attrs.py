"""TVM's `call.attrs.<name>` on builder calls.

A builder `Call` keeps its discardable attributes in `attrs`, a dict of xDSL attributes (as
the emitter reads them). `CallAttrs` is that dict, and also answers TVM's attribute reads:
`call.attrs.data_layout` is the op's attribute of that TVM name as a Python value, its
declared default if the call leaves it out (as `AttrsView` reads an op in IR), for pattern
`check` functions and callbacks written for TVM. `call.attrs["axes"]` reads the same when
`axes` is not one of the discardable attributes (`__missing__`: the dict's keys, iteration,
`in` and `get` stay the discardable attributes only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from xdsl.ir import Attribute

if TYPE_CHECKING:
    from xrelay.dialects.builder.expr import Call


class CallAttrs(dict[str, Attribute]):
    """A call's discardable attributes, readable as TVM's `call.attrs` (module docstring)."""

    def __init__(self, call: Call, values: Mapping[str, Attribute]):
        super().__init__(values)
        self._call = call

    def call_props(self) -> dict[str, Attribute]:
        """The properties (op attributes) of the call these attributes belong to."""
        return dict(self._call.props)

    def __getattr__(self, key: str) -> object:
        if key.startswith("_"):
            raise AttributeError(key)
        from xrelay.passes.byoc_registry import AttrsView

        call = self._call
        op = call.op_class.create(properties=dict(call.props), attributes=dict(self))
        return getattr(AttrsView(op), key)

    def __missing__(self, key: str) -> object:
        """TVM's `call.attrs["axes"]`: an op attribute's value when no discardable attribute
        has that name; KeyError if the op has neither."""
        try:
            return self.__getattr__(key)
        except AttributeError:
            raise KeyError(key) from None
