"""Every dtype relay represents, op by op: the host C target against the interpreter.

One module per dtype holds every op that takes it (one compile per dtype); each
(op, dtype) pair is its own test case. Integer and boolean results must match
bit for bit. f16 and bf16 results must match bit for bit too where the rule of
docs/semantics.md (the op computes in float32, its result rounded once) fixes
them: element moves, comparisons, casts, min/max, the correctly rounded
arithmetic (`add`, `subtract`, `multiply`, `divide`, `sqrt`). Elsewhere the
float32 value before the rounding comes from a different function (libm's `expf`
against numpy's) or a different summation order (double against float64), so the
two sides may round to neighbouring half floats: those ops (`INEXACT`) allow one
unit in the last place of the half type. The half-float graphs are also built
for `["accel", "c"]` and `["dnnl", "c"]`: those targets take f32 only, so the
graph stays on the host and matches the interpreter bit for bit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xrelay.codegen.c.pipeline import BuiltLibrary

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
BF16 = np.dtype(ml_dtypes.bfloat16)

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
HALF = ["float16", "bfloat16"]
DTYPES = ["bool", *INTS, *HALF]

ULP = {"float16": 2.0**-10, "bfloat16": 2.0**-7}
"""The spacing of the half types at 1: the relative tolerance of an `INEXACT` op."""

INEXACT = {"exp", "tanh", "sigmoid", "log", "sum", "mean", "prod", "dense", "conv2d", "softmax"}
"""Half-float ops whose float32 value differs between libm / summation orders (module doc)."""

Build = Callable[[list[relay.Var]], relay.Expr]


def _index(values: list[int]) -> relay.Expr:
    return relay.const(np.array(values, "int64"))


# name -> (number of (2, 6) inputs, kinds of dtype it takes, builder)
OPS: dict[str, tuple[int, str, Build]] = {
    "add": (2, "bif", lambda v: relay.add(v[0], v[1])),
    "subtract": (2, "if", lambda v: relay.subtract(v[0], v[1])),
    "multiply": (2, "bif", lambda v: relay.multiply(v[0], v[1])),
    "divide": (2, "if", lambda v: relay.divide(v[0], v[1])),
    "maximum": (2, "bif", lambda v: relay.maximum(v[0], v[1])),
    "minimum": (2, "bif", lambda v: relay.minimum(v[0], v[1])),
    "equal": (2, "bif", lambda v: relay.equal(v[0], v[1])),
    "less": (2, "bif", lambda v: relay.less(v[0], v[1])),
    "greater_equal": (2, "bif", lambda v: relay.greater_equal(v[0], v[1])),
    "power": (2, "i", lambda v: relay.power(v[0], v[1])),
    "negative": (1, "if", lambda v: relay.negative(v[0])),
    "abs": (1, "if", lambda v: relay.abs(v[0])),
    "sqrt": (1, "f", lambda v: relay.sqrt(relay.abs(v[0]))),
    "exp": (1, "f", lambda v: relay.exp(v[0])),
    "log": (1, "f", lambda v: relay.log(v[0])),
    "tanh": (1, "f", lambda v: relay.tanh(v[0])),
    "sigmoid": (1, "f", lambda v: relay.sigmoid(v[0])),
    "floor": (1, "f", lambda v: relay.floor(v[0])),
    "round": (1, "f", lambda v: relay.round(v[0])),
    "relu": (1, "if", lambda v: relay.nn.relu(v[0])),
    "clip": (1, "if", lambda v: relay.clip(v[0], 1.0, 5.0)),
    "sum": (1, "bif", lambda v: relay.sum(v[0], axis=1)),
    "prod": (1, "bif", lambda v: relay.prod(v[0], axis=1)),
    "max": (1, "bif", lambda v: relay.max(v[0], axis=1)),
    "min": (1, "bif", lambda v: relay.min(v[0], axis=0, keepdims=True)),
    "mean": (1, "if", lambda v: relay.mean(v[0], axis=1)),
    "argmax": (1, "bif", lambda v: relay.argmax(v[0], axis=1)),
    "argmin": (1, "bif", lambda v: relay.argmin(v[0], axis=0)),
    "take": (1, "bif", lambda v: relay.take(v[0], _index([5, 0, 2]), axis=1)),
    "concatenate": (2, "bif", lambda v: relay.concatenate([v[0], v[1]], axis=0)),
    "reshape": (1, "bif", lambda v: relay.reshape(v[0], (3, 4))),
    "transpose": (1, "bif", lambda v: relay.transpose(v[0], (1, 0))),
    "strided_slice": (1, "bif", lambda v: relay.strided_slice(v[0], [0, 1], [2, 6], [1, 2])),
    "where": (2, "bif", lambda v: relay.where(relay.less(v[0], v[1]), v[0], v[1])),
    "dense": (2, "if", lambda v: relay.nn.dense(v[0], v[1])),
    "softmax": (1, "f", lambda v: relay.nn.softmax(v[0])),
    "constant": (1, "bif", lambda v: v[0]),  # built below: maximum with a constant of dtype
    **{
        f"cast_to_{target}": (1, "bif", lambda v, t=target: relay.cast(v[0], t))
        for target in ["bool", "int8", "uint16", "int64", "uint64", *HALF, "float32", "float64"]
    },
    "cast_from_f32": (1, "bif", lambda v: v[0]),  # built below: a float32 input cast to dtype
    "cast_from_f64": (1, "bif", lambda v: v[0]),
}


def kind(dtype: str) -> str:
    return "b" if dtype == "bool" else "f" if dtype in HALF else "i"


def numpy_dtype(dtype: str) -> np.dtype[Any]:
    return BF16 if dtype == "bfloat16" else np.dtype(dtype)


def values(dtype: str, shape: tuple[int, ...], rng: np.random.Generator) -> Array:
    """Random values with the type's edges: MIN, MAX, 0 for integers; NaN, ±Inf, -0.0 for
    half floats (whose other values lie in [-6, 6], so exp and sums stay finite)."""
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in HALF:
        out = rng.uniform(-6.0, 6.0, shape).astype(np.float32)
        edges = np.array([np.nan, np.inf, -np.inf, -0.0, 0.5], np.float32)
        mask = rng.random(shape) < 0.15
        out[mask] = rng.choice(edges, int(mask.sum()))
        return out.astype(numpy_dtype(dtype))
    info = np.iinfo(dtype)
    out = rng.integers(max(int(info.min), -9), 10, shape).astype(dtype)
    edges = np.array([info.min, info.max, 0, 1, info.max - 1], dtype)
    mask = rng.random(shape) < 0.2
    out[mask] = rng.choice(edges, int(mask.sum()))
    return out


class DtypeModule:
    """Every op that takes `dtype`, in one module: its inputs, labels and both results."""

    def __init__(self, dtype: str, seed: int) -> None:
        rng = np.random.default_rng(seed)
        params: list[relay.Var] = []
        self.inputs: list[Array] = []
        outputs: list[relay.Expr] = []
        self.labels: list[str] = []
        for name, (count, kinds, build) in OPS.items():
            if kind(dtype) not in kinds:
                continue
            if name.startswith("cast_from_"):
                source = "float32" if name.endswith("f32") else "float64"
                v = relay.var(f"{name}0", shape=(2, 6), dtype=source)
                wide = rng.uniform(-300.0, 300.0, (2, 6)).astype(source)
                wide[0, :3] = [np.nan, np.inf, -1e30]
                params.append(v)
                self.inputs.append(wide)
                outputs.append(relay.cast(v, dtype))
            else:
                vs = [relay.var(f"{name}{i}", shape=(2, 6), dtype=dtype) for i in range(count)]
                params += vs
                self.inputs += [values(dtype, (2, 6), rng) for _ in vs]
                out = build(vs)
                if name == "constant":  # a literal of dtype, edges included, in the C source
                    out = relay.maximum(out, relay.const(values(dtype, (6,), rng), dtype))
                outputs.append(out)
            self.labels.append(name)
        self.module = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
        self.want = list(xrelay.evaluate(self.module, *self.inputs))

    def results(self, lib: BuiltLibrary) -> dict[str, tuple[Array, Array]]:
        got = lib(*self.inputs)
        return {
            label: (np.asarray(g), np.asarray(w))
            for label, g, w in zip(self.labels, got, self.want, strict=True)
        }


_BUILT: dict[str, dict[str, tuple[Array, Array]]] = {}


def results_of(dtype: str, cache: Path) -> dict[str, tuple[Array, Array]]:
    if dtype not in _BUILT:
        made = DtypeModule(dtype, seed=DTYPES.index(dtype))
        lib = xrelay.build(made.module, target="c", options={"cache_dir": cache})
        _BUILT[dtype] = made.results(lib)
    return _BUILT[dtype]


def mismatch(got: Array, want: Array, tolerance: float, atol: float = 0.0) -> str | None:
    """None if `got` matches `want`: the same dtype and shape, and the same bits (any NaN
    equals any NaN), or for floats within `tolerance` relative (one ulp, `INEXACT`) or
    `atol` absolute."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"got {got.dtype}{list(got.shape)}, want {want.dtype}{list(want.shape)}"
    if want.dtype.kind in "biu":
        if not np.array_equal(got, want):
            return f"got {got.ravel().tolist()}, want {want.ravel().tolist()}"
        return None
    g, w = got.astype(np.float64), want.astype(np.float64)
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return f"NaN positions differ: got {g.ravel()}, want {w.ravel()}"
    keep = ~np.isnan(w)
    g, w = g[keep], w[keep]
    if tolerance == 0.0 and atol == 0.0:
        same = np.array_equal(g, w) and np.array_equal(np.signbit(g), np.signbit(w))
        return None if same else f"got {g.ravel()}, want {w.ravel()}"
    if not np.allclose(g, w, rtol=tolerance, atol=atol):
        return f"beyond {tolerance}: got {g.ravel()}, want {w.ravel()}"
    return None


