"""`xrelay-translate`: the console entry point; the logic is in `translate_main.TranslateMain`."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import NoReturn

from xrelay.tools.translate_main import TranslateMain


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Run xrelay-translate on `argv` (default: the command line) and exit with its status."""
    sys.exit(TranslateMain.main(argv))


if __name__ == "__main__":
    main()
