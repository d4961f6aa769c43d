"""FoldConstant's chain fast path (`FoldConstantCall.fold_user`) builds the very IR the
op-by-op fold builds, over seeded random graphs of constants and variables.

The op-by-op fold (`chain=False`) materializes every intermediate constant and
folds its user next; the chain path evaluates the user on the value that constant
would hold. Both must print the same module, including where an op in the middle
of a chain cannot fold (the size bound, a non-constant operand, several uses), and
the folded module must compute what the original does.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xrelay.dialects.interpreter import Evaluator, Value
from xrelay.passes.fold_constant import (
    DEFAULT_MAX_ELEMENTS,
    FoldConstantCall,
    FoldConstantIf,
    FoldStaticShape,
    FoldTupleGetItem,
)
from xrelay.passes.greedy import rewrite_greedily

import xrelay
from xrelay import IRModule, relay

SHAPE = (2, 3)

Unary = Callable[[relay.Expr], relay.Expr]

UNARY: list[Unary] = [
    relay.negative,
    relay.sqrt,
    relay.exp,
    relay.tanh,
    lambda e: relay.squeeze(relay.expand_dims(e, 0), [0]),
    lambda e: relay.reshape(relay.reshape(e, [6]), list(SHAPE)),
    lambda e: relay.transpose(relay.transpose(e, [1, 0]), [1, 0]),
    lambda e: relay.cast(relay.cast(e, "int32"), "float32"),
]
BINARY = [relay.add, relay.subtract, relay.multiply, relay.divide]


def random_module(seed: int) -> IRModule:
    """A DAG over two variables and constants: chains, shared values, some non-constant."""
    rng = np.random.default_rng(seed)
    x = relay.var("x", shape=SHAPE)
    y = relay.var("y", shape=SHAPE)
    values: list[relay.Expr] = [x, y]
    for _ in range(int(rng.integers(3, 8))):
        values.append(relay.const(rng.uniform(-2.0, 2.0, SHAPE).astype("float32")))
    # Integer division by zero and overflow follow docs/semantics.md; fold them too.
    ints = relay.const(np.array([[0, 1, -7], [3, 0, 2]], dtype="int32"))
    for _ in range(int(rng.integers(10, 30))):
        pick = int(rng.integers(len(values)))
        if rng.random() < 0.5:
            values.append(UNARY[int(rng.integers(len(UNARY)))](values[pick]))
        else:
            other = values[int(rng.integers(len(values)))]
            values.append(BINARY[int(rng.integers(len(BINARY)))](values[pick], other))
    values.append(relay.cast(relay.divide(ints, relay.abs(ints)), "float32"))
    total: relay.Expr = values[-1]
    for value in values[-6:-1]:
        total = relay.add(total, value)
    return IRModule.from_expr(relay.Function([x, y], total))


def fold(mod: IRModule, chain: bool, max_elements: int = DEFAULT_MAX_ELEMENTS) -> IRModule:
    """FoldConstant's patterns on every function, with or without the chain fast path."""
    out = mod.clone()
    for op in out.module.ops:
        assert isinstance(op, func.FuncOp)
        call = FoldConstantCall(Evaluator(ModuleOp([])), max_elements, chain)
        patterns = [FoldTupleGetItem(), FoldConstantIf(), call, FoldStaticShape()]
        rewrite_greedily(op.body, patterns)
    return out


def ops(mod: IRModule) -> int:
    return sum(1 for _ in mod.module.walk())


@pytest.mark.parametrize("seed", range(40))
def test_chain_builds_the_same_ir_as_op_by_op(seed: int) -> None:
    mod = random_module(seed)
    slow = fold(mod, chain=False)
    fast = fold(mod, chain=True)
    assert str(fast) == str(slow)
    fast.module.verify()
    rng = np.random.default_rng(seed)
    inputs = [rng.uniform(-1.0, 1.0, SHAPE).astype("float32") for _ in range(2)]
    want = np.asarray(xrelay.evaluate(mod, *inputs))
    got = np.asarray(xrelay.evaluate(fast, *inputs))
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("max_elements", [0, 5, 6, 11])
def test_chain_stops_where_the_size_bound_stops_the_fold(max_elements: int) -> None:
    """The bound cuts a chain between a 6-element value and its 12-element user."""
    c = relay.const(np.arange(6, dtype="float32").reshape(SHAPE))
    x = relay.var("x", shape=(2, 2, 3))
    wide = relay.concatenate([relay.negative(relay.exp(c)), c], 0)  # 12 elements
    mod = IRModule.from_expr(relay.Function([x], relay.add(x, relay.reshape(wide, [2, 2, 3]))))
    slow = fold(mod, chain=False, max_elements=max_elements)
    fast = fold(mod, chain=True, max_elements=max_elements)
    assert str(fast) == str(slow)
    # The 6-element chain folds when the bound allows it; the 12-element values never do.
    assert (ops(fast) < ops(mod)) == (max_elements >= 6)
    assert "relay.concatenate" in str(fast)


def test_a_value_with_two_users_is_materialized_once() -> None:
    c = relay.const(np.ones(SHAPE, dtype="float32"))
    x = relay.var("x", shape=SHAPE)
    shared = relay.exp(relay.negative(c))
    body = relay.add(relay.multiply(x, relay.sqrt(shared)), relay.tanh(shared))
    mod = IRModule.from_expr(relay.Function([x], body))
    fast = fold(mod, chain=True)
    assert str(fast) == str(fold(mod, chain=False))
    names = [op.name for op in fast.module.walk()]
    assert names.count("relay.constant") == 2  # sqrt(shared) and tanh(shared)
    assert "relay.exp" not in names


def test_the_random_graphs_do_take_the_chain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guards the test above: its graphs have chains the fast path folds at once."""
    taken: list[str] = []
    real = FoldConstantCall.fold_user

    def counted(
        self: FoldConstantCall, op: Operation, results: list[Value]
    ) -> tuple[Operation, list[Value]] | None:
        step = real(self, op, results)
        if step is not None:
            taken.append(step[0].name)
        return step

    monkeypatch.setattr(FoldConstantCall, "fold_user", counted)
    for seed in range(10):
        fold(random_module(seed), chain=True)
    assert len(taken) >= 10
