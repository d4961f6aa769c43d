"""TVM's pass kinds on xDSL (`Pass`, `ModulePass`, `FunctionPass`, `Sequential`); how passes run.

Every invocation of a pass, at any depth, goes through `invoke` (TVM's
`Pass::operator()`): the instruments' `should_run` and `run_before_pass`, the
pass, then `run_after_pass`. opt_level, `required_pass` and `disabled_pass`
gate passes only inside a `Sequential`; a direct call `pass_(mod)` is not
gated (TVM A.2, A.6).

Beyond TVM:

- **Transactions.** Before each pass the module is cloned; if the pass (or a
  `run_after_pass` hook) raises, the module is restored in place and the
  error is a `PassError` naming the innermost failing pass
  (`transform.transactional=False` skips the snapshot and the rollback). A
  `DiagnosticError` (a located error in the input, such as a dynamic shape
  plan-memory cannot place) becomes a `PassDiagnosticError`: still a
  `DiagnosticError`, its messages ending in `(in pass '<flag>')`, so tools
  report it as the input's error (exit 1), not as a crash; so does a
  `RecursionError`, as a `NestingTooDeepError` (IR nested deeper than a
  recursive walk in the pass, or in xDSL, can follow). Inside a
  `Sequential` one snapshot serves all its passes: the outermost running
  `Sequential` clones the module once and its passes, at any depth, take
  none; when one fails, the error names it and the module is restored to
  the state before that `Sequential` (which is where every failing
  `Sequential` left it before too), and the error's `module_before` is that
  state's text. A `Sequential` whose schedule has dependencies (`required`),
  or that runs inside one, still snapshots before each pass, since skipping a
  dependency needs to know whether a pass without self-reported changes
  changed the module. With `transform.crash_reproducer` set, or
  `testing.immutable_module`, every pass snapshots as before: the reproducer
  holds the module before the failing pass itself, with the pipeline that
  reproduces the failure.
- **Dependencies.** `Sequential` resolves `required` names through the
  registry transitively, in dependency order, before running anything; a
  cycle or an unknown name raises `PassDependencyError` as it is (not as a
  `PassError`). A dependency is skipped when the module has not changed
  since it last ran in the same `Sequential`.
  `transform.resolve_required=False` restores TVM's behaviour: each pass's
  direct `required` passes rerun before it every time. As in TVM, a required
  dependency runs even when it is in `disabled_pass` (the pass needs it).
- **No eager InferType.** TVM's `FunctionPass` retypes the whole module after
  every run; xrelay passes keep types correct as they rewrite, so it does not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects.builder.expr import Function
from xrelay.dialects.depth import NestingTooDeepError
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.ir_module import IRModule, function_from_op
from xrelay.passes.pass_context import (
    PassContext,
    PassInfo,
    pop_running,
    push_running,
    running_passes,
)
from xrelay.passes.rewriting import collector_paused
from xrelay.passes.transaction import (
    reproducer_text,
    restore,
    same_ir,
    write_atomically,
)
from xrelay.passes.transaction import snapshot as take_snapshot


class PassError(RuntimeError):
    """A pass raised: the error names the pass; the original is `__cause__`.

    A `RuntimeError`, as TVM's `TVMError` is, so TVM code catching that catches this.

    `module_before` is the module's text before the failing pass (when a
    snapshot was taken); inside a transactional `Sequential` without
    dependencies and without a crash reproducer, the text before that
    (outermost) `Sequential`, whose one snapshot serves its passes.
    `reproducer` is the path a crash reproducer was written to, if any.
    """

    def __init__(self, info: PassInfo, cause: BaseException, module_before: str | None):
        self.info = info
        self.cause = cause
        self.module_before = module_before
        self.reproducer: str | None = None
        super().__init__(f"pass '{info.name}' failed: {describe_error(cause)}")


class PassDiagnosticError(PassError, DiagnosticError):
    """A `DiagnosticError` a pass raised on its input: the input's error, located, with the pass.

    Both a `PassError` (`info`, `cause`, `module_before`, `reproducer`) and a
    `DiagnosticError` whose diagnostics are the original's with
    ` (in pass '<flag>')` appended; `pass_name` is the pass's flag.
    """

    def __init__(self, info: PassInfo, cause: DiagnosticError, module_before: str | None):
        suffix = f" (in pass '{info.flag}')"
        self.diagnostics = [replace(d, message=d.message + suffix) for d in cause.diagnostics]
        self.pass_name = info.flag
        self.info = info
        self.cause = cause
        self.module_before = module_before
        self.reproducer = None
        Exception.__init__(self, str(self))

    def __str__(self) -> str:
        if any(d.line > 0 for d in self.diagnostics):
            return DiagnosticError.__str__(self)
        return f"{self.cause} (in pass '{self.pass_name}')"  # as the cause prints, unlocated


class ImmutableModuleError(RuntimeError):
    """A pass changed the module under `testing.immutable_module`."""


class PassDependencyError(ValueError):
    """A `required` name that is not a registered pass, or a dependency cycle."""


def describe_error(error: BaseException) -> str:
    """`Type: message` on one line (the message's first line), or the type alone."""
    text = str(error).strip()
    first = text.splitlines()[0] if text else ""
    name = type(error).__name__
    return f"{name}: {first}" if first else name


def wrap_error(
    info: PassInfo, error: BaseException, module_before: str | None, module: ModuleOp
) -> PassError:
    """The error a failing pass raises: the input's (a located `DiagnosticError`) or a crash.

    A `RecursionError` is taken for recursion on the IR's nesting (`module` is
    too deep): a `NestingTooDeepError`, not a crash.
    """
    if isinstance(error, RecursionError):
        error = NestingTooDeepError("this pass", module)
    if isinstance(error, DiagnosticError):
        return PassDiagnosticError(info, error, module_before)
    return PassError(info, error, module_before)


@dataclass(frozen=True)
class Outcome:
    """What one invocation did: the module it returned, whether it ran, whether it changed IR."""

    module: IRModule
    ran: bool
    changed: bool
    before: ModuleOp | None = None
    """The module as it was before the pass, when a snapshot was kept."""
    known: bool = True
    """False when `changed` is only assumed (no snapshot to compare, nothing reported)."""


@dataclass(frozen=True)
class Tracked:
    """What a pass body reports: its result, and (for composite passes) what it tracked itself.

    `changed` is None when the pass manager should compare snapshots; a
    `Sequential` knows from its children. `before` is the state a composite
    pass started from (its first child's snapshot), for rolling it back.
    """

    module: IRModule
    changed: bool | None = None
    before: ModuleOp | None = None


_COVER: ContextVar[ModuleOp | None] = ContextVar("xrelay_pass_cover", default=None)
"""The snapshot of the outermost running `Sequential` that serves its passes' rollbacks."""

_PRISTINE: ContextVar[ModuleOp | None] = ContextVar("xrelay_pass_pristine", default=None)
"""At a top-level call of a Sequential (`Pass.__call__`), the caller's module, which the
pass runs on a copy of: the state its snapshot would hold, so the outermost Sequential takes
it as its cover instead of cloning again. Never restored from (its ops are the caller's)."""

_EXACT_CHANGES: ContextVar[bool] = ContextVar("xrelay_exact_changes", default=False)
"""True inside a `Sequential` that skips dependencies, which needs exact `changed` results."""


_HANDLED = "_xrelay_pass_handled"
"""Marks an exception already handled by an inner invocation (rolled back, maybe wrapped)."""


def invoke(
    pass_: Pass, mod: IRModule, ctx: PassContext, current: ModuleOp | None = None
) -> Outcome:
    """Run one pass under `ctx`: instruments, snapshot, the pass, rollback on failure.

    `current`, if given, is a snapshot known to equal the module now (the one an
    unchanged previous pass of a Sequential took): it is used instead of a new clone.

    The cyclic garbage collector is paused for the whole run (`collector_paused`):
    its full collections cost time proportional to every live IR object, which made
    `optimize` at opt level 3 on a 10k-op module 1.4x slower per op than with it
    paused. The garbage a pass makes (erased ops) is collected once it returns.
    """
    with collector_paused():
        return _invoke(pass_, mod, ctx, current)


def _invoke(pass_: Pass, mod: IRModule, ctx: PassContext, current: ModuleOp | None) -> Outcome:
    info = pass_.info
    try:
        if not ctx.instrument_before_pass(mod, info):
            return Outcome(mod, ran=False, changed=False)
    except BaseException as error:  # an instrument's error: it propagates as it is
        setattr(error, _HANDLED, True)
        raise
    reproducer = str(ctx.get_config("transform.crash_reproducer", "") or "")
    original = mod.module
    transactional = bool(ctx.get_config("transform.transactional", True))
    immutable = bool(ctx.get_config("testing.immutable_module", False))
    # The reproducer and the immutability check need the snapshot even when not transactional.
    # A Sequential snapshots in `_run_scheduled`, and a pass it covers needs none.
    cover = _COVER.get()
    keep = (
        (transactional or bool(reproducer) or immutable)
        and not pass_.composes_transactions
        and cover is None
    )
    snapshot = (current or _snapshot(info, original)) if keep else None
    rollback_to = snapshot

    def fail(error: BaseException, in_pass: bool) -> NoReturn:
        """Roll back (if transactional), then raise: the pass's own errors as a PassError."""
        handled = (
            getattr(error, _HANDLED, False)
            or not isinstance(error, Exception)
            # A Sequential's unknown or cyclic `required`: a pipeline error, not a pass failure.
            or (isinstance(error, PassDependencyError) and isinstance(pass_, Sequential))
        )
        kept = snapshot if snapshot is not None else cover
        before = _text(kept) if kept is not None and not handled else None
        _report_failure(ctx, mod, info, handled)
        if rollback_to is not None and transactional:
            mod.module = original
            restore(original, rollback_to)
        if handled:
            raise error
        # The depth of the module the pass was given: the snapshot (or the covering
        # Sequential's), as `original` may be half rewritten when the Sequential restores it.
        given = kept if kept is not None else original
        failure = wrap_error(info, error, before, given) if in_pass else error
        setattr(failure, _HANDLED, True)
        if reproducer and before is not None:
            _write_reproducer(reproducer, pass_, ctx, before, error, failure)
        if failure is error:
            raise error
        raise failure from error

    push_running(info)
    try:
        try:
            tracked = pass_.run_tracked(mod, ctx)
        finally:
            pop_running()
        result = tracked.module
        if not isinstance(result, IRModule):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise TypeError(f"the pass returned {type(result).__name__}, not an IRModule")
        if pass_.composes_transactions:
            rollback_to = tracked.before
        changed = tracked.changed
        known = changed is not None or snapshot is not None
        if changed is None:
            changed = snapshot is None or not same_ir(snapshot, result.module)
        if changed and immutable:
            raise ImmutableModuleError(f"Immutable module has been modified in pass: {info.name}")
    except BaseException as error:
        fail(error, in_pass=True)
    try:
        ctx.instrument_after_pass(result, info)
    except BaseException as error:
        fail(error, in_pass=False)
    return Outcome(result, ran=True, changed=changed, before=rollback_to, known=known)


def _report_failure(ctx: PassContext, mod: IRModule, info: PassInfo, handled: bool) -> None:
    """`run_after_pass_failure` on the instruments: the IR as the failing pass left it (or as a
    check after it found it), before the rollback; once, by the innermost failing pass."""
    if not handled:
        for instrument in ctx.instruments:
            instrument.run_after_pass_failure(mod, info)


def _text(module: ModuleOp) -> str | None:
    """The module's text; None if it is nested too deep to print (then no reproducer)."""
    try:
        return IRModule(module=module).astext()
    except NestingTooDeepError:
        return None


def _snapshot(info: PassInfo, module: ModuleOp) -> ModuleOp:
    """A copy to roll back to; a `NestingTooDeepError` if the module is too deep to copy."""
    try:
        return take_snapshot(module)
    except RecursionError:
        error = NestingTooDeepError(f"the snapshot before pass '{info.flag}'", module)
        setattr(error, _HANDLED, True)
        raise error from None


def _write_reproducer(
    path: str,
    pass_: Pass,
    ctx: PassContext,
    before: str,
    error: BaseException,
    failure: BaseException,
) -> None:
    options = [f"--opt-level {max(ctx.opt_level, pass_.info.opt_level)}"]
    # Passes from `xrelay-opt --load-plugin` modules and files need the same plugins to rerun.
    from xrelay.plugins import loaded_plugins

    options.extend(f"--load-pass-plugin {plugin}" for plugin in loaded_plugins())
    for key, value in sorted(ctx.config.items()):
        if key != "transform.crash_reproducer" and isinstance(value, bool | int | float | str):
            spelled = str(value).lower() if isinstance(value, bool) else str(value)
            options.append(f"-c {key}={spelled}")
    label = f"'{pass_.info.name}' ({pass_.info.flag})"
    text = reproducer_text(before, label, pass_.pipeline_spec(), str(error), options)
    write_atomically(path, text)
    if isinstance(failure, PassError):
        failure.reproducer = path
    else:
        failure.add_note(f"crash reproducer written to {path}")


# ------------------------------------------------------------------ kinds


class Pass:
    """A transformation of an `IRModule` with its `PassInfo`; call it: `mod = pass_(mod)`.

    A direct call runs under `PassContext.current()` through the instruments
    and is never gated by opt_level (only `Sequential` gates).
    """

    kind: str = "module"
    """`module`, `function` or `sequential` (what `--list-passes` shows)."""

    composes_transactions: bool = False
    """True for passes made only of other passes, whose snapshots make theirs redundant."""

    def __init__(self, info: PassInfo):
        self._info = info

    @property
    def info(self) -> PassInfo:
        """The pass's name, opt_level and required passes."""
        return self._info

    def __call__(self, mod: IRModule | ModuleOp) -> IRModule:
        """`new = pass_(mod)`, TVM's contract: `mod` is left as it was.

        A top-level call runs the pass on one copy of the module, and that copy is
        the only one: the untouched input is the state a failed pass returns to, so
        the snapshot every transactional pass (or the outermost Sequential) would
        take is not taken. Called from inside a running pass, it runs in place (the
        enclosing pass owns the module). `run_in_place` is the in-place form, which
        `xrelay-opt` and `xrelay.build` use.
        """
        module = mod if isinstance(mod, IRModule) else IRModule(module=mod)
        ctx = PassContext.current()
        if running_passes():
            return invoke(self, module, ctx).module
        original = module.module
        work = IRModule(module=_snapshot(self.info, original))
        work.param_vars = dict(module.param_vars)
        transactional = bool(ctx.get_config("transform.transactional", True))
        debugging = bool(
            ctx.get_config("transform.crash_reproducer", "")
            or ctx.get_config("testing.immutable_module", False)
        )
        var = _PRISTINE if self.composes_transactions else _COVER
        # Without transactions there is no snapshot to save; a reproducer or the
        # immutability check needs each pass's own.
        token = var.set(original) if transactional and not debugging else None
        try:
            outcome = invoke(self, work, ctx)
        finally:
            if token is not None:
                var.reset(token)
        # Unchanged: the input itself, as TVM returns the same module (`same_as`). Compared
        # only when the pass did not say (a pass reporting its rewrites, a snapshot compared).
        if outcome.module is not work:
            return outcome.module
        if outcome.known:
            return work if outcome.changed else module
        with collector_paused():
            return module if same_ir(original, work.module) else work

    def run_in_place(self, mod: IRModule | ModuleOp) -> IRModule:
        """Run the pass on `mod` itself (changed in place; also returned): no copy, a
        snapshot only where a transactional pass needs one. For callers that own the
        module (`xrelay-opt`, `xrelay.build`)."""
        module = mod if isinstance(mod, IRModule) else IRModule(module=mod)
        return invoke(self, module, PassContext.current()).module

    def transform(self, mod: IRModule, ctx: PassContext) -> IRModule:
        """The pass body, without instruments or snapshots (subclasses implement it)."""
        raise NotImplementedError(f"pass '{self.info.name}' has no transform")

    def run_tracked(self, mod: IRModule, ctx: PassContext) -> Tracked:
        """The body as `invoke` runs it: `transform`, plus what a composite pass tracks."""
        return Tracked(self.transform(mod, ctx))

    def pipeline_spec(self) -> str | None:
        """How `xrelay-opt -p` names this pass (for reproducers), or None if it cannot."""
        from xrelay.passes import lookup_pass

        return self.info.flag if lookup_pass(self.info.name) is not None else None


class ModulePass(Pass):
    """A pass over the whole module: `pass_func(mod, ctx) -> IRModule`."""

    def __init__(self, pass_func: Callable[[IRModule, PassContext], IRModule], info: PassInfo):
        super().__init__(info)
        self.pass_func = pass_func

    def transform(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return self.pass_func(mod, ctx)

    def __repr__(self) -> str:
        kind = self.kind.capitalize()  # an xDSL function pass says so
        return f"Run {kind} pass: {self.info.name} at the optimization level {self.info.opt_level}"


def is_optimizable(op: func.FuncOp) -> bool:
    """TVM's rule for function passes: skip external (`Compiler`, `Extern`) and opted-out functions.

    A function with a `Compiler` attribute, a nonzero `Extern` or
    `SkipOptimization`, or no body (a declaration) is not optimizable.
    """
    if not op.body.blocks:
        return False
    attrs = op.attributes
    if "Compiler" in attrs:
        return False
    return not any(_nonzero(attrs.get(key)) for key in ("Extern", "SkipOptimization"))


def _nonzero(attr: object) -> bool:
    if attr is None:
        return False
    value = getattr(attr, "value", None)
    data = getattr(value, "data", None)
    return data != 0 if isinstance(data, int | float) else True


def optimizable_functions(module: ModuleOp, include_external: bool = False) -> list[func.FuncOp]:
    """The module's `func.func`s a function pass visits, in module order."""
    return [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and (is_optimizable(op) or (include_external and op.body.blocks))
    ]


FunctionPassFunc = Callable[[Function, IRModule, PassContext], "Function | func.FuncOp"]


class FunctionPass(Pass):
    """A pass applied to each function: `pass_func(func, mod, ctx) -> Function`.

    Visits every `func.func` except external ones (`Compiler`, `Extern`,
    `SkipOptimization`; see `is_optimizable`) unless `include_external`, and
    replaces the functions only after visiting all of them. It cannot add or
    remove functions. The function may return a `Function` or a `func.FuncOp`.
    """

    kind = "function"

    def __init__(self, pass_func: FunctionPassFunc, info: PassInfo, include_external: bool = False):
        super().__init__(info)
        self.pass_func = pass_func
        self.include_external = include_external

    def transform(self, mod: IRModule, ctx: PassContext) -> IRModule:
        names = _function_names(mod.module)
        updates: list[tuple[func.FuncOp, Function | func.FuncOp]] = []
        for op in optimizable_functions(mod.module, self.include_external):
            function = function_from_op(op)
            updates.append((op, self.pass_func(function, mod, ctx)))
        if _function_names(mod.module) != names:
            raise RuntimeError(
                f"function pass '{self.info.name}' added or removed functions "
                "(a function pass may only rewrite functions; use a module pass)"
            )
        for op, new in updates:
            if isinstance(new, Function) and new.op is op:
                continue
            name = op.sym_name.data
            replacement = new if isinstance(new, func.FuncOp) else new.to_func_op(name)
            if isinstance(new, func.FuncOp) and new.parent is not None:
                new.detach()
            block = mod.module.body.block
            block.insert_op_before(replacement, op)
            block.erase_op(op, safe_erase=False)
        return mod

    def __repr__(self) -> str:
        return (
            f"Run Function pass: {self.info.name} at the optimization level {self.info.opt_level}"
        )


def _function_names(module: ModuleOp) -> list[str]:
    return [op.sym_name.data for op in module.ops if isinstance(op, func.FuncOp)]


class Sequential(Pass):
    """Passes run in order, each gated by the context; `required` passes resolved first.

    Parameters
    ----------
    passes : Sequence[Pass], optional
        The passes (xDSL `ModulePass` instances are wrapped).
    opt_level : int
        The Sequential's own level, used when it is nested in another one.
    name : str
        Its name (`sequential`).
    required : Sequence[str], optional
        What it requires when nested in another Sequential.
    """

    kind = "sequential"
    composes_transactions = True

    def __init__(
        self,
        passes: Iterable[Any] | None = None,
        opt_level: int = 0,
        name: str = "sequential",
        required: Sequence[str] | None = None,
        traceable: bool = False,
    ):
        from xrelay.passes.adapters import to_pass

        super().__init__(PassInfo(opt_level, name, required, traceable))
        self.passes: list[Pass] = [to_pass(p) for p in passes or []]
        self.scoped_opt_level: int | None = None
        """If set, the passes run (and are gated) at this opt_level, as in a nested
        `PassContext(opt_level=...)` that shares the current one's instruments and
        settings (`PassContext.scoped`): how `optimize{opt-level=3}` sets its level."""

    @property
    def pass_info(self) -> PassInfo:
        """TVM's alias of `info`."""
        return self.info

    def transform(self, mod: IRModule, ctx: PassContext) -> IRModule:
        return self.run_tracked(mod, ctx).module

    def run_tracked(self, mod: IRModule, ctx: PassContext) -> Tracked:
        if self.scoped_opt_level is not None:
            with ctx.scoped(self.scoped_opt_level) as scoped:
                return self._run_scheduled(mod, scoped)
        return self._run_scheduled(mod, ctx)

    def _run_scheduled(self, mod: IRModule, ctx: PassContext) -> Tracked:
        """Run the schedule under one snapshot of the module, or one per child.

        The outermost transactional Sequential (see `_cover_snapshot`) clones
        the module once; its children, at any depth, take no snapshot of their
        own, and on a failure it restores its clone. Otherwise `_run_steps`:
        each child snapshots, and the first child's snapshot serves the
        Sequential.
        """
        resolve = bool(ctx.get_config("transform.resolve_required", True))
        transactional = bool(ctx.get_config("transform.transactional", True))
        steps = self.schedule(ctx, resolve)
        skips = resolve and any(is_dependency for _, is_dependency in steps)
        start, original = mod, mod.module
        own = self._cover_snapshot(ctx, transactional, skips, steps, original)
        pristine = own is not None and own is _PRISTINE.get()
        pristine_token = _PRISTINE.set(None)  # consumed: nested Sequentials never see it
        cover_token = _COVER.set(own) if own is not None else None
        exact_token = _EXACT_CHANGES.set(True) if skips else None
        try:
            tracked = self._run_steps(mod, ctx, steps, resolve, transactional)
        except BaseException:
            if own is not None and not pristine:  # a pristine input is left, not restored
                start.module = original
                restore(original, own)
            raise
        finally:
            _PRISTINE.reset(pristine_token)
            if exact_token is not None:
                _EXACT_CHANGES.reset(exact_token)
            if cover_token is not None:
                _COVER.reset(cover_token)
        return tracked if own is None or pristine else replace(tracked, before=own)

    def _cover_snapshot(
        self,
        ctx: PassContext,
        transactional: bool,
        skips: bool,
        steps: list[tuple[Pass, bool]],
        module: ModuleOp,
    ) -> ModuleOp | None:
        """The one snapshot serving every pass of this run, or None if each takes its own.

        Taken by the outermost transactional Sequential, unless its passes must
        snapshot anyway (a crash reproducer, `testing.immutable_module`) or
        exact `changed` results are needed (dependencies to skip, here or in
        an enclosing Sequential).
        """
        if not transactional or not steps or skips or _EXACT_CHANGES.get():
            return None
        if _COVER.get() is not None:
            return None  # an enclosing Sequential's snapshot already serves these passes
        if ctx.get_config("transform.crash_reproducer", "") or ctx.get_config(
            "testing.immutable_module", False
        ):
            return None
        pristine = _PRISTINE.get()
        if pristine is not None:  # a top-level call's untouched input (see `__call__`)
            return pristine
        return _snapshot(self.info, module)

    def _run_steps(
        self,
        mod: IRModule,
        ctx: PassContext,
        steps: list[tuple[Pass, bool]],
        resolve: bool,
        transactional: bool,
    ) -> Tracked:
        """Run the schedule; on failure restore the module from the first child's snapshot.

        Each child snapshots the module before it runs (unless a covering
        snapshot serves it), so the first one's snapshot is the state before
        the Sequential. A child after one that left the module unchanged reuses
        that child's snapshot (still the module's state) instead of cloning it
        again; when the reused snapshot is the Sequential's own and the child
        failed, the child's rollback already restored it (a restore moves the
        snapshot's ops, so it is done once).
        """
        start, original = mod, mod.module
        before: ModuleOp | None = None
        changed = False
        known = True  # every child's `changed` exact (none only assumed under a cover)
        surely = False  # a child's change known (reported or compared), not assumed
        version = 0
        fresh: dict[str, int] = {}  # dependency name -> module version when it last ran
        current: ModuleOp | None = None  # a snapshot equal to the module now, if any
        reused: ModuleOp | None = None
        try:
            for pass_, is_dependency in steps:
                name = pass_.info.name
                if is_dependency and resolve and fresh.get(name) == version:
                    continue
                reused = None if pass_.composes_transactions else current
                outcome = invoke(pass_, mod, ctx, reused)
                reused = None
                current = outcome.before if outcome.ran and not outcome.changed else None
                if before is None and outcome.ran:
                    before = outcome.before
                mod = outcome.module
                changed |= outcome.changed
                known &= outcome.known
                surely |= outcome.changed and outcome.known
                version += outcome.changed
                if outcome.ran:
                    fresh[name] = version
        except BaseException:
            if before is not None and transactional and before is not reused:
                start.module = original
                restore(original, before)
            raise
        return Tracked(mod, changed if known or surely else None, before)

    def schedule(self, ctx: PassContext, resolve: bool = True) -> list[tuple[Pass, bool]]:
        """The enabled passes with their dependencies before them: `(pass, is_dependency)`.

        Resolved before anything runs, so an unknown name or a cycle fails
        early. Without `resolve`, TVM's rule: each pass's direct `required`.
        """
        from xrelay.passes.adapters import get_pass, resolve_required

        steps: list[tuple[Pass, bool]] = []
        for pass_ in self.passes:
            if not ctx.pass_enabled(pass_.info):
                continue
            if resolve:
                dependencies = resolve_required(pass_.info)
            else:
                dependencies = [get_pass(n, requirer=pass_.info.name) for n in pass_.info.required]
            steps += [(dependency, True) for dependency in dependencies]
            steps.append((pass_, False))
        return steps

    def pipeline_spec(self) -> str | None:
        specs = [p.pipeline_spec() for p in self.passes]
        return ",".join(s for s in specs if s is not None) if None not in specs else None

    def __repr__(self) -> str:
        names = "".join(f"{p.info.name} " for p in self.passes)
        return (
            f"Run Sequential pass: {self.info.name} at the optimization level "
            f"{self.info.opt_level}. The passes will be executed are: [{names}]"
        )
