"""`xrelay-opt`'s pass-manager switches: flags to a `PassContext`, and the pass and config listings.

| flag | becomes |
| --- | --- |
| `--opt-level N` (default 3, as tvmc) | `opt_level`: `-p` passes above N are skipped |
| `--required-pass A,B` / `--disabled-pass A,B` | `required_pass` / `disabled_pass` |
| `-c key=value` | `config`, parsed by the key's registered type |
| `--mlir-print-ir-*` (`--print-ir-before-all`, ...) | `opt_dumps.IRDumpInstrument`: MLIR's dumps |
| `--print-ir-diff` | `IRDiffInstrument` on stderr |
| `--time-passes` | `PassTimingInstrument`, its tree on stderr after each chunk |
| `--verify-each` | `VerifyEachInstrument` after every pass, nested ones too |
| `--verify-numerics` | `NumericsCheckInstrument` (reference interpreter after every pass) |
| `--crash-reproducer=PATH` | `transform.crash_reproducer` |

Pass names may be TVM names or flags. Without `--disable-verify` the module
is verified after each `-p` pass.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass as XdslModulePass
from xrelay.dialects.ir_module import IRModule
from xrelay.passes import kebab_case, lookup_pass
from xrelay.passes.adapters import (
    PassAdapter,
    XdslFunctionPass,
    XdslPipelinePass,
    xdsl_pass_info,
)
from xrelay.passes.debug_instruments import (
    IRDiffInstrument,
    NumericsCheckInstrument,
    VerifyEachInstrument,
)
from xrelay.passes.instrument import PassInstrument, PassTimingInstrument
from xrelay.passes.pass_config import ConfigOption, config_options
from xrelay.passes.pass_context import PassContext, PassInfo
from xrelay.tools import opt_dumps

DEFAULT_OPT_LEVEL = 3
"""tvmc's default: an opt tool runs what it is asked to unless told a lower level."""


class OptionError(ValueError):
    """A pass-manager flag with a bad value (the tool prints it as `error: ...`, exit 1)."""


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the pass-manager flags to `xrelay-opt`'s parser."""
    group = parser.add_argument_group("pass manager (TVM's PassContext)")
    group.add_argument(
        "--opt-level",
        type=int,
        default=DEFAULT_OPT_LEVEL,
        metavar="N",
        help=f"skip -p passes whose opt_level is above N (default {DEFAULT_OPT_LEVEL})",
    )
    group.add_argument(
        "--required-pass",
        action="append",
        default=[],
        metavar="A,B",
        help="passes that run whatever their opt_level (names or flags)",
    )
    group.add_argument(
        "--disabled-pass",
        action="append",
        default=[],
        metavar="A,B",
        help="passes that do not run (names or flags)",
    )
    group.add_argument(
        "-c",
        "--config",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a pass config option (see --list-configs); a dataclass option takes JSON",
    )
    group.add_argument(
        "--crash-reproducer",
        metavar="PATH",
        help="if a pass fails, write the module before it and the pipeline that reproduces it",
    )
    group.add_argument("--list-configs", action="store_true", help="list config options and exit")
    debug = parser.add_argument_group("pass debugging")
    opt_dumps.add_arguments(debug)  # --mlir-print-ir-* (and the --print-ir-* aliases)
    debug.add_argument(
        "--print-ir-diff", action="store_true", help="a diff of the IR for every pass changing it"
    )
    debug.add_argument(
        "--time-passes", action="store_true", help="print the timing tree of the passes"
    )
    debug.add_argument(
        "--verify-each", action="store_true", help="verify after every pass, nested ones too"
    )
    debug.add_argument(
        "--verify-numerics",
        action="store_true",
        help="run the reference interpreter after every pass; name the first that changes outputs",
    )


def parse_config_value(key: str, text: str) -> object:
    """A `-c key=value` value converted to the key's registered type; OptionError if it cannot."""
    options = config_options()
    option = options.get(key)
    if option is None:
        known = ", ".join(sorted(options))
        raise OptionError(f"unknown config option '{key}'; registered options: {known}")
    kind = option.value_type
    if kind is bool:
        lowered = text.lower()
        if lowered in ("true", "1"):
            return True
        if lowered in ("false", "0"):
            return False
    elif kind is int:
        try:
            return int(text)
        except ValueError:
            pass
    elif kind is float:
        try:
            return float(text)
        except ValueError:
            pass
    elif kind is str:
        return text
    else:
        import json  # only for dict-valued options (3 ms to import)

        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = None
        if isinstance(value, dict):
            return cast(dict[str, object], value)
        raise OptionError(
            f"config option '{key}' expects a JSON object of {option.type_name} fields, "
            f"got '{text}'"
        )
    raise OptionError(f"config option '{key}' expects {option.type_name}, got '{text}'")


