"""`fuse-ops` (TVM's `FuseOps`): group relay ops into `Primitive` functions, one kernel each.

What it produces. Every fused group becomes a private function
`func.func private @fused_<ops>(%p0, %p1, ...) -> (...) attributes {Primitive = 1 : i32}`
holding the group's ops in their original order; its parameters are the
values the group reads from outside (in order of first use), its results the
values read outside the group (several results if several escape). The
group's ops are replaced by one `func.call` where its last op was, so a code
generator can take each `Primitive` function whole as one kernel, and the
reference interpreter (which follows `func.call`) computes the same numbers.
Names are TVM's lowering names: `fused_` and the op names without `relay.`
(dots as `_`; constants, tuples and projections left out), as many as fit
in 80 characters, then `_1`, `_2`, ... if the name is taken in the module. The new
functions follow the function they came from, in the order they were made.

How groups are chosen: TVM's algorithm (`graph_partitioner.cc`), per block,
over the ops in block order with their pattern kinds (`op_pattern.py`):
the post-dominator tree of the dataflow graph, then three phases in which a
node joins the group of its immediate post-dominator when every node on every
path between them allows it (phase 0: OutEWiseFusable ops such as conv2d take
the elementwise/broadcast ops after them; ElemWise/Broadcast ops join a
following injective, reduction or fused anchor in phases 0 and 1; phase 1:
injective ops and tuples join injective consumers; phase 2: fields fuse into
a tuple already fused into an injective consumer). Joining the post-dominator
never makes a cycle: only a group's last op is read outside it. A group
never holds more than `relay.FuseOps.max_depth` ops (config key, default
256, counted as TVM counts them; negative: no bound): a chain of 300 `exp`
is cut into 256 + 44. `fuse_opt_level=0` (or `-1` under a context at opt
level 0) puts each op in a group of its own.

What is not put in a function (TVM's rules): constants, a tuple or a
`tuple_get_item` left alone in its group (a projection of a value from
another group), the BYOC annotations (non-computational), and ops that are
no relay tensor ops (`func.call`, `relay.if`, `relay.composite`, other
dialects). Every other relay op lands in exactly one function; an opaque one
(`nn.dropout`) in a function of its own. `annotation.stop_fusion` is an Opaque group of
its own while groups are chosen, so no group crosses it, and is then removed (its
readers read its operand), as TVM's fused result holds no such call. Constants: a
scalar of `i1`, `i32`, `i64`, `f32` or `f64` is ElemWise and fused into its consumer's function,
where it is then defined; any other constant stays in the caller and is
passed as a parameter, or, with the config `relay.FuseOps.link_params`
(TVM's), is copied into each fused function that reads it.

Scope: functions with `Compiler`, `Extern` or `SkipOptimization` are skipped
(a function pass), and so are functions already marked `Primitive`. The
branches of a `relay.if` are fused on their own (the calls stay in the
branch; values the branch reads from outside become parameters); no group
crosses a region boundary, unlike TVM, which builds one graph for the whole
function. Composite bodies are left alone. Values read by the terminator or
inside a nested region are external references, as TVM's function body is.
Ops nobody reads are fused like the others (TVM's expression graph has no
dead code); such a group returns its last op's results.

Differences from TVM: `Primitive` is always 1 (every group has an op); the
target's `max_function_args` and the dynamic-shape data-dependence rule are
not modelled. Cost: the post-dominator tree takes O(E log n) (LCAs by binary
lifting), and each path check visits at most `max_depth` nodes because the
size check runs first, so the pass is linear in the graph for a bounded
`max_depth`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.traits import IsTerminator
from xrelay.dialects.func_build import call_op, func_op, return_op
from xrelay.dialects.fused_names import fused_base
from xrelay.dialects.locations import fused_location_of, inherit, locate_arguments
from xrelay.dialects.relay.annotation import StopFusionOp
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import ConstantOp, IfOp, TupleGetItemOp, TupleOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.op_pattern import NON_COMPUTATIONAL, OpPatternKind, op_pattern
from xrelay.passes.pass_config import register_pass_config_option
from xrelay.passes.pass_context import PassContext
from xrelay.passes.pass_manager import Pass, optimizable_functions
from xrelay.passes.rewriting import collector_paused
from xrelay.passes.statistics import Statistic

K = OpPatternKind

_PRIMITIVE = IntegerAttr(1, i32)
"""The `Primitive = 1` every fused function gets (attributes are immutable: one serves all)."""

MAX_DEPTH_KEY = "relay.FuseOps.max_depth"
"""The config key bounding the number of ops in one fused function."""

DEFAULT_MAX_DEPTH = 256
"""TVM's `kMaxFusedOps`."""


