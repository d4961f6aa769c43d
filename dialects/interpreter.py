"""The numpy reference interpreter: the oracle every pass and backend is tested against.

Each op's semantics is a function registered with `@reference(OpClass, ...)`:
`fn(evaluator, op, args) -> value`, where a value is a numpy array or a tuple
of values (Relay tuples). Dialects register their own (relay's live in
`relay/reference_*.py`; a backend registers its accelerator ops the same way).
The evaluator runs `func.func` bodies in order, once per op: linear in the
size of the graph.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xrelay.dialects.relay.types import ANY, format_shape, numpy_dtype, tensor_element_type

Value = Any
"""A runtime value: `np.ndarray` or a tuple of values."""

ReferenceFn = Callable[["Evaluator", Any, list[Value]], Value]
_OpT = TypeVar("_OpT", bound=type[Operation])

_REFERENCE: dict[type[Operation], ReferenceFn] = {}


class EvaluationError(Exception):
    """A runtime failure of the reference interpreter, naming the op."""


def reference(*op_types: type[Operation]) -> Callable[[ReferenceFn], ReferenceFn]:
    """Register `fn(evaluator, op, args) -> value` as the semantics of `op_types`."""

    def register(fn: ReferenceFn) -> ReferenceFn:
        for op_type in op_types:
            _REFERENCE[op_type] = fn
        return fn

    return register


def has_reference(op_type: type[Operation]) -> bool:
    """Whether an op class has registered reference semantics."""
    _load_relay_semantics()
    return op_type in _REFERENCE


_loaded = False


def _load_relay_semantics() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib

        for name in ("structure", "elementwise", "nn", "tensor"):
            # Importing a semantics module registers its functions.
            importlib.import_module(f"xrelay.dialects.relay.reference_{name}")
        importlib.import_module("xrelay.dialects.accel_reference")
        importlib.import_module("xrelay.dialects.dnnl_reference")


def conform(value: Value, ty: Attribute) -> Value:
    """Cast a computed value to the dtype of its IR type and check its static shape."""
    if isinstance(ty, TensorType):
        array = np.asarray(value)
        dtype = numpy_dtype(tensor_element_type(cast(Attribute, ty)))
        if array.dtype != dtype:
            array = array.astype(dtype)
        shape = tuple(ty.get_shape())
        if len(shape) != array.ndim or any(
            d not in (ANY, s) for d, s in zip(shape, array.shape, strict=True)
        ):
            raise EvaluationError(
                f"computed shape {format_shape(array.shape)} does not match type {ty}"
            )
        return array
    if isinstance(ty, TupleType):
        items = tuple(value)
        if len(items) != len(ty.types.data):
            raise EvaluationError(f"computed {len(items)} tuple fields for type {ty}")
        return tuple(conform(v, t) for v, t in zip(items, ty.types.data, strict=True))
    return value


class Evaluator:
    """Runs the functions of a module on numpy values."""

    def __init__(self, module: ModuleOp):
        _load_relay_semantics()
        self.module = module
        self.functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)
        }

    def call(self, name: str, args: Sequence[Value]) -> list[Value]:
        """Call the function `name` with `args`; returns its results."""
        if name not in self.functions:
            raise EvaluationError(f"no function named '{name}'")
        callee = self.functions[name]
        if not callee.body.blocks:
            raise EvaluationError(f"function '{name}' is a declaration without a body")
        return self.run_region(callee.body, args)

    def run_region(self, region: Region, args: Sequence[Value]) -> list[Value]:
        """Run a single-block region with block arguments `args`."""
        block = region.block
        env: dict[SSAValue, Value] = {}
        for arg, value in zip(block.args, args, strict=True):
            env[arg] = value
        return self.run_block(block, env)

    def run_block(self, block: Block, env: dict[SSAValue, Value]) -> list[Value]:
        """Run the ops of `block`; returns the operands of its terminator."""
        for op in block.ops:
            args = [env[o] for o in op.operands]
            if isinstance(op, func.ReturnOp) or op.name == "relay.yield":
                return args
            results = self.eval_op(op, args, env)
            for result, value in zip(op.results, results, strict=True):
                env[result] = value
        raise EvaluationError("block has no terminator")

    def eval_op(self, op: Operation, args: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
        """The result values of one op."""
        if isinstance(op, func.CallOp):
            return self.call(op.callee.root_reference.data, args)
        fn = _REFERENCE.get(type(op))
        if fn is None:
            raise EvaluationError(f"'{op.name}' has no reference semantics")
        self._env: dict[SSAValue, Value] = env
        try:
            value = fn(self, op, args)
        except EvaluationError:
            raise
        except (ValueError, TypeError, IndexError, ArithmeticError) as error:
            raise EvaluationError(f"'{op.name}' failed: {error}") from error
        if len(op.results) == 1:
            return [conform(value, op.results[0].type)]
        return [conform(v, r.type) for v, r in zip(value, op.results, strict=True)]

    def run_nested(self, region: Region, args: Sequence[Value] = ()) -> list[Value]:
        """Run a nested region that may read values of the enclosing scope (`relay.if`)."""
        # SSA values are unique, so the enclosing environment is shared, not copied:
        # copying it per `if` would make evaluation quadratic.
        env = self._env
        for arg, value in zip(region.block.args, args, strict=True):
            env[arg] = value
        return self.run_block(region.block, env)


def check_inputs(function: func.FuncOp, inputs: Sequence[Value]) -> list[Value]:
    """Check count, shapes and dtypes of inputs against a function's parameters."""
    params = function.body.block.args
    if len(inputs) != len(params):
        raise ValueError(
            f"function '{function.sym_name.data}' takes {len(params)} inputs, got {len(inputs)}"
        )
    out: list[Value] = []
    for index, (param, value) in enumerate(zip(params, inputs, strict=True)):
        name = param.name_hint or f"#{index}"
        out.append(_check_value(value, param.type, f"input '{name}'"))
    return out


