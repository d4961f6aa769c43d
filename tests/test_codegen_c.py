"""The host C target, op by op: `xrelay.build(mod, target="c")` against the reference interpreter.

Each test builds one module whose `main` returns many cases at once (one
compile per family of ops), feeds seeded random inputs, and compares every
output with `xrelay.evaluate`. Families run with `optimize=False` (every op
reaches its own C as written; elementwise chains still fuse in the emitter)
and, where optimization keeps the op, through the whole pipeline too.
Structure (tuples, calls, `relay.if`, composites, aliases), the C ABI seen
from Python, name sanitization, options and errors have their own tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.codegen.build import compile_library
from xrelay.codegen.c import CEmitter
from xrelay.codegen.c.pipeline import BuiltLibrary, lower
from xrelay.dialects.diagnostics import DiagnosticError

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library

Array = np.ndarray[Any, Any]


def flatten(value: Any) -> list[Array]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in flatten(item)]
    return [np.asarray(value)]


class Cases:
    """Many small computations in one module: each case has its own inputs and output(s)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.params: list[relay.Var] = []
        self.values: list[Array] = []
        self.outputs: list[relay.Expr] = []
        self.labels: list[str] = []

    def var(
        self,
        shape: Sequence[int],
        dtype: str = "float32",
        low: float = -2.0,
        high: float = 2.0,
        value: Array | None = None,
    ) -> relay.Var:
        name = f"v{len(self.params)}"
        if value is None:
            if dtype == "bool":
                value = self.rng.random(shape) < 0.5
            elif np.dtype(dtype).kind in "iu":
                value = self.rng.integers(int(low), int(high) + 1, shape).astype(dtype)
            else:
                value = self.rng.uniform(low, high, shape).astype(dtype)
        v = relay.var(name, shape=tuple(shape), dtype=dtype)
        self.params.append(v)
        self.values.append(np.asarray(value))
        return v

    def add(self, label: str, expr: relay.Expr) -> None:
        self.labels.append(label)
        self.outputs.append(expr)

    def module(self) -> IRModule:
        return IRModule.from_expr(relay.Function(self.params, relay.Tuple(self.outputs)))

    def check(
        self, cache: Path, optimize: bool = False, rtol: float = 1e-5, atol: float = 1e-6
    ) -> BuiltLibrary:
        mod = self.module()
        text = str(mod)
        lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
        assert str(mod) == text, "build changed the caller's module"
        got = flatten(lib(*self.values))
        wants = [flatten(w) for w in xrelay.evaluate(mod, *self.values)]
        expected = [leaf for w in wants for leaf in w]
        assert len(got) == len(expected)
        labels = [label for label, w in zip(self.labels, wants, strict=True) for _ in w]
        problems = []
        for label, g, w in zip(labels, got, expected, strict=True):
            if g.dtype != w.dtype or g.shape != w.shape:
                problems.append(
                    f"{label}: got {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
                )
            elif not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
                diff = np.max(np.abs(g.astype(np.float64) - w.astype(np.float64)))
                problems.append(f"{label}: max abs difference {diff}")
        assert not problems, "\n".join(problems)
        return lib


# ------------------------------------------------------------------ elementwise

BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "power",
    "maximum",
    "minimum",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
]
BROADCASTS = [
    ((2, 3, 4), (2, 3, 4)),
    ((2, 3, 4), (4,)),
    ((2, 1, 4), (3, 1)),
    ((), (2, 3)),
    ((5, 1, 1), (1,)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int8"])
def test_binary_ops_with_broadcasting(dtype: str, cache: Path) -> None:
    cases = Cases(1)
    is_int = dtype.startswith("int")
    for name in BINARY:
        for lhs, rhs in BROADCASTS:
            low = 1 if name in ("power", "divide") and not is_int else -5
            a = cases.var(lhs, dtype, low if name == "power" else -5, 4 if not is_int else 9)
            if name == "power":
                b = cases.var(rhs, dtype, 0, 3)
            elif name == "divide" and is_int:
                b = cases.var(
                    rhs, dtype, value=cases.rng.choice([-3, -2, 1, 2, 5], rhs).astype(dtype)
                )
            else:
                b = cases.var(rhs, dtype, 0.5 if name == "divide" else -5, 4)
            cases.add(f"{name}{lhs}{rhs}", getattr(relay, name)(a, b))
    cases.check(cache)


def test_integer_arithmetic_wraps_like_numpy(cache: Path) -> None:
    cases = Cases(2)
    big = np.array([2**31 - 1, -(2**31), 123456789, -5], "int32")
    a, b = cases.var((4,), "int32", value=big), cases.var((4,), "int32", value=big[::-1].copy())
    for name in ("add", "subtract", "multiply"):
        cases.add(name, getattr(relay, name)(a, b))
    c = cases.var((4,), "int32", value=big)
    cases.add("negative", relay.negative(c))
    d = cases.var((4,), "int8", value=np.array([127, -128, 5, -3], "int8"))
    e = cases.var((4,), "int8", value=np.array([1, -1, 100, 7], "int8"))
    cases.add("add i8", relay.add(d, e))
    cases.add("divide i8", relay.divide(d, e))
    cases.check(cache)


FLOAT_UNARY = ["negative", "abs", "exp", "tanh", "sigmoid", "erf", "floor", "ceil"]
POSITIVE_UNARY = ["log", "sqrt", "rsqrt"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_ops(dtype: str, cache: Path) -> None:
    cases = Cases(3)
    for shape in [(3, 4), (), (2, 1, 5)]:
        for name in FLOAT_UNARY:
            cases.add(f"{name}{shape}", getattr(relay, name)(cases.var(shape, dtype, -3, 3)))
        for name in POSITIVE_UNARY:
            cases.add(f"{name}{shape}", getattr(relay, name)(cases.var(shape, dtype, 0.1, 5)))
        cases.add(f"relu{shape}", relay.nn.relu(cases.var(shape, dtype)))
        cases.add(f"leaky_relu{shape}", relay.nn.leaky_relu(cases.var(shape, dtype), 0.2))
        cases.add(f"clip{shape}", relay.clip(cases.var(shape, dtype), -0.5, 1.25))
    cases.check(cache)


MATH_UNARY: dict[str, tuple[float, float]] = {
    **dict.fromkeys(("sin", "cos", "atan", "sinh", "cosh", "asinh"), (-3.0, 3.0)),
    **dict.fromkeys(("asin", "acos", "atanh"), (-0.95, 0.95)),
    "tan": (-1.4, 1.4),
    "acosh": (1.0, 5.0),
    **dict.fromkeys(("trunc", "round", "sign"), (-4.0, 4.0)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_trigonometry_rounding_and_float_tests(dtype: str, cache: Path) -> None:
    cases = Cases(19)
    for shape in [(3, 4), (), (2, 1, 5)]:
        for name, (low, high) in MATH_UNARY.items():
            cases.add(f"{name}{shape}", getattr(relay, name)(cases.var(shape, dtype, low, high)))
        halves = cases.var(
            shape, dtype, value=(np.round(cases.rng.uniform(-4, 4, shape) * 2) / 2).astype(dtype)
        )
        cases.add(f"round halves{shape}", relay.round(halves))
        for name in ("isnan", "isinf", "isfinite"):
            cases.add(f"{name}{shape}", getattr(relay, name)(relay.log(cases.var(shape, dtype))))
    cases.check(cache, rtol=1e-3 if dtype == "float16" else 1e-5)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "float32"])
def test_modulo_division_bitwise_shifts_and_where(dtype: str, cache: Path) -> None:
    cases = Cases(20)
    is_float = dtype == "float32"
    low, high = (-9.0, 9.0) if dtype != "uint8" else (0.0, 250.0)
    for shape_a, shape_b in [((2, 3), (3,)), ((4,), ()), ((2, 1, 3), (4, 1))]:
        names = ["mod", "floor_mod", "floor_divide", "trunc_divide"]
        if not is_float:
            names += ["bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"]
        for name in names:
            a, b = cases.var(shape_a, dtype, low, high), cases.var(shape_b, dtype, low, high)
            cases.add(f"{name}{shape_a}{shape_b}", getattr(relay, name)(a, b))
        if not is_float:
            cases.add(
                f"bitwise_not{shape_a}", relay.bitwise_not(cases.var(shape_a, dtype, low, high))
            )
        cases.add(f"sign{shape_a}", relay.sign(cases.var(shape_a, dtype, low, high)))
        c = cases.var(shape_b, "bool")
        x, y = cases.var(shape_a, dtype, low, high), cases.var((1,), dtype, low, high)
        cases.add(f"where{shape_a}{shape_b}", relay.where(c, x, y))
    cases.check(cache)


def test_logical_ops_on_booleans(cache: Path) -> None:
    cases = Cases(21)
    for name in ("logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_xor"):
        cases.add(name, getattr(relay, name)(cases.var((2, 3), "bool"), cases.var((3,), "bool")))
    cases.add("logical_not", relay.logical_not(cases.var((5,), "bool")))
    cases.add("bitwise_not", relay.bitwise_not(cases.var((5,), "bool")))
    cases.check(cache)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")  # numpy's clip, 1e9 to f16
def test_float16_computes_through_float(cache: Path) -> None:
    cases = Cases(18)
    a, b = cases.var((6,), "float16"), cases.var((6,), "float16")
    cases.add("add f16", relay.add(a, b))
    cases.add(
        "multiply broadcast f16",
        relay.multiply(cases.var((2, 3), "float16"), cases.var((3,), "float16")),
    )
    cases.add("exp f16", relay.exp(cases.var((6,), "float16", -2, 2)))
    cases.add("relu f16", relay.nn.relu(cases.var((6,), "float16")))
    cases.add("clip f16 (bound beyond f16)", relay.clip(cases.var((6,), "float16"), -0.5, 1e9))
    cases.add("sum f16", relay.sum(cases.var((2, 6), "float16"), axis=1))
    cases.add("softmax f16", relay.nn.softmax(cases.var((2, 6), "float16")))
    cases.add("cast f16->f32", relay.cast(cases.var((6,), "float16"), "float32"))
    cases.check(cache, rtol=1e-3, atol=1e-3)


def test_integer_unary_clip_and_casts(cache: Path) -> None:
    cases = Cases(4)
    ints = cases.var((3, 4), "int32", -9, 9)
    cases.add("abs i32", relay.abs(ints))
    cases.add("negative i32", relay.negative(cases.var((5,), "int32", -9, 9)))
    cases.add("relu i32", relay.nn.relu(cases.var((5,), "int32", -9, 9)))
    cases.add("clip i32", relay.clip(cases.var((6,), "int32", -9, 9), -2.5, 3.7))
    floats = cases.var((2, 5), "float32", -4, 4)
    for dtype in ("int32", "int8", "uint8", "float64", "bool"):
        cases.add(f"cast f32->{dtype}", relay.cast(floats, dtype))
    cases.add("cast i32->f32", relay.cast(cases.var((4,), "int32", -9, 9), "float32"))
    flags = cases.var((2, 3), "bool")
    cases.add("cast bool->f32", relay.cast(flags, "float32"))
    cases.add("cast bool->i64", relay.cast(flags, "int64"))
    cases.add("equal bool", relay.equal(flags, cases.var((3,), "bool")))
    cases.add("maximum bool", relay.maximum(cases.var((3,), "bool"), cases.var((3,), "bool")))
    cases.check(cache)


def test_nan_propagates_as_in_numpy(cache: Path) -> None:
    cases = Cases(5)
    data = np.array([np.nan, 1.0, -1.0, np.nan, 0.0, 2.0], "float32")
    other = np.array([0.0, np.nan, 3.0, np.nan, -1.0, 1.0], "float32")
    a, b = cases.var((6,), value=data), cases.var((6,), value=other)
    cases.add("maximum", relay.maximum(a, b))
    cases.add("minimum", relay.minimum(a, b))
    cases.add("relu", relay.nn.relu(cases.var((6,), value=data)))
    cases.add("clip", relay.clip(cases.var((6,), value=data), -0.5, 0.5))
    cases.add("max", relay.max(cases.var((2, 3), value=data.reshape(2, 3)), axis=1))
    cases.add("argmax", relay.argmax(cases.var((2, 3), value=other.reshape(2, 3)), axis=1))
    cases.add("argmin last", relay.argmin(cases.var((6,), value=other), select_last_index=True))
    cases.check(cache)


def test_bias_add_axes(cache: Path) -> None:
    cases = Cases(6)
    for shape, axis in [
        ((2, 3, 4, 5), 1),
        ((2, 3, 4, 5), -1),
        ((2, 3, 4, 5), 0),
        ((4, 6), 1),
        ((6,), 0),
    ]:
        data = cases.var(shape)
        bias = cases.var((shape[axis],))
        cases.add(
            f"bias_add{shape} axis {axis}", relay.nn.relu(relay.nn.bias_add(data, bias, axis))
        )
    cases.check(cache)
    cases.check(cache, optimize=True)


def test_creation_ops(cache: Path) -> None:
    cases = Cases(7)
    like = cases.var((2, 3))
    fill = cases.var((), "float32")
    cases.add("zeros", relay.add(relay.zeros((2, 3), "float32"), like))
    cases.add("ones i32", relay.ones((4,), "int32"))
    cases.add("full", relay.full(fill, (3, 2)))
    cases.add("full_like", relay.full_like(like, fill))
    cases.add("zeros_like", relay.zeros_like(cases.var((5,), "int32", 0, 9)))
    cases.add("ones_like", relay.ones_like(like))
    cases.check(cache)
    cases.check(cache, optimize=True)


def test_a_long_chain_fuses_into_one_loop(cache: Path) -> None:
    cases = Cases(8)
    x = cases.var((8, 16), "float32", -1, 1)
    y = x
    for _ in range(40):
        y = relay.tanh(relay.add(relay.multiply(y, relay.const(np.float32(1.5))), x))
    cases.add("chain", y)
    lib = cases.check(cache, optimize=True)
    kernels = lib.sources.files["model.c"]
    assert isinstance(kernels, str)
    assert kernels.count("for (int64_t i = 0; i < 128; ++i)") == 1
    assert kernels.count("tanhf(") == 40


# ------------------------------------------------------------------ nn


CONV = [
    # data shape, weight shape, attributes
    ((1, 3, 7, 7), (4, 3, 3, 3), {}),
    ((2, 4, 6, 5), (6, 2, 3, 2), {"groups": 2, "padding": (1, 1)}),
    ((1, 4, 8, 8), (4, 1, 3, 3), {"groups": 4, "strides": (2, 2), "padding": (1, 2, 0, 1)}),
    ((1, 3, 9, 9), (2, 3, 3, 3), {"dilation": (2, 2), "padding": (2, 2)}),
    ((1, 2, 5, 6), (3, 2, 1, 2), {"strides": (2, 1), "padding": (0, 1, 2, 0)}),
]


@pytest.mark.parametrize(
    ("data_layout", "kernel_layout"),
    [("NCHW", "OIHW"), ("NHWC", "HWIO"), ("NCHW", "OHWI"), ("NHWC", "HWOI")],
)
def test_conv2d_layouts_groups_strides_dilation_padding(
    data_layout: str, kernel_layout: str, cache: Path
) -> None:
    cases = Cases(9)
    for dshape, wshape, attrs in CONV:
        data = cases.var([dshape["NCHW".index(d)] for d in data_layout])
        weight = cases.var([wshape["OIHW".index(d)] for d in kernel_layout])
        conv = relay.nn.conv2d(
            data, weight, data_layout=data_layout, kernel_layout=kernel_layout, **attrs
        )
        cases.add(f"conv2d {dshape} {wshape} {attrs}", conv)
    cases.check(cache, rtol=1e-5, atol=1e-5)


def test_conv2d_integer_and_out_dtype(cache: Path) -> None:
    cases = Cases(10)
    data, weight = cases.var((1, 2, 5, 5), "int32", -5, 5), cases.var((3, 2, 3, 3), "int32", -3, 3)
    cases.add("conv2d i32", relay.nn.conv2d(data, weight, padding=(1, 1)))
    small, kernel = cases.var((1, 2, 4, 4), "int8", -5, 5), cases.var((2, 2, 2, 2), "int8", -3, 3)
    cases.add("conv2d i8->i32", relay.nn.conv2d(small, kernel, out_dtype="int32"))
    cases.check(cache)


def test_dense_and_matmul(cache: Path) -> None:
    cases = Cases(11)
    cases.add("dense 2d", relay.nn.dense(cases.var((3, 7)), cases.var((5, 7))))
    cases.add("dense 3d", relay.nn.dense(cases.var((2, 3, 4)), cases.var((6, 4)), units=6))
    cases.add(
        "dense i32",
        relay.nn.dense(cases.var((2, 3), "int32", -9, 9), cases.var((4, 3), "int32", -9, 9)),
    )
    cases.add("matmul", relay.matmul(cases.var((3, 4)), cases.var((4, 5))))
    cases.add("matmul batch", relay.matmul(cases.var((2, 1, 3, 4)), cases.var((3, 4, 2))))
    cases.add("matmul ta", relay.matmul(cases.var((4, 3)), cases.var((4, 2)), transpose_a=True))
    cases.add("matmul tb", relay.matmul(cases.var((2, 3, 4)), cases.var((5, 4)), transpose_b=True))
    cases.add(
        "matmul both",
        relay.matmul(
            cases.var((1, 4, 3)), cases.var((2, 5, 4)), transpose_a=True, transpose_b=True
        ),
    )
    cases.check(cache, rtol=1e-5, atol=1e-5)
    cases.check(cache, optimize=True, rtol=1e-5, atol=1e-5)


POOLS = [
    {"pool_size": (2, 2), "strides": (2, 2)},
    {"pool_size": (3, 3), "strides": (2, 2), "padding": (1, 1)},
    {"pool_size": (3, 2), "strides": (2, 3), "padding": (0, 1, 2, 0), "ceil_mode": True},
    {"pool_size": (2, 2), "dilation": (2, 2), "padding": (1, 1)},
    {"pool_size": (3, 3), "strides": (3, 3), "padding": (2, 2), "ceil_mode": True},
]


@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_pools(layout: str, cache: Path) -> None:
    cases = Cases(12)
    shape = (2, 3, 7, 8) if layout == "NCHW" else (2, 7, 8, 3)
    for attrs in POOLS:
        cases.add(f"max {attrs}", relay.nn.max_pool2d(cases.var(shape), layout=layout, **attrs))
        for include in (False, True):
            pool = relay.nn.avg_pool2d(
                cases.var(shape), layout=layout, count_include_pad=include, **attrs
            )
            cases.add(f"avg {attrs} include {include}", pool)
    cases.add("global max", relay.nn.global_max_pool2d(cases.var(shape), layout=layout))
    cases.add("global avg", relay.nn.global_avg_pool2d(cases.var(shape), layout=layout))
    ints = cases.var(shape, "int32", -20, 20)
    cases.add("max i32", relay.nn.max_pool2d(ints, (3, 3), (2, 2), padding=(1, 1), layout=layout))
    cases.add(
        "avg i32", relay.nn.avg_pool2d(cases.var(shape, "int32", -20, 20), (2, 2), layout=layout)
    )
    cases.add(
        "global avg i32",
        relay.nn.global_avg_pool2d(cases.var(shape, "int32", -20, 20), layout=layout),
    )
    cases.check(cache)


def test_softmax_batch_norm_dropout(cache: Path) -> None:
    cases = Cases(13)
    for shape, axis in [((2, 10), -1), ((2, 3, 4), 1), ((3, 4), 0)]:
        cases.add(f"softmax {axis}", relay.nn.softmax(cases.var(shape, low=-5, high=5), axis))
        cases.add(
            f"log_softmax {axis}", relay.nn.log_softmax(cases.var(shape, low=-5, high=5), axis)
        )
    for shape, axis, center, scale in [
        ((2, 3, 4, 4), 1, True, True),
        ((3, 5), 1, False, True),
        ((2, 4, 3), -1, True, False),
    ]:
        channels = shape[axis]
        norm = relay.nn.batch_norm(
            cases.var(shape),
            cases.var((channels,)),
            cases.var((channels,)),
            cases.var((channels,)),
            cases.var((channels,), low=0.5, high=2),
            axis=axis,
            epsilon=1e-3,
            center=center,
            scale=scale,
        )
        cases.add(f"batch_norm {shape} {axis}", norm)
    cases.add("dropout", relay.nn.dropout_raw(cases.var((2, 5))))
    cases.check(cache)
    cases.check(cache, optimize=True)


# ------------------------------------------------------------------ reductions, tensor ops

REDUCTIONS = ["sum", "mean", "max", "min", "prod", "argmax", "argmin"]
AXES: list[dict[str, Any]] = [
    {},
    {"axis": 1},
    {"axis": (0, 2)},
    {"axis": -1, "keepdims": True},
    {"axis": 1, "exclude": True},
    {"axis": (0, 2), "keepdims": True, "exclude": True},
]


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_reductions(dtype: str, cache: Path) -> None:
    cases = Cases(14)
    for name in REDUCTIONS:
        for attrs in AXES:
            low, high = (0.5, 1.5) if name == "prod" and dtype == "float32" else (-9, 9)
            data = cases.var((3, 4, 5), dtype, low, high)
            cases.add(f"{name} {attrs}", getattr(relay, name)(data, **attrs))
    ties = cases.var((2, 6), dtype, value=np.array([[1, 3, 3, 0, 3, 1], [2, 2, 0, 0, 2, 0]], dtype))
    for name in ("argmax", "argmin"):
        cases.add(f"{name} last", getattr(relay, name)(ties, axis=1, select_last_index=True))
        cases.add(f"{name} first", getattr(relay, name)(ties, axis=1))
    cases.check(cache, rtol=1e-5, atol=1e-5)


def test_data_movement_ops(cache: Path) -> None:
    cases = Cases(15)
    cases.add("transpose", relay.transpose(cases.var((2, 3, 4))))
    cases.add("transpose axes", relay.transpose(cases.var((2, 3, 4, 5)), (0, 2, 3, 1)))
    a, b, c = cases.var((2, 3, 4)), cases.var((2, 1, 4)), cases.var((2, 2, 4))
    cases.add("concatenate axis 1", relay.concatenate([a, b, c], 1))
    cases.add("concatenate axis 0", relay.concatenate([cases.var((1, 3)), cases.var((2, 3))], 0))
    cases.add("concatenate axis -1", relay.concatenate([cases.var((2, 2)), cases.var((2, 3))], -1))
    cases.add("split sections", relay.split(cases.var((6, 4)), 3, axis=0))
    cases.add("split indices", relay.split(cases.var((2, 7, 3)), (2, 5), axis=1))
    cases.add("split last", relay.split(cases.var((2, 6)), 2, axis=-1))
    nchw = cases.var((1, 8, 3, 2))
    cases.add("NCHW->NHWC", relay.layout_transform(nchw, "NCHW", "NHWC"))
    cases.add("NCHW->NCHW4c", relay.layout_transform(cases.var((2, 8, 3, 2)), "NCHW", "NCHW4c"))
    cases.add("NCHW4c->NHWC", relay.layout_transform(cases.var((1, 2, 3, 2, 4)), "NCHW4c", "NHWC"))
    cases.add(
        "NCHW2c->NCHW4c", relay.layout_transform(cases.var((1, 4, 2, 2, 2)), "NCHW2c", "NCHW4c")
    )
    for mode in ("constant", "edge", "reflect"):
        cases.add(
            f"pad {mode}", relay.nn.pad(cases.var((2, 3, 4)), ((0, 0), (1, 2), (2, 1)), 0.5, mode)
        )
    cases.add("pad i32", relay.nn.pad(cases.var((3, 3), "int32", -9, 9), ((1, 1), (0, 2)), 7.0))
    cases.add("slice", relay.strided_slice(cases.var((5, 6)), (1, 0), (4, 6), (1, 2)))
    cases.add("slice negative", relay.strided_slice(cases.var((5, 6)), (-1, 5), (-6, 0), (-2, -1)))
    cases.add("slice axes", relay.strided_slice(cases.var((3, 4, 5)), (1,), (3,), axes=(2,)))
    cases.add(
        "slice size", relay.strided_slice(cases.var((4, 5)), (1, 2), (2, -1), slice_mode="size")
    )
    cases.check(cache)


def test_take(cache: Path) -> None:
    cases = Cases(16)
    data = cases.var((4, 5))
    index = np.array([[0, 3], [-1, 7]], "int32")
    for mode in ("clip", "wrap"):
        cases.add(
            f"take flat {mode}",
            relay.take(data, cases.var((2, 2), "int32", value=index), mode=mode),
        )
        cases.add(
            f"take axis 0 {mode}",
            relay.take(data, cases.var((2, 2), "int32", value=index), 0, mode=mode),
        )
        cases.add(
            f"take axis 1 {mode}",
            relay.take(data, cases.var((3,), "int64", value=np.array([4, -2, 9])), 1, mode=mode),
        )
    cases.add(
        "take fast",
        relay.take(
            data, cases.var((3,), "int32", value=np.array([1, -1, 2], "int32")), 1, mode="fast"
        ),
    )
    batched = cases.var((2, 3, 4))
    picks = cases.var((2, 2), "int32", value=np.array([[0, 2], [1, 1]], "int32"))
    cases.add("take batch_dims", relay.take(batched, picks, axis=1, batch_dims=1))
    cases.check(cache)


def test_reshape_likes_are_aliases(cache: Path) -> None:
    cases = Cases(17)
    x = cases.var((2, 3, 4))
    cases.add("reshape of a param (copied)", relay.reshape(x, (6, 4)))
    y = relay.exp(cases.var((2, 3, 4)))
    cases.add("reshape chain", relay.nn.batch_flatten(relay.squeeze(relay.expand_dims(y, 0), (0,))))
    cases.add("exp of a reshape", relay.exp(relay.reshape(cases.var((4, 3)), (-1,))))
    lib = cases.check(cache)
    model = lib.sources.files["model.c"]
    assert isinstance(model, str)
    assert "relay.reshape" not in model
    assert "relay.squeeze" not in model


# ------------------------------------------------------------------ structure


STRUCTURE = """
func.func @helper(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1, %0 : tensor<4xf32>, tensor<4xf32>
}
func.func @partition(%p: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel", Primitive = 1 : i32} {
  %0 = relay.composite "accel.relu" (%p) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%i: tensor<4xf32>):
    %r = relay.nn.relu %i : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
func.func @main(%c: tensor<i1>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:2 = func.call @helper(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1:2 = func.call @helper(%0#0, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %2 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %t = relay.tanh %1#1 : tensor<4xf32>
    relay.yield %t : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  %3 = func.call @partition(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = relay.tuple %3, %0#1 : (tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %5 = relay.tuple_get_item %4 {index = 0} : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  func.return %5, %x, %5, %1#0 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
"""


@pytest.mark.parametrize("optimize", [False, True])
def test_calls_if_composite_tuples_and_copied_outputs(optimize: bool, cache: Path) -> None:
    mod = xrelay.parse(STRUCTURE)
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    x = np.array([-1.0, 0.5, 2.0, -3.0], "float32")
    for cond in (True, False):
        got = lib(np.array(cond), x)
        want = xrelay.evaluate(mod, np.array(cond), x)
        assert isinstance(got, tuple)
        assert len(got) == 4
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-6)


COMPUTED_CONDITION = """
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %zero = relay.constant dense<0.0> : tensor<f32>
  %0 = relay.sum %x : (tensor<2xf32>) -> tensor<f32>
  %1 = relay.less %0, %zero : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %2 = relay.if %1 : tensor<i1> -> tensor<2xf32> {
    %3 = relay.negative %x : tensor<2xf32>
    relay.yield %3 : tensor<2xf32>
  } else {
    %4 = relay.tanh %x : tensor<2xf32>
    relay.yield %4 : tensor<2xf32>
  }
  func.return %2 : tensor<2xf32>
}
"""


@pytest.mark.parametrize("optimize", [False, True])
def test_if_on_a_condition_in_the_arena(optimize: bool, cache: Path) -> None:
    # The condition is an intermediate (an arena pointer cast to uint8_t *), not a parameter.
    mod = xrelay.parse(COMPUTED_CONDITION)
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    for x in (np.array([-1.0, -2.0], "float32"), np.array([1.0, 0.5], "float32")):
        np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-6)


def test_annotations_copy_their_value(cache: Path) -> None:
    text = """func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = relay.compiler_begin %x {compiler = "accel"} : tensor<2x3xf32>
  %1 = relay.nn.relu %0 : tensor<2x3xf32>
  %2 = relay.compiler_end %1 {compiler = "accel"} : tensor<2x3xf32>
  %3 = relay.exp %2 : tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}"""
    mod = xrelay.parse(text)
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": False})
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-6)


