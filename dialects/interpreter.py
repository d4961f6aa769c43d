"""The numpy reference interpreter: the oracle every pass and backend is tested against.

Each op's semantics is a function registered with `@reference(OpClass, ...)`:
`fn(evaluator, op, args) -> value`, where a value is a numpy array or a tuple
of values (Relay tuples). Dialects register their own (relay's live in
`relay/reference_*.py`; a backend registers its accelerator ops the same way).
The evaluator runs `func.func` bodies in order, once per op: linear in the
size of the graph. An op with regions registers `@enters_region(OpClass)`
instead: `fn(evaluator, op, args) -> Entered(region, args)` picks the region
to run, and the evaluator runs it, like a `func.call`'s callee, on its own
stack of frames, so neither recursion nor nested regions use Python's stack
(`MAX_CALL_DEPTH` calls at most). Failures are `EvaluationError`s located at
the op (a `DiagnosticError`), including a result that cannot be allocated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, TensorType, TupleType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay.types import (
    ANY,
    BFLOAT16,
    by_instance,
    format_shape,
    is_float_dtype,
    numpy_dtype,
    tensor_element_type,
)

Value = Any
"""A runtime value: `np.ndarray` or a tuple of values."""

ReferenceFn = Callable[["Evaluator", Any, list[Value]], Value]
_OpT = TypeVar("_OpT", bound=type[Operation])

_REFERENCE: dict[type[Operation], ReferenceFn] = {}


class EvaluationError(DiagnosticError):
    """A runtime failure of the reference interpreter: located at the op that failed, if known.

    A `DiagnosticError` (tools print it as one line, exit status 1); `message`
    is the text without the location, `op` the failing op or None.
    """

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__([op_error(op, message)] if op is not None else [])
        self.message = message
        self.op = op

    def __str__(self) -> str:
        if not self.diagnostics:
            return self.message
        located = [d for d in self.diagnostics if d.line > 0]
        return super().__str__() if located else self.diagnostics[0].message

    @property
    def located(self) -> bool:
        """Whether the error has a source position (`file:line:col`)."""
        return any(d.line > 0 for d in self.diagnostics)

    def at(self, op: Operation) -> EvaluationError:
        """This error, located at `op` unless it already names an op."""
        return self if self.op is not None else EvaluationError(self.message, op)


@dataclass(frozen=True)
class Entered:
    """What an op with regions runs next: one of its regions, with block arguments.

    `shares_scope`: the region reads values of the enclosing block (`relay.if`);
    otherwise it sees only its arguments (`relay.composite`). The values its
    terminator yields are the op's results.
    """

    region: Region
    args: Sequence[Value] = ()
    shares_scope: bool = False


RegionEntry = Callable[["Evaluator", Any, list[Value]], Entered]

_REGION_ENTRY: dict[type[Operation], RegionEntry] = {}


def enters_region(*op_types: type[Operation]) -> Callable[[RegionEntry], RegionEntry]:
    """Register `fn(evaluator, op, args) -> Entered` as the semantics of ops with regions.

    The evaluator runs the chosen region on its own frame stack (not on
    Python's), so nesting such ops, like calls, is not bounded by Python's
    recursion limit.
    """

    def register(fn: RegionEntry) -> RegionEntry:
        for op_type in op_types:
            _REGION_ENTRY[op_type] = fn
        return fn

    return register


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
    return op_type in _REFERENCE or op_type in _REGION_ENTRY


_loaded = False


_SEMANTICS = (
    *("structure", "elementwise", "nn", "tensor", "nn_norm", "nn_extra"),
    *("movement", "indexing", "scan", "algorithm", "einsum", "vision", "conv", "image"),
    *("image_sample",),
    *("upsampling", "slice_like", "reverse_reshape", "deformable_conv"),
    *("stack_repeat", "fast_math"),
    *("like_ops", "space_batch"),
    *("dyn", "sparse_to_dense"),
    *("vision_rcnn",),
    *("annotation",),
)
"""The `reference_<name>` modules of relay ops' semantics, imported on first use."""


def _load_relay_semantics() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import importlib

        for name in _SEMANTICS:
            # Importing a semantics module registers its functions.
            importlib.import_module(f"xrelay.dialects.relay.reference_{name}")
        importlib.import_module("xrelay.dialects.accel_reference")
        importlib.import_module("xrelay.dialects.dnnl_reference")


def conform(value: Value, ty: Attribute) -> Value:
    """Cast a computed value to the dtype of its IR type and check its static shape.

    Tuples are walked on an explicit stack: tuple types may nest deeper than
    Python's recursion limit.
    """
    if not isinstance(ty, TupleType):
        return _conform_leaf(value, ty)
    out: list[Value] = []
    # (finished, value or collected fields, type, where the result goes)
    tasks: list[tuple[bool, Value, Attribute, list[Value]]] = [(False, value, ty, out)]
    while tasks:
        finished, current, current_ty, dest = tasks.pop()
        if finished:
            dest.append(tuple(current))
        elif isinstance(current_ty, TupleType):
            items = tuple(current)
            field_types = current_ty.types.data
            if len(items) != len(field_types):
                raise EvaluationError(f"computed {len(items)} tuple fields for type {current_ty}")
            fields: list[Value] = []
            tasks.append((True, fields, current_ty, dest))
            pairs = list(zip(items, field_types, strict=True))
            tasks.extend((False, v, t, fields) for v, t in reversed(pairs))
        else:
            dest.append(_conform_leaf(current, current_ty))
    return out[0]


def _conform_leaf(value: Value, ty: Attribute) -> Value:
    facts = _tensor_facts(ty)
    if facts is not None:
        dtype, shape = facts
        array = np.asarray(value)
        if array.dtype != dtype:
            array = array.astype(dtype)
        if array.shape != shape and (
            len(shape) != array.ndim
            or any(d not in (ANY, s) for d, s in zip(shape, array.shape, strict=True))
        ):
            raise EvaluationError(
                f"computed shape {format_shape(array.shape)} does not match type {ty}"
            )
        return array
    return value


@by_instance(4096)
def _tensor_facts(ty: Attribute) -> tuple[np.dtype[Any], tuple[int, ...]] | None:
    """The numpy dtype and shape of a tensor type (None for other types), remembered per
    type instance: every evaluated op's results ask."""
    if not isinstance(ty, TensorType):
        return None
    element = tensor_element_type(cast(Attribute, ty))
    return numpy_dtype(element), tuple(cast(TensorType[Attribute], ty).get_shape())


def _widen_half(value: Value) -> Value:
    """`float16` and `bfloat16` arrays as float32 (exact), also the arrays of a tuple
    (`concatenate`'s; not nested ones, which only tuple ops see): every op on half floats
    computes in float32 and `conform` rounds its result once (to nearest even), as the C
    target does (`codegen/c/half_floats.py`)."""
    if isinstance(value, tuple):
        items = cast(tuple[Value, ...], value)
        return tuple(_widen_leaf(v) for v in items)
    return _widen_leaf(value)


def _widen_leaf(value: Value) -> Value:
    if not isinstance(value, np.ndarray):
        return value
    array = cast(np.ndarray[Any, np.dtype[Any]], value)
    return array.astype(np.float32) if array.dtype in _HALF_DTYPES else array


_HALF_DTYPES = (BFLOAT16, np.dtype(np.float16))
"""Dtype instances (compared by identity first; `np.float16`, a scalar type, would be
converted to a dtype at every comparison)."""


MAX_CALL_DEPTH = 10_000
"""How deep calls may nest in the interpreter before it stops (infinite recursion?)."""


@dataclass
class _Frame:
    """A block being run: its values, the next op, and the op its terminator answers."""

    block: Block
    env: dict[SSAValue, Value]
    next: Operation | None
    owner: Operation | None
    """The call or region op whose results the terminator's operands become (None: outermost)."""
    depth: int
    """How many calls deep this frame runs."""


class Evaluator:
    """Runs the functions of a module on numpy values.

    Calls and regions (`func.call`, `relay.if`, `relay.composite`) run on an
    explicit stack of frames, not Python's: a recursion as deep as
    `max_call_depth` calls works, one deeper is an `EvaluationError` at the call.
    """

    def __init__(self, module: ModuleOp, max_call_depth: int = MAX_CALL_DEPTH):
        _load_relay_semantics()
        self.module = module
        self.max_call_depth = max_call_depth
        self.functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)
        }

    def call(self, name: str, args: Sequence[Value]) -> list[Value]:
        """Call the function `name` with `args`; returns its results."""
        return self._run([self._enter_function(name, args, None, 0)])

    def run_region(self, region: Region, args: Sequence[Value]) -> list[Value]:
        """Run a single-block region with block arguments `args`."""
        block = region.block
        env: dict[SSAValue, Value] = dict(zip(block.args, args, strict=True))
        return self.run_block(block, env)

    def run_block(self, block: Block, env: dict[SSAValue, Value]) -> list[Value]:
        """Run the ops of `block`; returns the operands of its terminator."""
        return self._run([_Frame(block, env, block.first_op, None, 0)])

    def run_nested(self, region: Region, args: Sequence[Value] = ()) -> list[Value]:
        """Run a nested region that may read values of the enclosing scope (`relay.if`)."""
        # SSA values are unique, so the enclosing environment is shared, not copied:
        # copying it per `if` would make evaluation quadratic.
        env = self._env
        for arg, value in zip(region.block.args, args, strict=True):
            env[arg] = value
        return self.run_block(region.block, env)

    def _run(self, frames: list[_Frame]) -> list[Value]:
        """Run frames until the first one's terminator; returns its operands."""
        while True:
            frame = frames[-1]
            op = frame.next
            if op is None:
                raise EvaluationError("block has no terminator", frame.owner)
            frame.next = op.next_op
            env = frame.env
            args = [env[o] for o in op.operands]
            if isinstance(op, func.ReturnOp) or op.name == "relay.yield":
                frames.pop()
                if not frames:
                    return args
                owner = frame.owner
                assert owner is not None
                self._bind(owner, args, frames[-1].env)
                continue
            entered = self._enter(op, args, frame)
            if entered is not None:
                frames.append(entered)
                continue
            self._bind(op, self.eval_op(op, args, env), env, conformed=True)

    def _enter(self, op: Operation, args: list[Value], frame: _Frame) -> _Frame | None:
        """The frame an op with a region (or a call) runs next, or None for a plain op."""
        if isinstance(op, func.CallOp):
            return self._enter_function(op.callee.root_reference.data, args, op, frame.depth + 1)
        entry = _REGION_ENTRY.get(type(op))
        if entry is None:
            return None
        try:
            entered = entry(self, op, args)
        except EvaluationError as error:
            raise error.at(op) from error
        block = entered.region.block
        env = frame.env if entered.shares_scope else {}
        for arg, value in zip(block.args, entered.args, strict=True):
            env[arg] = value
        return _Frame(block, env, block.first_op, op, frame.depth)

    def _enter_function(
        self, name: str, args: Sequence[Value], call: Operation | None, depth: int
    ) -> _Frame:
        if name not in self.functions:
            raise EvaluationError(f"no function named '{name}'", call)
        callee = self.functions[name]
        if not callee.body.blocks:
            raise EvaluationError(f"function '{name}' is a declaration without a body", call)
        if depth > self.max_call_depth:
            message = f"call depth exceeds {self.max_call_depth} (infinite recursion?) in @{name}"
            raise EvaluationError(message, call)
        block = callee.body.block
        env: dict[SSAValue, Value] = dict(zip(block.args, args, strict=True))
        return _Frame(block, env, block.first_op, call, depth)

    def _bind(
        self,
        op: Operation,
        values: Sequence[Value],
        env: dict[SSAValue, Value],
        conformed: bool = False,
    ) -> None:
        """Record `values` as the results of `op` (conformed to their types unless they are)."""
        if not conformed:
            try:
                values = [conform(v, r.type) for v, r in zip(values, op.results, strict=True)]
            except EvaluationError as error:
                raise error.at(op) from error
        for result, value in zip(op.results, values, strict=True):
            env[result] = value

    def eval_op(self, op: Operation, args: list[Value], env: dict[SSAValue, Value]) -> list[Value]:
        """The result values of one op, conformed to its result types."""
        if isinstance(op, func.CallOp):
            return self.call(op.callee.root_reference.data, args)
        if type(op) in _REGION_ENTRY:  # run on its own stack (the main loop enters it instead)
            frame = self._enter(op, args, _Frame(Block(), env, None, None, 0))
            assert frame is not None
            values = self._run([frame])
            try:
                return [conform(v, r.type) for v, r in zip(values, op.results, strict=True)]
            except EvaluationError as error:
                raise error.at(op) from error
        fn = _REFERENCE.get(type(op))
        if fn is None:
            raise EvaluationError("has no reference semantics", op)
        self._env: dict[SSAValue, Value] = env
        try:
            value = fn(self, op, [_widen_half(a) for a in args])
            if len(op.results) == 1:
                return [conform(value, op.results[0].type)]
            return [conform(v, r.type) for v, r in zip(value, op.results, strict=True)]
        except EvaluationError as error:
            raise error.at(op) from error
        except MemoryError as error:
            raise EvaluationError(out_of_memory(op, error), op) from None
        except (ValueError, TypeError, IndexError, ArithmeticError) as error:
            raise EvaluationError(f"failed: {error}", op) from error


