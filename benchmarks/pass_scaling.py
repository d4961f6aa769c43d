"""How each of xrelay's passes scales with graph size, with and without transactions.

Builds `chain_graph(N)`, a chain of N relay ops that gives every standard
pass work (conv2d + bias_add + batch_norm blocks, constant-only subgraphs,
duplicated subexpressions, dead values, reshape chains, identity ops, split
and concatenate, calls of an `Inline` function), then times each registered
xrelay pass (the registry entries whose class lives in `xrelay.passes.*`,
`print-ir` aside) as `transform.Sequential([pass])` under
`PassContext(opt_level=3)`: once with `transform.transactional=False` and
once with the default transactional run (a snapshot clone and a structural
comparison per pass), so the pass manager's share shows. The last row runs
all of them as one Sequential at opt level 3. Only the pass is timed: the
graph is built once per size and cloned before each run, outside the timed
region. Prints µs per op, best of `--repeat` runs (flat across sizes =
linear). Run: `python benchmarks/pass_scaling.py [--sizes 1000 10000 100000]`.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp
from xrelay.dialects.diagnostics import verify_located
from xrelay.dialects.parser import make_context
from xrelay.passes import registered_passes
from xrelay.passes.pass_manager import PassDependencyError

from xrelay import IRModule, relay, transform

SHAPE = (1, 4, 4, 4)
"""The NCHW shape every op of the chain produces."""


def _const(rng: np.random.Generator, shape: tuple[int, ...], low: float = -1.0) -> relay.Constant:
    return relay.const(rng.uniform(low, 1.0, shape).astype("float32"))


class _Chain:
    """Grows the chain one block of op families at a time, counting ops (constants aside)."""

    def __init__(self, x: relay.Var, callee: relay.GlobalVar):
        self.rng = np.random.default_rng(0)
        self.y: relay.Expr = x
        self.callee = callee
        self.dead: list[relay.Expr] = []
        self.ops = 0

    def block(self) -> list[tuple[int, Callable[[], None]]]:
        """The steps of one block: (ops it adds, step)."""
        return [
            (2, self.conv_bias),
            (2, self.batch_norm),
            (1, self.relu),
            (2, self.scale_by_folded_constant),
            (3, self.duplicate),
            (1, self.dead_value),
            (3, self.reshape_chain),
            (2, self.identities),
            (2, self.dropout),
            (1, self.pool),
            (4, self.split_concat),
            (2, self.transpose_pair),
            (2, self.expand_squeeze),
            (1, self.call),
        ]

    def set(self, value: relay.Expr, ops: int) -> None:
        self.y = value
        self.ops += ops

    def conv_bias(self) -> None:
        weight = _const(self.rng, (4, 4, 3, 3))
        conv = relay.nn.conv2d(self.y, weight, padding=(1, 1))
        self.set(relay.nn.bias_add(conv, _const(self.rng, (4,))), 2)

    def batch_norm(self) -> None:
        gamma, beta, mean, var = (_const(self.rng, (4,), 0.5) for _ in range(4))
        self.set(relay.nn.batch_norm(self.y, gamma, beta, mean, var)[0], 2)

    def relu(self) -> None:
        self.set(relay.nn.relu(self.y), 1)

    def scale_by_folded_constant(self) -> None:
        scale = relay.add(_const(self.rng, (4, 1, 1), 0.5), _const(self.rng, (4, 1, 1), 0.5))
        self.set(relay.multiply(self.y, scale), 2)

    def duplicate(self) -> None:
        self.set(relay.add(relay.tanh(self.y), relay.tanh(self.y)), 3)

    def dead_value(self) -> None:
        self.dead.append(relay.sigmoid(self.y))
        self.ops += 1

    def reshape_chain(self) -> None:
        flat = relay.reshape(relay.reshape(self.y, [1, 64]), [1, 4, 16])
        self.set(relay.reshape(flat, list(SHAPE)), 3)

    def identities(self) -> None:
        one, zero = relay.const(np.float32(1.0)), relay.const(np.float32(0.0))
        self.set(relay.add(relay.multiply(self.y, one), zero), 2)

    def dropout(self) -> None:
        self.set(relay.nn.dropout(self.y), 2)

    def pool(self) -> None:
        self.set(relay.nn.max_pool2d(self.y, (3, 3), padding=(1, 1)), 1)

    def split_concat(self) -> None:
        parts = relay.split(self.y, 2, axis=1)
        self.set(relay.concatenate([parts[0], parts[1]], 1), 4)

    def transpose_pair(self) -> None:
        self.set(relay.transpose(relay.transpose(self.y, [0, 1, 3, 2]), [0, 1, 3, 2]), 2)

    def expand_squeeze(self) -> None:
        self.set(relay.squeeze(relay.expand_dims(self.y, 0), [0]), 2)

    def call(self) -> None:
        self.set(self.callee(self.y), 1)


def _helper() -> tuple[func.FuncOp, relay.GlobalVar]:
    """`@scale_shift`, marked `Inline = 1`: `tanh(p * 0.5 + 0.1)`."""
    p = relay.var("p", shape=SHAPE)
    body = relay.tanh(relay.add(relay.multiply(p, relay.const(0.5)), relay.const(0.1)))
    op = relay.Function([p], body, attrs={"Inline": 1}).to_func_op("scale_shift")
    return op, relay.GlobalVar("scale_shift", op.function_type)


def _with_dead_values(
    params: list[relay.Var], body: relay.Expr, dead: list[relay.Expr]
) -> func.FuncOp:
    """`@main` computing `body`, with the ops of `dead` built but unused.

    The builder emits only what the result reads, so dead values are emitted
    as extra results whose `func.return` operands are then dropped.
    """
    function = relay.Function(params, relay.Tuple([body, *dead]))
    function.multi_result = True
    op = function.to_func_op("main")
    ret = op.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    op.body.block.insert_op_before(func.ReturnOp(ret.operands[0]), ret)
    op.body.block.erase_op(ret)
    op.function_type = FunctionType.from_lists(
        [p.checked_type for p in params], [body.checked_type]
    )
    return op


def chain_graph(n_ops: int) -> IRModule:
    """A deterministic chain of `n_ops` relay ops (constants not counted) on `SHAPE` tensors.

    Linear to build: blocks of the op families each pass rewrites, cut to
    exactly `n_ops` with relu steps; plus a 3-op `Inline` helper it calls.
    """
    helper, callee = _helper()
    x = relay.var("x", shape=SHAPE)
    chain = _Chain(x, callee)
    while chain.ops < n_ops:
        for cost, step in chain.block():
            if chain.ops + cost > n_ops:
                break
            step()
        else:
            continue
        while chain.ops < n_ops:
            chain.relu()
    main = _with_dead_values([x], chain.y, chain.dead)
    return IRModule(module=ModuleOp([helper, main]))


def own_passes() -> dict[str, transform.Pass]:
    """xrelay's own registered passes that build without options, by flag (registry order)."""
    out: dict[str, transform.Pass] = {}
    for entry in registered_passes():
        if entry.flag == "print-ir" or not entry.factory().__module__.startswith("xrelay.passes."):
            continue
        try:
            out[entry.flag] = transform.get_pass(entry.flag)
        except PassDependencyError as error:
            print(f"<!-- {entry.flag} skipped: {error} -->")
    return out


