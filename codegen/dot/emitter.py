"""Graphviz pictures of a module: the figures of TVM's BYOC flow for any xrelay module.

`module_to_dot(module, function=None)` returns one `digraph`; `xrelay-opt -t dot`
(or `-t 'dot{function=main}'` for one function) prints it and `dot -Tpng`
renders it. A module before partitioning, after AnnotateTarget, after
MergeCompilerRegions and after PartitionGraph gives the seed's figures 1-4.

What is drawn:

- Each `func.func` is a cluster labelled `@name` and its discardable attributes
  (`Compiler`, `Primitive`, `global_symbol`, `Inline`, `Composite`, ...); a
  function with `Compiler = "<t>"` is filled with the color of target t.
- Parameters are ellipses (name and type); constants are small grey boxes
  (their type, and their value if they hold one element); ops are boxes
  labelled with TVM's op name (`nn.conv2d`) and up to four attributes that
  differ from their defaults (for `nn.conv2d` first its kernel size, read from
  the weight's type and `kernel_layout`); `func.return` is a dashed `return`
  box. Every edge is labelled with the type of the value it carries
  (`1x16x32x32 f32`, `scalar f32`, tuples as `(4 f32, 4 f32)`, cut after three
  fields); a value of a multi-result op is prefixed with its index (`#1`).
- `relay.compiler_begin` / `relay.compiler_end` are small boxes filled with
  their target's strong color. The ops they delimit are grouped into one
  cluster per annotated region, filled with the target's light color (figures
  2 and 3). A region is a connected component of the non-annotation ops of one
  block, joined through operands (never through an annotation), whose
  operands all come from `compiler_begin`s of one target T and whose results
  are all read by `compiler_end`s of T. Any other component (it reads an
  unannotated value, or its result reaches `func.return` directly, or it holds
  a `relay.if`, which TVM never puts in a region) is drawn without a cluster.
- `relay.composite` is a dashed cluster in its target's color (the target is
  the name before the first `.`; `default` without one) labelled with the composite name and its
  `PartitionedFromPattern`, holding the body's ops: edges enter the body's ops
  straight from the composite's operands and leave from what the body yields
  (a body without ops is drawn as one box).
- `func.call` is a box `call @callee` filled with the callee's `Compiler`
  color; a dashed edge goes to the callee's cluster when it is drawn (figure 4).
- `relay.if` is a diamond reading the condition; each branch is a dashed
  sub-cluster whose `yield` box feeds the diamond (edges `then` / `else`).
  Any other op with regions is drawn the same way (a box, one sub-cluster per
  region).

Colors: fixed (light fill, strong line) pairs for `accel`, `dnnl` and
`default`; any other target picks a pair from a palette by the CRC-32 of its
name, so a target has the same color in every picture and every run.

The text is deterministic: node ids `n0, n1, ...` and clusters `cluster_0,
...` are numbered in the order the module lists its ops, and edges come after
all nodes, in the order of their consumers. Every label is a quoted DOT string
in which backslashes, double quotes and line breaks are escaped; no record or
HTML labels are used, so braces and angle brackets need no escaping. The cost
is linear in the number of ops and uses: one walk, and one union-find over
the ops of each block that holds annotations.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Any, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    TupleType,
)
from xdsl.ir import Attribute, Block, Operation, OpResult, SSAValue
from xdsl.traits import IsolatedFromAbove, IsTerminator
from xdsl.utils.target import Target
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.base import RelayOp, int_array_values, integer_value, integer_width
from xrelay.dialects.relay.structure import (
    CompilerBeginOp,
    CompilerEndOp,
    CompositeOp,
    ConstantOp,
    IfOp,
    YieldOp,
)

__all__ = ["DotTarget", "annotated_regions", "module_to_dot", "target_colors", "type_text"]

# --------------------------------------------------------------------------- #
# Colors
# --------------------------------------------------------------------------- #

_FIXED_COLORS: dict[str, tuple[str, str]] = {
    "accel": ("#d6e6f7", "#2e75b6"),
    "dnnl": ("#d9efd3", "#3d8b37"),
    "default": ("#eeeeee", "#808080"),
}

_PALETTE: tuple[tuple[str, str], ...] = (
    ("#fde2c8", "#d35400"),
    ("#e3d7f2", "#8e44ad"),
    ("#f8d0cd", "#c0392b"),
    ("#fff1b8", "#9a7d0a"),
    ("#cfe9ea", "#117a65"),
    ("#f6d5e6", "#ad1457"),
    ("#e0e6c8", "#6b7a1f"),
    ("#d6dbe0", "#34495e"),
)


def target_colors(target: str) -> tuple[str, str]:
    """(light fill, strong line) colors of a BYOC target, the same in every run."""
    fixed = _FIXED_COLORS.get(target)
    if fixed is not None:
        return fixed
    return _PALETTE[zlib.crc32(target.encode("utf-8")) % len(_PALETTE)]


def _composite_target(name: str) -> str:
    """The target of a composite: its name before the first `.` (as AnnotateTarget reads it)."""
    return name.split(".", 1)[0] if "." in name else "default"


# --------------------------------------------------------------------------- #
# Label text
# --------------------------------------------------------------------------- #

_MAX_FIELDS = 3
_MAX_VALUE = 24
_MAX_ATTRS = 4


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def type_text(t: Attribute) -> str:
    """A type as an edge label: `1x16x32x32 f32`, `scalar f32`, `(4 f32, 4 f32)`."""
    if isinstance(t, TensorType):
        tensor = cast(TensorType[Attribute], t)
        dims = "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in tensor.get_shape())
        element = str(tensor.get_element_type())
        return f"{dims} {element}" if dims else f"scalar {element}"
    if isinstance(t, TupleType):
        fields = t.types.data
        shown = [type_text(f) for f in fields[:_MAX_FIELDS]]
        if len(fields) > _MAX_FIELDS:
            shown.append(f"+{len(fields) - _MAX_FIELDS} more")
        return "(" + ", ".join(shown) + ")"
    return _cut(str(t), 40)


def _value_text(attr: Attribute) -> str:
    """A property value, short: `2,2`, `NHWC`, `true`, `1e-05`."""
    ints = int_array_values(attr)
    if ints is not None:
        return ",".join(str(v) for v in ints)
    if isinstance(attr, StringAttr):
        return attr.data
    number = integer_value(attr)
    if number is not None:
        return ("true" if number else "false") if integer_width(attr) == 1 else str(number)
    if isinstance(attr, FloatAttr):
        return f"{float(cast(FloatAttr, attr).value.data):g}"
    if isinstance(attr, ArrayAttr):
        return ",".join(_value_text(a) for a in cast(ArrayAttr[Attribute], attr).data)
    return str(attr)


def _kernel_size(op: Operation) -> str | None:
    """`3x3` for an `nn.conv2d`: the weight's spatial dims under its `kernel_layout`."""
    if op.name != "relay.nn.conv2d" or len(op.operands) < 2:
        return None
    weight = op.operands[1].type
    layout = op.properties.get("kernel_layout")
    if not isinstance(weight, TensorType) or not isinstance(layout, StringAttr):
        return None
    shape = cast(TensorType[Attribute], weight).get_shape()
    text = layout.data
    if len(text) != len(shape) or "H" not in text or "W" not in text:
        return None
    dims = (shape[text.index("H")], shape[text.index("W")])
    return "x".join("?" if d == DYNAMIC_INDEX else str(d) for d in dims)


