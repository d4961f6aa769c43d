"""The `xrelay-opt` driver: parse, verify, run a pass pipeline, emit (mlir-opt's contract).

`OptMain` holds the logic; `xrelay.tools.opt.main` only calls `OptMain.main`.
Later issues extend it by overriding methods rather than editing the flow:

- `register_passes` / `register_targets`: what `-p` and `-t` can name;
- `register_arguments`: extra flags;
- `make_pass_context` / `run_pipeline`: the PassContext the `-p` passes run
  under (opt level, required/disabled passes, config, instruments from the
  debugging flags; see `pass_options.py`) and how they run (one `Sequential`);
- `process_chunk`: parse, verify, transform and emit one input chunk.

mlir-opt's flags live in their own modules: `opt_pipeline.py` (`-p`, per-pass
flags, `--pass-pipeline`, `--dump-pass-pipeline`), `opt_dumps.py`
(`--mlir-print-ir-*`), `opt_timing.py` (`--mlir-timing`), `opt_statistics.py`
(`--mlir-pass-statistics`).

Exit status: 0 on success, 1 for any error in the input or the command line
(one `file:line:col: error: ...` line per problem on stderr, no traceback;
a located error a pass raises on the input ends in `(in pass '<flag>')`, and
IR nested deeper than a recursive walk can follow is `IR nested too deep for
...`), 2 for an internal error (a bug: a traceback, then `error: internal
error: ...`).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import os
import re
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, NoReturn

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError
from xdsl.utils.target import Target
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.depth import nesting_guard
from xrelay.dialects.diagnostics import (
    Diagnostic,
    DiagnosticError,
    LineIndex,
    from_parse_error,
    location_of,
    verify_located,
)
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.parser import make_context, parse_module
from xrelay.dialects.pass_warnings import collect_warnings
from xrelay.dialects.resources import ElidedConstantError
from xrelay.passes import PassFactory, get_all_passes, lookup_pass
from xrelay.passes import describe_pass as registered_description
from xrelay.passes.adapters import to_pass
from xrelay.passes.debug_instruments import NumericsCheckError, VerifyEachInstrument
from xrelay.passes.instrument import PassTimingInstrument
from xrelay.passes.pass_config import config_options
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import (
    ImmutableModuleError,
    PassDependencyError,
    PassError,
    Sequential,
)
from xrelay.passes.transaction import restore
from xrelay.tools import (
    opt_pipeline,
    opt_statistics,
    opt_timing,
    pass_options,
    plugins,
    print_options,
)
from xrelay.tools.diagnostic_render import source_lines
from xrelay.tools.diagnostics import check_diagnostics, parse_expectations
from xrelay.tools.files import SPLIT_MARKER, Chunk, split_input, write_atomically
from xrelay.tools.output_formats import output_formats
from xrelay.tools.specs import SpecError, instantiate, lookup, option_infos, pipeline_error

from xrelay.plugins import PluginError, discover

TargetFactory = Callable[[], type[Target]]
"""A zero-argument callable returning a target class (imported on first call)."""

EXIT_OK, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2


class UsageError(Exception):
    """A command-line or file-system mistake: printed as `error: ...`, exit status 1."""


class InternalError(Exception):
    """A bug in xrelay or in a pass (not in the input): traceback, then exit status 2."""


@dataclass(frozen=True)
class MlirTarget(Target):
    """Textual IR: xrelay's custom syntax, or MLIR's generic form with `generic=true`."""

    name = "mlir"

    generic: bool = False
    """Print every op in MLIR's generic form (what `--print-op-generic` sets)."""

    elide_if_larger: int | None = None
    """Print constants of more elements as `dense_resource<__elided__>` (--elide-constants-...)."""

    resources_if_larger: int | None = None
    """Print constants of more elements as `dense_resource<name>` blobs (--dense-resources-...)."""

    debuginfo: bool = False
    """Print every op's location, `loc(...)` (what `--mlir-print-debuginfo` sets)."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        ExactPrinter(
            stream=output,
            print_generic_format=self.generic,
            elide_if_larger=self.elide_if_larger,
            resources_if_larger=self.resources_if_larger,
            print_debuginfo=self.debuginfo,
        ).print_op(module)
        output.write("\n")


def _dot_target() -> type[Target]:
    """`-t dot`: Graphviz pictures (imported when named)."""
    from xrelay.codegen.dot import DotTarget

    return DotTarget


def _c_target() -> type[Target]:
    """`-t c`: the C sources of a planned module (imported when named)."""
    from xrelay.codegen.c.target import CTarget

    return CTarget


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one `error:` line and exit status 1, not 2."""

    def error(self, message: str) -> NoReturn:
        options = [o for action in self._actions for o in action.option_strings]
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown:
            import difflib  # only for this message

            close = difflib.get_close_matches(unknown.group(1).split("=")[0], options, n=1)
            if close:
                message += f" (did you mean '{close[0]}'?)"
        raise UsageError(f"{message} (see --help)")