def test_tuple_outputs_come_back_flat(cache: Path) -> None:
    x = relay.var("x", shape=(6,))
    parts = relay.split(x, 3)
    mod = IRModule.from_expr(relay.Function([x], relay.Tuple([parts, relay.exp(x)])))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    assert [o.shape for o in lib.outputs] == [(2,), (2,), (2,), (6,)]
    data = np.arange(6, dtype="float32")
    got = lib(data)
    np.testing.assert_array_equal(np.concatenate(got[:3]), data)


# ------------------------------------------------------------------ the library seen from Python


def test_params_are_bound_and_the_callers_module_is_untouched(cache: Path, tmp_path: Path) -> None:
    x = relay.var("x", shape=(1, 2, 4, 4))
    w = relay.var("w", shape=(3, 2, 3, 3))
    mod = IRModule.from_expr(
        relay.Function([x, w], relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1))))
    )
    before = str(mod)
    weight = np.random.default_rng(0).standard_normal((3, 2, 3, 3)).astype("float32")
    lib = xrelay.build(mod, target="c", params={"w": weight}, options={"cache_dir": cache})
    assert str(mod) == before
    assert [i.name for i in lib.inputs] == ["x"]
    data = np.random.default_rng(1).standard_normal((1, 2, 4, 4)).astype("float32")
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data, weight), rtol=1e-5, atol=1e-6)
    blob = lib.sources.files["constants.bin"]
    assert isinstance(blob, bytes)
    assert weight.tobytes() in blob
    model = lib.sources.files["model.c"]
    assert isinstance(model, str)
    assert '.incbin \\"constants.bin\\"' in model
    exported = lib.export_library(tmp_path / "model.so")
    again = xrelay.runtime.load(exported)
    np.testing.assert_array_equal(again(data), lib(data))