LINK_PARAMS_KEY = "relay.FuseOps.link_params"
"""The config key embedding constants in the fused functions that read them."""

register_pass_config_option(
    LINK_PARAMS_KEY,
    bool,
    default=False,
    description="FuseOps defines the constants a fused function reads inside it "
    "instead of passing them as parameters",
)

register_pass_config_option(
    MAX_DEPTH_KEY,
    int,
    default=DEFAULT_MAX_DEPTH,
    description="FuseOps puts at most this many ops in one fused function (negative: no bound)",
)


# --------------------------------------------------------------------------- #
# The dataflow graph and its post-dominator tree
# --------------------------------------------------------------------------- #


@dataclass
class ForwardGraph:
    """TVM's `IndexedForwardGraph` of one block: its ops in order, each with its consumers."""

    ops: list[Operation]
    pattern: list[OpPatternKind]
    outputs: list[list[tuple[int, OpPatternKind]]]
    """Per node, (consumer node, edge pattern) for each use by another node."""
    extern_ref: list[bool]
    """Nodes read by the terminator, inside a nested region, or through a non-tensor tuple."""


def _edge_pattern(consumer: Operation, kind: OpPatternKind, operand: SSAValue) -> K | None:
    """The pattern of the edge from `operand` into `consumer`; None makes it an external ref."""
    if isinstance(consumer, TupleOp):
        return K.INJECTIVE if isinstance(operand.type, TensorType) else None
    if isinstance(consumer, TupleGetItemOp):
        return None if kind == K.OPAQUE else K.INJECTIVE
    if kind == K.BROADCAST and len(consumer.results) == 1:
        result, arg = consumer.results[0].type, operand.type
        if isinstance(result, TensorType) and isinstance(arg, TensorType):
            result_shape = cast(TensorType[Attribute], result).get_shape()
            if result_shape == cast(TensorType[Attribute], arg).get_shape():
                return K.ELEMWISE
    return kind


def build_forward_graph(block: Block) -> ForwardGraph:
    """The graph of the block's ops (the terminator aside), in block order."""
    ops = [op for op in block.ops if not op.has_trait(IsTerminator)]
    index = {op: i for i, op in enumerate(ops)}
    pattern = [op_pattern(op) for op in ops]
    outputs: list[list[tuple[int, OpPatternKind]]] = [[] for _ in ops]
    extern_ref = [False] * len(ops)
    for i, op in enumerate(ops):
        for operand in op.operands:
            owner = operand.owner
            j = index.get(owner) if isinstance(owner, Operation) else None
            if j is None:
                continue  # a block argument or a value of an enclosing block
            edge = _edge_pattern(op, pattern[i], operand)
            if edge is None:
                extern_ref[j] = True
            else:
                outputs[j].append((i, edge))
        if any(use.operation not in index for result in op.results for use in result.uses):
            extern_ref[i] = True
    return ForwardGraph(ops, pattern, outputs, extern_ref)


