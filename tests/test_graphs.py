"""The random graph generator of the differential tests (`testlib.graphs`)."""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterator

import numpy as np
import pytest
from testlib.graphs import MAX_NUMEL, random_graph
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    TensorType,
    TupleType,
)
from xdsl.ir import Operation
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.dialects.relay.base import RelayOp
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_to_numpy

from xrelay import IRModule

SEEDS = range(200)

_GRAPHS: dict[int, IRModule] = {}


def graph(seed: int) -> IRModule:
    """`random_graph(seed)`, built once per session (the tests only read it)."""
    if seed not in _GRAPHS:
        _GRAPHS[seed] = random_graph(seed)
    return _GRAPHS[seed]


def functions(mod: IRModule) -> list[func.FuncOp]:
    return [op for op in mod.module.ops if isinstance(op, func.FuncOp)]


def body_ops(mod: IRModule) -> Iterator[Operation]:
    """Every op inside the module's functions, terminators included."""
    for function in functions(mod):
        yield from function.body.block.ops


def main_op(mod: IRModule) -> func.FuncOp:
    return next(f for f in functions(mod) if f.sym_name.data == "main")


def ints(op: Operation, name: str) -> tuple[int, ...]:
    attr = op.properties.get(name)
    if attr is None:
        return ()
    if isinstance(attr, IntegerAttr):
        return (int(attr.value.data),)
    assert isinstance(attr, DenseArrayBase), attr
    return tuple(int(v) for v in attr.get_values())


def const_value(op: Operation | None) -> np.ndarray | None:
    if isinstance(op, ConstantOp) and isinstance(op.value, DenseIntOrFPElementsAttr):
        return dense_to_numpy(op.value)
    return None


def shape(value_type: object) -> tuple[int, ...]:
    assert isinstance(value_type, TensorType)
    return tuple(value_type.get_shape())


# ----------------------------------------------------------------- features


def is_depthwise(op: Operation) -> bool:
    if op.name != "relay.nn.conv2d":
        return False
    groups = ints(op, "groups")
    return bool(groups) and groups[0] > 1 and groups[0] == shape(op.operands[0].type)[1]


def is_grouped(op: Operation) -> bool:
    groups = ints(op, "groups")
    if op.name != "relay.nn.conv2d" or not groups or groups[0] <= 1:
        return False
    return groups[0] != shape(op.operands[0].type)[1]


def is_constant_subgraph(op: Operation) -> bool:
    """A relay op (not a constant) all of whose operands are constants."""
    return (
        isinstance(op, RelayOp)
        and not isinstance(op, ConstantOp)
        and len(op.operands) > 0
        and all(isinstance(o.owner, ConstantOp) for o in op.operands)
    )


def is_dead(op: Operation) -> bool:
    return not isinstance(op, func.ReturnOp) and all(not r.uses for r in op.results)


def is_reshape_chain(op: Operation) -> bool:
    return op.name == "relay.reshape" and getattr(op.operands[0].owner, "name", "") == op.name


def is_identity(op: Operation) -> bool:
    """`x * 1`, `x + 0`, `x - 0`, an identity transpose, a same-shape reshape."""
    if op.name == "relay.transpose":
        axes = ints(op, "axes")
        return bool(axes) and axes == tuple(range(len(axes)))
    if op.name == "relay.reshape":
        return op.operands[0].type == op.results[0].type
    neutral = {"relay.multiply": 1.0, "relay.add": 0.0, "relay.subtract": 0.0}.get(op.name)
    if neutral is None:
        return False
    values = [const_value(o.owner if isinstance(o.owner, Operation) else None) for o in op.operands]
    return any(v is not None and bool(np.all(v == neutral)) for v in values[-1:] + values[:1])


def has_duplicate(mod: IRModule) -> bool:
    """Two ops of a function with the same name, operands and properties."""
    for function in functions(mod):
        seen: set[tuple[object, ...]] = set()
        for op in function.body.block.ops:
            if not isinstance(op, RelayOp) or isinstance(op, ConstantOp):
                continue
            key = (op.name, tuple(op.operands), tuple(sorted(op.properties.items())))
            if key in seen:
                return True
            seen.add(key)
    return False


def has_duplicate_constants(mod: IRModule) -> bool:
    for function in functions(mod):
        values = [str(op.value) for op in function.body.block.ops if isinstance(op, ConstantOp)]
        if len(values) != len(set(values)):
            return True
    return False


def attrs_of(mod: IRModule) -> set[str]:
    return {f"{k}={v}" for f in functions(mod) for k, v in f.attributes.items()}


def calls_twice(mod: IRModule) -> bool:
    callees = [op.callee.string_value() for op in body_ops(mod) if isinstance(op, func.CallOp)]
    return len(callees) != len(set(callees))


