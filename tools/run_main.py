"""`xrelay-run`: run a function of a module with the reference interpreter or as a built library.

    xrelay-run model.mlir                                  # interpreter, zeros for every input
    xrelay-run model.mlir --random --seed 1                # seeded random inputs
    xrelay-run model.mlir --input x=x.npy --save out.npz   # inputs from files, outputs saved
    xrelay-run model.mlir --target accel,c --input x=x.npy --params p.npz \\
        --output out.npy --repeat 100                      # xrelay.build, then run the library
    xrelay-run model.onnx --target accel,c --random --repeat 100   # an ONNX model directly

An ONNX model (a `.onnx` file) is imported with `relay.frontend.from_onnx`
(`--shape NAME=DIMS` and `--opset` as in `xrelay-translate`); its initializers
are bound to `main`'s parameters by name, as `--params` binds (which, like
`--input`, overrides them); the importer's problems are one error line each.

Without `--target` the numpy reference interpreter evaluates `--entry` (default
`main`). With `--target T[,T...]` (`c`, or BYOC targets ending in `c`, such as
`accel,c`) `main` is built with `xrelay.build(mod, target, params, options)`
(`--opt-level`, `--cflags`, `--num-threads`, `--march` become `options`; the library is
cached in `$XRELAY_CACHE_DIR` or `~/.cache/xrelay`) and the library runs instead.

Inputs: `--input NAME=FILE.npy` by parameter name, `--params FILE.npz` binds the
arrays under its keys (parameter names; with `--target` they become constants at
build, so the library takes only the other parameters); the remaining parameters
get zeros, or seeded random values with `--random` (the same values in both
modes, so their outputs compare).

Outputs: one summary line per output array is always printed (`output0:
float32[1, 10] min=... max=... mean=...`; tuple fields are `output0.1`; the
values too with `--print-values`). `--output FILE.npz` (or `--save FILE.npz`)
writes every output array under those names; `--output FILE` with any other
suffix writes the single output array as `.npy` data (an error when there are
several). `--repeat N` runs N more times after that first (warm-up) run and
prints a line `time: median <ms> ms, min <ms> ms, <N> runs`. `--profile` (with
`--target`) builds with the option `profile` and ends with a table of the time
of every kernel (name, calls, total ms, mean us per call, % of the run; each
kernel under the call that ran it, longest first) over the runs `--repeat`
timed, or the one run without it. `--export FILE.so` copies the built library
(for `xrelay.runtime.load` or a C program).

Exit status: 0 on success; 1 for any mistake in the command line, the files or
the module (one line `xrelay-run: error: ...` on stderr, or `file:line:col:
error: ...` for an error located in the module, such as a recursion deeper than
the interpreter's 10,000 calls, a result that cannot be allocated, a recursive
`main` with `--target`, or IR nested too deep; an error a pass of the build
raises on the module ends in `(in pass '<flag>')`); 2 for an internal error (a
traceback: a bug in xrelay).
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
from xdsl.dialects import func
from xrelay.dialects.depth import nesting_guard
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.interpreter import Value, check_inputs, make_input
from xrelay.dialects.resources import ELIDED, elided_ops
from xrelay.tools import plugins
from xrelay.tools.exit_status import exit_status
from xrelay.tools.onnx_input import ONNX_SUFFIX, ShapeFlagError, import_onnx, parse_shapes
from xrelay.tools.run_backends import (
    InterpreterRunner,
    LibraryRunner,
    function_of,
    measure,
    one_line,
)
from xrelay.tools.run_io import (
    Array,
    RunError,
    check_output_path,
    leaf_count,
    named_outputs,
    read_inputs,
    read_params,
    stored_bfloat16,
    summary,
    write_outputs,
)

import xrelay
from xrelay.plugins import PluginError
from xrelay.relay.frontend import OnnxImportError

PROG = "xrelay-run"


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, but a usage mistake is a `RunError` (one line, exit status 1)."""

    def error(self, message: str) -> NoReturn:
        raise RunError(f"{message} (see --help)")


def _user_error(error: Exception) -> str | None:
    """The lines `xrelay-run` prints for an error in its input, None for a bug."""
    if isinstance(error, DiagnosticError):
        if not error.diagnostics:
            return f"{PROG}: error: {error}"
        return "\n".join(  # without a position or a file: `xrelay-run: error: ...`
            str(d)
            if d.line > 0 or not d.filename.startswith("<")
            else f"{PROG}: {d.severity}: {d.message}"
            for d in error.diagnostics
        )
    if isinstance(error, RunError | ValueError | OSError | ShapeFlagError | PluginError):
        return f"{PROG}: error: {one_line(error)}"
    if isinstance(error, MemoryError):  # e.g. a built library's output arrays
        return f"{PROG}: error: out of memory: {one_line(error)}"
    return None