class PostDominatorTree:
    """TVM's post-`DominatorTree`: each node's immediate post-dominator, built in reverse order.

    `parent[v]` is the node's immediate post-dominator (-1: none) and
    `pattern[v]` the combined edge pattern from it to there: the maximum of its
    edge patterns and of the patterns of the tree nodes the LCAs walked past,
    as TVM combines them. LCAs use binary lifting (`up[v][k]` is the 2^k-th
    ancestor, `top[v][k]` the largest pattern left on the way), so each costs
    O(log n) where TVM walks up the tree one parent at a time.
    """

    def __init__(self, graph: ForwardGraph):
        n = len(graph.outputs)
        self.parent = [-1] * n
        self.pattern = [K.OPAQUE] * n
        self.depth = [1] * n
        self.up: list[list[int]] = [[] for _ in range(n)]
        self.top: list[list[OpPatternKind]] = [[] for _ in range(n)]
        for v in range(n - 1, -1, -1):
            if not graph.extern_ref[v]:  # an external reference: depth 1, no parent, opaque
                self.attach(v, graph.outputs[v])

    def attach(self, v: int, outputs: list[tuple[int, OpPatternKind]]) -> None:
        """Hang node `v` under the LCA of its consumers (all already in the tree)."""
        node, seen = -1, K.ELEMWISE
        if outputs:
            node, seen = outputs[0][0], max(seen, outputs[0][1])
            for consumer, edge in outputs[1:]:
                node, seen = self.lca(node, consumer, seen)
                seen = max(seen, edge)
        self.parent[v], self.pattern[v] = node, seen
        if node < 0:
            return
        self.depth[v] = self.depth[node] + 1
        up, top = self.up, self.top
        ups, tops = [node], [seen]
        while len(ups) - 1 < len(up[ups[-1]]):
            k = len(ups) - 1
            tops.append(max(tops[k], top[ups[k]][k]))
            ups.append(up[ups[k]][k])
        up[v], top[v] = ups, tops

    def lca(self, a: int, b: int, seen: OpPatternKind) -> tuple[int, OpPatternKind]:
        """The LCA of `a` and `b` (-1 if none), and `seen` with the patterns walked past."""
        if a < 0:
            return -1, seen
        up, top, depth = self.up, self.top, self.depth
        if depth[a] < depth[b]:
            a, b = b, a
        diff, k = depth[a] - depth[b], 0
        while diff:
            if diff & 1:
                seen, a = max(seen, top[a][k]), up[a][k]
            diff, k = diff >> 1, k + 1
        if a == b:
            return a, seen
        for k in range(len(up[a]) - 1, -1, -1):
            if k < len(up[a]) and up[a][k] != up[b][k]:
                seen = max(seen, top[a][k], top[b][k])
                a, b = up[a][k], up[b][k]
        return self.parent[a], max(seen, self.pattern[a], self.pattern[b])


# --------------------------------------------------------------------------- #
# Partitioning (TVM's GraphPartitioner)
# --------------------------------------------------------------------------- #

PathCondition = Callable[[OpPatternKind, bool], bool]


def _upto_injective(kind: OpPatternKind, is_sink: bool) -> bool:
    return kind <= K.INJECTIVE


def _upto_broadcast(kind: OpPatternKind, is_sink: bool) -> bool:
    return kind <= K.BROADCAST


def _into_elemwise_anchor(kind: OpPatternKind, is_sink: bool) -> bool:
    # Injective ops on parallel branches may join; the sink may be any fusable group.
    return kind <= (K.OUT_ELEMWISE_FUSABLE if is_sink else K.INJECTIVE)