_DEFAULTS: dict[type[RelayOp], dict[str, Attribute]] = {}


def _defaults(cls: type[RelayOp]) -> dict[str, Attribute]:
    """The default properties of a relay op class (computed once per class)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = _DEFAULTS[cls] = cls.default_properties()
    return found


def _op_attribute_lines(op: Operation) -> list[str]:
    """Up to four `name=value` entries (non-default properties), two per line."""
    entries: list[str] = []
    kernel = _kernel_size(op)
    if kernel is not None:
        entries.append(f"kernel={kernel}")
    defaults = _defaults(type(op)) if isinstance(op, RelayOp) else {}
    hidden = 0
    for name, value in op.properties.items():
        if defaults.get(name) == value:
            continue
        if len(entries) == _MAX_ATTRS:
            hidden += 1
            continue
        entries.append(f"{name}={_cut(_value_text(value), _MAX_VALUE)}")
    if hidden:
        entries.append(f"(+{hidden} more)")
    return [" ".join(entries[i : i + 2]) for i in range(0, len(entries), 2)]


def _op_name(op: Operation) -> str:
    """TVM's spelling of a relay op (`nn.conv2d`); other ops keep their name."""
    return op.name[len("relay.") :] if op.name.startswith("relay.") else op.name


def _escape(text: str) -> str:
    """Text inside a quoted DOT label: `\\` and `"` escaped, line breaks as `\\n`."""
    return (
        text.replace("\\", "\\\\")
        .replace('"', '\\"')
        .replace("\r\n", "\n")
        .replace("\r", "\n")
        .replace("\n", "\\n")
    )


