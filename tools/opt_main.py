"""The `xrelay-opt` driver: parse, verify, run a pass pipeline, print (mlir-opt's contract).

`OptMain` holds the logic so later issues extend it by overriding methods
(`make_arg_parser`, `make_pipeline`, `run_pipeline`, `register_targets`):
the pass manager adds `--opt-level`, `--disabled-pass`, instruments, and
code generation adds targets.
"""

from __future__ import annotations

import argparse
import io
import os
import re
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, verify_located
from xrelay.dialects.parser import make_context, parse_module
from xrelay.passes import describe, get_all_passes
from xrelay.tools.diagnostics import check_diagnostics, parse_expectations

Target = Callable[[ModuleOp, IO[str], argparse.Namespace], None]

_SPLIT = re.compile(r"^// -----.*$", re.MULTILINE)


class UsageError(Exception):
    """A command-line mistake: printed as `error: ...`, exit code 1."""


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a UsageError (exit 1, one line), not exit 2."""

    def error(self, message: str) -> NoReturn:
        options = sorted(
            option
            for action in self._actions
            for option in action.option_strings
            if option.startswith("--")
        )
        raise UsageError(f"{message}; options are: {', '.join(options)} (see --help)")


def pipeline_error(error: ArgSpecParseError, spec: str) -> str:
    """A one-line message for a malformed `-p` pipeline."""
    lines = [line for line in str(error.args[0]).splitlines() if line.strip()]
    where = lines[1].rsplit(":", 1)[-1] if len(lines) > 1 else "?"
    return f"malformed pass pipeline '{spec}' at column {where}: {lines[-1].strip()}"


@dataclass
class Chunk:
    """One piece of the input (`--split-input-file`) and its first line in the file."""

    text: str
    line_offset: int


def emit_mlir(module: ModuleOp, out: IO[str], args: argparse.Namespace) -> None:
    """The `mlir` target: the module as text (custom, or generic with --print-op-generic)."""
    Printer(stream=out, print_generic_format=args.print_op_generic).print_op(module)
    out.write("\n")


def split_input(text: str) -> list[Chunk]:
    """Split on `// -----` lines, keeping each chunk's line offset in the file."""
    chunks: list[Chunk] = []
    start = 0
    for match in _SPLIT.finditer(text):
        chunks.append(Chunk(text[start : match.start()], text.count("\n", 0, start)))
        start = match.end()
    chunks.append(Chunk(text[start:], text.count("\n", 0, start)))
    return chunks


