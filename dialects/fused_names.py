"""The name of a fused function (TVM's lowering names), shared by FuseOps and the builder's
`Primitive` function callees, so both name the same group alike."""

from __future__ import annotations

from collections.abc import Iterable

MAX_NAME_LENGTH = 80
"""TVM's `kMaxFuncNameLength`: a fused name keeps whole op names up to this many characters."""


def fused_base(op_names: Iterable[str]) -> str:
    """`fused_` and the op names without `relay.` (dots as `_`), as many whole names as fit
    in `MAX_NAME_LENGTH` characters (constants, tuples and projections left out by the
    caller)."""
    base = "fused"
    for name in op_names:
        word = name.removeprefix("relay.").replace(".", "_")
        if len(base) + 1 + len(word) > MAX_NAME_LENGTH:
            break
        base = f"{base}_{word}"
    return base