class GraphPartitioner:
    """Groups as a union-find over the nodes; each node also keeps its own group record.

    As in TVM, `pattern[g]` and `size[g]` are the records of node `g`'s own
    group object: up to date for a union-find root, frozen once `g` joined
    another group (TVM reads both kinds).
    """

    def __init__(self, graph: ForwardGraph, max_depth: int):
        n = len(graph.outputs)
        self.outputs = graph.outputs
        self.max_depth = max_depth
        self.uf = list(range(n))
        self.pattern = list(graph.pattern)
        self.size = [1] * n
        self.anchor = [kind == K.OUT_ELEMWISE_FUSABLE for kind in graph.pattern]
        self.stamp = [0] * n
        self.epoch = 0

    def find(self, g: int) -> int:
        """The union-find root of node `g`'s group (with path compression)."""
        uf, root = self.uf, g
        while uf[root] != root:
            root = uf[root]
        while uf[g] != root:
            uf[g], g = root, uf[g]
        return root

    def merge(self, child: int, parent: int) -> None:
        """TVM's `MergeFromTo`: the child's group joins the parent's."""
        c, p = self.find(child), self.find(parent)
        if c == p:
            return
        self.size[p] += self.size[c]
        self.uf[c] = p
        if self.anchor[c]:
            self.anchor[p] = True
            self.pattern[p] = max(self.pattern[c], self.pattern[p])

    def _new_visit(self) -> int:
        self.epoch += 1
        return self.epoch

    def too_big(self, child: int, sink: int) -> bool:
        """TVM's `CountFusedNodesWithNewChild(child, sink) > max_depth`, stopping early."""
        if self.max_depth < 0:
            return False
        epoch, stamp = self._new_visit(), self.stamp
        total = self.size[self.find(sink)]
        stack = [child]
        while stack:
            v = stack.pop()
            if v == sink or stamp[v] == epoch:
                continue
            stamp[v] = epoch
            total += self.size[v]
            if total > self.max_depth:
                return True
            stack.extend(u for u, _ in self.outputs[v])
        return False

    def check_path(self, src: int, sink: int, condition: PathCondition) -> bool:
        """TVM's `CheckPath`: every group on a path from `src` to `sink` satisfies `condition`."""
        epoch, stamp = self._new_visit(), self.stamp
        stack = [u for u, _ in self.outputs[src]]
        while stack:
            v = stack.pop()
            if stamp[v] == epoch:
                continue
            stamp[v] = epoch
            if not condition(self.pattern[self.find(v)], v == sink):
                return False
            if v != sink:
                stack.extend(u for u, _ in self.outputs[v])
        return True

    def commit(self, src: int, sink: int) -> None:
        """TVM's `CommitFuse`: every node from `src` up to `sink` joins `sink`'s group."""
        epoch, stamp = self._new_visit(), self.stamp
        stack = [src]
        while stack:
            v = stack.pop()
            if v == sink or stamp[v] == epoch:
                continue
            stamp[v] = epoch
            self.merge(v, sink)
            stack.extend(u for u, _ in self.outputs[v])

    def try_fuse(self, src: int, sink: int, condition: PathCondition) -> None:
        """Fuse `src` into `sink` if the group stays small enough and every path allows it."""
        if not self.too_big(src, sink) and self.check_path(src, sink, condition):
            self.commit(src, sink)

    def run(self, tree: PostDominatorTree) -> None:
        """TVM's three `RunFuse` phases."""
        for phase in range(3):
            for nid, dom in enumerate(tree.parent):
                self.fuse_node(phase, nid, dom, tree.pattern[nid])

    def fuse_node(self, phase: int, nid: int, dom: int, dom_pattern: OpPatternKind) -> None:
        """One step of TVM's `RunFuse`: try to fuse node `nid` into its post-dominator `dom`."""
        kind = self.pattern[nid]
        if kind == K.OPAQUE or dom < 0:
            return
        if phase == 2:
            # Fuse injective ops into intermediate tuples already fused into an injective op.
            if kind > K.INJECTIVE:
                return
            dom_root = self.pattern[self.find(dom)]
            if dom_root != K.TUPLE and self.pattern[dom] == K.TUPLE and dom_root <= K.INJECTIVE:
                self.try_fuse(nid, dom, _upto_injective)
            return
        if self.find(nid) == self.find(dom) or self.pattern[dom] == K.TUPLE:
            return  # already fused, or a tuple (not fused into in these phases)
        if kind == K.OUT_ELEMWISE_FUSABLE:
            if phase == 0 and dom_pattern == K.ELEMWISE:
                self.try_fuse(nid, dom, _upto_broadcast)
        elif kind <= K.BROADCAST:
            if dom_pattern <= K.INJECTIVE or dom_pattern == K.COMM_REDUCE:
                self.try_fuse(nid, dom, _into_elemwise_anchor)
        elif kind in (K.INJECTIVE, K.TUPLE) and phase == 1:
            self.try_fuse(nid, dom, _upto_injective)  # after phase 0: conv2d fuses first


# --------------------------------------------------------------------------- #
# Rewriting groups into Primitive functions
# --------------------------------------------------------------------------- #


def _nonzero_int(attr: Attribute | None) -> bool:
    return isinstance(attr, IntegerAttr) and cast(IntegerAttr[IntegerType], attr).value.data != 0


