"""`partition-graph` (TVM's `PartitionGraph`): lift each annotated region into a function.

What it does, TVM's five steps (`partition_graph.cc`) in one module pass:

1. **FlattenNestedTuples.** `compiler_end(relay.tuple(a, b))` becomes
   `relay.tuple(compiler_end(a), compiler_end(b))`, recursively (TVM flattens
   one level), so a region never returns a tuple of tuples.
2. **RemoveDefaultAnnotations.** Begins and ends of target `"default"` are
   replaced by their operand: those ops stay in the caller.
3. **Partitioner.** In every function with a body and no `Compiler`
   attribute, each region (`AnnotatedRegionSet`, ids restarting at 0 per
   function) becomes a public `func.func` inserted before that function, in
   the order TVM creates them (at the first `compiler_end` of a region met in
   post-order, after the regions its outputs depend on), with

   - the name `<mod>_<target>_<function>_<region id>` sanitized (every
     character but ASCII letters and digits becomes `_`), where `<mod>` is
     `mangle_module_name(mod_name)`: `tvmgen_default` for `"default"`,
     `tvmgen` for `""`; ids skip numbers where regions merged
     (`tvmgen_default_accel_main_0`, `..._main_2`); a name already taken
     gets `_1`, `_2`, ...;
   - the attributes `Compiler = "<target>"`, `global_symbol = "<name>"`,
     `Primitive = 1 : i32`, `Inline = 1 : i32`;
   - one parameter per producer (begins reading the same value, through any
     annotations, share one), in the order the begins are visited, named
     `<target>_<id>_i<k>` after the begin's position k among the region's
     inputs; with `bind_constants` (the default), a parameter fed by a
     `relay.constant` or a `relay.tuple` of constants is dropped and the
     constant is copied into the body;
   - the region's ops moved in, in their order (a `relay.composite` moves
     whole), returning the values its ends read, each once, in the order
     of the region's outputs; several are returned as one `relay.tuple`.

   The region's ops are replaced by one `func.call` (several outputs: a
   `relay.tuple_get_item` per output), the ends' users read those; the
   target's partition hook (`byoc_registry.partition_hook`), if any, runs
   on the new function before the attributes are set (TVM's
   `relay.ext.<target>.optimize`). Each block that got calls is then put
   back in a valid order by a stable topological sort (uses inside nested
   regions count).
4. **NameMangleExtFuncs** is folded into the naming above.
5. **InferType** is not needed: every new op and function is typed as made.

Left alone: functions with `Compiler` (already partitioned), declarations,
composite bodies, ops outside every region. A region whose values nobody
reads (no `compiler_end`) is dead code and is removed, as TVM's graph drops it.

Errors (located): the AnnotatedRegionSet ones (unpaired or mismatched ends,
mixed operands, a region crossing a `relay.if` boundary); an op of a region
reading a value from outside it without a `compiler_begin`; a value of a
region read outside it without a `compiler_end`; regions that would form a
cycle once lifted (a path leaving a region and coming back).

Differs from TVM: no `_a` suffix dance (xrelay's function names are unique);
a `begin(end(x))` pair inside one region is an identity where TVM fails
(`GetArgIdx` returns -1); the checks above are errors where TVM builds a
broken module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    IntegerAttr,
    LocationAttr,
    ModuleOp,
    StringAttr,
    TupleType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.locations import fused_location, inherit, value_location
from xrelay.dialects.relay.structure import (
    CompilerBeginOp,
    CompilerEndOp,
    ConstantOp,
    TupleGetItemOp,
    TupleOp,
)
from xrelay.passes.adapters import XdslPass
from xrelay.passes.annotated_regions import (
    AnnotatedRegion,
    AnnotatedRegionSet,
    PostOrderWalk,
    annotation_source,
    producer,
)
from xrelay.passes.byoc_registry import partition_hook
from xrelay.passes.pass_manager import Pass
from xrelay.passes.rewriting import collector_paused, erase_dead_ops
from xrelay.passes.statistics import Statistic

DEFAULT_TARGET = "default"

_NOT_ALNUM = re.compile(rb"[^A-Za-z0-9]")

_ONE = IntegerAttr(1, i32)
"""`1 : i32`, the value of `Primitive` and `Inline` (attributes are immutable: one is shared)."""


# --------------------------------------------------------------------------- #
# Names
# --------------------------------------------------------------------------- #


def mangle_module_name(mod_name: str | None) -> str:
    """TVM's `mangle_module_name`: `tvmgen_<mod_name>`, or `tvmgen` for an empty name.

    A name that is not ASCII raises ValueError.
    """
    if mod_name and not mod_name.isascii():
        raise ValueError(f"{mod_name} contains invalid characters")
    return f"tvmgen_{mod_name}" if mod_name else "tvmgen"


def sanitize_name(name: str) -> str:
    """TVM's `SanitizeName`: every byte that is not an ASCII letter or digit becomes `_`."""
    if not name:
        raise ValueError("name is empty")
    return _NOT_ALNUM.sub(b"_", name.encode()).decode("ascii")