def _first_line(error: BaseException) -> str:
    text = str(error.args[0]) if error.args else ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


class OptMain:
    """`xrelay-opt`: the MLIR-style modular optimizer driver for xrelay IR."""

    prog = "xrelay-opt"
    description = "xrelay modular optimizer driver: parse, verify, transform, print."

    def __init__(self, argv: Sequence[str] | None = None):
        self.available_passes: dict[str, PassFactory] = {}
        self.available_targets: dict[str, TargetFactory] = {}
        parser = self.make_arg_parser()
        words = list(sys.argv[1:] if argv is None else argv)
        long_options = _long_options(parser)
        try:
            # Plugins first: their passes get per-pass flags too (`-myacc-fuse-matmul-relu`).
            plugins.load_plugins(plugins.plugin_specs(words))
            flags = set(get_all_passes()) - long_options
            if opt_pipeline.unknown_flag_words(words, flags | long_options) and discover():
                flags = set(get_all_passes()) - long_options  # installed plugins' passes
        except ImportError as error:
            raise UsageError(str(error)) from None
        words = opt_pipeline.expand_pass_flags(words, flags)
        self.args = parser.parse_args(opt_pipeline.single_dash_long(words, long_options))
        self.register_passes()
        self.register_targets()
        self.failed = False
        self.reproducer_written = False
        self.passes: tuple[ModulePass, ...] = ()
        self.skip_warnings: list[str] = []
        """Warnings for -p passes `--opt-level` skips, reported on each chunk's module."""
        self.timing = (
            opt_timing.Timing(self.args.mlir_timing_display) if self.args.mlir_timing else None
        )
        """`--mlir-timing`'s report, filled as the run goes (`opt_timing.py`)."""
        self.pass_timing = opt_timing.PassRows()
        self.statistics = (
            opt_statistics.StatisticsInstrument() if self.args.mlir_pass_statistics else None
        )
        """`--mlir-pass-statistics`: one instrument for the whole run (`opt_statistics.py`)."""
        self.warnings: list[Diagnostic] = []
        """Warnings of the chunk being processed (reported, or matched by expected-warning)."""
        self.target: Target = MlirTarget()

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """Build the driver from `argv` and run it; the exit status (user errors never raise)."""
        try:
            return cls(argv).run()
        except (UsageError, PluginError) as error:
            print(f"error: {error}", file=sys.stderr)
            return EXIT_ERROR
        except DiagnosticError as error:
            print(error, file=sys.stderr)
            return EXIT_ERROR
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            # The reader went away (`xrelay-opt ... | head`): not an error of ours.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return EXIT_ERROR
        except Exception as error:
            traceback.print_exception(error)
            detail = str(error) if isinstance(error, InternalError) else repr(error)
            blame = f"a bug in {cls.prog} or a pass, not in the input"
            print(f"error: internal error: {detail} ({blame})", file=sys.stderr)
            return EXIT_INTERNAL

    # ----------------------------------------------------------- extension

    def register_passes(self) -> None:
        """Make passes available to `-p`, by flag (default: the `xrelay.passes` registry)."""
        self.available_passes.update(get_all_passes())

    def register_targets(self) -> None:
        """Make output targets available to `-t`, by name."""
        self.available_targets["mlir"] = lambda: MlirTarget
        self.available_targets["dot"] = _dot_target
        self.available_targets["c"] = _c_target
        self.available_targets.update(output_formats())

    def make_arg_parser(self) -> argparse.ArgumentParser:
        """The command-line parser, with every flag from `register_arguments`."""
        parser = _ArgumentParser(
            prog=self.prog,
            description=self.description,
            allow_abbrev=False,
            epilog="exit status: 0 success, 1 error in the input or the command line, "
            "2 internal error",
        )
        self.register_arguments(parser)
        return parser

    def register_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the flags; override (calling super) to add more."""
        parser.add_argument("input_file", nargs="?", default="-", help="input file (- for stdin)")
        parser.add_argument("-o", "--output-file", help="output file (default: stdout)")
        opt_pipeline.add_arguments(parser)  # -p, per-pass flags, --pass-pipeline, --dump-...
        opt_timing.add_arguments(parser)  # --mlir-timing, --mlir-timing-display
        opt_statistics.add_arguments(parser)  # --mlir-pass-statistics(-display)
        parser.add_argument(
            "-t", "--target", default="mlir", help="output target, with options (default: mlir)"
        )
        parser.add_argument(
            "--print-op-generic", action="store_true", help="print ops in MLIR's generic form"
        )
        parser.add_argument(
            "--elide-constants-if-larger",
            "--mlir-elide-elementsattrs-if-larger",
            type=non_negative,
            metavar="N",
            help="print constants of more than N elements as dense_resource<__elided__> "
            "(text that parses and verifies but does not run)",
        )
        parser.add_argument(
            "--dense-resources-if-larger",
            type=non_negative,
            metavar="N",
            help="print constants of more than N elements as dense_resource<name>, their bytes "
            "in a trailing {-# dialect_resources #-} section",
        )
        parser.add_argument(
            "--split-input-file",
            action="store_true",
            help=f"process each '{SPLIT_MARKER}'-separated chunk of the input on its own",
        )
        parser.add_argument(
            "--verify-diagnostics",
            action="store_true",
            help="check diagnostics against 'expected-*' comments (MLIR semantics)",
        )
        parser.add_argument(
            "--disable-verify", action="store_true", help="do not verify the IR after each pass"
        )
        parser.add_argument(
            "--allow-unregistered-dialect",
            action="store_true",
            help="accept ops of unknown dialects (kept opaque)",
        )
        plugins.add_argument(parser)
        parser.add_argument("--list-passes", action="store_true", help="list the passes and exit")
        parser.add_argument("--list-targets", action="store_true", help="list the targets and exit")
        parser.add_argument("--version", action="store_true", help="print the version and exit")
        pass_options.add_arguments(parser)
        print_options.add_arguments(parser)

    def make_context(self) -> Context:
        """A fresh context for one chunk, with xrelay's dialects loaded."""
        return make_context(allow_unregistered=self.args.allow_unregistered_dialect)

    def make_pipeline(self) -> tuple[ModulePass, ...]:
        """The passes named by `-p`, the per-pass flags or `--pass-pipeline`
        (`opt_pipeline.py`); UsageError for unknown passes, bad options and misplaced passes."""
        try:
            elements = opt_pipeline.read_elements(self.args)
            specs: list[ArgSpec] = []
            for element in elements:  # checked first: one clear line per mistake
                spec = self.pass_spec(element.spec)
                cls = lookup("pass", self.available_passes, spec.name)
                opt_pipeline.check_anchor(element, cls, pass_options.pass_summary(cls)[1])
                spec = opt_pipeline.with_bare_booleans(spec, cls)
                instantiate("pass", cls, spec)
                specs.append(spec)
            return tuple(self.available_passes[s.name]().from_pass_spec(s) for s in specs)
        except opt_pipeline.PipelineError as error:
            raise UsageError(str(error)) from None
        except SpecError as error:
            raise UsageError(str(error)) from None

    def pass_spec(self, spec: ArgSpec) -> ArgSpec:
        """`spec` naming its pass by flag: a TVM name (`FoldConstant`) becomes the flag, and an
        unknown name loads the installed plugins (`xrelay.plugins`) before it is looked up."""
        if spec.name in self.available_passes:
            return spec
        entry = lookup_pass(spec.name)  # TVM names; loads installed plugins on a miss
        if entry is None:
            return spec
        if entry.flag not in self.available_passes:
            self.register_passes()
        return dataclasses.replace(spec, name=entry.flag)

    def make_target(self) -> Target:
        """The target named by `-t` (with its options); UsageError if it cannot be built."""
        try:
            spec = parse_spec(self.args.target)
            if spec.name not in self.available_targets and discover():
                self.register_targets()
            target_class = lookup("target", self.available_targets, spec.name)
            target = instantiate("target", target_class, spec)
        except ArgSpecParseError as error:
            raise UsageError(pipeline_error(error, self.args.target, "target")) from None
        except SpecError as error:
            raise UsageError(str(error)) from None
        if isinstance(target, MlirTarget):
            if self.args.print_op_generic:
                target = dataclasses.replace(target, generic=True)
            if self.args.elide_constants_if_larger is not None:
                target = dataclasses.replace(
                    target, elide_if_larger=self.args.elide_constants_if_larger
                )
            if self.args.dense_resources_if_larger is not None:
                target = dataclasses.replace(
                    target, resources_if_larger=self.args.dense_resources_if_larger
                )
            target = dataclasses.replace(target, **print_options.target_changes(self.args))
        return target

    def dump_module(self, module: ModuleOp, generic: bool) -> str:
        """A module as the IR dumps (`opt_dumps.py`) print it: as `-t mlir` would with the
        printing flags, in the generic form if `generic` (IR that does not verify)."""
        target = MlirTarget(
            generic=generic or self.args.print_op_generic,
            elide_if_larger=self.args.elide_constants_if_larger,
        )
        out = io.StringIO()
        target.emit(self.make_context(), module, out)
        return out.getvalue()

    def make_pass_context(self) -> PassContext:
        """The PassContext for one chunk (fresh instruments); UsageError for bad flag values."""
        try:
            context = pass_options.make_context(
                self.args, pass_options.known_pass(self.available_passes), self.dump_module
            )
        except pass_options.OptionError as error:
            raise UsageError(str(error)) from None
        if self.timing is not None:  # --mlir-timing: time the passes, and the checks after them
            self.pass_timing = opt_timing.PassRows()
            context.instruments = [
                self.pass_timing,
                *(
                    opt_timing.TimedInstrument(i, self.timing, "Verifier")
                    if isinstance(i, VerifyEachInstrument)
                    else i
                    for i in context.instruments
                ),
            ]
        if self.statistics is not None:
            context.instruments.append(self.statistics)
        if self.reproducer_written:  # one reproducer per run: the first failure's
            context.config.pop("transform.crash_reproducer", None)
        return context

    def run_pipeline(self, ctx: Context, module: ModuleOp) -> None:
        """Run the `-p` passes as one Sequential under `make_pass_context()`, in place.

        A failing pass becomes a DiagnosticError (exit 1) or, for a crash, an
        InternalError; the chunk's module is then dropped, so a pipeline of plain
        passes runs without the snapshot that would restore it (`transform.transactional`
        off unless given: cloning a 50k-op module costs 0.5 s). Composite passes,
        `required` dependencies (snapshots tell them what changed) and the crash
        reproducer (which records the configuration) keep them.
        """
        if not self.passes:
            return
        where = location_of(module)
        self.warnings += [Diagnostic(*where, "warning", w) for w in self.skip_warnings]
        context = self.make_pass_context()
        context.xdsl_context = ctx
        pipeline = Sequential([to_pass(p) for p in self.passes], name="pipeline")
        try:
            steps = pipeline.schedule(context)  # unknown or cyclic `required`: fail before running
        except PassDependencyError as error:
            raise UsageError(str(error)) from None
        plain = not context.get_config("transform.crash_reproducer", "") and not any(
            p.composes_transactions or dependency for p, dependency in steps
        )
        private = {"transform.transactional": False} if plain else {}
        timing = next((i for i in context.instruments if type(i) is PassTimingInstrument), None)
        found: list[Diagnostic] = []
        try:
            with context, context.with_defaults(private), collect_warnings() as found:
                result = pipeline.run_in_place(IRModule(module=module))
        except PassError as error:
            self.pass_failed(error)
        except NumericsCheckError as error:
            notes = self.reproducer_notes(error)
            raise DiagnosticError([self.unlocated(str(error)), *notes]) from None
        except DiagnosticError as error:  # the IR a pass left does not verify
            error.diagnostics.extend(self.reproducer_notes(error))
            raise
        finally:
            # A warning without an op is reported at the module's location.
            self.warnings += [
                w if w.line else Diagnostic(*where, w.severity, w.message) for w in found
            ]
            if timing is not None:
                sys.stderr.write(timing.render_profile())
            if self.timing is not None:  # --mlir-timing: the passes' rows
                self.timing.add_passes(self.pass_timing.profiles)
        if result.module is not module:
            restore(module, result.module)

    def reproducer_notes(self, error: BaseException) -> list[Diagnostic]:
        """A note for the crash reproducer written for this error, if one was."""
        path = getattr(error, "reproducer", None)
        if path is None:
            notes = [n for n in getattr(error, "__notes__", []) if "reproducer written" in n]
            path = notes[0].rsplit(" ", 1)[-1] if notes else None
        if path is None:
            return []
        self.reproducer_written = True
        message = f"crash reproducer written to {path}"
        return [Diagnostic(self.filename, 0, 0, "note", message)]

    def pass_failed(self, error: PassError) -> NoReturn:
        """Report a pass that raised: its diagnostics, a one-line error, or an internal error."""
        name = error.info.flag
        cause = error.cause
        notes = self.reproducer_notes(error)
        if isinstance(error, DiagnosticError):  # the input's error, located, naming the pass
            raise DiagnosticError(error.diagnostics + notes) from None
        if isinstance(
            cause,
            DiagnosticException | PassDependencyError | ImmutableModuleError | ElidedConstantError,
        ):
            message = f"pass '{name}' failed: {_first_line(cause)}"
            raise DiagnosticError([self.unlocated(message), *notes]) from None
        for note in notes:
            print(self.format_diagnostic(note, Chunk("", 0)), file=sys.stderr)
        raise InternalError(f"pass '{name}' crashed: {cause!r}") from cause

    # ---------------------------------------------------------------- steps

    @property
    def filename(self) -> str:
        """The input's name in diagnostics."""
        return "<stdin>" if self.args.input_file == "-" else self.args.input_file

    def unlocated(self, message: str) -> Diagnostic:
        """An error diagnostic that has no source position."""
        return Diagnostic(self.filename, 0, 0, "error", message)

    def locate_parse_error(self, error: ParseError) -> Diagnostic:
        """A diagnostic at a parse error's position in the (line-padded) chunk it came from."""
        content = error.span.input.content
        if isinstance(content, str):
            return from_parse_error(error, self.filename, LineIndex(content))
        return self.unlocated(error.msg)

    def format_diagnostic(self, diagnostic: Diagnostic, chunk: Chunk) -> str:
        """`file:line:col: error: message`, or `error: message` when it has no position."""
        message = _printable(diagnostic.message)
        if diagnostic.line > 0:
            lines = [str(dataclasses.replace(diagnostic, message=message))]
            if diagnostic.severity != "note":  # as mlir-opt: the source line, a caret
                lines += source_lines(diagnostic, self.filename, chunk.text, chunk.line_offset)
            return "\n".join(lines)
        where = ""
        if self.args.split_input_file:
            where = f" (in the split at {self.filename}:{chunk.line_offset + 1})"
        return f"{diagnostic.severity}: {message}{where}"

    def parse_chunk(self, ctx: Context, chunk: Chunk) -> ModuleOp:
        """Parse one chunk into a module whose every op has a file location."""
        return parse_module(chunk.text, self.filename, ctx, chunk.line_offset)

    def verify(self, module: ModuleOp, suffix: str = "") -> None:
        """DiagnosticError at the first op that does not verify; `suffix` ends its message."""
        problems = verify_located(module, print_options.describer(self.args))
        if problems:
            raise DiagnosticError(
                [dataclasses.replace(p, message=p.message + suffix) for p in problems]
            )

    def emit(self, ctx: Context, module: ModuleOp) -> str:
        """The module as `self.target` prints it."""
        out = io.StringIO()
        self.target.emit(ctx, module, out)
        return out.getvalue()

    def process_chunk(self, chunk: Chunk) -> str:
        """Parse, verify, transform and emit one chunk; DiagnosticError on failure."""
        ctx = self.make_context()
        with self.timed("Parser"):
            module = self.parse_chunk(ctx, chunk)
        with self.timed("Verifier"):
            self.verify(module)
        with nesting_guard(self.prog, module):
            self.run_pipeline(ctx, module)
            with self.timed("Output"):
                return self.emit(ctx, module)

    def timed(self, row: str) -> contextlib.AbstractContextManager[None]:
        """The block timed as a row of `--mlir-timing`'s report (nothing without it)."""
        return self.timing.scope(row) if self.timing is not None else contextlib.nullcontext()

    def handle_chunk(self, chunk: Chunk) -> str:
        """Process a chunk and report (or, with --verify-diagnostics, check) its diagnostics.

        Returns the chunk's output, empty if it failed.
        """
        output, diagnostics = "", list[Diagnostic]()
        self.warnings = []
        try:
            output = self.process_chunk(chunk)
        except DiagnosticError as error:
            diagnostics = error.diagnostics
        except ParseError as error:  # one that escaped parse_module's own handling
            diagnostics = [self.locate_parse_error(error)]
        except DiagnosticException as error:
            diagnostics = [self.unlocated(_first_line(error))]
        diagnostics = [*self.warnings, *diagnostics]
        if not self.args.verify_diagnostics:
            for diagnostic in diagnostics:
                print(self.format_diagnostic(diagnostic, chunk), file=sys.stderr)
            errors = any(d.severity == "error" for d in diagnostics)
            self.failed = self.failed or errors
            return output
        try:
            expectations = parse_expectations(chunk.text, chunk.line_offset)
        except re.error as error:
            raise UsageError(f"bad expected-*-re pattern in {self.filename}: {error}") from None
        for problem in check_diagnostics(diagnostics, expectations, self.filename):
            print(problem, file=sys.stderr)
            self.failed = True
        return output

    # ----------------------------------------------------------------- run

    def run(self) -> int:
        """The whole run; the exit status."""
        if self.args.version:
            print(f"{self.prog} (xrelay {_version('xrelay')}, xdsl {_version('xdsl')})")
            return EXIT_OK
        if self.args.list_passes:
            self.list_passes()
            return EXIT_OK
        if self.args.list_targets:
            self.list_targets()
            return EXIT_OK
        if self.args.list_configs:
            sys.stdout.write(pass_options.list_configs(config_options()))
            return EXIT_OK
        self.target = self.make_target()
        self.passes = self.make_pipeline()
        context = self.make_pass_context()  # bad pass-manager flags fail before any input is read
        if self.args.dump_pass_pipeline:
            sys.stderr.write(opt_pipeline.dump(self.passes, context))
        self.skip_warnings = opt_pipeline.skipped_explicitly(self.passes, context)
        text = self.read_input()
        chunks = split_input(text) if self.args.split_input_file else [Chunk(text, 0)]
        outputs = [self.handle_chunk(chunk) for chunk in chunks]
        # As mlir-opt: one output per chunk (empty if it failed), so outputs line up.
        result = f"{SPLIT_MARKER}\n".join(outputs)
        to_file = self.args.output_file not in (None, "-")
        if not (self.failed and to_file):  # a failed run leaves an existing -o file as it was
            with self.timed("Output"):
                self.write_output(result)
        if self.statistics is not None:
            sys.stderr.write(self.statistics.report(self.args.mlir_pass_statistics_display))
        if self.timing is not None:
            sys.stderr.write(self.timing.report())
        return EXIT_ERROR if self.failed else EXIT_OK

    def list_passes(self) -> None:
        """Every pass: `flag (Name): kind pass, opt_level N, requires A, B`, then details.

        The description and the options follow, indented.
        """
        if discover():
            self.register_passes()
        for flag in sorted(self.available_passes):
            cls = self.available_passes[flag]()
            info, kind = pass_options.pass_summary(cls)
            line = f"{flag} ({info.name}): {kind} pass, opt_level {info.opt_level}"
            if info.required:
                line += f", requires {', '.join(info.required)}"
            print(line)
            description = self.describe_pass(flag)
            if description:
                print(f"    {description}")
            for option in option_infos(cls):
                print(f"    option {option.describe()}")

    def describe_pass(self, name: str) -> str:
        """A pass's one-line description: from the registry, else its docstring's first line."""
        try:
            return registered_description(name)
        except KeyError:
            return _summary(self.available_passes[name]())

    def list_targets(self) -> None:
        """Print every target with its one-line description, then its options indented."""
        if discover():
            self.register_targets()
        for name in sorted(self.available_targets):
            target = self.available_targets[name]()
            summary = _summary(target)
            print(f"{name}: {summary}" if summary else name)
            for info in option_infos(target):
                print(f"    {info.describe()}")

    def read_input(self) -> str:
        """The input text, from the file or stdin; UsageError if it cannot be read."""
        name = self.args.input_file
        try:
            if name == "-":
                return sys.stdin.buffer.read().decode("utf-8")
            with open(name, "rb") as stream:
                return stream.read().decode("utf-8")
        except OSError as error:
            raise UsageError(f"cannot open '{name}': {error.strerror}") from None
        except UnicodeDecodeError as error:
            raise UsageError(
                f"cannot read '{self.filename}': not UTF-8 text (byte {error.start})"
            ) from None

    def write_output(self, text: str) -> None:
        """Write to stdout, or atomically to `-o` (a failed write leaves the old file)."""
        path = self.args.output_file
        if path is None or path == "-":
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        try:
            write_atomically(path, text)
        except OSError as error:
            raise UsageError(f"cannot write '{path}': {error.strerror}") from None


def _long_options(parser: argparse.ArgumentParser) -> set[str]:
    """The tool's long options without their dashes (`pass-pipeline`)."""
    strings = (o for action in parser._actions for o in action.option_strings)
    return {o[2:] for o in strings if o.startswith("--")}


def non_negative(text: str) -> int:
    """A flag's non-negative integer value (else argparse's usage error naming the flag)."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got '{text}'")
    return value


def _printable(text: str) -> str:
    """`text` with control characters escaped (a NUL from the input must not reach a terminal)."""
    return "".join(c if c.isprintable() or c == "\t" else repr(c)[1:-1] for c in text)


def _summary(cls: type) -> str:
    doc = (cls.__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


def _version(package: str) -> str:
    from importlib import metadata  # 40 ms to import: only for --version

    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "unknown"
