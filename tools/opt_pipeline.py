"""`xrelay-opt`'s pipeline flags, as mlir-opt has them.

- `-p a,b{opt=1}` (xdsl-opt's), repeatable: each `-p` appends to the pipeline;
- one flag per registered pass, as mlir-opt: `-cse`, `--fold-constant`,
  `-annotate-target='targets=accel,dnnl'` (the options as in braces), in
  command-line order with the `-p` ones;
- `--pass-pipeline='builtin.module(a,func.func(b{opt=1}))'`, MLIR's textual
  form: function passes may nest under `func.func` (a module pass there is an
  error naming it); it cannot be mixed with `-p` or per-pass flags;
- options: `key=value`, lists `key=a,b`, quoted strings, and a bare key for a
  boolean option (`{fold-qnn}` is `{fold-qnn=true}`);
- `--dump-pass-pipeline`: the pipeline on stderr as `--pass-pipeline` reads it
  back, named pipelines (`optimize`) expanded to the passes that run at their
  level, every option spelled, function passes nested under `func.func`.

Passes are named by flag or TVM name (`fold-constant`, `FoldConstant`) everywhere.
"""

from __future__ import annotations

import argparse
import copy
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from xdsl.passes import ModulePass as XdslModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_pipeline, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError
from xrelay.passes.adapters import XdslPass, to_pass
from xrelay.passes.pass_context import PassContext, names_pass
from xrelay.passes.pass_manager import Pass, Sequential
from xrelay.tools.specs import option_infos, pipeline_error

PASS_FLAG = "--pass-flag"
"""The hidden option a per-pass flag (`-cse`, `-fold-constant=...`) is rewritten to."""

MODULE_ANCHOR, FUNCTION_ANCHOR = "builtin.module", "func.func"


class PipelineError(ValueError):
    """A pipeline the tool cannot build (printed as `error: ...`, exit status 1)."""


@dataclass(frozen=True)
class PipelineArg:
    """One pipeline piece from the command line: `-p`'s text or a per-pass flag's."""

    source: str
    """How it was given: `-p` or the pass flag (`-cse`)."""
    text: str
    """xDSL pipeline text: `a,b{opt=1}`."""


@dataclass(frozen=True)
class Element:
    """One pass of a pipeline: its spec, the op it is anchored on, where it was written."""

    spec: ArgSpec
    anchor: str = MODULE_ANCHOR
    column: int = 0
    """1-based column in the `--pass-pipeline` text (0: not from there)."""


