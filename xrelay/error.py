"""`xrelay.error`: TVM's `tvm.error.TVMError`, for code that catches it.

xrelay's pass failures (`PassError`) are `RuntimeError`s, so `TVMError` is `RuntimeError`:
`pytest.raises(xrelay.error.TVMError)` catches a failing pass as it catches TVM's.
"""

from __future__ import annotations

TVMError = RuntimeError

__all__ = ["TVMError"]
