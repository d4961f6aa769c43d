"""`xrelay-opt`: the console entry point; the logic is in `xrelay.tools.opt_main.OptMain`.

A run is short and its imports (xDSL, numpy, the dialects: some 50k objects the
cyclic garbage collector tracks, nearly all alive until the end) are most of it. Left
alone, the collector scans them over and over while they load (130 collections,
a full one included: ~0.1 s) and at exit (~0.1 s more); so it is paused while
they load, and `main` freezes them (`gc.freeze`: they are never scanned again).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import NoReturn

_collecting = gc.isenabled()
gc.disable()
try:
    from xrelay.tools.opt_main import OptMain
finally:
    if _collecting:
        gc.enable()


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run xrelay-opt on `argv` (default: the command line) and exit with its status.

    The objects alive at the start are frozen out of the collector's scans; an
    in-process caller (one passing `argv`) gets them back into its collector when
    the run ends, the command line (`argv` None) exits with them frozen.
    """
    gc.freeze()
    try:
        status = OptMain.main(argv)
    finally:
        if argv is not None:
            gc.unfreeze()
    sys.exit(status)


if __name__ == "__main__":
    main()