def timed(base: IRModule, run: Callable[[IRModule], object], repeat: int) -> float:
    """Best wall time of `repeat` runs of `run` on fresh clones of `base`, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        mod = base.clone()
        gc.collect()
        start = time.perf_counter()
        run(mod)
        best = min(best, time.perf_counter() - start)
    return best


def runner(
    passes: list[transform.Pass], transactional: bool, ctx: Context
) -> Callable[[IRModule], object]:
    """Run `Sequential(passes)` at opt level 3, with or without transactions."""
    config: dict[str, object] = {} if transactional else {"transform.transactional": False}

    def run(mod: IRModule) -> object:
        with transform.PassContext(opt_level=3, config=config) as pctx:
            pctx.xdsl_context = ctx
            return transform.Sequential(passes)(mod)

    return run


def main() -> None:
    """Print a markdown table of µs/op per pass, size and transactional setting."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes: list[int] = args.sizes

    ctx = make_context()
    passes = own_passes()
    rows: dict[str, list[transform.Pass]] = {flag: [p] for flag, p in passes.items()}
    if passes:
        rows["all passes (opt_level 3)"] = list(passes.values())
    modes = (False, True)  # transactional
    times: dict[tuple[str, bool], list[float]] = {(name, t): [] for name in rows for t in modes}
    for n in sizes:
        base = chain_graph(n)
        diagnostics = verify_located(base.module)
        assert not diagnostics, diagnostics
        repeat = args.repeat if n <= 10000 else 1
        for transactional in modes:
            for name, row in rows.items():
                seconds = timed(base, runner(row, transactional, ctx), repeat)
                times[name, transactional].append(seconds * 1e6 / n)

    columns = [f"{n:,} ops" for n in sizes] + [f"{n:,} ops, transactional" for n in sizes]
    print("| pass (µs/op) | " + " | ".join(columns) + " |")
    print("| --- | " + " | ".join("---:" for _ in columns) + " |")
    for name in rows:
        values = times[name, False] + times[name, True]
        print(f"| {name} | " + " | ".join(f"{v:.1f}" for v in values) + " |")


if __name__ == "__main__":
    main()
