"""Passes across the two worlds: xDSL `ModulePass`es as xrelay passes, and back; lookup by name.

- `XdslPass(p)` runs any xDSL `ModulePass` (rewrite-pattern passes included)
  as an xrelay `ModulePass`: under the PassContext, its instruments and
  gating, with a `PassInfo` read off the class (`opt_level`, `required`,
  `tvm_name` class variables; defaults 0, none, and the registered or
  PascalCase name).
- `PassAdapter` is the other way: an xrelay pass (say, written with
  `module_pass`) as an xDSL `ModulePass` class, so `xrelay-opt -p` and
  xDSL's `PassPipeline` can run it. `register_pass` builds one.
- `XdslPipelinePass` is a named pipeline with options (`-p optimize{opt-level=3}`)
  that runs as the `Sequential` it builds.
- `get_pass(name)` builds a registered pass by TVM name or flag;
  `resolve_required` orders a pass's dependencies transitively.
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass as XdslModulePass
from xrelay.dialects.ir_module import IRModule
from xrelay.passes import lookup_pass, pascal_case, registered_passes
from xrelay.passes import register_pass as register_lazily
from xrelay.passes.greedy import changing_rewrites
from xrelay.passes.pass_context import PassContext, PassInfo
from xrelay.passes.pass_manager import (
    FunctionPass,
    ModulePass,
    Pass,
    PassDependencyError,
    Sequential,
    Tracked,
    optimizable_functions,
)
from xrelay.passes.transaction import restore


def xdsl_pass_info(cls: type[XdslModulePass]) -> PassInfo:
    """The `PassInfo` of an xDSL pass class, from its class variables and the registry."""
    name = cls.__dict__.get("tvm_name") or getattr(cls, "tvm_name", None)
    if not isinstance(name, str):
        entry = lookup_pass(cls.name)
        name = entry.name if entry is not None else pascal_case(cls.name)
    # Class variables only: a dataclass field of that name is an option of the pass
    # (`optimize{opt-level=3}`), not its PassInfo.
    options: set[str] = {f.name for f in dataclasses.fields(cls)}
    opt_level = getattr(cls, "opt_level", 0) if "opt_level" not in options else 0
    required = getattr(cls, "required", ()) if "required" not in options else ()
    return PassInfo(
        opt_level if isinstance(opt_level, int) else 0,
        name,
        tuple(cast(tuple[str, ...], required)) if isinstance(required, tuple | list) else (),
    )


@dataclasses.dataclass(frozen=True)
class XdslFunctionPass(XdslModulePass):
    """An xDSL pass applied to each optimizable function (TVM's `FunctionPass` rule).

    Subclasses implement `apply_to_function`; functions with `Compiler`,
    `Extern` or `SkipOptimization` are skipped unless the class sets
    `include_external = True`.
    """

    include_external: ClassVar[bool] = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for function in optimizable_functions(op, self.include_external):
            self.apply_to_function(ctx, function)

    @abstractmethod
    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        """Rewrite one function in place."""


@dataclasses.dataclass(frozen=True)
class XdslPipelinePass(XdslModulePass):
    """A named pipeline: an xDSL pass (with options) made of other passes.

    Subclasses implement `passes()`; the pass manager runs it as the
    `Sequential` that `build()` returns (named and levelled after the class),
    so its passes are gated, resolved and instrumented one by one, and
    `xrelay-opt -p optimize{opt-level=3}` works like any pass.
    """

    @abstractmethod
    def passes(self) -> list[Any]:
        """The passes of the pipeline (xrelay passes or xDSL pass instances)."""

    def build(self) -> Sequential:
        """The pipeline as a `Sequential` with this class's name, opt_level and required."""
        info = xdsl_pass_info(type(self))
        return Sequential(self.passes(), info.opt_level, info.name, info.required)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        result = self.build()(IRModule(module=op))
        if result.module is not op:
            restore(op, result.module)


class XdslPass(ModulePass):
    """An xDSL `ModulePass` running as an xrelay pass (in place on `mod.module`)."""

    def __init__(self, xdsl_pass: XdslModulePass):
        self.xdsl_pass = xdsl_pass
        super().__init__(self._apply, xdsl_pass_info(type(xdsl_pass)))
        if isinstance(xdsl_pass, XdslFunctionPass):
            self.kind = "function"

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        self.xdsl_pass.apply(ctx.xdsl_context, mod.module)
        return mod

    def run_tracked(self, mod: IRModule, ctx: PassContext) -> Tracked:
        """As any pass; a pass that reports its changes skips the snapshot comparison when it
        changed something (the comparison still decides "unchanged", and runs under
        `testing.immutable_module`)."""
        if not getattr(self.xdsl_pass, "REPORTS_CHANGES", False):
            return super().run_tracked(mod, ctx)
        before = changing_rewrites()
        result = self.transform(mod, ctx)
        immutable = bool(ctx.get_config("testing.immutable_module", False))
        changed = changing_rewrites() > before and not immutable
        return Tracked(result, changed=True if changed else None)

    def pipeline_spec(self) -> str | None:
        return str(self.xdsl_pass.pipeline_pass_spec())


@dataclasses.dataclass(frozen=True)
class PassAdapter(XdslModulePass):
    """An xrelay pass as an xDSL `ModulePass` class (made by `register_pass`).

    `apply` runs the pass on the module in place under `PassContext.current()`.
    """

    name: ClassVar[str] = "pass-adapter"
    pass_factory: ClassVar[tuple[Callable[[], Pass], ...]] = ()
    """One element: the factory of the xrelay pass (a tuple, so it does not bind as a method)."""

    @classmethod
    def make_pass(cls) -> Pass:
        """A fresh xrelay pass of this adapter."""
        return cls.pass_factory[0]()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        result = self.make_pass()(IRModule(module=op))
        if result.module is not op:
            restore(op, result.module)


def adapter_class(
    factory: Callable[[], Pass], info: PassInfo, doc: str, module: str = __name__
) -> type[PassAdapter]:
    """A `PassAdapter` subclass named after the pass, carrying its PassInfo.

    `module` is where the pass is defined (the adapter's `__module__`).
    """
    namespace: dict[str, Any] = {
        "name": info.flag,
        "tvm_name": info.name,
        "opt_level": info.opt_level,
        "required": info.required,
        "pass_factory": (factory,),
        "__doc__": doc,
        "__module__": module,
    }
    cls = type(f"{info.name}Adapter", (PassAdapter,), namespace)
    return dataclasses.dataclass(frozen=True)(cls)


def to_pass(value: object) -> Pass:
    """An xrelay pass from a pass, an xDSL pass instance, or an adapter; TypeError otherwise."""
    if isinstance(value, Pass):
        return value
    if isinstance(value, PassAdapter):
        return value.make_pass()
    if isinstance(value, XdslPipelinePass):
        return value.build()
    if isinstance(value, XdslModulePass):
        return XdslPass(value)
    raise TypeError(f"expected a pass (xrelay Pass or xDSL ModulePass), got {value!r}")


def get_pass(name: str, requirer: str | None = None) -> Pass:
    """Build the registered pass named `name` (TVM name or flag) with default options."""
    entry = lookup_pass(name)
    if entry is None:
        known = ", ".join(f"{e.name} ({e.flag})" for e in registered_passes())
        who = f"pass '{requirer}' requires '{name}', which" if requirer else f"'{name}'"
        raise PassDependencyError(f"{who} is not a registered pass; registered: {known}")
    cls = entry.factory()
    try:
        instance = cls()
    except (TypeError, ValueError) as error:
        raise PassDependencyError(
            f"pass '{entry.name}' cannot be built without options: {error}"
        ) from None
    return to_pass(instance)


def resolve_required(info: PassInfo) -> list[Pass]:
    """The passes `info` requires, transitively, dependencies first, each once.

    PassDependencyError names an unknown pass and who requires it, or the
    cycle (`A -> B -> A`).
    """
    order: list[Pass] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        entry = lookup_pass(name)
        canonical = entry.name if entry is not None else name
        if canonical in path:
            cycle = " -> ".join([*path[path.index(canonical) :], canonical])
            raise PassDependencyError(f"pass dependency cycle: {cycle}")
        if canonical in done:
            return
        dependency = get_pass(name, requirer=path[-1])
        for required in dependency.info.required:
            visit(required, [*path, canonical])
        done.add(canonical)
        order.append(dependency)

    for required in info.required:
        visit(required, [info.name])
    return order


P = TypeVar("P")


def _summary(pass_: Pass) -> str:
    """The first docstring line of a pass: its function's if decorated, else its class's."""
    body = getattr(pass_, "pass_func", None)
    plain = type(pass_) in (ModulePass, FunctionPass)
    doc = (body.__doc__ if plain and body is not None else type(pass_).__doc__) or ""
    return doc.strip().split("\n")[0]


def register_pass(value: P, *, description: str = "") -> P:
    """Make a pass nameable by `get_pass`, `required` and `xrelay-opt -p`; returns it.

    Takes an xDSL `ModulePass` class (registered as it is), an xrelay `Pass`
    instance, or a zero-argument `Pass` class (such as one made by
    `module_pass` on a class); those two get a `PassAdapter`. Usable as a
    decorator.
    """
    given: Any = value
    if isinstance(given, type) and issubclass(given, XdslModulePass):
        xdsl_class: type[XdslModulePass] = given
        info = xdsl_pass_info(xdsl_class)
        register_lazily(xdsl_class.name, lambda: xdsl_class, description, name=info.name)
        return value
    factory: Callable[[], Pass]
    if isinstance(given, Pass):
        instance = given

        def factory() -> Pass:
            return instance

    elif isinstance(given, type) and issubclass(given, Pass):
        factory = cast(Callable[[], Pass], given)
    else:
        raise TypeError(f"register_pass takes a pass or a pass class, got {value!r}")
    sample = factory()
    doc = description or _summary(sample)
    if isinstance(sample, XdslPass):
        xdsl_class = type(sample.xdsl_pass)
        register_lazily(xdsl_class.name, lambda: xdsl_class, doc, name=sample.info.name)
        return value
    body = getattr(sample, "pass_func", None)
    module = getattr(body, "__module__", None) or type(sample).__module__
    adapter = adapter_class(factory, sample.info, doc, module)
    register_lazily(sample.info.flag, lambda: adapter, doc, name=sample.info.name)
    return value