def test_wrong_inputs_are_value_errors(cache: Path) -> None:
    x = relay.var("image", shape=(2, 3))
    lib = xrelay.build(
        IRModule.from_expr(relay.Function([x], relay.exp(x))), options={"cache_dir": cache}
    )
    with pytest.raises(ValueError, match="input 'image' expects shape"):
        lib(np.zeros((3, 2), "float32"))
    with pytest.raises(ValueError, match="input 'image' expects dtype float32"):
        lib(np.zeros((2, 3), "float64"))
    np.testing.assert_allclose(
        lib(np.ones((3, 2), "float32").T), np.full((2, 3), np.e, "float32"), rtol=1e-6
    )


def test_names_from_the_ir_never_reach_c_unsanitized(cache: Path) -> None:
    text = """
    func.func @"f */ evil(); /* \\"q\\n"(%a: tensor<2xf32>) -> tensor<2xf32> {
      %0 = relay.exp %a : tensor<2xf32>
      func.return %0 : tensor<2xf32>
    }
    func.func @main(%x$1.a-b: tensor<2xf32>) -> tensor<2xf32> {
      %0 = func.call @"f */ evil(); /* \\"q\\n"(%x$1.a-b) : (tensor<2xf32>) -> tensor<2xf32>
      func.return %0 : tensor<2xf32>
    }
    """
    mod = xrelay.parse(text)
    lib = xrelay.build(mod, options={"cache_dir": cache})
    source = lib.sources.render()
    assert "evil" not in source.replace("xk_f_evil_q", "")
    assert "void xk_f_evil_q(unsigned char *arena, const float *p0, float *restrict o0)" in source
    assert '{"x\\0441.a-b", XRELAY_FLOAT32' in source
    assert [i.name for i in lib.inputs] == ["x$1.a-b"]
    np.testing.assert_allclose(lib(np.ones(2, "float32")), np.full(2, np.e, "float32"), rtol=1e-6)