class _AppendPipeline(argparse.Action):
    """Append `-p TEXT` (or a rewritten per-pass flag) to `pipeline_items`, in order."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        items: list[PipelineArg] = list(getattr(namespace, self.dest, None) or [])
        text = str(values)
        source = "-" + text.split("{", 1)[0] if option_string == PASS_FLAG else "-p"
        items.append(PipelineArg(source, text))
        setattr(namespace, self.dest, items)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """`-p`, the hidden per-pass flag, `--pass-pipeline` and `--dump-pass-pipeline`."""
    parser.add_argument(
        "-p",
        "--passes",
        action=_AppendPipeline,
        dest="pipeline_items",
        default=[],
        metavar="PIPELINE",
        help="pass pipeline, e.g. 'cse,dce' or 'pass{option=value other=1,2 flag}'; passes by "
        "flag or TVM name (fold-constant or FoldConstant); repeated -p append; one flag per "
        "pass works too, as in mlir-opt: -cse, -fold-constant='fold-qnn' (see --list-passes)",
    )
    parser.add_argument(
        PASS_FLAG, action=_AppendPipeline, dest="pipeline_items", help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--pass-pipeline",
        metavar="PIPELINE",
        help="MLIR's textual pipeline: 'builtin.module(cse,func.func(fold-constant{fold-qnn}))'",
    )
    parser.add_argument(
        "--dump-pass-pipeline",
        action="store_true",
        help="print the expanded pipeline, every option spelled, on stderr (as --pass-pipeline "
        "reads it)",
    )


def expand_pass_flags(argv: Sequence[str], flags: Collection[str]) -> list[str]:
    """`argv` with mlir-opt's per-pass flags (`-cse`, `--cse`, `-cse='opt=1'`) rewritten to
    `--pass-flag=cse{opt=1}` (argparse alone would read `-cse` as `-c se`)."""
    out: list[str] = []
    for index, token in enumerate(argv):
        if token == "--":
            return out + list(argv[index:])
        match = re.fullmatch(r"--?([A-Za-z0-9][\w.-]*)(?:=(.*))?", token, re.DOTALL)
        if match is None or match.group(1) not in flags:
            out.append(token)
            continue
        options = match.group(2)
        spec = match.group(1) if options is None else f"{match.group(1)}{{{options}}}"
        out.append(f"{PASS_FLAG}={spec}")
    return out


def unknown_flag_words(argv: Sequence[str], known: Collection[str]) -> bool:
    """Whether `argv` has a `-word`/`--word` that names no known option or pass (then the
    installed plugins are read: it may be one of their passes)."""
    for token in argv:
        if token == "--":
            return False
        match = re.fullmatch(r"--?([A-Za-z0-9][\w.-]*)(?:=.*)?", token, re.DOTALL)
        if match is not None and len(match.group(1)) > 1 and match.group(1) not in known:
            return True
    return False


def single_dash_long(argv: Sequence[str], long_options: Collection[str]) -> list[str]:
    """`argv` with LLVM's single-dash long options (`-pass-pipeline=...`,
    `-mlir-print-ir-after-all`, `-split-input-file`) given their second dash, as mlir-opt
    users type them (argparse would read `-pass-pipeline` as `-p ass-pipeline`)."""
    out: list[str] = []
    for index, token in enumerate(argv):
        if token == "--":
            return out + list(argv[index:])
        name = token[1:].split("=", 1)[0]
        single = token.startswith("-") and not token.startswith("--") and len(name) > 1
        out.append("-" + token if single and name in long_options else token)
    return out


# ------------------------------------------------------------- --pass-pipeline


class _Reader:
    """MLIR's textual pipeline: `anchor(element, ...)`; an element is `name`, `name{options}`,
    or a nested `anchor(...)`."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, message: str, pos: int | None = None) -> PipelineError:
        where = (self.pos if pos is None else pos) + 1
        return PipelineError(
            f"malformed --pass-pipeline '{self.text}' at column {where}: {message}"
        )

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = f"'{self.peek()}'" if self.peek() else "the end"
            raise self.fail(f"expected '{char}', found {found}")
        self.pos += 1

    def name(self) -> tuple[str, int]:
        self.skip_space()
        match = re.compile(r"[A-Za-z0-9_][\w.-]*").match(self.text, self.pos)
        if match is None:
            found = f"'{self.peek()}'" if self.peek() else "the end"
            raise self.fail(f"expected a pass or operation name, found {found}")
        self.pos = match.end()
        return match.group(0), match.start() + 1

    def options(self) -> str:
        """The text between balanced braces (quotes respected), the braces consumed."""
        start = self.pos
        self.pos += 1
        depth, quote = 1, ""
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if quote:
                quote = "" if char == quote else quote
            elif char in "\"'":
                quote = char
            elif char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
                if depth == 0:
                    return self.text[start + 1 : self.pos - 1]
        raise self.fail("unbalanced '{'", start)

    def top(self) -> list[tuple[str, str, str, int]]:
        anchor, column = self.name()
        if anchor != MODULE_ANCHOR:
            raise self.fail(
                f"the pipeline must be anchored on '{MODULE_ANCHOR}': "
                f"'{MODULE_ANCHOR}(...)', not '{anchor}'",
                column - 1,
            )
        elements = self.nested(anchor)
        if self.peek():
            raise self.fail(f"unexpected '{self.peek()}' after the pipeline")
        return elements

    def nested(self, anchor: str) -> list[tuple[str, str, str, int]]:
        """`(element, ...)` under `anchor`: (name, options, anchor, column) in order."""
        self.expect("(")
        elements: list[tuple[str, str, str, int]] = []
        if self.peek() == ")":
            self.pos += 1
            return elements
        while True:
            name, column = self.name()
            if self.peek() == "(":
                if name != FUNCTION_ANCHOR or anchor != MODULE_ANCHOR:
                    raise self.fail(
                        f"cannot nest a pipeline on '{name}' under '{anchor}'; xrelay nests "
                        f"passes on '{FUNCTION_ANCHOR}' under '{MODULE_ANCHOR}'",
                        column - 1,
                    )
                elements += self.nested(name)
            elif self.peek() == "{":
                elements.append((name, self.options(), anchor, column))
            else:
                elements.append((name, "", anchor, column))
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect(")")
            return elements


def read_textual(text: str) -> list[Element]:
    """The passes of an MLIR textual pipeline, in order, with their anchors."""
    elements: list[Element] = []
    for name, options, anchor, column in _Reader(text).top():
        spelled = f"{name}{{{options}}}" if options.strip() else name
        try:
            spec = parse_spec(spelled)
        except ArgSpecParseError as error:
            message = pipeline_error(error, spelled, f"options of '{name}' in --pass-pipeline")
            raise PipelineError(message) from None
        elements.append(Element(spec, anchor, column))
    return elements


# ------------------------------------------------------------------ building


