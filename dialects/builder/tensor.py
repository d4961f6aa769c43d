"""Builder functions for tensor-manipulation relay ops (`relay.reshape`, ...)."""

from __future__ import annotations