def test_options_are_checked(cache: Path) -> None:
    x = relay.var("x", shape=(2,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    for options, match in [
        ({"opt": 1}, "unknown build options"),
        ({"opt_level": 5}, "opt_level must be an int from 0 to 3"),
        ({"cflags": "-O1"}, "cflags must be a list of strings"),
        ({"optimize": "yes"}, "optimize must be a bool"),
    ]:
        with pytest.raises(ValueError, match=match):
            xrelay.build(mod, options=options)
    for target, match in [
        ("cuda", r"unsupported target 'cuda': the last target must be 'c'"),
        (["c", "accel"], r"the last target must be 'c' \(available: 'c', \['accel', 'c'\]"),
        (["gpu", "c"], r"unsupported target 'gpu': it has no code generator"),
        (["accel", "accel", "c"], r"names 'accel' twice"),
        (["c", "c"], r"names 'c' twice"),
        ([], "must be a string or a list of strings"),
        ([1, "c"], "must be a string or a list of strings"),
        (3, "must be a string or a list of strings"),
    ]:
        with pytest.raises(ValueError, match=match):
            xrelay.build(mod, target=target)  # pyright: ignore[reportArgumentType]
    lib = xrelay.build(
        mod, target=["c"], options={"cache_dir": cache, "opt_level": 0, "cflags": ["-O1"]}
    )
    np.testing.assert_allclose(lib(np.zeros(2, "float32")), np.ones(2, "float32"))


def test_an_op_the_target_cannot_emit_is_a_located_error(cache: Path) -> None:
    # An accelerator's op outside a function partitioned for it (subtract on i1 was the
    # example until the verifier refused it: every relay op on every dtype it takes emits).
    text = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = accel.add %x, %x {has_relu = true} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}"""
    with pytest.raises(
        DiagnosticError,
        match=r"<string>:2:8: error: 'accel.add' op cannot be emitted for target 'c'",
    ):
        xrelay.build(xrelay.parse(text), options={"cache_dir": cache, "optimize": False})


def test_emitter_needs_the_plan() -> None:
    x = relay.var("x", shape=(2,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    with pytest.raises(DiagnosticError, match="has no memory plan"):
        CEmitter(mod.module).emit()
    planned = lower(mod)
    assert "model.c" in CEmitter(planned.module).emit().files


def test_large_models_split_into_several_translation_units(cache: Path) -> None:
    class Small(CEmitter):
        UNIT_CHARS = 200

    x = relay.var("x", shape=(4, 4))
    y = relay.nn.softmax(relay.nn.dense(relay.exp(x), relay.const(np.eye(4, dtype="float32"))))
    mod = lower(IRModule.from_expr(relay.Function([x], relay.tanh(y))))
    files = Small(mod.module).emit().files
    units = [name for name in files if name.startswith("kernels_")]
    assert len(units) >= 2
    model = files["model.c"]
    assert isinstance(model, str)
    assert "void xk_" not in model  # only the ABI and constants
    lib = Library(compile_library(files, cache_dir=cache))
    data = np.random.default_rng(0).standard_normal((4, 4)).astype("float32")
    np.testing.assert_allclose(lib(data), xrelay.evaluate(mod, data), rtol=1e-5, atol=1e-6)


def test_every_relay_op_has_a_c_form() -> None:
    """Each relay op is a kernel, a fused elementwise rule, an alias, or structure the emitter
    handles itself: a new op without a C form fails here, not in a user's build."""
    from xrelay.codegen.c.kernels import KERNELS
    from xrelay.codegen.c.scalar_ops import SCALAR_RULES
    from xrelay.dialects.relay import RELAY
    from xrelay.passes.plan_memory import RESHAPE_LIKE

    structure = {"constant", "tuple", "tuple_get_item", "yield", "if", "composite"}
    missing = [
        op.name
        for op in RELAY.operations
        if op.name not in KERNELS
        and op.name not in SCALAR_RULES
        and op.name not in RESHAPE_LIKE
        and op.name.removeprefix("relay.") not in structure
    ]
    assert not missing


EMPTY_OUTPUTS = """
func.func @main(%x: tensor<0x5xf32>) -> (tensor<0xi64>, tensor<0x5xf32>, tensor<0x5xf32>) {
  %c = relay.constant dense<3> : tensor<i64>
  %0 = relay.full %c {shape = [0], dtype = i64} : (tensor<i64>) -> tensor<0xi64>
  %1 = relay.expand_dims %x {axis = 0} : (tensor<0x5xf32>) -> tensor<1x0x5xf32>
  %2 = relay.squeeze %1 {axis = [0]} : (tensor<1x0x5xf32>) -> tensor<0x5xf32>
  func.return %0, %2, %x : tensor<0xi64>, tensor<0x5xf32>, tensor<0x5xf32>
}
"""


@pytest.mark.parametrize("optimize", [False, True])
def test_empty_outputs_copy_nothing(optimize: bool, cache: Path) -> None:
    # Copies of empty outputs print nothing; their pointers must not be unused parameters.
    mod = xrelay.parse(EMPTY_OUTPUTS)
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    got = lib(np.zeros((0, 5), "float32"))
    assert isinstance(got, tuple)
    assert [(g.shape, g.dtype) for g in got] == [
        ((0,), np.int64),
        ((0, 5), np.float32),
        ((0, 5), np.float32),
    ]
