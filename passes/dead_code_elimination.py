"""`dead-code-elimination` (TVM's `DeadCodeElimination`): drop unused pure ops and functions.

What it removes, in every function of the module that has a body (a module
pass, as in TVM: partitioned functions are visited too):

- an op whose results are all unused and that has no effect besides them:
  its memory effects are known and at most reads (relay ops are `Pure`);
  `relay.if` and `relay.composite` count as their nested ops do. Removal is
  transitive (an op used only by dead ops is dead) and reaches nested regions
  (ops of `relay.if` branches, composite bodies);
- a `func.call` whose result is unused, when the callee is pure: a function
  with a body whose ops are all effect-free and whose calls (recursive ones
  included) are to pure functions. This is TVM's purity analysis, which lets
  it drop a let-bound call of a pure global function;
- a private function (`func.func private`) that no live function references
  (by `func.call` or any other symbol reference). Liveness starts from the
  public functions, `main` (kept even if private: it is the entry) and any
  other top-level op, so a chain of private functions used only by each
  other goes away at once. TVM's pass never removes functions; xrelay does,
  like MLIR's `symbol-dce`.

What it keeps: terminators, symbols, ops with side effects or unknown effects
(no memory-effect trait, e.g. the BYOC annotations `relay.compiler_begin` /
`relay.compiler_end`, ops of other dialects, any op of an unregistered dialect
under `--allow-unregistered-dialect`), calls of impure functions or of
declarations, and function parameters and signatures.

Options, TVM's:

- `ignore_impurity` (default false): treat every op as effect-free, so unused
  impure ops go too (TVM: "assume all expressions are pure"). Terminators,
  symbols and ops of unregistered dialects, about which nothing is known, are
  still kept.
- `inline_once` (default false): TVM inlines let bindings used once. xrelay's
  IR is a graph of SSA values, where such a binding is already inline, so the
  option changes nothing.

Linear in the size of the module: one walk to find the pure functions, one
walk per function to seed a worklist of unused ops (each op is erased once,
its operands' producers examined once), one walk of the live functions to
collect symbol references.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.traits import (
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    MemoryReadEffect,
    NoMemoryEffect,
    RecursiveMemoryEffect,
    SymbolOpInterface,
)
from xrelay.dialects.walk import nested_ops
from xrelay.passes.adapters import XdslPass
from xrelay.passes.pass_manager import Pass
from xrelay.passes.statistics import Statistic

ENTRY = "main"
"""The entry function: kept even when private."""


def own_effects_are_local(op: Operation) -> bool:
    """Whether `op`'s own effects (nested ops aside) are known and at most reads.

    An allocation of a value `op` defines is local too (as in xDSL's DCE). An
    op without any memory-effect trait has unknown effects: False.
    """
    by_class = _class_facts(type(op)).local_effects
    if by_class is not None:
        return by_class
    for trait in op.get_traits_of_type(MemoryEffect):
        if isinstance(trait, RecursiveMemoryEffect):
            continue
        effects = trait.get_effects(op)
        if effects is None:
            return False
        for effect in effects:
            if effect.kind == MemoryEffectKind.READ:
                continue
            value = effect.value
            if effect.kind == MemoryEffectKind.ALLOC and isinstance(value, SSAValue):
                owner = value.owner
                if isinstance(owner, Operation) and op.is_ancestor(owner):
                    continue
            return False
    return True


@dataclass(frozen=True)
class _ClassFacts:
    """What an op's class alone tells (traits are per class): computed once per class."""

    kept: bool
    """A terminator or a symbol (or unregistered: it might be either)."""
    recursive: bool
    """Has `RecursiveMemoryEffect`: its nested ops' effects are its own."""
    local_effects: bool | None
    """Own effects known local from the traits alone; None if they depend on the op."""


_CLASS_FACTS: dict[type[Operation], _ClassFacts] = {}
_LOCAL_BY_CLASS = (NoMemoryEffect, MemoryReadEffect, RecursiveMemoryEffect)


def _class_facts(cls: type[Operation]) -> _ClassFacts:
    facts = _CLASS_FACTS.get(cls)
    if facts is None:
        traits = cls.get_traits_of_type(MemoryEffect)
        local: bool | None = None
        if not traits:
            local = False  # unknown effects
        elif all(isinstance(t, _LOCAL_BY_CLASS) for t in traits):
            local = True
        facts = _ClassFacts(
            cls.has_trait(IsTerminator) or cls.has_trait(SymbolOpInterface),
            cls.has_trait(RecursiveMemoryEffect, value_if_unregistered=False),
            local,
        )
        _CLASS_FACTS[cls] = facts
    return facts


def _callee(call: func.CallOp) -> str:
    return call.callee.root_reference.data


def pure_functions(module: ModuleOp) -> set[str]:
    """The functions of `module` that are pure: a call of one may be dropped if unused.

    A function is impure if it has no body, if one of its ops (nested ones
    included, terminators aside) has non-local effects, or if it calls an
    impure function or a name the module does not define. Impurity spreads
    from callee to caller over the reverse call graph (a worklist: linear).
    """
    bodies = {
        op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp) and op.body.blocks
    }
    callers: dict[str, list[str]] = {name: [] for name in bodies}
    impure: list[str] = []
    for name, function in bodies.items():
        local = True
        for inner in nested_ops(function.body):
            if isinstance(inner, func.CallOp):
                callee = _callee(inner)
                if callee in callers:
                    callers[callee].append(name)
                else:
                    local = False
            elif not own_effects_are_local(inner) and not inner.has_trait(
                IsTerminator, value_if_unregistered=False
            ):
                local = False
        if not local:
            impure.append(name)
    seen = set(impure)
    while impure:
        for caller in callers[impure.pop()]:
            if caller not in seen:
                seen.add(caller)
                impure.append(caller)
    return set(bodies) - seen


