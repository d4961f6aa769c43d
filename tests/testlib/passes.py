"""Deliberately broken passes for testing the pass manager and its debugging instruments.

Loaded by pytest (`import testlib.passes`) and by lit tests through
`xrelay-opt --load-pass-plugin`. Every pass here is an xDSL `ModulePass`
registered with a `test-` flag, like MLIR's `-test-*` passes.

- `test-break-types`: gives the first relay op's result a wrong type, so the
  IR no longer verifies.
- `test-perturb-numerics`: turns the first `relay.add` into `relay.subtract`
  (well typed, wrong numbers).
- `test-fail`: appends an op to the first function, then raises
  (`kind=diagnostic`: a located `DiagnosticError`; `kind=crash`: a ValueError).
- `test-tag`: adds `{tagged = <value>}` to every func.func (a harmless change).
- `test-needs-tag`: a no-op requiring `TestTag`; `test-cycle-a` and
  `test-cycle-b` require each other.
- `test-pipeline{value=...}`: a named pipeline, `test-tag{value=...}` then `cse`.
- `test-nested-break` (a Python module pass): runs `test-tag`, then
  `test-break-types` inside itself.
- `test-warn{op=...}`: changes nothing; a pass warning at every op named `op`
  (where located warnings point).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, f32
from xdsl.passes import ModulePass
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.pass_warnings import warn
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.elementwise import AddOp, SubtractOp
from xrelay.dialects.relay.structure import ConstantOp

from xrelay.transform import (
    PassContext,
    XdslPipelinePass,
    get_pass,
    module_pass,
    register_pass,
    registered_passes,
)


def _first(module: ModuleOp, kind: type) -> object | None:
    return next((op for op in module.walk() if isinstance(op, kind)), None)


@dataclass(frozen=True)
class BreakTypes(ModulePass):
    """Give the first relay op's result a wrong type (the IR stops verifying)."""

    name = "test-break-types"
    tvm_name: ClassVar[str] = "TestBreakTypes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = _first(op, RelayOp)
        if isinstance(target, RelayOp) and target.results and not isinstance(target, ConstantOp):
            target.results[0]._type = TensorType(f32, [7, 7, 7])  # pyright: ignore[reportPrivateUsage]


@dataclass(frozen=True)
class PerturbNumerics(ModulePass):
    """Turn the first relay.add into relay.subtract: well typed, wrong numbers."""

    name = "test-perturb-numerics"
    tvm_name: ClassVar[str] = "TestPerturbNumerics"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        add = _first(op, AddOp)
        if isinstance(add, AddOp):
            sub = SubtractOp.create(
                operands=list(add.operands),
                result_types=[r.type for r in add.results],
                properties=dict(add.properties),
                attributes=dict(add.attributes),
            )
            block = add.parent_block()
            assert block is not None
            block.insert_op_before(sub, add)
            add.results[0].replace_all_uses_with(sub.results[0])
            block.erase_op(add)


@dataclass(frozen=True)
class Fail(ModulePass):
    """Change the module, then fail (`kind=diagnostic` or `kind=crash`)."""

    name = "test-fail"
    tvm_name: ClassVar[str] = "TestFail"

    kind: str = "diagnostic"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        function = _first(op, func.FuncOp)
        assert isinstance(function, func.FuncOp)
        function.attributes["half_done"] = StringAttr("yes")
        if self.kind == "crash":
            raise ValueError("test-fail: deliberate crash")
        raise DiagnosticError([op_error(function, "test-fail: deliberate failure")])


@dataclass(frozen=True)
class Tag(ModulePass):
    """Add a `tagged` attribute to every func.func."""

    name = "test-tag"
    tvm_name: ClassVar[str] = "TestTag"
    opt_level: ClassVar[int] = 1

    value: str = "yes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in op.ops:
            if isinstance(function, func.FuncOp):
                function.attributes["tagged"] = StringAttr(self.value)


@dataclass(frozen=True)
class NeedsTag(ModulePass):
    """Changes nothing, but requires TestTag (a dependency to resolve)."""

    name = "test-needs-tag"
    tvm_name: ClassVar[str] = "TestNeedsTag"
    required: ClassVar[tuple[str, ...]] = ("TestTag",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class CycleA(ModulePass):
    """Requires TestCycleB, which requires TestCycleA."""

    name = "test-cycle-a"
    tvm_name: ClassVar[str] = "TestCycleA"
    required: ClassVar[tuple[str, ...]] = ("TestCycleB",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class CycleB(ModulePass):
    """Requires TestCycleA."""

    name = "test-cycle-b"
    tvm_name: ClassVar[str] = "TestCycleB"
    required: ClassVar[tuple[str, ...]] = ("test-cycle-a",)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class Pipeline(XdslPipelinePass):
    """Tag the functions with `value`, then run cse (a named pipeline with an option)."""

    name = "test-pipeline"
    tvm_name: ClassVar[str] = "TestPipeline"

    value: str = "piped"

    def passes(self) -> list[Any]:
        return [Tag(value=self.value), get_pass("cse")]


@dataclass(frozen=True)
class Warn(ModulePass):
    """Change nothing; warn at every op named `op`."""

    name = "test-warn"
    tvm_name: ClassVar[str] = "TestWarn"

    op: str = "relay.exp"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for found in op.walk():
            if found.name == self.op:
                warn(f"test-warn: a {self.op}", found)


@module_pass(opt_level=0, name="TestNestedBreak")
def nested_break(mod: IRModule, ctx: PassContext) -> IRModule:
    """Tag the functions, then run TestBreakTypes inside itself (a nested pass)."""
    mod = get_pass("test-tag")(mod)
    return get_pass("test-break-types")(mod)


if not any(entry.flag == "test-break-types" for entry in registered_passes()):
    for cls in (BreakTypes, PerturbNumerics, Fail, Tag, NeedsTag, CycleA, CycleB, Pipeline):
        register_pass(cls)
    register_pass(Warn)
    register_pass(nested_break)
