"""Helpers for the pass-manager tests: TVM's `OptTester` transforms, a recording instrument."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import func
from xrelay.passes.instrument import PassInstrument
from xrelay.passes.pass_context import PassContext, PassInfo

from xrelay import IRModule, relay, transform


def double(expr: relay.Expr, memo: dict[int, relay.Expr] | None = None) -> relay.Expr:
    """`expr` with every Var `v` read as `add(v, v)` and every Constant `c` as `add(c, c)`."""
    memo = {} if memo is None else memo
    if id(expr) in memo:
        return memo[id(expr)]
    out: relay.Expr
    if isinstance(expr, relay.Var | relay.Constant):
        out = relay.add(expr, expr)
    elif isinstance(expr, relay.Call):
        args = [double(arg, memo) for arg in expr.args]
        out = relay.Call(expr.op, args, expr.props, expr.attrs)
    else:
        raise TypeError(f"double: unexpected {type(expr).__name__}")
    memo[id(expr)] = out
    return out


def double_vars(function: relay.Function) -> relay.Function:
    """OptTester's function transform (TVM test_pass_manager.py): rebuild the body doubled."""
    return relay.Function(function.params, double(function.body), attrs=function.attrs)


def abs_module(shape: Sequence[int]) -> IRModule:
    """OptTester's module transform base: `{myAbs: fn(a) { abs(a) }}`."""
    a = relay.var("a", shape=tuple(shape))
    return IRModule({relay.GlobalVar("myAbs"): relay.Function([a], relay.abs(a))})


def function_text(mod: IRModule, name: str) -> str:
    """The text of one `func.func` of a module."""
    for op in mod.module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return str(op)
    raise KeyError(name)


def get_test_model() -> IRModule:
    """TVM's model: `x,y,z: f32[3,4]; e1=x+y; e2=x-z; e3=e1*(e1/e2); out=e3+e2`."""
    x = relay.var("x", shape=(3, 4))
    y = relay.var("y", shape=(3, 4))
    z = relay.var("z", shape=(3, 4))
    e1 = relay.add(x, y)
    e2 = relay.subtract(x, z)
    e3 = relay.multiply(e1, relay.divide(e1, e2))
    return IRModule.from_expr(relay.Function([x, y, z], relay.add(e3, e2)))


def identity_pass(name: str, required: Sequence[str] = (), opt_level: int = 0) -> transform.Pass:
    """A module pass that changes nothing."""

    def keep(mod: IRModule, ctx: PassContext) -> IRModule:
        return mod

    return transform.module_pass(keep, opt_level=opt_level, name=name, required=list(required))


def tagging_pass(name: str, required: Sequence[str] = (), opt_level: int = 0) -> transform.Pass:
    """A module pass that changes the IR every time: it adds a new attribute to `main`."""
    runs: list[int] = []

    def tag(mod: IRModule, ctx: PassContext) -> IRModule:
        runs.append(1)
        mod["main"] = mod["main"].with_attr(f"{name}_{len(runs)}", 1)
        return mod

    return transform.module_pass(tag, opt_level=opt_level, name=name, required=list(required))


class Recorder(PassInstrument):
    """Records the name of every pass that runs (its `run_before_pass`), in order."""

    def __init__(self) -> None:
        super().__init__()
        self.ran: list[str] = []

    def run_before_pass(self, mod: IRModule, info: PassInfo) -> None:
        self.ran.append(info.name)


def canonical(mod: IRModule) -> IRModule:
    """The module's functions rebuilt from their results, without SSA names."""
    out = IRModule()
    for name, function in mod.functions.items():
        out[name] = function
    for op in out.module.walk():
        for result in op.results:
            result.name_hint = None
    return out


def assert_graph_equal(actual: IRModule, expected: IRModule) -> None:
    """Same graph (TVM's structural equality) and no op outside it in `actual`."""
    rebuilt = canonical(actual)
    assert str(rebuilt) == str(canonical(expected)), f"actual:\n{actual}"
    ops = sum(1 for _ in actual.module.walk())
    assert ops == sum(1 for _ in rebuilt.module.walk()), f"unused ops left:\n{actual}"
