"""Writes `xrelay/ext/ops.py` from the relay dialect's op list: `python -m xrelay.ext.ops_gen`.

`tests/test_ext.py` checks that the file is what `render()` makes, so an op
added to the dialect without regenerating fails there.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

HEADER = '''"""`xrelay.ext.ops`: every relay op class by its class name (`ops.ConstantOp`, ...).

Part of the public extension API (`xrelay.ext`'s stability promise covers it).
Generated from the relay dialect's op list by `python -m xrelay.ext.ops_gen`; do not edit.
"""

from __future__ import annotations

'''


def render() -> str:
    """The text of `ops.py`: one import block per defining module, then a sorted `__all__`."""
    from xrelay.dialects.relay import RELAY

    by_module: defaultdict[str, list[str]] = defaultdict(list)
    for op in RELAY.operations:
        by_module[op.__module__].append(op.__name__)
    lines = [HEADER.rstrip("\n"), ""]
    for module in sorted(by_module):
        names = sorted(by_module[module], key=str.lower)  # as ruff's isort orders them
        lines.append(f"from {module} import (")
        lines.extend(f"    {name}," for name in names)
        lines.append(")")
    every = sorted(name for names in by_module.values() for name in names)
    lines.extend(["", "__all__ = [", *(f'    "{name}",' for name in every), "]", ""])
    return "\n".join(lines)


def main() -> int:
    """Rewrite `ops.py` beside this file."""
    target = Path(__file__).with_name("ops.py")
    target.write_text(render())
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