def parse_config(items: Iterable[str]) -> dict[str, object]:
    """`-c` flags as a config dict; OptionError for malformed items, keys or values."""
    config: dict[str, object] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"-c expects KEY=VALUE, got '{item}'")
        config[key.strip()] = parse_config_value(key.strip(), text.strip())
    return config


def check_names(what: str, names: Iterable[str], known: Callable[[str], bool]) -> None:
    """OptionError if a name given to `what` is not a pass the tool knows."""
    for name in names:
        if not known(name):
            raise OptionError(f"{what}: unknown pass '{name}' (see --list-passes)")


def _default_printer(module: ModuleOp, generic: bool) -> str:
    return IRModule(module=module).astext() if not generic else str(module) + "\n"


def make_instruments(
    args: argparse.Namespace, printer: opt_dumps.Printer | None = None
) -> list[PassInstrument]:
    """The instruments the debugging flags ask for, in the order they report."""
    err = sys.stderr
    instruments: list[PassInstrument] = []
    if args.time_passes:
        instruments.append(PassTimingInstrument())
    dumps = opt_dumps.make_instrument(args, printer or _default_printer)
    if dumps is not None:
        instruments.append(dumps)
    if args.print_ir_diff:
        instruments.append(IRDiffInstrument(file=err, flags=True))
    # Depth 0 is the pipeline itself: its last pass has just been verified.
    if args.verify_each:
        instruments.append(VerifyEachInstrument(min_depth=1, flags=True))
    elif not args.disable_verify:
        instruments.append(VerifyEachInstrument(min_depth=1, max_depth=1, flags=True))
    if args.verify_numerics:
        instruments.append(NumericsCheckInstrument(flags=True))
    return instruments


def make_context(
    args: argparse.Namespace,
    known: Callable[[str], bool],
    printer: opt_dumps.Printer | None = None,
) -> PassContext:
    """The PassContext the flags describe (a fresh one per input chunk: instruments reset)."""
    required = [n for item in args.required_pass for n in _names(item)]
    disabled = [n for item in args.disabled_pass for n in _names(item)]
    check_names("--required-pass", required, known)
    check_names("--disabled-pass", disabled, known)
    check_names("--print-ir-before", [n for i in args.print_ir_before for n in _names(i)], known)
    check_names("--print-ir-after", [n for i in args.print_ir_after for n in _names(i)], known)
    config = parse_config(args.config)
    if args.crash_reproducer:
        config["transform.crash_reproducer"] = args.crash_reproducer
    try:
        return PassContext(
            args.opt_level, required, disabled, make_instruments(args, printer), config
        )
    except AttributeError as error:
        raise OptionError(str(error)) from None


def pass_summary(cls: type[XdslModulePass]) -> tuple[PassInfo, str]:
    """A pass class's PassInfo and kind (`module`, `function`, `sequential`)."""
    if issubclass(cls, PassAdapter):
        built = cls.make_pass()
        return built.info, built.kind
    if issubclass(cls, XdslPipelinePass):
        return xdsl_pass_info(cls), "sequential"
    kind = "function" if issubclass(cls, XdslFunctionPass) else "module"
    return xdsl_pass_info(cls), kind


def list_configs(out: Mapping[str, ConfigOption]) -> str:
    """`--list-configs`: `key: type = default` (Python's type names: `bool`, `int`, ...; not
    the TVM type keys `PassContext.list_configs` gives), the description indented below."""
    import json  # only here and for dict-valued options (3 ms to import)

    lines: list[str] = []
    for key, option in sorted(out.items()):
        default = option.default
        spelled = json.dumps(default) if isinstance(default, bool | str) else str(default)
        lines.append(f"{key}: {option.type_name} = {spelled}")
        if option.description:
            lines.append(f"    {option.description}")
    return "\n".join(lines) + "\n"


def known_pass(
    available: Mapping[str, Callable[[], type[XdslModulePass]]],
) -> Callable[[str], bool]:
    """Whether a name or flag names a pass the tool can run (or the registry knows)."""

    def known(name: str) -> bool:
        return name in available or kebab_case(name) in available or lookup_pass(name) is not None

    return known