CASES = [
    pytest.param(name, dtype, id=f"{name}-{dtype}")
    for dtype in DTYPES
    for name, (_, kinds, _) in OPS.items()
    if kind(dtype) in kinds
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaN and ±Inf through numpy
@pytest.mark.parametrize(("op", "dtype"), CASES)
def test_c_target_matches_interpreter(op: str, dtype: str, cache: Path) -> None:
    got, want = results_of(dtype, cache)[op]
    tolerance = ULP[dtype] if dtype in HALF and op in INEXACT else 0.0
    problem = mismatch(got, want, tolerance)
    assert problem is None, f"{op} on {dtype}: {problem}"


def test_every_dtype_is_covered() -> None:
    """Each dtype meets the elementwise, reduction, move and cast families."""
    for dtype in DTYPES:
        taken = {name for name, (_, kinds, _) in OPS.items() if kind(dtype) in kinds}
        assert {"add", "max", "sum", "argmax", "take", "concatenate", "where"} <= taken
        assert {"transpose", "reshape", "cast_to_float32", "cast_from_f32"} <= taken


def test_half_rounding_is_once_per_op() -> None:
    """The rule itself, against hand values: `a + b` in bf16 rounds the exact sum once, to
    nearest even (1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1); sigmoid in f16
    rounds its float32 value once (numpy's float16 steps would round three times)."""
    a, b = (
        relay.var("a", shape=(2,), dtype="bfloat16"),
        relay.var("b", shape=(2,), dtype="bfloat16"),
    )
    mod = IRModule.from_expr(relay.Function([a, b], relay.add(a, b)))
    out = xrelay.evaluate(mod, np.array([1.0, 1.0], BF16), np.array([2.0**-8, 3 * 2.0**-8], BF16))
    assert out.dtype == BF16
    assert out.astype(np.float32).tolist() == [1.0, 1.0 + 2.0**-6]
    x = relay.var("x", shape=(3,), dtype="float16")
    data = np.array([-1.16, 0.37, 2.9], np.float16)
    got = xrelay.evaluate(IRModule.from_expr(relay.Function([x], relay.sigmoid(x))), data)
    exact = 1.0 / (1.0 + np.exp(-data.astype(np.float64)))
    assert got.dtype == np.float16
    assert got.tolist() == exact.astype(np.float32).astype(np.float16).tolist()


@pytest.mark.parametrize("target", [["accel", "c"], ["dnnl", "c"]])
@pytest.mark.parametrize("dtype", HALF)
def test_half_graph_stays_on_host_with_byoc_targets(
    target: list[str], dtype: str, cache: Path
) -> None:
    """accel and dnnl take f32 only: a conv2d/dense graph in f16 or bf16 builds, none of it is
    partitioned, its results are those of target `c` bit for bit, and they match the
    interpreter within one ulp (conv2d, dense and softmax are `INEXACT`)."""
    rng = np.random.default_rng(7)
    half = numpy_dtype(dtype)
    x = relay.var("x", shape=(1, 3, 6, 6), dtype=dtype)
    w = relay.const(rng.uniform(-1, 1, (4, 3, 3, 3)).astype(np.float32).astype(half))
    bias = relay.const(rng.uniform(-1, 1, (4,)).astype(np.float32).astype(half))
    y = relay.nn.conv2d(x, w, padding=(1, 1), channels=4, kernel_size=(3, 3))
    y = relay.nn.relu(relay.nn.bias_add(y, bias))
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    dense_w = relay.const(rng.uniform(-1, 1, (5, 36)).astype(np.float32).astype(half))
    y = relay.nn.softmax(relay.nn.dense(relay.reshape(y, (1, 36)), dense_w))
    mod = IRModule.from_expr(relay.Function([x], y))
    data = rng.uniform(0, 2, (1, 3, 6, 6)).astype(np.float32).astype(half)
    want = xrelay.evaluate(mod, data)
    lib = xrelay.build(mod, target=target, options={"cache_dir": cache})
    assert "Compiler" not in str(lib.module)
    host = xrelay.build(mod, target="c", options={"cache_dir": cache})
    got, on_host = np.asarray(lib(data)), np.asarray(host(data))
    assert got.dtype == want.dtype == half
    assert got.tobytes() == on_host.tobytes()
    assert np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=ULP[dtype], atol=0)