@dataclass
class Liveness:
    """Which ops may be removed once unused (memoized: each op is examined once)."""

    pure: set[str]
    """Functions whose calls are effect-free."""

    ignore_impurity: bool = False
    _effect_free: dict[Operation, bool] = field(default_factory=dict[Operation, bool])

    def effect_free(self, op: Operation) -> bool:
        """Whether running `op` has no effect besides its results (nested ops included)."""
        known = self._effect_free.get(op)
        if known is not None:
            return known
        if isinstance(op, func.CallOp):
            result = self.ignore_impurity or _callee(op) in self.pure
        elif self.ignore_impurity:
            result = True
        else:
            result = own_effects_are_local(op) and (
                not _class_facts(type(op)).recursive
                or all(self.effect_free(inner) for inner in _nested(op))
            )
        self._effect_free[op] = result
        return result

    def removable(self, op: Operation) -> bool:
        """Whether `op` may be erased when its results are unused."""
        # An op of an unregistered dialect might be a terminator or a symbol: kept.
        return not _class_facts(type(op)).kept and self.effect_free(op)

    def dead(self, op: Operation) -> bool:
        """Whether `op` is unused and removable."""
        return all(r.first_use is None for r in op.results) and self.removable(op)


def _nested(op: Operation) -> Iterator[Operation]:
    """The ops directly in `op`'s regions."""
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    if isinstance(owner, Operation):
        return op.is_ancestor(owner)
    parent = owner.parent_op()
    return parent is not None and op.is_ancestor(parent)


def eliminate_dead_ops(function: func.FuncOp, liveness: Liveness) -> int:
    """Erase the dead ops of a function, transitively and in nested regions; how many."""
    worklist = [op for op in nested_ops(function.body) if liveness.dead(op)]
    erased: set[Operation] = set()
    count = 0
    while worklist:
        op = worklist.pop()
        if op in erased or not liveness.dead(op):
            continue
        if op.regions:
            nested = list(op.walk())
            reads = [v for inner in nested for v in inner.operands if not _defined_inside(v, op)]
        else:
            nested = [op]
            reads = list(op.operands)
        op.detach()
        op.erase()
        erased.update(nested)
        count += len(nested)
        for value in reads:
            owner = value.owner
            if isinstance(owner, Operation) and owner not in erased and liveness.dead(owner):
                worklist.append(owner)
    return count


def _symbol_refs(attr: Attribute, out: list[str]) -> None:
    if type(attr) in _NO_SYMBOLS:
        return
    if isinstance(attr, SymbolRefAttr):
        out.append(attr.root_reference.data)
    elif isinstance(attr, ArrayAttr):
        for item in cast(ArrayAttr[Attribute], attr).data:
            _symbol_refs(item, out)
    elif isinstance(attr, DictionaryAttr):
        for item in attr.data.values():
            _symbol_refs(item, out)
    else:
        _NO_SYMBOLS.add(type(attr))  # neither a reference nor a container of them


_NO_SYMBOLS: set[type[Attribute]] = set()
"""Attribute classes `_symbol_refs` finds nothing in (learned as met): every op's
properties are read, so most attributes are skipped by a set lookup, not three
`isinstance` checks on xDSL's abstract classes."""


def remove_unused_functions(module: ModuleOp) -> list[str]:
    """Erase the private functions no live op references; their names, in module order."""
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    roots: list[Operation] = [
        op
        for op in module.ops
        if not isinstance(op, func.FuncOp)
        or op.sym_name.data == ENTRY
        or op.sym_visibility is None
        or op.sym_visibility.data != "private"
    ]
    live: set[str] = {op.sym_name.data for op in roots if isinstance(op, func.FuncOp)}
    stack = roots
    while stack:
        for inner in nested_ops(stack.pop()):
            refs: list[str] = []
            for attrs in (inner.properties, inner.attributes):
                for attr in attrs.values():
                    if type(attr) not in _NO_SYMBOLS:
                        _symbol_refs(attr, refs)
            for name in refs:
                if name in functions and name not in live:
                    live.add(name)
                    stack.append(functions[name])
    removed = [name for name in functions if name not in live]
    for name in removed:
        functions[name].detach()
        functions[name].erase()
    return removed


@dataclass(frozen=True)
class DeadCodeEliminationPass(ModulePass):
    """Remove unused pure ops (transitively, nested regions too) and unused private functions."""

    name = "dead-code-elimination"
    tvm_name: ClassVar[str] = "DeadCodeElimination"
    opt_level: ClassVar[int] = 1

    inline_once: bool = False
    """TVM's option to inline single-use let bindings: SSA values already are, no effect."""

    ignore_impurity: bool = False
    """Treat every registered op as effect-free (TVM's `ignore_impurity`)."""

    erased: ClassVar[Statistic] = Statistic("num-erased", "Number of operations erased")
    functions: ClassVar[Statistic] = Statistic(
        "num-functions-removed", "Number of unused functions removed"
    )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        liveness = Liveness(pure_functions(op), self.ignore_impurity)
        for function in list(op.ops):
            if isinstance(function, func.FuncOp) and function.body.blocks:
                self.erased.add(eliminate_dead_ops(function, liveness))
        self.functions.add(len(remove_unused_functions(op)))


def DeadCodeElimination(inline_once: bool = False, ignore_impurity: bool = False) -> Pass:
    """TVM's `relay.transform.DeadCodeElimination`: the `dead-code-elimination` pass."""
    return XdslPass(
        DeadCodeEliminationPass(inline_once=inline_once, ignore_impurity=ignore_impurity)
    )