def _value_name(name: str) -> str:
    """A valid SSA name hint for `name` (xDSL accepts `[A-Za-z_$.-][A-Za-z0-9_$.-]*`)."""
    cleaned = "".join(c if c.isascii() and (c.isalnum() or c in "_$.-") else "_" for c in name)
    return cleaned if not cleaned[:1].isdigit() else f"_{cleaned}"


# --------------------------------------------------------------------------- #
# Steps 1 and 2: flatten tuple outputs, remove default annotations
# --------------------------------------------------------------------------- #


def flatten_tuple_outputs(function: func.FuncOp) -> None:
    """`end(tuple(a, b))` -> `tuple(end(a), end(b))`, recursively (TVM's FlattenTupleOutputs)."""
    work = [op for op in function.walk() if isinstance(op, CompilerEndOp)]
    dead: list[Operation] = []
    while work:
        end = work.pop()
        tuple_op = producer(end.data)
        if not isinstance(tuple_op, TupleOp):
            continue
        compiler = {"compiler": end.compiler}
        ends = [CompilerEndOp.make([field], compiler) for field in tuple_op.fields]
        flat = TupleOp.make([e.result for e in ends])
        block = end.parent_block()
        assert block is not None
        block.insert_ops_before([*ends, flat], end)
        flat.result.name_hint = end.result.name_hint
        end.result.replace_all_uses_with(flat.result)
        Rewriter.erase_op(end)
        dead.append(tuple_op)
        work.extend(ends)
    erase_dead_ops(dead)


def remove_default_annotations(function: func.FuncOp) -> None:
    """Replace every begin and end of target `"default"` by its operand."""
    for op in list(function.walk()):
        if isinstance(op, CompilerBeginOp | CompilerEndOp) and op.compiler.data == DEFAULT_TARGET:
            op.result.replace_all_uses_with(op.data)
            Rewriter.erase_op(op)


# --------------------------------------------------------------------------- #
# Step 3: the partitioner
# --------------------------------------------------------------------------- #


def _is_constant(value: SSAValue) -> bool:
    """TVM's `IsConstant`: a constant, or a tuple whose fields are all constants."""
    op = producer(value)
    if isinstance(op, ConstantOp):
        return True
    return isinstance(op, TupleOp) and all(isinstance(producer(v), ConstantOp) for v in op.fields)


def _error(op: Operation, message: str) -> DiagnosticError:
    return DiagnosticError([op_error(op, message)])


@dataclass
class _Lifted:
    """What one region needs for its function: begins in visiting order, outputs."""

    region: AnnotatedRegion
    begins: list[CompilerBeginOp] = field(default_factory=list[CompilerBeginOp])


