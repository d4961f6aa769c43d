"""The `xrelay-translate` driver: other formats into xrelay text (MLIR's `mlir-translate`).

    xrelay-translate --import-onnx model.onnx -o model.mlir    # weights inside, runs alone
    xrelay-translate --import-onnx model.onnx --params-out params.npz -o model.mlir
    xrelay-translate --import-onnx - --shape x=1x3x224x224 < model.onnx

Initializers (the weights), by flag:

- default: `main`'s parameters made of initializers are bound as constants
  (named after them, as `xrelay.build(mod, params=...)` binds params), so the
  file runs alone; constants of more than `--dense-resources-if-larger` N
  elements (default 100) print as `dense_resource<name>` blobs in the file's
  trailing `{-# dialect_resources #-}` section (MLIR's form, fast to print and
  to read);
- `--freeze-params`: the importer's `freeze_params=True` (initializers are
  constants while importing, so computations on them fold), printed the same;
- `--params-out FILE.npz`: initializers stay `main`'s parameters and their
  values go to FILE.npz, keyed by parameter name (`xrelay-run model.mlir
  --params FILE.npz` runs it); it excludes `--freeze-params`.

`--elide-constants-if-larger N` prints large constants as
`dense_resource<__elided__>` (text to read: it verifies but does not run).

Exit status: 0; 1 for a model the importer refuses (one `file: error: ...`
line per problem: every unsupported op at once) or a command-line mistake
(`xrelay-translate: error: ...`), with no traceback and no output file written
(`-o` and `--params-out` are written all or nothing, and only on success); 2 for an
internal error (a bug: a traceback).
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.tools.exit_status import exit_status
from xrelay.tools.onnx_input import ShapeFlagError, import_onnx, parse_shapes
from xrelay.tools.opt_main import non_negative

from xrelay import IRModule, byoc

PROG = "xrelay-translate"

RESOURCES_IF_LARGER = 100
"""Constants of more elements print as `dense_resource` blobs by default."""


class TranslateError(Exception):
    """A command-line or file mistake: `xrelay-translate: error: ...`, exit status 1."""


class _ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise TranslateError(f"{message} (see --help)")


def _user_error(error: Exception) -> str | None:
    if isinstance(error, DiagnosticError):
        return str(error)
    if isinstance(error, TranslateError | ShapeFlagError):
        return f"{PROG}: error: {error}"
    return None


class TranslateMain:
    """`xrelay-translate`: parse the flags, import, print, write."""

    def __init__(self, argv: Sequence[str] | None = None):
        self.args = self.make_parser().parse_args(argv)

    @classmethod
    def main(cls, argv: Sequence[str] | None = None) -> int:
        """The exit status for `argv` (user errors never raise)."""
        return exit_status(PROG, lambda: cls(argv).run(), _user_error)

    def make_parser(self) -> argparse.ArgumentParser:
        """The command-line flags."""
        parser = _ArgumentParser(
            prog=PROG,
            description="Translate other formats into xrelay text (MLIR's mlir-translate).",
            allow_abbrev=False,
        )
        add = parser.add_argument
        add("input_file", nargs="?", default="-", help="input file (- for stdin)")
        add("--import-onnx", action="store_true", help="the input is an ONNX model (.onnx)")
        add("-o", "--output-file", help="output file (default: stdout)")
        add(
            "--shape",
            action="append",
            default=[],
            metavar="NAME=DIMS",
            help="an input's shape, e.g. x=1x3x224x224 (? for a dynamic dim); repeatable",
        )
        add("--opset", type=int, metavar="N", help="override the model's default-domain opset")
        add(
            "--freeze-params",
            action="store_true",
            help="import initializers as constants (computations on them fold)",
        )
        add(
            "--params-out",
            metavar="FILE.npz",
            help="keep initializers as main's parameters and write their values here",
        )
        add(
            "--elide-constants-if-larger",
            type=non_negative,
            metavar="N",
            help="print constants of more than N elements as dense_resource<__elided__>",
        )
        add(
            "--dense-resources-if-larger",
            type=non_negative,
            default=RESOURCES_IF_LARGER,
            metavar="N",
            help="print constants of more than N elements as dense_resource blobs "
            f"(default {RESOURCES_IF_LARGER})",
        )
        add("--print-op-generic", action="store_true", help="print ops in MLIR's generic form")
        return parser

    def run(self) -> int:
        """Import and write; the exit status."""
        args = self.args
        if not args.import_onnx:
            raise TranslateError("name the translation: --import-onnx (the only one so far)")
        if args.freeze_params and args.params_out:
            raise TranslateError(
                "--params-out and --freeze-params exclude each other "
                "(frozen initializers are constants: no params remain)"
            )
        shapes = parse_shapes(args.shape)
        mod, params = import_onnx(args.input_file, shapes, args.opset, args.freeze_params)
        if args.params_out is None:
            byoc.bind_params_by_name(mod, params)
            params = {}
        text = self.print_module(mod)
        self.write(text, params)
        return 0

    def print_module(self, mod: IRModule) -> str:
        """The module's text with the printing flags."""
        return mod.astext(
            generic=self.args.print_op_generic,
            resources_if_larger=self.args.dense_resources_if_larger,
            elide_if_larger=self.args.elide_constants_if_larger,
        )

    def write(self, text: str, params: dict[str, Any]) -> None:
        """Write the text (`-o` or stdout) and the params file, all or nothing.

        Both are written to temporary files beside their targets, then renamed:
        a failure leaves every existing file as it was and writes none.
        """
        staged: list[tuple[str, str]] = []  # (temporary, target)
        try:
            path = self.args.output_file
            if path not in (None, "-"):
                staged.append((_stage(path, text.encode("utf-8")), path))
            if self.args.params_out is not None:
                buffer = io.BytesIO()
                np.savez(buffer, **params)
                staged.append(
                    (_stage(self.args.params_out, buffer.getvalue()), self.args.params_out)
                )
            for temporary, target in staged:
                os.replace(temporary, target)
        except OSError as error:
            for temporary, _ in staged:
                if os.path.exists(temporary):
                    os.unlink(temporary)
            name = error.filename or ""
            raise TranslateError(f"cannot write '{name}': {error.strerror}") from None
        if path in (None, "-"):
            sys.stdout.write(text)
            sys.stdout.flush()


def _stage(path: str, data: bytes) -> str:
    """`data` in a new temporary file in `path`'s folder; its name."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".xrelay-translate-")
    except OSError as error:
        error.filename = path
        raise
    with os.fdopen(handle, "wb") as stream:
        stream.write(data)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # as open() would create it, not mkstemp's 0600
    return temporary