def _check_value(value: Value, ty: Attribute, what: str) -> Value:
    if isinstance(ty, TupleType):
        if not isinstance(value, tuple | list):
            raise ValueError(f"{what}: expected a tuple for type {ty}")
        items = cast(Sequence[Value], value)
        if len(items) != len(ty.types.data):
            raise ValueError(f"{what}: expected {len(ty.types.data)} tuple fields")
        return tuple(
            _check_value(v, t, f"{what}[{i}]")
            for i, (v, t) in enumerate(zip(items, ty.types.data, strict=True))
        )
    assert isinstance(ty, TensorType)
    array = np.asarray(value)
    dtype = numpy_dtype(tensor_element_type(cast(Attribute, ty)))
    if array.dtype != dtype:
        raise ValueError(f"{what}: expected dtype {dtype.name}, got {array.dtype.name}")
    shape = tuple(ty.get_shape())
    if len(shape) != array.ndim or any(
        d not in (ANY, s) for d, s in zip(shape, array.shape, strict=True)
    ):
        raise ValueError(
            f"{what}: expected shape {format_shape(shape)}, got {format_shape(array.shape)}"
        )
    return array


def evaluate_module(module: ModuleOp, inputs: Sequence[Value], entry: str = "main") -> Value:
    """Run `entry` on numpy inputs: one result is returned bare, several as a tuple."""
    evaluator = Evaluator(module)
    if entry not in evaluator.functions:
        raise ValueError(f"module has no function '{entry}'")
    args = check_inputs(evaluator.functions[entry], inputs)
    results = evaluator.call(entry, args)
    return results[0] if len(results) == 1 else tuple(results)


def make_input(ty: Attribute, rng: np.random.Generator | None, dynamic_size: int = 1) -> Value:
    """A value of a parameter type: zeros without `rng`, else seeded random values.

    Floats are standard normal, integers in [0, 10), booleans fair coin flips;
    a dynamic `?` dimension gets `dynamic_size`.
    """
    if isinstance(ty, TupleType):
        return tuple(make_input(t, rng, dynamic_size) for t in ty.types.data)
    if not isinstance(ty, TensorType):
        raise ValueError(f"cannot make an input of type {ty}")
    shape = [dynamic_size if d == ANY else d for d in ty.get_shape()]
    dtype = numpy_dtype(tensor_element_type(cast(Attribute, ty)))
    if rng is None:
        return np.zeros(shape, dtype)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    return rng.integers(0, 10, shape).astype(dtype)


def random_inputs(function: func.FuncOp, seed: int = 0, dynamic_size: int = 1) -> list[Value]:
    """Seeded random values for every parameter of a function."""
    rng = np.random.default_rng(seed)
    return [make_input(arg.type, rng, dynamic_size) for arg in function.body.block.args]
