"""The `accel` backend: the demo accelerator (design.md): what it takes, and later its lowering.

Importing this package registers the target through the public BYOC hooks, as
a third-party backend would: op support predicates (`op_support`) and the
composite pattern table (`patterns`).
"""

from xrelay.codegen.accel import op_support, patterns

__all__ = ["op_support", "patterns"]
