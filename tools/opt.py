"""`xrelay-opt`: the console entry point; the logic is in `xrelay.tools.opt_main.OptMain`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

from xrelay.tools.opt_main import OptMain


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run xrelay-opt on `argv` (default: the command line) and exit with its status."""
    sys.exit(OptMain.main(argv))


if __name__ == "__main__":
    main()
