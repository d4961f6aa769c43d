"""TVM's operator handle (`call.op`, `relay.op.get(name)`): `.name` is TVM's op name.

`call.op.name == "nn.conv2d"` and `call.op == relay.op.get("nn.conv2d")` work as in TVM;
`op_class` is the xDSL op class (`relay.nn.conv2d`). Other attributes are the op class's
(`default_properties`, `build`, ...), so code that used the class keeps working.
"""

from __future__ import annotations

from typing import Any

from xdsl.ir import Attribute
from xrelay.dialects.relay.base import RelayOp


class Op:
    """A relay operator: TVM's name and the xDSL op class that implements it."""

    def __init__(self, op_class: type[RelayOp]):
        self.op_class = op_class

    @property
    def name(self) -> str:
        """TVM's name: the dialect's op name without `relay.` (`nn.conv2d`)."""
        return self.op_class.name.removeprefix("relay.")

    @property
    def checked_type(self) -> Attribute:
        """An op handle used as a value (a field of a tuple, as TVM allows) has no tensor
        type: it stays unknown, so such an expression can be matched but not built."""
        from xrelay.dialects.builder.incomplete import incomplete

        return incomplete()

    def children(self) -> tuple[()]:
        """An op handle reads no expressions."""
        return ()

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.op_class, attr)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Op):
            return self.op_class is other.op_class
        return other is self.op_class

    def __hash__(self) -> int:
        return hash(self.op_class)

    def __repr__(self) -> str:
        return f"Op({self.name})"


def get(op_name: str) -> Op:
    """TVM's `relay.op.get(name)`; a name that is no relay op is a ValueError naming it."""
    from xrelay.dialects.relay import RELAY

    full = f"relay.{op_name}"
    for op_class in RELAY.operations:
        if op_class.name == full and issubclass(op_class, RelayOp):
            return Op(op_class)
    raise ValueError(f"'{op_name}' is not a relay op (expected a name such as 'nn.conv2d')")
