"""`xrelay-opt`: the console entry point (logic in `xrelay.tools.opt_main.OptMain`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.tools.opt_main import OptMain, UsageError


def main(argv: Sequence[str] | None = None) -> None:
    """Run xrelay-opt; user errors print one line on stderr and exit 1, without a traceback."""
    try:
        code = OptMain(argv).run()
    except UsageError as error:
        print(f"error: {error}", file=sys.stderr)
        code = 1
    except DiagnosticError as error:
        print(error, file=sys.stderr)
        code = 1
    except KeyboardInterrupt:
        code = 130
    sys.exit(code)


if __name__ == "__main__":
    main()
