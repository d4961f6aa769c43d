"""The `dnnl` backend: seed 004's DNNL example (oneDNN): what it takes, later its lowering.

Importing this package registers the target through the public BYOC hooks:
op support predicates (`op_support`) and the composite pattern table (`patterns`).
"""

from xrelay.codegen.dnnl import op_support, patterns

__all__ = ["op_support", "patterns"]
