"""Parsing xrelay text with source locations on every op.

`LocatingParser` stamps each parsed op with `FileLineColLoc` (xDSL leaves
`UnknownLoc` unless the text spells `loc(...)`), so that verifier errors can
name `file:line:col`. It also bounds nesting (`MAX_NESTING`: deeper text is a
located "nesting too deep" error, never a RecursionError) and reads dense
literals itself (`dense_literal.py`: exact float bit patterns, range checks,
linear time). It reads xDSL's protected `_current_token`, `_resume_from` and
`_parse_tensor_literal`; the pinned xDSL version and the tests guard that.
"""

from __future__ import annotations

import contextlib
import gc
import math
import re
import sys
from collections.abc import Callable, Generator, Iterable, Sequence
from typing import Any, ClassVar, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AnyDenseElement,
    BytesAttr,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FloatAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    LocationAttr,
    ModuleOp,
    RankedStructure,
    StringAttr,
    TensorType,
    UnknownLoc,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xrelay.dialects import dense_literal, resources
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, LineIndex, from_parse_error
from xrelay.dialects.relay_lines import RelayLines, skip_space

_extra_dialects: list[Dialect] = []

_BLANK_LINE = re.compile(r"\s*(//.*)?")

MAX_NESTING = 100
"""How deeply regions, types and attributes (dense literal brackets included) may nest.

xDSL's parser, printer and verifier recurse on nesting; past this depth the
input is rejected with a located "nesting too deep" error, so that every stage
works within Python's default recursion limit.
"""

_CONTAINERS = frozenset(
    ("tuple", "tensor", "vector", "memref", "complex", "dense", "array", "dense_resource")
)
"""Builtin types and attributes that hold other types or attributes."""

_PARSE_RECURSION_LIMIT = 4000
"""Enough for MAX_NESTING levels of the costliest syntax, with the caller's frames."""

_UNREGISTERED = re.compile(r"Operation (\S+) is not registered")
_NO_CUSTOM_FORMAT = re.compile(r"Operation builtin\.unregistered does not have a custom format\.")
_OP_NAME = re.compile(r"(?:^|[=\s])\s*(\"?)([A-Za-z_][\w$]*\.[\w$.]+)")
"""An op name, quoted in the generic form: after `=` (results) or at the start of the op."""

_MODULE_NAMES = frozenset(("builtin.module", "module", '"builtin.module"'))

_OPENERS = frozenset(
    (
        MLIRTokenKind.L_SQUARE,
        MLIRTokenKind.EXCLAMATION_IDENT,
        MLIRTokenKind.HASH_IDENT,
    )
)
"""Tokens that start an array or a dialect type/attribute (a `(` counts in types only).

Dictionaries are not counted, so that the generic form of an op nests as deep
as its custom form; deeper nesting through them ends as a RecursionError,
which `parse_module` reports as "nesting too deep" too.
"""


