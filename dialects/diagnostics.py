"""Located diagnostics: `file:line:col: error: message`, for parse and verify errors.

xDSL records no source locations and reports verifier errors by printing the
whole module; xrelay's parser (`xrelay.dialects.parser`) stamps every op with a
`FileLineColLoc`, and this module turns failures into one-line diagnostics in
MLIR's style: `model.mlir:3:5: error: 'relay.nn.conv2d' op expected 4-D data`.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import CallSiteLoc, FileLineColLoc, FusedLoc, ModuleOp, NameLoc
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.utils.exceptions import ParseError, VerifyException
from xrelay.dialects.dominance import first_dominance_error
from xrelay.dialects.locations import fused_parts
from xrelay.dialects.relay.sizes import signature_size_problem
from xrelay.dialects.verify_cache import verify_op
from xrelay.dialects.walk import walk_ops


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic with its source position (1-based line and column)."""

    filename: str
    line: int
    column: int
    severity: str
    message: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.filename}: {self.severity}: {self.message}"
        return f"{self.filename}:{self.line}:{self.column}: {self.severity}: {self.message}"


@dataclass
class DiagnosticError(Exception):
    """A user-facing error carrying located diagnostics (no traceback is shown)."""

    diagnostics: list[Diagnostic] = field(default_factory=list[Diagnostic])

    def __str__(self) -> str:
        return "\n".join(str(d) for d in self.diagnostics)


class LineIndex:
    """Maps character offsets of a text to 1-based (line, column), in O(log n)."""

    def __init__(self, text: str):
        self._newlines = [m.start() for m in re.finditer("\n", text)]  # per line, not per char

    def line_col(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of a 0-based character offset."""
        line = bisect.bisect_left(self._newlines, offset)
        start = self._newlines[line - 1] + 1 if line else 0
        return line + 1, offset - start + 1


def file_location(loc: Attribute) -> FileLineColLoc | None:
    """The file position a location names: itself, a fused one's first, a name's or call
    site's inner one; None for `loc(unknown)` and a bare name."""
    if isinstance(loc, FileLineColLoc):
        return loc
    if isinstance(loc, FusedLoc):
        return next((f for f in map(file_location, fused_parts(loc)) if f is not None), None)
    if isinstance(loc, NameLoc):
        return file_location(loc.location)
    if isinstance(loc, CallSiteLoc):
        return file_location(loc.callee) or file_location(loc.caller)
    return None


def location_of(op: Operation) -> tuple[str, int, int]:
    """The (file, line, column) an op was parsed from, or the nearest located parent."""
    current: Operation | None = op
    while current is not None:
        loc = file_location(current.location)
        if loc is not None:
            return loc.filename.data, loc.line.data, loc.column.data
        current = current.parent_op()
    return "<unknown>", 0, 0


def op_error(op: Operation, message: str, severity: str = "error") -> Diagnostic:
    """A diagnostic on `op`, in MLIR's `'<op>' op <message>` form."""
    filename, line, column = location_of(op)
    return Diagnostic(filename, line, column, severity, f"'{op.name}' op {message}")


def from_parse_error(error: ParseError, filename: str, index: LineIndex) -> Diagnostic:
    """A diagnostic at the start of a parse error's span."""
    line, column = index.line_col(error.span.start)
    message = plain_message(error.msg)
    return Diagnostic(filename, line + error.span.line_offset, column, "error", message)


_VERIFY_PREFIX = "Operation does not verify: "


_WRONG_KIND = re.compile(r"(?P<attr>.+) should be of attribute subclassing `(?P<kind>\w+)`")
_KINDS = {
    "TypeAttribute": "a type (such as f32)",
    "StringAttr": "a string",
    "IntegerAttr": "an integer",
    "FloatAttr": "a float",
    "ArrayAttr": "an array",
    "DenseArrayBase": "a list of integers",
    "DictionaryAttr": "a dictionary",
}
"""What xDSL's attribute classes are called in messages (no class names in diagnostics)."""


def verify_message(error: VerifyException) -> str:
    """The message of a verifier error, without xDSL's module dump, prefix and class names."""
    message = str(error.args[0]) if error.args else str(error)
    if message.startswith(_VERIFY_PREFIX):
        message = message[len(_VERIFY_PREFIX) :]
    message = " ".join(line.strip() for line in message.splitlines() if line.strip())
    return plain_message(message)


def plain_message(message: str) -> str:
    """`message` without xDSL's internal names: `"float32" should be of attribute
    subclassing `TypeAttribute`` reads `expected a type (such as f32), got "float32"`."""
    wrong = _WRONG_KIND.fullmatch(message)
    if wrong is not None:
        kind = wrong.group("kind")
        what = _KINDS.get(kind, "an attribute of kind " + kind.removesuffix("Attr").lower())
        return f"expected {what}, got {wrong.group('attr')}"
    return message


def verify_located(
    module: ModuleOp, describe: Callable[[Operation], str] | None = None
) -> list[Diagnostic]:
    """Verify op by op in pre-order; every failing op as a located diagnostic.

    Each op is verified once without its nested ops (linear in the number of
    ops), and every op that fails is reported, in order (MLIR stops at the
    first). When none fails, every operand must be defined before its use
    (`dominance.py`: the first misuse). A function whose signature has a
    tensor that cannot exist (over 2^63-1 bytes, `relay/sizes.py`) fails too:
    xDSL's `func.func` does not check sizes. With `describe`, each error is
    followed by a note at the same place, `describe(op)` (MLIR's "see current
    operation").
    """
    problems: list[Diagnostic] = []

    def report(op: Operation, message: str) -> None:
        error = op_error(op, message)
        problems.append(error)
        if describe is not None:
            problems.append(dataclasses.replace(error, severity="note", message=describe(op)))

    for op in walk_ops(module):  # iterative: any nesting depth
        try:
            verify_op(op)
        except VerifyException as error:
            report(op, verify_message(error))
            continue
        if isinstance(op, func.FuncOp):
            signature = op.function_type
            problem = signature_size_problem(signature.inputs.data, signature.outputs.data)
            if problem is not None:
                report(op, problem)
    if problems:
        return problems
    misuse = first_dominance_error(module)
    if misuse is not None:
        return [dominance_error(*misuse)]
    return []


def dominance_error(op: Operation, index: int, value: SSAValue) -> Diagnostic:
    """MLIR's "operand #i does not dominate this use", with where the value is defined."""
    message = f"operand #{index} does not dominate this use"
    owner = value.owner if isinstance(value, OpResult) else None
    if owner is not None and isinstance(owner.location, FileLineColLoc):
        message += f" (it is defined at line {owner.location.line.data})"
    return op_error(op, message)


def check_module(module: ModuleOp) -> None:
    """Raise a DiagnosticError if the module does not verify."""
    diagnostics = verify_located(module)
    if diagnostics:
        raise DiagnosticError(diagnostics)


def format_diagnostics(diagnostics: Sequence[Diagnostic]) -> str:
    """Diagnostics one per line."""
    return "\n".join(str(d) for d in diagnostics)
