"""xrelay-opt's printing flags, as mlir-opt spells them (`--mlir-print-debuginfo`, ...).

Kept apart from the pass-manager flags (`pass_options.py`): `add_arguments` adds
them to the parser, `target_changes` are what they set on the `mlir` target, `describer` gives the
"see current operation" note of verifier errors.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from xdsl.ir import Operation


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the printing flags."""
    group = parser.add_argument_group("printing and diagnostics (as mlir-opt)")
    group.add_argument(
        "--mlir-print-debuginfo",
        "--print-debuginfo",
        dest="print_debuginfo",
        action="store_true",
        help="print each op's and block argument's location, loc(...), which reads back",
    )
    group.add_argument(
        "--mlir-print-local-scope",
        action="store_true",
        help="print locations inline (xrelay always does: accepted for mlir-opt's habits)",
    )
    group.add_argument(
        "--mlir-print-op-on-diagnostic",
        type=_flag,
        nargs="?",
        const=True,
        default=None,
        metavar="BOOL",
        help="follow a verifier error by a note printing the op (default: true, but false "
        "with --verify-diagnostics, as mlir-opt; given, it applies there too)",
    )


def _flag(text: str) -> bool:
    """A boolean flag's value, as mlir-opt spells them (`=true`, `=false`, `=1`, `=0`)."""
    value = text.strip().lower()
    if value in ("true", "1", "on"):
        return True
    if value in ("false", "0", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got '{text}'")


def describer(args: argparse.Namespace) -> Callable[[Operation], str] | None:
    """What the "see current operation" note says of an op that fails to verify; None when
    `--mlir-print-op-on-diagnostic=false`, or with `--verify-diagnostics` unless the flag is
    given (mlir-opt turns it off there; given, `expected-note` can check it)."""
    wanted: bool | None = args.mlir_print_op_on_diagnostic
    if wanted is None:
        wanted = not args.verify_diagnostics
    if not wanted:
        return None
    from xrelay.tools.diagnostic_render import OperationNotes

    return OperationNotes()


def target_changes(args: argparse.Namespace) -> dict[str, bool]:
    """The fields of the `mlir` target (`MlirTarget`) the printing flags set."""
    return {"debuginfo": True} if args.print_debuginfo else {}