class Partitioner:
    """Lifts the regions of the functions of one module (TVM's `Partitioner`)."""

    def __init__(self, module: ModuleOp, mod_prefix: str, bind_constants: bool):
        self.module = module
        self.mod_prefix = mod_prefix
        self.bind_constants = bind_constants
        self.taken = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}

    # ------------------------------------------------------------- order

    def creation_order(self, regions: AnnotatedRegionSet, block: Block) -> list[_Lifted]:
        """The regions in TVM's creation order, each with its begins in visiting order.

        TVM's mutator rewrites begins in post-order (each begin adds a
        parameter) and creates a region's function at its first end, after
        visiting every output of the region.
        """
        lifted: dict[int, _Lifted] = {r.id: _Lifted(r) for r in regions}
        order: list[_Lifted] = []
        started: set[int] = set()

        def create(region: AnnotatedRegion) -> Iterator[Operation]:
            seen: set[SSAValue] = set()
            for end in region.outs:
                if end.data not in seen:
                    seen.add(end.data)
                    source = producer(end.data)
                    if source is not None:
                        yield source
            order.append(lifted[region.id])

        def visit(op: Operation) -> Iterator[Operation] | None:
            region = regions.region_of(op)
            if region is None:
                return None
            if isinstance(op, CompilerBeginOp):
                lifted[region.id].begins.append(op)
            elif isinstance(op, CompilerEndOp) and region.id not in started:
                started.add(region.id)
                return create(region)
            return None

        PostOrderWalk(visit).walk_block(block)
        return order

    # ------------------------------------------------------------- lifting

    def partition_function(self, function: func.FuncOp) -> None:
        """Lift every region of `function` (its body and the `relay.if` branches in it)."""
        block = function.body.block
        regions = AnnotatedRegionSet.create(block, function.sym_name.data)
        if not len(regions):
            return
        position: dict[Operation, int] = {}
        for op in function.walk():
            if op.parent is not None and op.parent.first_op is op:
                position.update((sibling, i) for i, sibling in enumerate(op.parent.ops))
        order = self.creation_order(regions, block)
        created = {item.region.id for item in order}
        touched: dict[Block, None] = {}
        for item in order:
            lifted_into = self.lift(function, item, regions, position)
            if lifted_into is not None:
                touched[lifted_into] = None
        for region in regions:
            if region.id not in created:
                self.drop_dead(region, regions)
        for target_block in touched:
            restore_order(target_block)

    def check_region(self, region: AnnotatedRegion, regions: AnnotatedRegionSet) -> None:
        """Every value of the region leaves through an end, and enters through a begin."""
        for op in region.nodes:
            if isinstance(op, CompilerEndOp):
                continue
            for result in op.results:
                for use in result.uses:
                    if regions.region_of(use.operation) is not region:
                        raise _error(
                            use.operation,
                            f"reads a value of annotated region {region.id} "
                            f"('{region.target}') that has no compiler_end",
                        )
            if isinstance(op, CompilerBeginOp):
                continue
            for index, value in enumerate(op.operands):
                if regions.region_of(value) is not region:
                    raise _error(
                        op,
                        f"operand #{index} comes from outside annotated region {region.id} "
                        f"('{region.target}') without a compiler_begin",
                    )

    def drop_dead(self, region: AnnotatedRegion, regions: AnnotatedRegionSet) -> None:
        """Remove a region none of whose values is read (TVM's graph has no such nodes)."""
        self.check_region(region, regions)
        nodes = region.nodes
        inputs = [producer(op.data) for op in nodes if isinstance(op, CompilerBeginOp)]
        erase_together(nodes)
        erase_dead_ops(op for op in inputs if op is not None)

    def parameters(
        self, item: _Lifted, regions: AnnotatedRegionSet, body: Block
    ) -> tuple[dict[CompilerBeginOp, SSAValue], list[SSAValue], list[Operation]]:
        """The value each begin stands for in `body`, the call's operands, bound constants.

        One parameter per producer (through annotations), in visiting order,
        named after the first begin's place among the region's inputs.
        """
        region = item.region
        place = {begin: k for k, begin in enumerate(region.ins)}
        by_source: dict[SSAValue, SSAValue] = {}
        values: dict[CompilerBeginOp, SSAValue] = {}
        call_args: list[SSAValue] = []
        bound: list[Operation] = []
        for begin in item.begins:
            if regions.region_of(begin.data) is region:
                continue  # begin(end(x)) inside the region: an identity
            source = annotation_source(begin.data)
            value = by_source.get(source)
            if value is None:
                if self.bind_constants and _is_constant(begin.data):
                    copies = _copy_constant(begin.data)
                    bound.extend(copies)
                    value = copies[-1].results[0]
                else:
                    location = value_location(begin.data)
                    value = body.insert_arg(begin.result.type, len(body.args), location)
                    value.name_hint = _value_name(f"{region.target}_{region.id}_i{place[begin]}")
                    call_args.append(begin.data)
                by_source[source] = value
            values[begin] = value
        return values, call_args, bound

    def lift(
        self,
        function: func.FuncOp,
        item: _Lifted,
        regions: AnnotatedRegionSet,
        position: dict[Operation, int],
    ) -> Block | None:
        """Move one region into a new function, call it; the block that got the call."""
        region = item.region
        outs = region.outs
        if not outs:
            self.drop_dead(region, regions)
            return None
        self.check_region(region, regions)
        block = region.block
        assert block is not None
        body = Block()
        values, call_args, bound = self.parameters(item, regions, body)
        members = sorted(
            (op for op in region.nodes if op.parent is block), key=position.__getitem__
        )
        mapping: dict[SSAValue, SSAValue] = {}
        interior: list[Operation] = []
        for op in members:
            if isinstance(op, CompilerBeginOp):
                value = values.get(op)
                mapping[op.result] = mapping.get(op.data, op.data) if value is None else value
            elif isinstance(op, CompilerEndOp):
                mapping[op.result] = mapping.get(op.data, op.data)
            else:
                interior.append(op)
        fields: dict[SSAValue, int] = {}
        for end in outs:
            fields.setdefault(end.data, len(fields))
        returned = [mapping.get(v, v) for v in fields]
        anchor = next(op for op in reversed(members) if not isinstance(op, CompilerEndOp))
        result_type = (
            returned[0].type
            if len(returned) == 1
            else TupleOp.inferred_type([v.type for v in returned], {})
        )
        name = self.fresh_name(
            sanitize_name(f"{self.mod_prefix}_{region.target}_{region.func_name}_{region.id}")
        )
        # The call, its tuple fields and the function are located at the ops they replace.
        location = fused_location([op.location for op in interior] or [anchor.location])
        outputs = self.call(name, call_args, result_type, len(returned), anchor, location)
        for op in bound:
            body.add_op(op)
        for op in interior:
            operands = [mapping.get(v, v) for v in op.operands]
            op.detach()
            body.add_op(op)
            op.operands = operands
        if len(returned) == 1:
            body.add_op(func.ReturnOp(returned[0]))
        else:
            packed = TupleOp.make(returned)
            body.add_op(packed)
            body.add_op(func.ReturnOp(packed.result))
        inputs = [producer(b.data) for b in item.begins]
        replace_annotations(region, fields, outputs)
        erase_dead_ops(op for op in inputs if op is not None)
        lifted = self.add_function(function, name, body, result_type, region.target)
        lifted.location = location
        for op in body.ops:
            inherit(op, location)  # the return (and tuple) made here
        return block

    def fresh_name(self, base: str) -> str:
        """`base`, or `base_1`, `base_2`, ... if a function of the module has it."""
        name, suffix = base, 0
        while name in self.taken:
            suffix += 1
            name = f"{base}_{suffix}"
        self.taken.add(name)
        return name

    def add_function(
        self, caller: func.FuncOp, name: str, body: Block, result_type: Attribute, target: str
    ) -> func.FuncOp:
        """The lifted function, before `caller`, run through the target's hook, with attributes."""
        signature = ([arg.type for arg in body.args], [result_type])
        lifted = func.FuncOp(name, signature, Region(body))
        self.module.body.block.insert_op_before(lifted, caller)
        hook = partition_hook(target)
        if hook is not None:
            hook(lifted)
        lifted.attributes["Compiler"] = StringAttr(target)
        lifted.attributes["global_symbol"] = StringAttr(name)
        lifted.attributes["Primitive"] = _ONE
        lifted.attributes["Inline"] = _ONE
        return lifted

    def call(
        self,
        name: str,
        args: Sequence[SSAValue],
        result_type: Attribute,
        count: int,
        anchor: Operation,
        location: LocationAttr,
    ) -> list[SSAValue]:
        """The call of the lifted function before `anchor`, at `location`; one value per output."""
        call = func.CallOp(name, list(args), [result_type])
        call.location = location
        block = anchor.parent
        assert block is not None
        block.insert_op_before(call, anchor)
        if count == 1:
            return [call.res[0]]
        assert isinstance(result_type, TupleType)
        items = [
            TupleGetItemOp.make([call.res[0]], {"index": IntegerAttr(i, i64)}) for i in range(count)
        ]
        for item in items:
            item.location = location
        block.insert_ops_after(items, call)
        return [item.result for item in items]


