"""xrelay's dialects, the ground floor: relay ops, IR module, builder, parser, interpreter."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """The dialects xrelay loads, by name, constructed lazily (xDSL's convention)."""

    def relay() -> Dialect:
        from xrelay.dialects.relay import RELAY

        return RELAY

    def accel() -> Dialect:
        from xrelay.dialects.accel import ACCEL

        return ACCEL

    def dnnl() -> Dialect:
        from xrelay.dialects.dnnl import DNNL

        return DNNL

    def builtin() -> Dialect:
        from xdsl.dialects.builtin import Builtin

        return Builtin

    def func() -> Dialect:
        from xdsl.dialects.func import Func

        return Func

    return {"accel": accel, "builtin": builtin, "dnnl": dnnl, "func": func, "relay": relay}