MODULE_FEATURES: dict[str, Callable[[IRModule], bool]] = {
    "depthwise conv2d": lambda m: any(is_depthwise(op) for op in body_ops(m)),
    "grouped conv2d": lambda m: any(is_grouped(op) for op in body_ops(m)),
    "strided conv2d": lambda m: any(
        op.name == "relay.nn.conv2d" and ints(op, "strides") not in ((), (1, 1))
        for op in body_ops(m)
    ),
    "dilated conv2d": lambda m: any(
        op.name == "relay.nn.conv2d" and ints(op, "dilation") not in ((), (1, 1))
        for op in body_ops(m)
    ),
    "padded conv2d": lambda m: any(
        op.name == "relay.nn.conv2d" and any(ints(op, "padding")) for op in body_ops(m)
    ),
    "constant-only subgraph": lambda m: any(is_constant_subgraph(op) for op in body_ops(m)),
    "dead value": lambda m: any(is_dead(op) for op in body_ops(m)),
    "reshape chain": lambda m: any(is_reshape_chain(op) for op in body_ops(m)),
    "identity op": lambda m: any(is_identity(op) for op in body_ops(m)),
    "duplicated subexpression": has_duplicate,
    "duplicated constant": has_duplicate_constants,
    "Inline function": lambda m: "Inline=1 : i32" in attrs_of(m),
    "Compiler function": lambda m: 'Compiler="accel"' in attrs_of(m),
    "plain helper function": lambda m: any(
        not f.attributes and f.sym_name.data != "main" for f in functions(m)
    ),
    "function called twice": calls_twice,
    "tuple result": lambda m: isinstance(main_op(m).function_type.outputs.data[0], TupleType),
    "1 input": lambda m: len(main_op(m).args) == 1,
    "2 inputs": lambda m: len(main_op(m).args) == 2,
    "3 inputs": lambda m: len(main_op(m).args) == 3,
}

OP_FAMILIES = [
    "relay.nn.conv2d",
    "relay.nn.dense",
    "relay.add",
    "relay.subtract",
    "relay.multiply",
    "relay.divide",
    "relay.maximum",
    "relay.minimum",
    "relay.nn.relu",
    "relay.tanh",
    "relay.sigmoid",
    "relay.exp",
    "relay.log",
    "relay.sqrt",
    "relay.nn.max_pool2d",
    "relay.nn.avg_pool2d",
    "relay.nn.global_avg_pool2d",
    "relay.nn.global_max_pool2d",
    "relay.reshape",
    "relay.transpose",
    "relay.nn.batch_flatten",
    "relay.expand_dims",
    "relay.squeeze",
    "relay.nn.batch_norm",
    "relay.tuple_get_item",
    "relay.nn.bias_add",
    "relay.nn.dropout",
    "relay.concatenate",
    "relay.split",
    "relay.tuple",
    "relay.constant",
    "func.call",
]


# -------------------------------------------------------------------- tests


def test_same_seed_same_graph() -> None:
    for seed in (0, 1, 17, 123):
        assert str(random_graph(seed)) == str(random_graph(seed))
        assert str(random_graph(seed, 10)) == str(random_graph(seed, 10))


def test_different_seeds_different_graphs() -> None:
    texts = {str(graph(seed)) for seed in range(50)}
    assert len(texts) == 50


def test_every_op_family_appears() -> None:
    graphs_with: collections.Counter[str] = collections.Counter()
    for seed in SEEDS:
        graphs_with.update({op.name for op in body_ops(graph(seed))})
    rare = {name: graphs_with[name] for name in OP_FAMILIES if graphs_with[name] < 4}
    assert not rare, f"op families in fewer than 4 of {len(SEEDS)} graphs: {rare}"


@pytest.mark.parametrize("feature", sorted(MODULE_FEATURES))
def test_every_feature_appears(feature: str) -> None:
    has = MODULE_FEATURES[feature]
    count = sum(has(graph(seed)) for seed in SEEDS)
    assert count >= 4, f"{feature}: in {count} of {len(SEEDS)} graphs"


def test_exp_only_after_tanh_or_sigmoid() -> None:
    for seed in SEEDS:
        for op in body_ops(graph(seed)):
            if op.name == "relay.exp":
                producer = op.operands[0].owner
                assert getattr(producer, "name", None) in ("relay.tanh", "relay.sigmoid"), seed


def test_sizes_stay_small() -> None:
    for seed in SEEDS:
        mod = graph(seed)
        counted = [op for op in body_ops(mod) if op.name not in ("relay.constant", "func.return")]
        assert 1 <= len(counted) <= 30, (seed, len(counted))
        for op in mod.module.walk():
            for result in op.results:
                if isinstance(result.type, TensorType):
                    assert int(np.prod(shape(result.type))) <= MAX_NUMEL, (seed, op.name)
            if op.name == "relay.nn.conv2d":
                assert shape(op.results[0].type)[1] <= 8, seed


@pytest.mark.parametrize("max_ops", [1, 3, 8, 60])
def test_budget(max_ops: int) -> None:
    for seed in range(40):
        mod = random_graph(seed, max_ops)
        mod.module.verify()
        counted = [op for op in body_ops(mod) if op.name not in ("relay.constant", "func.return")]
        assert len(counted) <= max(max_ops, 2), (seed, len(counted))


@pytest.mark.parametrize("chunk", range(4))
def test_graphs_verify_and_evaluate_to_finite_values(chunk: int) -> None:
    for seed in SEEDS[chunk::4]:
        mod = graph(seed)
        mod.module.verify()
        assert IRModule(module=mod.module.clone()).astext() == str(mod)
        for input_seed in (0, 1):
            out = evaluate_module(mod.module, random_inputs(main_op(mod), input_seed))
            for value in out if isinstance(out, tuple) else (out,):
                assert np.all(np.isfinite(value)), (seed, input_seed)
                assert np.max(np.abs(value), initial=0.0) < 1e4, (seed, input_seed)
