"""`xrelay-run`: evaluate a function of a module with the numpy reference interpreter.

xrelay-run model.mlir                       # zeros for every input
xrelay-run model.mlir --random --seed 1     # seeded random inputs
xrelay-run model.mlir --input x=x.npy --save out.npz
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir import Attribute
from xrelay.dialects.diagnostics import DiagnosticError, check_module
from xrelay.dialects.interpreter import (
    EvaluationError,
    Evaluator,
    Value,
    check_inputs,
    make_input,
)
from xrelay.dialects.parser import parse_module


class RunMain:
    """The `xrelay-run` driver; subclass to add inputs or outputs."""

    def __init__(self, args: Sequence[str] | None = None):
        self.args = self.make_parser().parse_args(args)

    def make_parser(self) -> argparse.ArgumentParser:
        """The command-line arguments."""
        parser = argparse.ArgumentParser(
            prog="xrelay-run", description="Run a module with the numpy reference interpreter."
        )
        parser.add_argument("input_file", nargs="?", default="-", help="module text (- for stdin)")
        parser.add_argument("--entry", default="main", help="function to run (default: main)")
        parser.add_argument(
            "--input",
            action="append",
            default=[],
            metavar="NAME=FILE.npy",
            help="an input from a .npy file (by parameter name)",
        )
        parser.add_argument("--random", action="store_true", help="random inputs instead of zeros")
        parser.add_argument("--seed", type=int, default=0, help="seed for --random")
        parser.add_argument(
            "--dynamic-size", type=int, default=1, help="extent used for a dynamic `?` dim"
        )
        parser.add_argument("--save", metavar="FILE.npz", help="save the outputs")
        parser.add_argument("--print-values", action="store_true", help="print every value")
        return parser

    def make_input(self, ty: Attribute, rng: np.random.Generator) -> Value:
        """A zero or random value of a parameter type."""
        return make_input(ty, rng if self.args.random else None, self.args.dynamic_size)

    def run(self) -> int:
        """Parse, verify, evaluate and report; returns the exit code."""
        name = self.args.input_file
        text = sys.stdin.read() if name == "-" else open(name).read()  # noqa: SIM115
        module = parse_module(text, "<stdin>" if name == "-" else name)
        check_module(module)
        evaluator = Evaluator(module)
        if self.args.entry not in evaluator.functions:
            raise ValueError(f"module has no function '{self.args.entry}'")
        function = evaluator.functions[self.args.entry]
        given: dict[str, Any] = {}
        for item in self.args.input:
            key, _, path = item.partition("=")
            given[key] = np.load(path)
        rng = np.random.default_rng(self.args.seed)
        params = function.body.block.args
        unknown = set(given) - {p.name_hint for p in params}
        if unknown:
            raise ValueError(f"no parameter named {sorted(unknown)}")
        inputs = [
            given[p.name_hint] if p.name_hint in given else self.make_input(p.type, rng)
            for p in params
        ]
        results = evaluator.call(self.args.entry, check_inputs(function, inputs))
        flat: dict[str, np.ndarray[Any, Any]] = {}
        for index, value in enumerate(results):
            self.report(f"output{index}", value, flat)
        if self.args.save:
            np.savez(self.args.save, **flat)  # pyright: ignore[reportArgumentType]
        return 0

    def report(self, name: str, value: Value, flat: dict[str, np.ndarray[Any, Any]]) -> None:
        """Print one output (tuples field by field)."""
        if isinstance(value, tuple):
            for index, item in enumerate(value):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
                self.report(f"{name}.{index}", item, flat)
            return
        array = np.asarray(value)
        flat[name] = array
        summary = f"{name}: {array.dtype.name}{list(array.shape)}"
        if array.size and np.issubdtype(array.dtype, np.number):
            summary += f" min={array.min():.6g} max={array.max():.6g} mean={array.mean():.6g}"
        print(summary)
        if self.args.print_values:
            print(np.array2string(array, threshold=sys.maxsize))


def main(args: Sequence[str] | None = None) -> None:
    """Console entry point: errors are one line on stderr and exit code 1."""
    try:
        code = RunMain(args).run()
    except DiagnosticError as error:
        print(error, file=sys.stderr)
        code = 1
    except (ValueError, EvaluationError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
