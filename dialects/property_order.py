"""One printing order for an op's properties: its definition's, whatever built it.

A parsed op holds its properties in the order the text wrote them and a pass's
in the order it passed them, so the same conv printed `{padding, kernel_size}`
or `{kernel_size, padding}`. Both printers (relay's custom form, and the
generic form's `<{...}>`) print them in the order the op class declares them;
a property the definition does not know (none should) follows in its own order.
Discardable attributes keep their order, after the properties.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation


def ordered_properties(op: Operation) -> Mapping[str, Attribute]:
    """`op.properties` in its definition's order (as is when already so)."""
    properties = op.properties
    if len(properties) < 2 or not isinstance(op, IRDLOperation):
        return properties
    declared = type(op).get_irdl_definition().properties
    ordered = {name: properties[name] for name in declared if name in properties}
    if len(ordered) != len(properties):
        ordered.update((k, v) for k, v in properties.items() if k not in ordered)
    if list(ordered) == list(properties):
        return properties
    return ordered