def _copy_constant(value: SSAValue) -> list[Operation]:
    """Copies of a constant, or of a tuple of constants and its fields (tuple last)."""
    op = producer(value)
    if isinstance(op, ConstantOp):
        return [op.clone()]
    assert isinstance(op, TupleOp)
    fields = [_copy_constant(v)[0] for v in op.fields]
    packed = TupleOp.make([f.results[0] for f in fields])
    packed.result.name_hint = op.result.name_hint
    return [*fields, packed]


def replace_annotations(
    region: AnnotatedRegion, fields: dict[SSAValue, int], outputs: Sequence[SSAValue]
) -> None:
    """The ends' readers read the call's outputs; the region's annotations go."""
    annotations = [op for op in region.nodes if isinstance(op, CompilerBeginOp | CompilerEndOp)]
    for op in annotations:
        if isinstance(op, CompilerEndOp) and op.data in fields:
            output = outputs[fields[op.data]]
            if output.name_hint is None:
                output.name_hint = op.result.name_hint
            op.result.replace_all_uses_with(output)
    erase_together(annotations)


def erase_together(ops: Sequence[Operation]) -> None:
    """Erase ops that may read each other's results (and nothing else may)."""
    for op in ops:
        op.detach()
    for op in ops:
        op.drop_all_references()
    for op in ops:
        op.erase()