def _label(lines: Sequence[str]) -> str:
    """A quoted, escaped, multi-line DOT label."""
    return '"' + "\\n".join(_escape(line) for line in lines) + '"'


def _attr_text(attr: Attribute) -> str:
    """A function attribute's value for its cluster label: `"accel"`, `1`."""
    if isinstance(attr, StringAttr):
        return '"' + _cut(attr.data, 40) + '"'
    return _cut(_value_text(attr), 40)


# --------------------------------------------------------------------------- #
# Annotated regions
# --------------------------------------------------------------------------- #


def _has_open_regions(op: Operation) -> bool:
    """Whether `op` has regions that may read values of the enclosing block (`relay.if`)."""
    return bool(op.regions) and not op.has_trait(IsolatedFromAbove)


def annotated_regions(block: Block) -> list[tuple[str, list[Operation]]]:
    """The annotated regions of a block: (target, its ops in block order), in block order.

    A region is a connected component of the block's ops other than
    annotations and the terminator, joined through operands, whose operands
    from outside all come from `compiler_begin` of one target and whose results
    are read outside only by `compiler_end` of that target (and at least one
    annotation touches it). A component holding an op with non-isolated
    regions (`relay.if`) is never a region. Linear in the block's ops and uses.
    """
    members: list[Operation] = []
    index: dict[Operation, int] = {}
    annotated = False
    for op in block.ops:
        if isinstance(op, CompilerBeginOp | CompilerEndOp):
            annotated = True
        elif not op.has_trait(IsTerminator):
            index[op] = len(members)
            members.append(op)
    if not annotated:
        return []
    parent = list(range(len(members)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, op in enumerate(members):
        for operand in op.operands:
            if isinstance(operand, OpResult):
                j = index.get(operand.op)
                if j is not None:
                    a, b = find(i), find(j)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
    groups: dict[int, list[Operation]] = {}
    for i, op in enumerate(members):
        groups.setdefault(find(i), []).append(op)
    regions: list[tuple[str, list[Operation]]] = []
    for ops in groups.values():
        target = _region_target(ops, index)
        if target is not None:
            regions.append((target, ops))
    return regions


def _region_target(ops: Sequence[Operation], index: dict[Operation, int]) -> str | None:
    """The target of a component if its boundary is all annotations of one target."""
    targets: set[str] = set()
    for op in ops:
        if _has_open_regions(op):
            return None
        for operand in op.operands:
            producer = operand.op if isinstance(operand, OpResult) else None
            if producer is not None and producer in index:
                continue  # inside the component (components are closed under operands)
            if not isinstance(producer, CompilerBeginOp):
                return None
            targets.add(producer.compiler.data)
        for result in op.results:
            for use in result.uses:
                user = use.operation
                if user in index:
                    continue
                if not isinstance(user, CompilerEndOp):
                    return None
                targets.add(user.compiler.data)
    return next(iter(targets)) if len(targets) == 1 else None


# --------------------------------------------------------------------------- #
# The writer
# --------------------------------------------------------------------------- #


class _DotWriter:
    """Numbers nodes and clusters as it walks the module; edges are resolved at the end."""

    def __init__(self, module: ModuleOp):
        self.lines: list[str] = []
        self.depth = 1
        self.nodes = 0
        self.clusters = 0
        self.node_of: dict[SSAValue, str] = {}
        self.alias: dict[SSAValue, SSAValue] = {}
        """Values drawn as another value: composite block arguments and results."""
        self.data_edges: list[tuple[SSAValue, str]] = []
        self.other_edges: list[str] = []
        self.functions: dict[str, func.FuncOp] = {}
        for op in module.ops:
            if isinstance(op, func.FuncOp):
                self.functions.setdefault(op.sym_name.data, op)
        self.drawn: dict[str, tuple[str, str]] = {}
        """Drawn function name -> (its cluster id, a node inside it)."""
        self.calls: list[tuple[str, str, str]] = []
        """(call node, callee name, caller name)."""

    # ------------------------------------------------------------ primitives

    def emit(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def node(self, lines: Sequence[str], style: str = "") -> str:
        name = f"n{self.nodes}"
        self.nodes += 1
        extra = f", {style}" if style else ""
        self.emit(f"{name} [label={_label(lines)}{extra}];")
        return name

    def open_cluster(self, lines: Sequence[str], style: str) -> str:
        name = f"cluster_{self.clusters}"
        self.clusters += 1
        self.emit(f"subgraph {name} {{")
        self.depth += 1
        self.emit(f"graph [label={_label(lines)}, {style}];")
        return name

    def close_cluster(self) -> None:
        self.depth -= 1
        self.emit("}")

    def consume(self, op: Operation, node: str) -> None:
        """Record an edge from each operand of `op` to `node`, and `node` as its results."""
        for operand in op.operands:
            self.data_edges.append((operand, node))
        for result in op.results:
            self.node_of[result] = node

    # ------------------------------------------------------------ functions

    def function(self, f: func.FuncOp) -> None:
        name = f.sym_name.data
        lines = [f"@{name}"] + [f"{k} = {_attr_text(v)}" for k, v in f.attributes.items()]
        compiler = f.attributes.get("Compiler")
        if isinstance(compiler, StringAttr):
            fill, line = target_colors(compiler.data)
            style = f'style="filled,rounded", fillcolor="{fill}", color="{line}", penwidth=2'
        else:
            style = 'style="rounded", color="#404040"'
        first = self.nodes
        cluster = self.open_cluster(lines, style)
        if not f.body.blocks:
            self.node(["(declaration)"], "shape=plaintext")
        for block in f.body.blocks:
            self.arguments(block)
            terminator = self.block(block)
            if isinstance(terminator, func.ReturnOp):
                self.consume(terminator, self.node(["return"], 'style="dashed"'))
            elif terminator is not None:
                self.generic(terminator)
        self.close_cluster()
        if self.nodes > first:
            self.drawn.setdefault(name, (cluster, f"n{first}"))

    def arguments(self, block: Block, small: bool = False) -> None:
        for arg in block.args:
            hint = arg.name_hint or f"arg{arg.index}"
            style = "shape=ellipse" + (", fontsize=8" if small else "")
            self.node_of[arg] = self.node([f"%{hint}", type_text(arg.type)], style)

    def block(self, block: Block) -> Operation | None:
        """Draw the block's ops (annotated regions as clusters); return its terminator."""
        region_of: dict[Operation, int] = {}
        regions = annotated_regions(block)
        for number, (_, ops) in enumerate(regions):
            for op in ops:
                region_of[op] = number
        done: set[int] = set()
        terminator: Operation | None = None
        for op in block.ops:
            if op.has_trait(IsTerminator) and op is block.last_op:
                terminator = op
                continue
            number = region_of.get(op)
            if number is None:
                self.op(op)
            elif number not in done:
                done.add(number)
                target, ops = regions[number]
                fill, line = target_colors(target)
                style = f'fillcolor="{fill}", color="{line}", fontcolor="{line}"'
                self.open_cluster([target], f'style="filled,rounded", {style}')
                for member in ops:
                    self.op(member)
                self.close_cluster()
        return terminator

    # ------------------------------------------------------------ ops

    def op(self, op: Operation) -> None:
        if isinstance(op, CompilerBeginOp | CompilerEndOp):
            target = op.compiler.data
            _, line = target_colors(target)
            kind = "begin" if isinstance(op, CompilerBeginOp) else "end"
            style = (
                f'shape=box, style="filled,rounded", fillcolor="{line}", fontcolor="white", '
                'fontsize=8, height=0.2, margin="0.05,0.02"'
            )
            self.consume(op, self.node([f"{kind} {target}"], style))
        elif isinstance(op, ConstantOp):
            self.consume(op, self.node(_constant_lines(op), _CONSTANT_STYLE))
        elif isinstance(op, CompositeOp):
            self.composite(op)
        elif isinstance(op, func.CallOp):
            self.call(op)
        elif op.regions:
            self.region_op(op)
        else:
            self.generic(op)

    def generic(self, op: Operation) -> None:
        self.consume(op, self.node([_op_name(op), *_op_attribute_lines(op)]))

    def call(self, op: func.CallOp) -> None:
        callee = op.callee.string_value()
        target = self.functions.get(callee)
        compiler = target.attributes.get("Compiler") if target is not None else None
        if isinstance(compiler, StringAttr):
            fill, line = target_colors(compiler.data)
            style = f'style="filled,bold", fillcolor="{fill}", color="{line}"'
            lines = [f"call @{callee}", compiler.data]
        else:
            style = 'style="bold"'
            lines = [f"call @{callee}"]
        node = self.node(lines, style)
        self.consume(op, node)
        caller = op.parent_op()
        while caller is not None and not isinstance(caller, func.FuncOp):
            caller = caller.parent_op()
        self.calls.append((node, callee, caller.sym_name.data if caller is not None else ""))

    def composite(self, op: CompositeOp) -> None:
        name = op.composite.data
        block = op.body.blocks[0] if op.body.blocks else None
        has_ops = block is not None and any(
            not (o.has_trait(IsTerminator) and o is block.last_op) for o in block.ops
        )
        pattern = op.attributes.get("PartitionedFromPattern")
        lines = [name] + ([_value_text(pattern)] if pattern is not None else [])
        fill, line = target_colors(_composite_target(name))
        if block is None or not has_ops:
            style = f'style="dashed,filled", fillcolor="{fill}", color="{line}", penwidth=2'
            self.consume(op, self.node(lines, style))
            return
        for arg, value in zip(block.args, op.inputs, strict=False):
            self.alias[arg] = value
        self.open_cluster(
            lines, f'style="dashed,rounded", color="{line}", fontcolor="{line}", penwidth=2'
        )
        terminator = self.block(block)
        self.close_cluster()
        if isinstance(terminator, YieldOp):
            for result, value in zip(op.results, terminator.values, strict=False):
                self.alias[result] = value
        elif terminator is not None:
            self.generic(terminator)

    def region_op(self, op: Operation) -> None:
        """`relay.if` (a diamond) or any other op with regions: one sub-cluster per region."""
        is_if = isinstance(op, IfOp)
        style = 'shape=diamond, style="solid"' if is_if else 'style="bold"'
        node = self.node([_op_name(op), *_op_attribute_lines(op)], style)
        self.consume(op, node)
        for number, region in enumerate(op.regions):
            branch = ("then", "else")[number] if is_if and number < 2 else f"region {number}"
            for block in region.blocks:
                self.open_cluster([branch], 'style="dashed", color="#606060"')
                self.arguments(block, small=True)
                terminator = self.block(block)
                if terminator is not None:
                    end = self.node(
                        [_op_name(terminator)], 'fontsize=8, height=0.2, style="dashed"'
                    )
                    for operand in terminator.operands:
                        self.data_edges.append((operand, end))
                    label = _label([branch])
                    self.other_edges.append(f"{end} -> {node} [label={label}, style=dashed];")
                self.close_cluster()

    # ------------------------------------------------------------ edges

    def source(self, value: SSAValue) -> str | None:
        while value in self.alias:
            value = self.alias[value]
        return self.node_of.get(value)

    def edges(self) -> None:
        for value, target in self.data_edges:
            source = self.source(value)
            if source is None:
                continue  # defined outside what is drawn (not in verified IR)
            text = type_text(value.type)
            if isinstance(value, OpResult) and len(value.op.results) > 1:
                text = f"#{value.index} {text}"
            self.emit(f"{source} -> {target} [label={_label([text])}];")
        for call, callee, caller in self.calls:
            drawn = self.drawn.get(callee)
            if drawn is None or callee == caller:
                continue
            cluster, anchor = drawn
            self.emit(
                f'{call} -> {anchor} [lhead={cluster}, style=dashed, color="#808080", '
                "arrowhead=empty, constraint=false];"
            )
        for edge in self.other_edges:
            self.emit(edge)


_CONSTANT_STYLE = (
    'shape=box, style="filled", fillcolor="#f2f2f2", color="#a0a0a0", fontsize=8, '
    'height=0.2, margin="0.05,0.02"'
)


def _constant_lines(op: ConstantOp) -> list[str]:
    """`const` and its type; a one-element constant shows its value instead of the word."""
    value_type = op.result.type
    text = type_text(value_type)
    shape = value_type.get_shape()
    count = 1
    for d in shape:
        count *= d
    if count == 1 and all(d > 0 for d in shape):
        (value,) = cast(DenseIntOrFPElementsAttr[Any], op.value).get_values()
        return [f"const {value:g}" if isinstance(value, float) else f"const {value}", text]
    return ["const", text]


_HEADER = (
    'graph [compound=true, rankdir=TB, fontname="Helvetica", fontsize=11, labeljust=l];',
    'node [shape=box, style="rounded", fontname="Helvetica", fontsize=10, height=0.3];',
    'edge [fontname="Helvetica", fontsize=8, color="#404040", fontcolor="#404040"];',
)


def module_to_dot(module: ModuleOp, function: str | None = None) -> str:
    """The module (or only its function `function`) as a Graphviz `digraph`.

    An unknown `function` is a DiagnosticError on the module that lists the
    module's functions.
    """
    writer = _DotWriter(module)
    if function is not None and function not in writer.functions:
        known = ", ".join(f"@{name}" for name in writer.functions) or "none"
        raise DiagnosticError(
            [op_error(module, f"has no function '@{function}' to draw; its functions: {known}")]
        )
    for line in _HEADER:
        writer.emit(line)
    for f in writer.functions.values():
        if function is None or f.sym_name.data == function:
            writer.function(f)
    writer.edges()
    return "digraph xrelay {\n" + "\n".join(writer.lines) + "\n}\n"


@dataclass(frozen=True)
class DotTarget(Target):
    """Graphviz DOT: ops as nodes, typed edges, BYOC regions and partitions as colored clusters."""

    name = "dot"

    function: str | None = None
    """Draw only this function (by name, without `@`); all of them if unset."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        output.write(module_to_dot(module, self.function))