def _wrappable(ops: Sequence[Operation], members: set[Operation]) -> bool:
    """Whether a group (in block order, its root last) becomes a function (TVM's mutator rules)."""
    root = ops[-1]
    if isinstance(root, ConstantOp | TupleOp):
        return False
    if isinstance(root, TupleGetItemOp) and root.tuple.owner not in members:
        return False  # an isolated projection of a value computed elsewhere
    return all(
        isinstance(op, RelayOp) and not op.regions and type(op) not in NON_COMPUTATIONAL
        for op in ops
    )


def _erased_barrier(op: Operation) -> bool:
    """Remove a `stop_fusion` (its readers read its operand) and say so; False for other ops.

    It was an Opaque group of its own while groups were chosen; TVM's fused result holds
    no such call (its FuseMutator rewrites the call to its argument)."""
    if not isinstance(op, StopFusionOp):
        return False
    op.results[0].replace_all_uses_with(op.operands[0])
    op.detach()
    op.erase()
    return True


class Fuser:
    """Fuses the functions of one module, naming new functions uniquely within it."""

    def __init__(self, module: ModuleOp, opt_level: int, max_depth: int, link_params: bool = False):
        self.module = module
        self.opt_level = opt_level
        self.max_depth = max_depth
        self.link_params = link_params
        """Constants a group reads are copied into its function, not passed (TVM's option)."""
        self.taken = {op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)}
        self.suffixes: dict[str, int] = {}
        """The last suffix given to each base name."""
        self.last_inserted: dict[func.FuncOp, func.FuncOp] = {}
        """The function each fused function goes after: its caller, then the previous one."""

    def fuse_function(self, function: func.FuncOp) -> None:
        """Fuse every block of `function` (nested `relay.if` branches first)."""
        if _nonzero_int(function.attributes.get("Primitive")):
            return
        for block in function.body.blocks:
            self.fuse_block(block, function)

    def fuse_block(self, block: Block, function: func.FuncOp) -> None:
        """Partition one block and turn each group into a function call."""
        for op in list(block.ops):
            if isinstance(op, IfOp):
                for region in op.regions:
                    for inner in region.blocks:
                        self.fuse_block(inner, function)
        graph = build_forward_graph(block)
        partitioner = GraphPartitioner(graph, self.max_depth)
        if self.opt_level != 0:
            partitioner.run(PostDominatorTree(graph))
        groups: dict[int, list[Operation]] = {}
        for nid, op in enumerate(graph.ops):
            groups.setdefault(partitioner.find(nid), []).append(op)
        position = {op: nid for nid, op in enumerate(graph.ops)}
        for root in sorted(groups):
            ops = [op for op in groups[root] if not _erased_barrier(op)]
            members = set(ops)
            if ops and _wrappable(ops, members):
                self.outline(block, ops, members, position, function)

    def unique_name(self, ops: Sequence[Operation]) -> str:
        """`fused_<op names>`, whole names up to 80 characters, with a suffix if it is taken."""
        skipped = (ConstantOp, TupleOp, TupleGetItemOp)
        base = fused_base(op.name for op in ops if not isinstance(op, skipped))
        name, suffix = base, self.suffixes.get(base, 0)
        while name in self.taken:  # amortized O(1): suffixes per base only grow
            suffix += 1
            name = f"{base}_{suffix}"
        self.suffixes[base] = suffix
        self.taken.add(name)
        return name

    def outline(
        self,
        block: Block,
        ops: list[Operation],
        members: set[Operation],
        position: dict[Operation, int],
        function: func.FuncOp,
    ) -> None:
        """Move `ops` into a new Primitive function and call it where the last of them was.

        `position` gives the place in the block of each op the pass found there.
        """
        inputs: list[SSAValue] = []
        linked: list[SSAValue] = []
        seen: set[SSAValue] = set()
        for op in ops:
            for operand in op.operands:
                if operand.owner not in members and operand not in seen:
                    seen.add(operand)
                    if self.link_params and isinstance(operand.owner, ConstantOp):
                        linked.append(operand)
                    else:
                        inputs.append(operand)
        outputs = [
            result
            for op in ops
            for result in op.results
            if any(use.operation not in members for use in result.uses)
        ] or list(ops[-1].results)
        _check_no_use_before(block, position[ops[-1]], outputs, members, position)
        name = self.unique_name(ops)
        call = call_op(name, inputs, [value.type for value in outputs])
        # The call and the function are at the group's source (errors first name ops[0]'s).
        call.location = fused_location_of(ops)
        block.insert_op_after(call, ops[-1])
        for value, result in zip(outputs, call.results, strict=True):
            value.replace_uses_with_if(result, lambda use: use.operation not in members)
        body = Block(arg_types=[value.type for value in inputs])
        params: dict[SSAValue, SSAValue] = dict(zip(inputs, body.args, strict=True))
        locate_arguments(body, inputs)
        for index, arg in enumerate(body.args):
            arg.name_hint = f"p{index}"
        for value in linked:
            constant = cast(ConstantOp, value.owner).clone()
            body.add_op(constant)
            params[value] = constant.results[0]
        for op in ops:
            op.detach()
            body.add_op(op)
            op.operands = [params.get(operand, operand) for operand in op.operands]
        for value in linked:
            if not value.uses:
                constant = cast(ConstantOp, value.owner)
                constant.detach()
                constant.erase()
        body.add_op(return_op(outputs))
        types = ([value.type for value in inputs], [value.type for value in outputs])
        fused = func_op(name, *types, Region(body), visibility="private")
        fused.attributes["Primitive"] = _PRIMITIVE
        fused.location = call.location
        inherit(body.last_op or fused, call.location)  # the return
        anchor = self.last_inserted.get(function, function)
        self.module.body.block.insert_op_after(fused, anchor)
        self.last_inserted[function] = fused