# --------------------------------------------------------------------------- #
# Restoring a valid order
# --------------------------------------------------------------------------- #


def _dependencies(op: Operation, block: Block) -> list[Operation]:
    """The ops of `block` whose values `op` (or an op nested in it) reads."""
    out: list[Operation] = []
    for inner in op.walk():
        for value in inner.operands:
            source = producer(value)
            if source is None:
                continue
            ancestor = source if source.parent is block else block.find_ancestor_op_in_block(source)
            if ancestor is not None and ancestor is not op:
                out.append(ancestor)
    return out


def restore_order(block: Block) -> None:
    """Reorder `block` so that every value is defined before use, moving as little as it can.

    A depth-first topological sort, the ops taken in their current order and
    each preceded by what it needs (linear; unchanged if already valid). A
    cycle (regions that are not convex) is a located error.
    """
    ops = list(block.ops)
    state: dict[Operation, bool] = {}
    order: list[Operation] = []
    for root in ops:
        if root in state:
            continue
        state[root] = False
        stack: list[tuple[Operation, Iterator[Operation]]] = [
            (root, iter(_dependencies(root, block)))
        ]
        while stack:
            op, deps = stack[-1]
            for dep in deps:
                done = state.get(dep)
                if done is None:
                    state[dep] = False
                    stack.append((dep, iter(_dependencies(dep, block))))
                    break
                if not done:
                    raise _error(
                        dep,
                        "partitioning makes a cycle here: a value leaves an annotated "
                        "region and flows back into it",
                    )
            else:
                state[op] = True
                order.append(op)
                stack.pop()
    if any(a is not b for a, b in zip(order, ops, strict=True)):
        for op in order:
            op.detach()
        for op in order:
            block.add_op(op)


# --------------------------------------------------------------------------- #
# The pass
# --------------------------------------------------------------------------- #


def partition_module(
    module: ModuleOp, mod_name: str = "default", bind_constants: bool = True
) -> None:
    """Run PartitionGraph's steps on `module` in place."""
    prefix = mangle_module_name(mod_name)
    functions = [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.body.blocks and "Compiler" not in op.attributes
    ]
    for function in functions:
        flatten_tuple_outputs(function)
    for function in functions:
        remove_default_annotations(function)
    partitioner = Partitioner(module, prefix, bind_constants)
    with collector_paused():
        for function in functions:
            partitioner.partition_function(function)


@dataclass(frozen=True)
class PartitionGraphPass(ModulePass):
    """Lift each annotated region into a function with `Compiler`, called where it was."""

    name = "partition-graph"
    tvm_name: ClassVar[str] = "PartitionGraph"
    opt_level: ClassVar[int] = 0

    mod_name: str = "default"
    """The module name in the lifted functions' names (`tvmgen_<mod_name>_...`)."""

    bind_constants: bool = True
    """Copy constant inputs into the lifted functions instead of passing them."""

    def __post_init__(self) -> None:
        mangle_module_name(self.mod_name)  # a name that is not ASCII: ValueError, as TVM

    partitions: ClassVar[Statistic] = Statistic(
        "num-partitions", "Number of functions lifted for a compiler"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        functions = len(op.body.block.ops)
        partition_module(op, self.mod_name, self.bind_constants)
        self.partitions.add(len(op.body.block.ops) - functions)


def PartitionGraph(mod_name: str | None = "default", bind_constants: bool = True) -> Pass:
    """TVM's `relay.transform.PartitionGraph`: the `partition-graph` pass.

    `mod_name=None` or `""` names functions `tvmgen_<target>_...`; a name that
    is not ASCII raises ValueError here, as in TVM.
    """
    mangle_module_name(mod_name)
    return XdslPass(PartitionGraphPass(mod_name=mod_name or "", bind_constants=bind_constants))