def out_of_memory(op: Operation, error: MemoryError) -> str:
    """What an op that ran out of memory could not allocate (numpy's `ArrayMemoryError` says)."""
    wanted = getattr(error, "_total_size", None)
    if not isinstance(wanted, int):
        return "ran out of memory (MemoryError)"
    result_bytes = sum(_static_bytes(r.type) or 0 for r in op.results)
    what = "its result" if wanted == result_bytes else "an intermediate array"
    return f"cannot allocate {wanted} bytes for {what} (out of memory)"


def _static_bytes(ty: Attribute) -> int | None:
    if isinstance(ty, TupleType):
        sizes = [_static_bytes(t) for t in ty.types.data]
        return None if None in sizes else sum(s or 0 for s in sizes)
    if not isinstance(ty, TensorType):
        return None
    shape = tuple(ty.get_shape())
    if ANY in shape:
        return None
    count = 1
    for dim in shape:
        count *= dim
    return count * numpy_dtype(tensor_element_type(cast(Attribute, ty))).itemsize


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
    if array.dtype != dtype and array.dtype == dtype.newbyteorder():
        array = array.astype(dtype)  # the other byte order: the same values, made native
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


def evaluate_module(
    module: ModuleOp,
    inputs: Sequence[Value],
    entry: str = "main",
    max_call_depth: int = MAX_CALL_DEPTH,
) -> Value:
    """Run `entry` on numpy inputs: one result is returned bare, several as a tuple."""
    evaluator = Evaluator(module, max_call_depth)
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
    if is_float_dtype(dtype):
        return rng.standard_normal(shape).astype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    return rng.integers(0, 10, shape).astype(dtype)


def random_inputs(function: func.FuncOp, seed: int = 0, dynamic_size: int = 1) -> list[Value]:
    """Seeded random values for every parameter of a function."""
    rng = np.random.default_rng(seed)
    return [make_input(arg.type, rng, dynamic_size) for arg in function.body.block.args]