def _check_no_use_before(
    block: Block,
    last: int,
    outputs: Sequence[SSAValue],
    members: set[Operation],
    position: dict[Operation, int],
) -> None:
    """A group's results must be read only after its last op (else the call would come late).

    The post-dominator construction guarantees it (only a group's last op is
    read outside it); this guards the invariant. A reader the pass did not
    find in the block is the terminator (fine) or the call of an earlier
    group, which sits before this group's last op.
    """
    for value in outputs:
        for use in value.uses:
            if use.operation in members:
                continue
            user = block.find_ancestor_op_in_block(use.operation)
            if user is None or user.has_trait(IsTerminator):
                continue
            if position.get(user, -1) <= last:
                raise AssertionError(
                    f"fuse-ops: '{use.operation.name}' reads a fused value before the group ends"
                )


# --------------------------------------------------------------------------- #
# The pass
# --------------------------------------------------------------------------- #


@dataclass(frozen=True)
class FuseOpsPass(XdslFunctionPass):
    """Group relay ops into Primitive functions called from where they were (TVM's FuseOps)."""

    name = "fuse-ops"
    tvm_name: ClassVar[str] = "FuseOps"
    opt_level: ClassVar[int] = 0

    fuse_opt_level: int = -1
    """-1: the PassContext's opt_level; 0: one op per group; otherwise fuse."""

    def fuser(self, module: ModuleOp) -> Fuser:
        """A fuser for `module` with this pass's level and the context's `max_depth`."""
        context = PassContext.current()
        level = context.opt_level if self.fuse_opt_level == -1 else self.fuse_opt_level
        max_depth = context.get_config(MAX_DEPTH_KEY)
        if not isinstance(max_depth, int):
            max_depth = DEFAULT_MAX_DEPTH
        return Fuser(module, level, max_depth, context.get_config(LINK_PARAMS_KEY) is True)

    groups: ClassVar[Statistic] = Statistic("num-groups", "Number of fused functions made")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fuser = self.fuser(op)
        functions = len(op.body.block.ops)
        with collector_paused():
            for function in optimizable_functions(op, self.include_external):
                fuser.fuse_function(function)
        self.groups.add(len(op.body.block.ops) - functions)

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        module = function.parent_op()
        if isinstance(module, ModuleOp):
            functions = len(module.body.block.ops)
            with collector_paused():
                self.fuser(module).fuse_function(function)
            self.groups.add(len(module.body.block.ops) - functions)


def FuseOps(fuse_opt_level: int = -1) -> Pass:
    """TVM's `relay.transform.FuseOps`: the `fuse-ops` pass."""
    return XdslPass(FuseOpsPass(fuse_opt_level=fuse_opt_level))