def read_elements(args: argparse.Namespace) -> list[Element]:
    """The pipeline the flags give, in order; PipelineError for malformed or mixed flags."""
    items: list[PipelineArg] = args.pipeline_items
    if args.pass_pipeline is not None:
        if items:
            raise PipelineError(
                f"--pass-pipeline can't be used with -p or individual pass options "
                f"(got {items[0].source})"
            )
        return read_textual(args.pass_pipeline)
    elements: list[Element] = []
    for item in items:
        if not item.text.strip():
            continue
        try:
            elements += [Element(spec) for spec in parse_pipeline(item.text)]
        except ArgSpecParseError as error:
            what = "pass pipeline" if item.source == "-p" else f"options of {item.source}"
            raise PipelineError(pipeline_error(error, item.text, what)) from None
    return elements


def with_bare_booleans(spec: ArgSpec, cls: type[XdslModulePass]) -> ArgSpec:
    """`spec` with each boolean option given without a value (`{fold-qnn}`) set to true."""
    booleans = {info.field for info in option_infos(cls) if info.hint is bool}
    given = spec.normalize_parameter_names().parameters
    if not any(not values and field in booleans for field, values in given.items()):
        return spec
    args = {f: ((True,) if not v and f in booleans else v) for f, v in given.items()}
    return ArgSpec(spec.name, args)


def check_anchor(element: Element, cls: type[XdslModulePass], kind: str) -> None:
    """PipelineError for a pass nested under `func.func` that does not run on functions."""
    if element.anchor == FUNCTION_ANCHOR and kind != "function":
        raise PipelineError(
            f"can't add pass '{element.spec.name}' restricted to '{MODULE_ANCHOR}' ({kind} pass) "
            f"on a pass manager intended to run on '{FUNCTION_ANCHOR}' (--pass-pipeline column "
            f"{element.column}); nest it under '{MODULE_ANCHOR}'"
        )


# ------------------------------------------------------------------- dumping


@dataclass(frozen=True)
class Leaf:
    """A pass of the expanded pipeline: its spelling with every option, and its kind."""

    spelled: str
    kind: str


def expand(passes: Iterable[Pass], ctx: PassContext) -> list[Leaf]:
    """The passes that run, named pipelines (`Sequential`s) replaced by theirs, at their level."""
    leaves: list[Leaf] = []
    for pass_ in passes:
        if not ctx.pass_enabled(pass_.info):
            continue
        if isinstance(pass_, Sequential):
            inner = ctx
            if pass_.scoped_opt_level is not None:
                inner = copy.copy(ctx)
                inner.opt_level = pass_.scoped_opt_level
            leaves += expand(pass_.passes, inner)
        elif isinstance(pass_, XdslPass):
            spec = pass_.xdsl_pass.spec(include_default=True)
            leaves.append(Leaf(format_spec(spec), pass_.kind))
        else:
            leaves.append(Leaf(pass_.pipeline_spec() or pass_.info.flag, pass_.kind))
    return leaves


def format_spec(spec: ArgSpec) -> str:
    """`name{key=value list=a,b}` as the pipeline readers take it back; unset options (none,
    an empty list) are left out."""
    items = [
        f"{key.replace('_', '-')}={','.join(_format_value(v) for v in values)}"
        for key, values in spec.parameters.items()
        if values
    ]
    return f"{spec.name}{{{' '.join(items)}}}" if items else spec.name


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        plain = re.fullmatch(r"[A-Za-z_][\w-]*", value) and value not in ("true", "false")
        return value if plain else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def dump(passes: Iterable[XdslModulePass], ctx: PassContext) -> str:
    """mlir-opt's `--dump-pass-pipeline` text: `Pass Manager with N passes:`, the pipeline."""
    leaves = expand([to_pass(p) for p in passes], ctx)
    groups: list[str] = []
    run: list[str] = []
    for leaf in leaves:
        if leaf.kind == "function":
            run.append(leaf.spelled)
            continue
        if run:
            groups.append(f"{FUNCTION_ANCHOR}({','.join(run)})")
            run = []
        groups.append(leaf.spelled)
    if run:
        groups.append(f"{FUNCTION_ANCHOR}({','.join(run)})")
    return f"Pass Manager with {len(groups)} passes:\n{MODULE_ANCHOR}({','.join(groups)})\n\n"


def skipped_explicitly(passes: Iterable[XdslModulePass], ctx: PassContext) -> list[str]:
    """Warnings for the passes named on the command line that `--opt-level` skips (not for
    those `--disabled-pass` names: skipping them is what was asked)."""
    warnings: list[str] = []
    for value in passes:
        info = to_pass(value).info
        if ctx.pass_enabled(info) or names_pass(ctx.disabled_pass, info):
            continue
        warnings.append(
            f"pass '{info.flag}' is skipped: its opt_level {info.opt_level} is above "
            f"--opt-level {ctx.opt_level} (raise --opt-level or add --required-pass {info.flag})"
        )
    return warnings
