"""xrelay-opt's printing flags, as mlir-opt spells them (`--mlir-print-debuginfo`, ...).

Kept apart from the pass-manager flags (`pass_options.py`): `add_arguments` adds
them to the parser, `apply` sets them on the `mlir` target.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Protocol, TypeVar


class _Printing(Protocol):
    debuginfo: bool


PrintingT = TypeVar("PrintingT", bound=_Printing)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the printing flags."""
    group = parser.add_argument_group("printing (as mlir-opt)")
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


def apply(target: PrintingT, args: argparse.Namespace) -> PrintingT:
    """`target` with the printing flags of `args` set."""
    if args.print_debuginfo:
        target = dataclasses.replace(target, debuginfo=True)
    return target