class RunMain:
    """The `xrelay-run` driver: parse the module, make the inputs, run, report."""

    def __init__(self, args: Sequence[str] | None = None):
        self.args = self.make_parser().parse_args(args)
        self.onnx_params: dict[str, Array] = {}
        """An ONNX model's initializers, by parameter name (`--params` overrides them)."""

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """Run on `argv` (default: the command line); the exit status (user errors never raise)."""
        return exit_status(PROG, lambda: cls(argv).run(), _user_error)

    def make_parser(self) -> argparse.ArgumentParser:
        """The command-line arguments."""
        parser = _ArgumentParser(
            prog=PROG,
            description="Run a module with the numpy reference interpreter, "
            "or build it with xrelay.build (--target) and run the library.",
        )
        add = parser.add_argument
        add(
            "input_file",
            nargs="?",
            default="-",
            help="module text (- for stdin), or an ONNX model (a .onnx file)",
        )
        add(
            "--shape",
            action="append",
            default=[],
            metavar="NAME=DIMS",
            help="an ONNX input's shape, e.g. x=1x3x224x224 (? for a dynamic dim); repeatable",
        )
        add("--opset", type=int, metavar="N", help="override an ONNX model's default-domain opset")
        add("--entry", default="main", help="function to run (default: main; interpreter only)")
        add(
            "--input",
            action="append",
            default=[],
            metavar="NAME=FILE.npy",
            help="an input from a .npy file (by parameter name)",
        )
        add("--params", metavar="FILE.npz", help="arrays bound to parameters by name")
        add("--random", action="store_true", help="random inputs instead of zeros")
        add("--seed", type=int, default=0, help="seed for --random")
        add("--dynamic-size", type=int, default=1, help="extent used for a dynamic `?` dim")
        add(
            "--target",
            metavar="T[,T...]",
            help="build for these targets (c, accel,c) and run the library",
        )
        add("--opt-level", type=int, choices=range(4), help="build option opt_level (default 3)")
        add("--cflags", help="extra C compiler flags for the build (one shell-quoted string)")
        add(
            "--num-threads",
            type=int,
            metavar="N",
            help="build option num_threads (default: OpenMP's, OMP_NUM_THREADS)",
        )
        add(
            "--march",
            metavar="ARCH",
            help="build option march: compile for this -march (default native; x86-64 runs "
            "on every x86-64 CPU)",
        )
        add(
            "--profile",
            action="store_true",
            help="build option profile: print the time of every kernel after the run(s)",
        )
        add("--export", metavar="FILE.so", help="also write the built library to this file")
        add("--output", metavar="FILE", help="write the outputs (.npz: all by name; else .npy)")
        add("--save", metavar="FILE.npz", help="write every output to an .npz file")
        add("--repeat", type=int, metavar="N", help="run N more times and print the timing")
        add("--print-values", action="store_true", help="print every value")
        plugins.add_argument(parser)
        return parser

    def targets(self) -> list[str] | None:
        """The `--target` list, None without it; `RunError` for flags that need it."""
        spec: str | None = self.args.target
        if spec is None:
            for flag in ("opt_level", "cflags", "num_threads", "march", "export"):
                if getattr(self.args, flag) is not None:
                    raise RunError(f"--{flag.replace('_', '-')} needs --target")
            if self.args.profile:
                raise RunError("--profile needs --target")
            return None
        targets = [t.strip() for t in spec.split(",")]
        if not all(targets):
            raise RunError(f"--target expects names separated by commas (c, accel,c), got {spec!r}")
        if self.args.entry != "main":
            raise RunError("--entry is for the interpreter; a built library runs main")
        return targets

    def options(self) -> dict[str, Any]:
        """The build options of `--opt-level`, `--cflags`, `--num-threads` and `--march`."""
        options: dict[str, Any] = {}
        if self.args.opt_level is not None:
            options["opt_level"] = self.args.opt_level
        if self.args.cflags is not None:
            options["cflags"] = shlex.split(self.args.cflags)
        if self.args.num_threads is not None:
            options["num_threads"] = self.args.num_threads
        if self.args.march is not None:
            options["march"] = self.args.march
        if self.args.profile:
            options["profile"] = True
        return options

    def make_input(self, ty: Any, rng: np.random.Generator) -> Value:
        """A zero or random value of a parameter type."""
        return make_input(ty, rng if self.args.random else None, self.args.dynamic_size)

    def read_module(self) -> xrelay.IRModule:
        """The parsed and verified module of `input_file` (imported, for an ONNX model).

        An ONNX model's initializers become `onnx_params`, bound like `--params`.
        """
        name: str = self.args.input_file
        if name.endswith(ONNX_SUFFIX):
            try:
                mod, self.onnx_params = import_onnx(
                    name, parse_shapes(self.args.shape), self.args.opset
                )
            except OnnxImportError as error:  # name the file the problems are in
                raise OnnxImportError(error.messages, name) from None
            return mod
        if self.args.shape or self.args.opset is not None:
            raise RunError("--shape and --opset are for an ONNX model (a .onnx file)")
        if name == "-":
            return xrelay.parse(sys.stdin.read(), "<stdin>")
        try:
            with open(name, encoding="utf-8") as stream:
                text = stream.read()
        except OSError as error:
            raise RunError(f"cannot read {name}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise RunError(f"cannot read {name}: not UTF-8 text") from None
        return xrelay.parse(text, name)

    def run(self) -> int:
        """Parse, then `run_module`; returns the exit status."""
        args = self.args
        if args.repeat is not None and args.repeat < 1:
            raise RunError(f"--repeat must be at least 1, got {args.repeat}")
        plugins.load_plugins(args.load_plugin)  # before a registry is read
        targets = self.targets()
        mod = self.read_module()
        with nesting_guard(PROG, mod.module):  # a RecursionError: the module is too deep
            return self.run_module(mod, targets)

    def run_module(self, mod: xrelay.IRModule, targets: list[str] | None) -> int:
        """Make the inputs, run (and time), report; returns the exit status."""
        args = self.args
        elided = elided_ops(mod.module)
        if elided:  # text printed with --elide-constants-if-larger: nothing to compute with
            message = f"constant elided from the text (dense_resource<{ELIDED}>): cannot run"
            raise DiagnosticError([op_error(op, message) for op in elided])
        function = function_of(mod, args.entry)
        outputs = sum(leaf_count(t) for t in function.function_type.outputs.data)
        check_output_path(args.output, outputs)
        types = {arg.name_hint: arg.type for arg in function.body.block.args}
        params = {
            name: stored_bfloat16(array, types[name]) if name in types else array
            for name, array in read_params(args.params).items()
        }
        given = read_inputs(args.input)
        values = self.bind(function, params, given)
        initializers = {k: v for k, v in self.onnx_params.items() if k not in given}
        params = {**initializers, **params}  # bound at build with --target
        if targets is None:
            runner: InterpreterRunner | LibraryRunner = InterpreterRunner(mod, args.entry)
        else:
            runner = LibraryRunner(mod, targets, params, self.options())
            if args.export:
                runner.export(args.export)
        results = runner(values)  # also the warm-up of --repeat
        profiled = runner if isinstance(runner, LibraryRunner) and args.profile else None
        if profiled is not None and args.repeat:
            profiled.library.reset_profile()  # the table covers the timed runs
        timing = measure(lambda: runner(values), args.repeat) if args.repeat else None
        named = named_outputs(results)
        for name, array in named.items():
            print(summary(name, array))
            if args.print_values:
                print(np.array2string(array, threshold=sys.maxsize))
        if args.output:
            write_outputs(args.output, named)
        if args.save:
            try:
                np.savez(args.save, **named)  # pyright: ignore[reportArgumentType]
            except OSError as error:
                raise RunError(f"--save: cannot write {args.save}: {error}") from None
        if timing is not None:
            print(timing)
        if profiled is not None:
            print(profiled.profile_table())
        return 0

    def bind(
        self, function: func.FuncOp, params: dict[str, Array], given: dict[str, Array]
    ) -> list[Value]:
        """The value of every parameter: from `--params`, `--input`, or made; checked against
        the parameter types (a `ValueError` naming the parameter)."""
        arguments = function.body.block.args
        names = [arg.name_hint for arg in arguments]
        entry = self.args.entry
        unknown = sorted(set(params) - set(names))
        if unknown:
            raise RunError(
                f"--params {self.args.params}: {', '.join(map(repr, unknown))} "
                f"{'is' if len(unknown) == 1 else 'are'} not a parameter of '{entry}' "
                f"(its parameters: {', '.join(map(str, names))})"
            )
        for name in given:
            if name in params:
                raise RunError(f"--input {name}: '{name}' is also bound by --params")
            if name not in names:
                rest = ", ".join(str(n) for n in names if n not in params)
                raise RunError(
                    f"--input {name}: '{entry}' has no input '{name}' (its inputs: {rest})"
                )
        rng = np.random.default_rng(self.args.seed)
        values: list[Value] = []
        for arg in arguments:
            name = arg.name_hint
            if name in params:
                values.append(params[name])
            elif name in self.onnx_params and name not in given:
                values.append(self.onnx_params[name])
            elif name in given:
                values.append(stored_bfloat16(given[name], arg.type))
            else:
                values.append(self.make_input(arg.type, rng))
        try:
            return check_inputs(function, values)
        except ValueError as error:  # "input 'x': expected shape ...": name the flag and file
            quoted = re.match(r"input '([^']*)'", str(error))
            origin = self.origin(quoted.group(1) if quoted else "", params, given)
            raise RunError(f"{origin}{error}") from None

    def origin(self, name: str, params: dict[str, Array], given: dict[str, Array]) -> str:
        """`--params FILE: ` or `--input NAME=FILE: ` for a parameter's value, "" if made."""
        if name in params:
            return f"--params {self.args.params}: "
        if name in given:
            files = dict(item.split("=", 1) for item in self.args.input)
            return f"--input {name}={files[name]}: "
        return ""


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """Console entry point: run and exit with the status."""
    sys.exit(RunMain.main(argv))