NN_CASES: dict[str, Callable[[relay.Var, relay.Var, np.dtype[Any]], relay.Expr]] = {
    "batch_norm": lambda x, g, _: relay.nn.batch_norm(x, g, g, g, relay.abs(g))[0],
    "dropout": lambda x, g, _: relay.nn.dropout(x),
    "conv2d": lambda x, g, t: relay.nn.conv2d(
        x, relay.const(np.full((2, 4, 3, 3), 0.25, t)), kernel_size=(3, 3), channels=2
    ),
    "avg_pool2d": lambda x, g, _: relay.nn.avg_pool2d(x, pool_size=(2, 2)),
    "max_pool2d": lambda x, g, _: relay.nn.max_pool2d(x, pool_size=(2, 2)),
    "global_avg_pool2d": lambda x, g, _: relay.nn.global_avg_pool2d(x),
    "pad": lambda x, g, _: relay.nn.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), 0.5),
    "bias_add": lambda x, g, _: relay.nn.bias_add(x, g),
    "log_softmax": lambda x, g, _: relay.nn.log_softmax(x),
    "leaky_relu": lambda x, g, _: relay.nn.leaky_relu(x, 0.1),
    "batch_flatten": lambda x, g, _: relay.nn.batch_flatten(relay.exp(x)),
    "layout_transform": lambda x, g, _: relay.layout_transform(x, "NCHW", "NHWC"),
    "split": lambda x, g, _: relay.split(x, 2, axis=1)[1],
    "zeros": lambda x, g, _: relay.add(x, relay.ones((1, 4, 5, 5), dtype_name(x))),
    "if": lambda x, g, _: relay.If(relay.const(True), relay.exp(x), relay.negative(x)),
}


