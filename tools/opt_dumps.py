"""`xrelay-opt`'s IR dumps in MLIR's format: `// -----// IR Dump After CSE (cse) //----- //`.

- `--mlir-print-ir-before=A,B` / `--mlir-print-ir-after=A,B` (aliases `--print-ir-before`,
  `--print-ir-after`): before / after the named passes (flags or TVM names);
- `--mlir-print-ir-before-all` / `--mlir-print-ir-after-all` (aliases `--print-ir-before-all`,
  `--print-ir-after-all`): around every pass;
- `--mlir-print-ir-after-change`: an after dump only if the pass changed the IR;
- `--mlir-print-ir-after-failure`: after a pass that failed, the IR as it left it, before the
  rollback (`IR Dump After X Failed (x)`);
- `--mlir-print-ir-tree-dir=DIR`: each dump in its own file,
  `DIR/builtin_module_<name or no-symbol-name>/<n>_<flag>.mlir`, n counting the dumps;
- `--mlir-print-ir-module-scope`: accepted; xrelay's passes all run on the module, which is
  what every dump shows.

Dumps go to stderr, a blank line after each; the IR is the whole module as
the output prints it (`--print-op-generic` and elision apply), in the generic
form when it does not verify, so every dump re-parses. The tool's own wrapper
(the `-p` pipeline as one `Sequential`) is not dumped; named pipelines
(`optimize`) are, around their passes.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects.diagnostics import verify_located
from xrelay.dialects.ir_module import IRModule
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassInfo, names_pass, running_passes

Printer = Callable[[ModuleOp, bool], str]
"""Prints a module (the bool: in the generic form), ending in a newline."""


def add_arguments(group: argparse._ArgumentGroup) -> None:  # pyright: ignore[reportPrivateUsage]
    """The dump flags, with the old `--print-ir-*` spellings as aliases."""
    group.add_argument(
        "--mlir-print-ir-before-all",
        "--print-ir-before-all",
        dest="print_ir_before_all",
        action="store_true",
        help="dump the IR before every pass",
    )
    group.add_argument(
        "--mlir-print-ir-after-all",
        "--print-ir-after-all",
        dest="print_ir_after_all",
        action="store_true",
        help="dump the IR after every pass",
    )
    group.add_argument(
        "--mlir-print-ir-before",
        "--print-ir-before",
        dest="print_ir_before",
        action="append",
        default=[],
        metavar="A,B",
        help="dump the IR before these passes",
    )
    group.add_argument(
        "--mlir-print-ir-after",
        "--print-ir-after",
        dest="print_ir_after",
        action="append",
        default=[],
        metavar="A,B",
        help="dump the IR after these passes",
    )
    group.add_argument(
        "--mlir-print-ir-after-change",
        action="store_true",
        help="dump after a pass only if it changed the IR",
    )
    group.add_argument(
        "--mlir-print-ir-after-failure",
        action="store_true",
        help="dump the IR a failing pass left (before it is rolled back)",
    )
    group.add_argument(
        "--mlir-print-ir-tree-dir",
        metavar="DIR",
        help="write each dump to its own file under DIR instead of stderr",
    )
    group.add_argument(
        "--mlir-print-ir-module-scope",
        action="store_true",
        help="accepted for mlir-opt compatibility: dumps always show the whole module",
    )


def _names(items: Iterable[str]) -> list[str]:
    return [name.strip() for item in items for name in item.split(",") if name.strip()]


class IRDumpInstrument(PassInstrument):
    """Dump the module around passes in MLIR's format (see the module docstring).

    `before`/`after` name passes (flags or TVM names), None for every pass;
    `skip_outermost` leaves out the invocation at depth 0 (the tool's wrapper).
    """

    def __init__(
        self,
        printer: Printer,
        before: list[str] | None = None,
        after: list[str] | None = None,
        *,
        before_all: bool = False,
        after_all: bool = False,
        after_change: bool = False,
        after_failure: bool = False,
        tree_dir: str | None = None,
        skip_outermost: bool = True,
        file: IO[str] | None = None,
    ) -> None:
        super().__init__()
        self.printer = printer
        self.before = before or []
        self.after = after or []
        self.before_all = before_all
        self.after_all = after_all
        self.after_change = after_change
        self.after_failure = after_failure
        self.tree_dir = tree_dir
        self.skip_outermost = skip_outermost
        self.file = file
        self.count = 0
        self._texts: dict[int, str] = {}
        """By nesting depth, the module's text before the pass running there (after-change)."""

    def _skipped(self) -> bool:
        return self.skip_outermost and not running_passes()

    def _wants_after(self, info: PassInfo) -> bool:
        return self.after_all or names_pass(self.after, info)

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        if self._skipped():
            return
        if self.after_change and self._wants_after(info):
            self._texts[len(running_passes())] = self.printer(mod.module, False)
        if self.before_all or names_pass(self.before, info):
            self.dump(f"IR Dump Before {info.name} ({info.flag})", info, mod.module)

    def run_after_pass(self, mod: IRModule, info: PassInfo) -> None:
        if self._skipped():
            return
        before_text = self._texts.pop(len(running_passes()), None)
        if not self._wants_after(info):
            return
        text = self.printer(mod.module, False)
        if self.after_change and before_text == text:
            return
        self.dump(f"IR Dump After {info.name} ({info.flag})", info, mod.module, text)

    def run_after_pass_failure(self, mod: IRModule, info: PassInfo) -> None:
        """The IR a pass left when it raised, before the pass manager rolls it back."""
        if self._skipped():
            return
        self._texts.pop(len(running_passes()), None)
        if self.after_failure:
            self.dump(f"IR Dump After {info.name} Failed ({info.flag})", info, mod.module)

    def dump(self, title: str, info: PassInfo, module: ModuleOp, text: str | None = None) -> None:
        """Write one dump: the header comment, the module (generic if it does not verify)."""
        invalid = bool(verify_located(module))
        if text is None or invalid:
            text = self.printer(module, invalid)
        body = f"// -----// {title} //----- //\n{text}\n"
        if self.tree_dir is None:
            out = self.file if self.file is not None else sys.stderr
            out.write(body)
            out.flush()
            return
        name = module.sym_name.data if module.sym_name is not None else "no-symbol-name"
        folder = os.path.join(self.tree_dir, f"builtin_module_{name}")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{self.count}_{info.flag}.mlir")
        self.count += 1
        with open(path, "w", encoding="utf-8") as stream:
            stream.write(body)


def make_instrument(args: argparse.Namespace, printer: Printer) -> IRDumpInstrument | None:
    """The dump instrument the flags ask for, or None."""
    before, after = _names(args.print_ir_before), _names(args.print_ir_after)
    wanted = (
        args.print_ir_before_all
        or args.print_ir_after_all
        or before
        or after
        or args.mlir_print_ir_after_failure
    )
    if not wanted:
        return None
    return IRDumpInstrument(
        printer,
        before,
        after,
        before_all=args.print_ir_before_all,
        after_all=args.print_ir_after_all,
        after_change=args.mlir_print_ir_after_change,
        after_failure=args.mlir_print_ir_after_failure,
        tree_dir=args.mlir_print_ir_tree_dir,
    )