def register_dialect(dialect: Dialect) -> None:
    """Make a dialect (e.g. a backend's) known to every context xrelay creates."""
    if all(d.name != dialect.name for d in _extra_dialects):
        _extra_dialects.append(dialect)


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with xrelay's dialects (`get_all_dialects`) registered and every registered
    extra dialect loaded; an unknown dialect loads the installed plugins (`plugin_context.py`).

    xrelay's dialects load on first use, as xDSL's registration does: a context that
    never meets an `accel.` or `dnnl.` name never imports those dialects (~30 ms).
    """
    from xrelay.dialects import get_all_dialects
    from xrelay.dialects.plugin_context import DiscoveringContext

    ctx = DiscoveringContext(allow_unregistered=allow_unregistered)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    load_extra_dialects(ctx)
    return ctx


def load_extra_dialects(ctx: Context) -> None:
    """Load into `ctx` every dialect given to `register_dialect` that it does not hold yet."""
    loaded = {d.name for d in ctx.loaded_dialects}
    for dialect in _extra_dialects:
        if dialect.name not in ctx.registered_dialect_names and dialect.name not in loaded:
            ctx.load_dialect(dialect)


class LocatingParser(Parser):
    """An xDSL parser that records `file:line:col` on every op it parses."""

    fast_relay_lines: ClassVar[bool] = True
    """Read printed relay op lines by the fast path (`relay_lines.py`); the tests turn it
    off to compare it with xDSL's parser."""

    def __init__(
        self,
        ctx: Context,
        text: str,
        name: str = "<string>",
        blobs: dict[str, resources.Blob] | None = None,
    ):
        super().__init__(ctx, text, name)
        self.blobs = blobs or {}
        """The resources of the text's `{-# dialect_resources ... #-}` section, by name."""
        self._lines = LineIndex(text)
        self._filename = StringAttr(name)
        self._depth = 0
        self._level_at = -1
        self._location_end = -1
        """Where the last `loc(...)` read ended: an op ending there spelled its location."""
        self._first_uses: dict[str, Span[str]] = {}
        """Where each value was first used before its definition (for an undefined one)."""
        self._columns: dict[int, IntAttr] = {}
        """One `IntAttr` per column number stamped (ops share them)."""
        self._op_names: list[int] = []
        """The offset of the name token of each op being read, innermost last."""
        self.relay_lines = RelayLines(self)
        """The fast path for printed relay op lines (`relay_lines.py`)."""

    # ------------------------------------------------- for the relay fast path

    def resume_at(self, offset: int) -> None:
        """Continue reading at the token at (or after whitespace from) `offset`."""
        self._resume_from(offset)

    def register_result(self, name: str, values: Sequence[SSAValue], span: Span[str]) -> None:
        """Define `%name` as `values` (as an op's results are defined)."""
        self._register_ssa_definition(name, values, span)

    @contextlib.contextmanager
    def in_dialect(self, name: str) -> Generator[None]:
        """Read within dialect `name` (as an op of that dialect is read)."""
        self._parser_state.dialect_stack.append(name)
        try:
            yield
        finally:
            self._parser_state.dialect_stack.pop()

    # ------------------------------------------------------------ nesting

    def current_span(self) -> Span[str]:
        """The span of the token being read."""
        return self._current_token.span

    def _enter(self) -> None:
        """Count one more level of nesting; a ParseError here past MAX_NESTING."""
        self._check_depth(1)
        self._depth += 1

    def parse_optional_region(
        self, arguments: Iterable[Parser.Argument] | None = None
    ) -> Region | None:
        self._enter()
        try:
            return super().parse_optional_region(arguments)
        finally:
            self._depth -= 1

    def parse_optional_type(self) -> TypeAttribute | None:
        opened = self._open_level(self._current_token.kind == MLIRTokenKind.L_PAREN)
        try:
            return super().parse_optional_type()
        finally:
            self._close_level(opened)

    def parse_optional_builtin_int_or_float_attr(self) -> IntegerAttr | FloatAttr | None:
        """xDSL's, with a located error for a hex float literal wider than its type (xDSL
        raises OverflowError: `0xFFFFFFFFFFFFFFFFFF : f64`)."""
        token = self._current_token
        try:
            return super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            self.raise_error(
                f"hexadecimal literal {token.text} has more bits than its float type", token.span
            )

    def parse_optional_attribute(self) -> Attribute | None:
        opened = self._open_level()
        try:
            return super().parse_optional_attribute()
        finally:
            self._close_level(opened)

    def _open_level(self, function_type: bool = False) -> int | None:
        """Count a level if the next type or attribute can hold others (`tuple<`, `[`, ...).

        Returns the level's token offset (None if not counted). An attribute read
        as a type (`parse_attribute` falling back to `parse_type`) is one level.
        """
        token = self._current_token
        if function_type:
            nests = True
        elif token.kind == MLIRTokenKind.BARE_IDENT:
            nests = token.text in _CONTAINERS
        else:
            nests = token.kind in _OPENERS
        if not nests or token.span.start == self._level_at:
            return None
        self._enter()
        opened, self._level_at = self._level_at, token.span.start
        return opened

    def _close_level(self, opened: int | None) -> None:
        if opened is not None:
            self._depth -= 1
            self._level_at = opened

    # ---------------------------------------------------------- locations

    def parse_optional_location(self) -> LocationAttr | None:
        location = super().parse_optional_location()
        if location is not None:
            self._location_end = self.pos
        return location

    def location_at(self, offset: int) -> FileLineColLoc:
        """The `file:line:col` of a character offset of the text (where an op is stamped)."""
        line, column = self._lines.line_col(offset)
        column_attr = self._columns.get(column)
        if column_attr is None:
            column_attr = self._columns[column] = IntAttr(column)
        return trusted_file_location(self._filename, IntAttr(line), column_attr)

    def _register_ssa_definition(
        self, name: str, values: Sequence[SSAValue], span: Span[str]
    ) -> None:
        # A block argument without `loc(...)` is located at its name. (A function
        # argument's spelled `loc(unknown)` is not told apart: it is located too.)
        for value in values:
            if (
                isinstance(value, BlockArgument)
                and isinstance(value.location, UnknownLoc)
                and self._location_end != self.pos
            ):
                value.location = self.location_at(span.start)
        super()._register_ssa_definition(name, values, span)

    # ------------------------------------------------------ dense literals

    def _check_literal(
        self,
        read: Callable[[list[str]], bytes],
        literal: tuple[list[str], list[int] | None],
        text: str,
        start: int,
        spans: list[tuple[int, int]] | None,
    ) -> bytes:
        """`read(tokens)`, its `LiteralError` reported at the offending element."""
        try:
            return read(literal[0])
        except dense_literal.LiteralError as error:
            if spans is None:
                span = dense_literal.token_span(text, start, self.pos, error.index)
            else:
                span = spans[error.index]
            self.raise_error(error.message, Span(span[0], span[1], self.lexer.input))

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        """`dense<...>` with exact float bit patterns, range checks and a linear-time read."""
        begin = self.pos
        blob = self._hex_blob(type)
        if blob is not None:
            return blob
        self.parse_punctuation("<", " in dense attribute")
        if self._current_token.kind in (MLIRTokenKind.GREATER, MLIRTokenKind.STRING_LIT):
            # Empty, or a hex blob xDSL reads (and whose errors it reports).
            self._resume_from(begin)
            return super().parse_dense_int_or_fp_elements_attr(type)
        text = self.lexer.input.content
        start = self.pos
        scanned = dense_literal.scan_literal(text, start)
        if scanned is None:
            # Not a plain literal: xDSL's recursive reader, which reports the syntax error.
            self._check_depth(dense_literal.literal_depth(text, start))
            elements, shape = self._parse_tensor_literal()
            tokens = [re.sub(r"\s+", "", e.span.text) for e in elements]
            spans = [(e.span.start, e.span.end) for e in elements]
            literal: tuple[list[str], list[int] | None] = (tokens, shape or None)
        else:
            tokens, shape, end = scanned
            self._check_depth(len(shape or ()))
            self._resume_from(end)
            spans = None
            literal = (tokens, shape)
        self.parse_punctuation(">", " in dense attribute")
        literal_type = type if type is not None else self._dense_type()
        element_type: Attribute = literal_type.get_element_type()
        if not dense_literal.is_exact_type(element_type):
            if isinstance(element_type, IndexType):
                self._check_literal(dense_literal.check_index_range, literal, text, start, spans)
            self._resume_from(begin)
            return super().parse_dense_int_or_fp_elements_attr(type)
        type_shape = list(literal_type.get_shape())
        tokens, shape = literal
        if shape is not None and shape != type_shape:
            self.raise_error(
                f"inferred shape of elements literal ({shape}) does not match type ({type_shape})",
                Span(start, start + 1, self.lexer.input),
            )
        data = self._check_literal(
            lambda t: dense_literal.literal_bytes(t, element_type), literal, text, start, spans
        )
        if shape is None:
            count = math.prod(type_shape)
            try:
                data *= count
            except (MemoryError, OverflowError):
                self.raise_error(
                    f"a splat of {count} elements does not fit in memory",
                    Span(start, start + 1, self.lexer.input),
                )
        return DenseIntOrFPElementsAttr(literal_type, BytesAttr(data))

    def _parse_optional_builtin_parametrized_attr(self) -> Attribute | None:
        token = self._current_token
        if token.kind != MLIRTokenKind.BARE_IDENT or token.text != "dense_resource":
            return super()._parse_optional_builtin_parametrized_attr()
        self._consume_token(MLIRTokenKind.BARE_IDENT)
        return self._parse_dense_resource()

    def _parse_dense_resource(self) -> DenseIntOrFPElementsAttr:
        """`dense_resource<name> : type`, read into a dense attribute from the named blob."""
        self.parse_punctuation("<", " in dense_resource attribute")
        handle = self._current_token.span
        name = self.parse_identifier(" for a resource handle")
        self.parse_punctuation(">", " in dense_resource attribute")
        self.parse_punctuation(":", " in dense_resource attribute")
        type_at = self._current_token.span
        literal_type = self._parse_dense_literal_type()
        element_type: Attribute = literal_type.get_element_type()
        if not isinstance(literal_type, TensorType) or not dense_literal.is_exact_type(
            element_type
        ):
            self.raise_error(f"dense_resource of {literal_type} is not supported", type_at)
        tensor_type = cast(TensorType[Any], literal_type)
        if name == resources.ELIDED:
            if not tensor_type.get_shape():
                self.raise_error("an elided constant needs a non-scalar type", type_at)
            return resources.elided(tensor_type)
        blob = self.blobs.get(name)
        if blob is None:
            self.raise_error(
                f"unknown resource '{name}' (not in the file's dialect_resources section)", handle
            )
        size = dense_literal.element_size(element_type)
        needed = math.prod(tensor_type.get_shape()) * size
        if len(blob.data) != needed:
            self.raise_error(
                f"resource '{name}' holds {len(blob.data)} bytes, {tensor_type} needs {needed}",
                handle,
            )
        attr = DenseIntOrFPElementsAttr(tensor_type, BytesAttr(blob.data))
        resources.RESOURCE_NAMES[attr] = name
        return attr

    def _hex_blob(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr | None:
        """`<"0x..."> : type` read in linear time, without lexing the blob as a token.

        (xDSL's lexer and string literals slice the whole blob several times.)
        A located error for bad hex or a size that is not the type's (nor a splat's);
        None, with the position unchanged, when the text is not a blob or the element
        type is not one of relay's (xDSL then reads it).
        """
        begin = self.pos
        text = self.lexer.input.content
        if self._current_token.kind != MLIRTokenKind.LESS:
            return None
        start = begin + 1
        while start < len(text) and text[start] in " \t\n":
            start += 1
        if not text.startswith('"0x', start):
            return None
        end = text.find('"', start + 3)
        if end < 0:
            return None
        try:
            data = bytes.fromhex(text[start + 3 : end])
        except ValueError:
            bad = re.compile(r"[^0-9a-fA-F]").search(text, start + 3, end)
            at = bad.start() if bad else start
            message = "invalid hex digit in a dense hex blob" if bad else "odd number of hex digits"
            self.raise_error(message, Span(at, at + 1, self.lexer.input))
        self._resume_from(end + 1)
        if self.parse_optional_punctuation(">") is None:
            self._resume_from(begin)
            return None
        literal_type = type if type is not None else self._dense_type()
        element_type: Attribute = literal_type.get_element_type()
        exact = dense_literal.is_exact_type(element_type)
        size = dense_literal.element_size(element_type) if exact else 0
        count = math.prod(literal_type.get_shape())
        if not size:
            self._resume_from(begin)
            return None
        if len(data) not in (size, size * count):
            self.raise_error(
                f"hex blob holds {len(data)} bytes, {literal_type} needs {size * count} "
                f"(or {size} for a splat)",
                Span(start, start + 1, self.lexer.input),
            )
        return DenseIntOrFPElementsAttr(literal_type, BytesAttr(data))

    def _check_depth(self, brackets: int) -> None:
        if self._depth + brackets > MAX_NESTING:
            self.raise_error(f"nesting too deep (more than {MAX_NESTING} levels)")

    def _dense_type(self) -> RankedStructure[AnyDenseElement]:
        self.parse_punctuation(":", " in dense attribute")
        return self._parse_dense_literal_type()

    # ------------------------------------------------ errors, located as MLIR does

    def resolve_operand(self, operand: UnresolvedOperand, type: Any) -> Any:
        if operand.operand_name not in self.ssa_values:
            self._first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's, but a value used and never defined is an error at its first use."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as error:
            undefined = [self._first_uses[n] for n in self.forward_ssa_references]
            if not error.msg.startswith("values used but not defined") or not undefined:
                raise
            use = min(undefined, key=lambda span: span.start)
            raise ParseError(use, "use of undeclared SSA value name") from None

    def _op_name_error(self, start: Span[str], error: ParseError) -> ParseError:
        """An unknown op's error at its name (xDSL's is after it), in MLIR's words."""
        unknown = _UNREGISTERED.fullmatch(error.msg)
        opaque = _NO_CUSTOM_FORMAT.fullmatch(error.msg)
        if unknown is None and opaque is None:
            return error
        text = self.lexer.input.content
        name_at = _OP_NAME.search(text, start.start, error.span.start + 1)
        if name_at is None:
            return error
        name = name_at.group(2)
        span = Span(name_at.start(1), name_at.end(2), self.lexer.input)
        dialect = name.split(".")[0]
        known = dialect in self.ctx.registered_dialect_names or any(
            d.name == dialect for d in self.ctx.loaded_dialects
        )
        if name_at.group(1) and known:
            message = (
                f"unregistered operation '{name}' found in dialect ('{dialect}') that does not "
                "allow unknown operations"
            )
        elif name_at.group(1):
            message = (
                f"'{name}' op created with unregistered dialect (--allow-unregistered-dialect "
                "keeps it, opaque)"
            )
        elif unknown is not None and known:
            message = f"custom op '{name}' is unknown"
        elif unknown is not None:
            message = f"Dialect `{dialect}' not found for custom op '{name}'"
        else:
            message = (
                f"custom op '{name}' is unknown: an unregistered op reads only in the generic "
                f'form, "{name}"(...) : (...) -> (...)'
            )
        return ParseError(span, message)

    def _parse_block_body(self, block: Block) -> None:
        """xDSL's, but runs of printed relay op lines are read by the fast path
        (`relay_lines.py`) without lexing them; any other line by xDSL's parser."""
        text = self.lexer.input.content
        while True:
            if self.fast_relay_lines and self._current_token.kind == MLIRTokenKind.PERCENT_IDENT:
                offset = self.pos
                while (read := self.relay_lines.parse(offset)) is not None:
                    block.add_op(read[0])
                    offset = skip_space(text, read[1])
                self._resume_from(offset)
            op = self.parse_optional_operation()
            if op is None:
                return
            block.add_op(op)

    def _parse_op_result_list(self) -> list[tuple[Span[str], int]]:
        # What follows the results is the op's name token (a string in the generic form):
        # its location, as MLIR's parser takes it (`parseCustomOperation`/`parseGenericOperation`).
        results = super()._parse_op_result_list()
        self._op_names.append(self._current_token.span.start)
        return results

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        depth = len(self._op_names)
        # A top-level module's region is free: `builtin.module {...}` nests like the
        # implicit module it prints for, so printed text reads back at any allowed depth.
        top_module = self._depth == 0 and start.text in _MODULE_NAMES
        self._depth -= top_module
        try:
            op = super().parse_operation()
        except ParseError as error:
            raise self._op_name_error(start, error) from None
        except (VerifyException, ValueError, TypeError, KeyError, IndexError) as error:
            # A custom parser or builder rejected what it read: report it at the op (its
            # name, where its location is).
            message = str(error.args[0]) if error.args else type(error).__name__
            at = self._op_names[depth] if len(self._op_names) > depth else start.start
            raise ParseError(Span(at, at + 1, self.lexer.input), message.split("\n")[0]) from None
        finally:
            self._depth += top_module
            name_at = self._op_names[depth] if len(self._op_names) > depth else start.start
            del self._op_names[depth:]
        if isinstance(op.location, UnknownLoc) and self._location_end != self.pos:
            op.location = self.location_at(name_at)  # no `loc(...)` spelled: at its name
        return op


def parse_module(
    text: str,
    filename: str = "<string>",
    ctx: Context | None = None,
    line_offset: int = 0,
) -> ModuleOp:
    """Parse a module (an implicit `builtin.module` is allowed) or raise DiagnosticError.

    `line_offset` counts the lines before `text` in its file (for split input),
    so reported lines are those of the file.
    """
    padded = "\n" * line_offset + text
    try:
        padded, blobs = resources.split_resources(padded)
    except resources.ResourceError as error:
        line, column = LineIndex(padded).line_col(error.offset)
        raise DiagnosticError(
            [Diagnostic(filename, line, column, "error", error.message)]
        ) from None
    text = padded[len("\n" * line_offset) :]
    if _blank(text):
        # Only whitespace and comments: an empty module, as in mlir-opt.
        module = ModuleOp([])
    else:
        try:
            # The parser lexes its first token on construction: that can fail too.
            parser = LocatingParser(ctx or make_context(), padded, filename, blobs)
            module = _parse_deep(parser)
        except ParseError as error:
            raise DiagnosticError([from_parse_error(error, filename, LineIndex(padded))]) from None
    if isinstance(module.location, UnknownLoc):
        # An implicit module: locate it at its first op (else the text's first line), so
        # module-level errors such as a redefined symbol name a real position.
        first = next(iter(module.ops), None)
        if first is not None and isinstance(first.location, FileLineColLoc):
            module.location = first.location
        else:
            module.location = FileLineColLoc(
                StringAttr(filename), IntAttr(line_offset + 1), IntAttr(1)
            )
    return module


def trusted_file_location(filename: StringAttr, line: IntAttr, column: IntAttr) -> FileLineColLoc:
    """`FileLineColLoc(filename, line, column)` without IRDL's check of its parameters (their
    classes are what it checks; a quarter of the cost of stamping an op)."""
    location = FileLineColLoc.__new__(FileLineColLoc)
    object.__setattr__(location, "filename", filename)
    object.__setattr__(location, "line", line)
    object.__setattr__(location, "column", column)
    return location


def _blank(text: str) -> bool:
    """Whether `text` holds only whitespace and comments (stops at the first other line)."""
    start = 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if not _BLANK_LINE.fullmatch(text, start, end):
            return False
        start = end + 1
    return True


def _parse_deep(parser: LocatingParser) -> ModuleOp:
    """Parse with room on the stack for MAX_NESTING levels in any syntax.

    xDSL's parser takes 7 to 12 Python frames per level (more in the generic
    form), so the recursion limit is raised while parsing; a RecursionError
    (nesting the counter does not see, e.g. function types in function types)
    is a "nesting too deep" error at the token being read.

    The cycle collector is paused meanwhile: parsing makes no garbage cycles, only
    live objects, which it would scan over and over (a third of the time of a 50k-op
    module).
    """
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _PARSE_RECURSION_LIMIT))
    collecting = gc.isenabled()
    gc.disable()
    try:
        return parser.parse_module()
    except RecursionError:
        raise ParseError(parser.current_span(), "nesting too deep") from None
    finally:
        sys.setrecursionlimit(limit)
        if collecting:
            gc.enable()


def span_error(span: Span[str], message: str, filename: str, text: str) -> Diagnostic:
    """A diagnostic at a span of `text`."""
    line, column = LineIndex(text).line_col(span.start)
    return Diagnostic(filename, line, column, "error", message)
