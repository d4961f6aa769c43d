"""The tools' exit statuses, and the one way `xrelay-run` and `xrelay-cache` reach them.

0 success; 1 an error in the input or the command line (printed as one line per
problem, no traceback); 2 an internal error (a traceback, then `internal error`:
a bug in xrelay); 130 interrupted by Ctrl-C.
"""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_INTERNAL = 2
EXIT_INTERRUPTED = 130


def exit_status(
    prog: str, run: Callable[[], int], user_error: Callable[[Exception], str | None]
) -> int:
    """`run()`'s status. An exception `user_error` describes (its text: the lines to print)
    is exit 1; `--help`'s SystemExit keeps its code; anything else is an internal error."""
    try:
        return run()
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else EXIT_ERROR
    except Exception as error:
        message = user_error(error)
        if message is not None:
            print(message, file=sys.stderr)
            return EXIT_ERROR
        traceback.print_exception(error)
        print(f"{prog}: error: internal error: {error!r} (a bug in xrelay)", file=sys.stderr)
        return EXIT_INTERNAL
