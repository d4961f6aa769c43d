"""`xrelay.instrument`: TVM's `tvm.instrument`, plus instruments for debugging compilers."""

from __future__ import annotations

from xrelay.passes.debug_instruments import (
    IRDiffInstrument,
    NumericsCheckError,
    NumericsCheckInstrument,
    VerifyEachError,
    VerifyEachInstrument,
)
from xrelay.passes.instrument import (
    PassInstrument,
    PassPrintingInstrument,
    PassTimingInstrument,
    PrintAfterAll,
    PrintBeforeAll,
    pass_instrument,
)

__all__ = [
    "IRDiffInstrument",
    "NumericsCheckError",
    "NumericsCheckInstrument",
    "PassInstrument",
    "PassPrintingInstrument",
    "PassTimingInstrument",
    "PrintAfterAll",
    "PrintBeforeAll",
    "VerifyEachError",
    "VerifyEachInstrument",
    "pass_instrument",
]