def dtype_name(x: relay.Var) -> str:
    return "bfloat16" if "bf16" in str(x.checked_type) else "float16"


@pytest.mark.parametrize("dtype", HALF)
@pytest.mark.parametrize("optimize", [False, True])
def test_nn_structure_and_tuple_ops_on_half_floats(dtype: str, optimize: bool, cache: Path) -> None:
    """Ops with tuple results (batch_norm, dropout), kernels with windows and padding, aliases
    and branches on f16 and bf16: within one half ulp of the interpreter. Optimized, a
    batch_norm becomes `x * s + t`, each step rounded (docs/semantics.md): the rounding of
    `x * s` stays when `+ t` cancels, so a few ulps of the largest result, absolute."""
    half = numpy_dtype(dtype)
    rng = np.random.default_rng(11)
    x = relay.var("x", shape=(1, 4, 5, 5), dtype=dtype)
    g = relay.var("g", shape=(4,), dtype=dtype)
    outputs = [build(x, g, half) for build in NN_CASES.values()]
    mod = IRModule.from_expr(relay.Function([x, g], relay.Tuple(outputs)))
    inputs = [rng.uniform(-2, 2, s).astype(np.float32).astype(half) for s in ((1, 4, 5, 5), (4,))]
    want = xrelay.evaluate(mod, *inputs)
    got = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})(*inputs)
    problems = []
    for name, g_, w in zip(NN_CASES, got, want, strict=True):
        w = np.asarray(w)
        atol = 0.0
        if optimize and name == "batch_norm":
            atol = 4 * ULP[dtype] * float(np.max(np.abs(w.astype(np.float64))))
        problem = mismatch(np.asarray(g_), w, ULP[dtype], atol)
        if problem:
            problems.append(f"{name}: {problem}")
    assert not problems, "\n".join(problems)
