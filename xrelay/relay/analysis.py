"""`xrelay.relay.analysis`: TVM's `relay.analysis` variable queries."""

from __future__ import annotations

from xrelay.dialects.builder.analysis import (
    all_vars,
    bound_vars,
    free_type_vars,
    free_vars,
    post_order_visit,
)

__all__ = ["all_vars", "bound_vars", "free_type_vars", "free_vars", "post_order_visit"]