class OptMain:
    """`xrelay-opt`: the MLIR-style modular optimizer driver for xrelay IR."""

    def __init__(self, argv: Sequence[str] | None = None):
        self.passes = get_all_passes()
        self.targets: dict[str, Target] = {}
        self.register_targets()
        self.args = self.make_arg_parser().parse_args(argv)
        self.failed = False

    # ------------------------------------------------------------ extension

    def register_targets(self) -> None:
        """Register output targets by name (`-t`)."""
        self.targets["mlir"] = emit_mlir

    def make_arg_parser(self) -> argparse.ArgumentParser:
        """The command-line interface."""
        parser = _ArgumentParser(prog="xrelay-opt", description="xrelay modular optimizer driver")
        parser.add_argument("input_file", nargs="?", default="-", help="input file (- for stdin)")
        parser.add_argument("-o", "--output-file", help="output file (default: stdout)")
        parser.add_argument(
            "-p",
            "--passes",
            default="",
            help="pass pipeline, e.g. 'cse,canonicalize{max-iterations=2}'",
        )
        parser.add_argument("-t", "--target", default="mlir", help="output target (default: mlir)")
        parser.add_argument(
            "--print-op-generic", action="store_true", help="print ops in MLIR's generic form"
        )
        parser.add_argument(
            "--split-input-file",
            action="store_true",
            help="process each '// -----'-separated chunk of the input on its own",
        )
        parser.add_argument(
            "--verify-diagnostics",
            action="store_true",
            help="check diagnostics against 'expected-*' comments (MLIR semantics)",
        )
        parser.add_argument(
            "--disable-verify", action="store_true", help="do not verify after each pass"
        )
        parser.add_argument(
            "--allow-unregistered-dialect", action="store_true", help="accept unknown ops"
        )
        parser.add_argument("--list-passes", action="store_true", help="list the passes and exit")
        parser.add_argument("--list-targets", action="store_true", help="list the targets and exit")
        parser.add_argument("--version", action="store_true", help="print the version and exit")
        return parser

    def make_pipeline(self) -> list[ModulePass]:
        """Parse `-p` into pass instances; unknown passes and options are usage errors."""
        if not self.args.passes.strip():
            return []
        try:
            specs: list[ArgSpec] = list(parse_pipeline(self.args.passes))
        except ArgSpecParseError as error:
            raise UsageError(pipeline_error(error, self.args.passes)) from None
        pipeline: list[ModulePass] = []
        for spec in specs:
            if spec.name not in self.passes:
                known = ", ".join(sorted(self.passes))
                raise UsageError(f"unknown pass '{spec.name}'; available passes: {known}")
            pass_class = self.passes[spec.name]()
            try:
                pipeline.append(pass_class.from_pass_spec(spec))
            except (ValueError, TypeError) as error:
                raise UsageError(f"bad options for pass '{spec.name}': {error}") from None
        return pipeline

    def run_pipeline(self, ctx: Context, module: ModuleOp, pipeline: list[ModulePass]) -> None:
        """Apply the passes in order, verifying after each unless told not to."""
        for pass_ in pipeline:
            try:
                pass_.apply(ctx, module)
            except DiagnosticException as error:
                message = str(error.args[0]) if error.args else type(error).__name__
                raise DiagnosticError(
                    [
                        Diagnostic(
                            self.filename, 0, 0, "error", f"pass '{pass_.name}' failed: {message}"
                        )
                    ]
                ) from None
            if not self.args.disable_verify:
                problems = verify_located(module)
                if problems:
                    first = problems[0]
                    raise DiagnosticError(
                        [
                            Diagnostic(
                                first.filename,
                                first.line,
                                first.column,
                                first.severity,
                                f"{first.message} (after pass '{pass_.name}')",
                            )
                        ]
                    )

    # ----------------------------------------------------------------- run

    @property
    def filename(self) -> str:
        """The input's name in diagnostics."""
        return "<stdin>" if self.args.input_file == "-" else self.args.input_file

    def process_chunk(self, chunk: Chunk, pipeline: list[ModulePass]) -> str:
        """Parse, verify, transform and emit one chunk; DiagnosticError on failure."""
        ctx = make_context(allow_unregistered=self.args.allow_unregistered_dialect)
        module = parse_module(chunk.text, self.filename, ctx, chunk.line_offset)
        problems = verify_located(module)
        if problems:
            raise DiagnosticError(problems)
        self.run_pipeline(ctx, module, pipeline)
        out = io.StringIO()
        self.targets[self.args.target](module, out, self.args)
        return out.getvalue()

    def handle_chunk(self, chunk: Chunk, pipeline: list[ModulePass]) -> str | None:
        """Process a chunk, report or check its diagnostics; the output, or None."""
        try:
            output: str | None = self.process_chunk(chunk, pipeline)
            diagnostics: list[Diagnostic] = []
        except DiagnosticError as error:
            output, diagnostics = None, error.diagnostics
        if self.args.verify_diagnostics:
            expectations = parse_expectations(chunk.text, chunk.line_offset)
            for problem in check_diagnostics(diagnostics, expectations, self.filename):
                print(problem, file=sys.stderr)
                self.failed = True
        elif diagnostics:
            for diagnostic in diagnostics:
                print(diagnostic, file=sys.stderr)
            self.failed = True
        return output

    def run(self) -> int:
        """The whole run; returns the exit code."""
        if self.args.version:
            print(f"xrelay-opt (xrelay {_version('xrelay')}, xdsl {_version('xdsl')})")
            return 0
        if self.args.list_passes:
            for name in sorted(self.passes):
                print(f"{name}: {describe(self.passes[name]())}")
            return 0
        if self.args.list_targets:
            print("\n".join(sorted(self.targets)))
            return 0
        if self.args.target not in self.targets:
            known = ", ".join(sorted(self.targets))
            raise UsageError(f"unknown target '{self.args.target}'; available targets: {known}")
        pipeline = self.make_pipeline()
        text = self.read_input()
        chunks = split_input(text) if self.args.split_input_file else [Chunk(text, 0)]
        outputs = [self.handle_chunk(chunk, pipeline) for chunk in chunks]
        printed = [o for o in outputs if o is not None]
        if printed:
            self.write_output("// -----\n".join(printed))
        return 1 if self.failed else 0

    def read_input(self) -> str:
        """The input text, from the file or stdin."""
        if self.args.input_file == "-":
            return sys.stdin.read()
        try:
            with open(self.args.input_file) as stream:
                return stream.read()
        except OSError as error:
            raise UsageError(f"cannot open '{self.args.input_file}': {error.strerror}") from None

    def write_output(self, text: str) -> None:
        """Write to stdout, or atomically to `-o` (a failed write leaves the old file)."""
        path = self.args.output_file
        if path is None or path == "-":
            sys.stdout.write(text)
            return
        directory = os.path.dirname(os.path.abspath(path))
        try:
            handle, temporary = tempfile.mkstemp(dir=directory, prefix=".xrelay-opt-")
            with os.fdopen(handle, "w") as stream:
                stream.write(text)
            os.replace(temporary, path)
        except OSError as error:
            raise UsageError(f"cannot write '{path}': {error.strerror}") from None


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"
