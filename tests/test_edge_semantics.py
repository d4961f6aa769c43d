"""The edge cases of `docs/semantics.md`, the same on the interpreter and every target.

Each family is one module whose `main` returns many cases (one compile per
target): integer division, wrapping and power on extreme values, float ->
integer casts and fills of NaN/Inf/out-of-range values, reductions over an
empty axis, NaN/Inf/-0.0 through relu, leaky_relu, clip, maximum/minimum,
max/min/argmax/argmin reductions, pools (padding included), convolutions and
dense with a bias, a batch norm and a relu, and zero-size tensors. Every
output of `xrelay.evaluate` (the interpreter) and of `xrelay.build` for
`"c"`, `["accel", "c"]` and `["dnnl", "c"]` is compared with an expected value
computed here, independently of both (Python integers, hand-written tables,
float64 loops on small integers, exact in float32): same dtype and shape,
bitwise equal except that any NaN equals any NaN (so -0.0 is not 0.0). The
float families are built for every target and must really run accel's and
oneDNN's kernels; the integer, cast and empty-axis ones hold no op those
targets take (float32 only), so they are built for `"c"` alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import StringAttr

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
NAN, INF = float("nan"), float("inf")
F32_MAX = float(np.finfo(np.float32).max)
TARGETS: dict[str, list[str]] = {"c": ["c"], "accel": ["accel", "c"], "dnnl": ["dnnl", "c"]}


def flatten(value: Any) -> list[Array]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in flatten(item)]
    return [np.asarray(value)]


def same(got: Array, want: Array) -> bool:
    """Same dtype, shape and bits, any NaN equal to any NaN."""
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    nan = np.isnan(want)
    bits = f"u{want.dtype.itemsize}"
    plain = np.where(nan, 0, got).view(bits) == np.where(nan, 0, want).view(bits)
    return bool(np.array_equal(np.isnan(got), nan) and np.all(plain | nan))


class Family:
    """Cases of one module: each a label, an expression over the module's inputs, and the
    expected value."""

    def __init__(self) -> None:
        self.params: list[relay.Var] = []
        self.values: list[Array] = []
        self.outputs: list[relay.Expr] = []
        self.labels: list[str] = []
        self.expected: list[Array] = []

    def var(self, value: Array) -> relay.Var:
        v = relay.var(f"v{len(self.params)}", shape=value.shape, dtype=str(value.dtype))
        self.params.append(v)
        self.values.append(value)
        return v

    def add(self, label: str, expr: relay.Expr, expected: Array) -> None:
        self.labels.append(label)
        self.outputs.append(expr)
        self.expected.append(expected)

    def module(self) -> IRModule:
        return IRModule.from_expr(relay.Function(self.params, relay.Tuple(self.outputs)))

    def problems(self, got: Sequence[Array], where: str) -> list[str]:
        assert len(got) == len(self.expected), where
        return [
            f"{where} {label}: got {g.dtype}{list(g.shape)} {g.tolist()}, "
            f"want {w.dtype}{list(w.shape)} {w.tolist()}"
            for label, g, w in zip(self.labels, got, self.expected, strict=True)
            if not same(g, w)
        ]

    def check(self, cache: Path, targets: Sequence[str]) -> dict[str, set[str]]:
        """Compare the interpreter and each target with the expected values; the source files
        of each target's library."""
        mod = self.module()
        with np.errstate(all="ignore"):
            problems = self.problems(flatten(xrelay.evaluate(mod, *self.values)), "interpreter")
        files: dict[str, set[str]] = {}
        for target in targets:
            lib = xrelay.build(mod, target=TARGETS[target], options={"cache_dir": cache})
            files[target] = set(lib.sources.files)
            problems += self.problems(flatten(lib(*self.values)), target)
        assert not problems, "\n".join(problems)
        return files


# --------------------------------------------------------------- integers


def wrap(value: int, bits: int, signed: bool = True) -> int:
    """`value` in two's complement of `bits` bits."""
    value &= (1 << bits) - 1
    return value - (1 << bits) if signed and value >> (bits - 1) else value


def truncdiv(a: int, b: int) -> int:
    if b == 0:
        return 0
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def int_power(a: int, e: int) -> int:
    if e >= 0:
        return a**e
    return 1 if a == 1 else (-1 if e % 2 else 1) if a == -1 else 0


def elementwise(
    family: Family,
    name: str,
    fn: Callable[[relay.Expr, relay.Expr], relay.Expr],
    exact: Callable[[int, int], int],
    pairs: Sequence[tuple[int, int]],
    dtype: str,
) -> None:
    bits, signed = np.dtype(dtype).itemsize * 8, np.dtype(dtype).kind == "i"
    a = family.var(np.array([p[0] for p in pairs], dtype))
    b = family.var(np.array([p[1] for p in pairs], dtype))
    want = np.array([wrap(exact(x, y), bits, signed) for x, y in pairs], dtype)
    family.add(f"{name} {dtype}", fn(a, b), want)


def test_integer_division_wrapping_and_power(cache: Path) -> None:
    family = Family()
    for dtype in ("int64", "int32", "int8"):
        low, high = int(np.iinfo(dtype).min), int(np.iinfo(dtype).max)
        bits = np.dtype(dtype).itemsize * 8
        divisions = [
            (low, -1),
            (low, 1),
            (high, -1),
            (7, 2),
            (-7, 2),
            (7, -2),
            (-7, -2),
            (5, 0),
            (-5, 0),
            (0, 0),
            (low, 0),
            (low, 2),
            (-1, high),
        ]
        if dtype == "int64":
            divisions += [(2**53 + 1, 1), (2**62 + 1, 3), (-(2**60) - 7, 1000003)]
        elementwise(family, "divide", relay.divide, truncdiv, divisions, dtype)
        wraps = [(high, 1), (low, -1), (high, high), (low, low), (-5, 3)]
        elementwise(family, "add", relay.add, lambda x, y: x + y, wraps, dtype)
        elementwise(family, "subtract", relay.subtract, lambda x, y: x - y, wraps, dtype)
        elementwise(family, "multiply", relay.multiply, lambda x, y: x * y, wraps, dtype)
        powers = [
            (2, -1),
            (-1, -3),
            (-1, -4),
            (1, -5),
            (0, -2),
            (-2, -1),
            (3, 0),
            (0, 0),
            (2, 7),
            (-2, 7),
            (3, 5),
            (2, 64),
            (3, 41),
            (-3, 41),
            (high, 2),
            (low, 3),
        ]
        elementwise(family, "power", relay.power, int_power, powers, dtype)
        extremes = family.var(np.array([low, high, -1, 0], dtype))
        family.add(
            f"negative {dtype}",
            relay.negative(extremes),
            np.array([wrap(-v, bits) for v in (low, high, -1, 0)], dtype),
        )
        family.add(
            f"abs {dtype}",
            relay.abs(extremes),
            np.array([wrap(abs(v), bits) for v in (low, high, -1, 0)], dtype),
        )
    unsigned = [(200, 0), (255, 2), (7, 255), (0, 0)]
    elementwise(family, "divide", relay.divide, truncdiv, unsigned, "uint8")
    x = family.var(np.array([[-7, 7, 9], [-1, -2, 0]], "int32"))
    family.add("mean truncates toward zero", relay.mean(x, axis=[1]), np.array([3, -1], "int32"))
    family.check(cache, ["c"])


def truncmod(a: int, b: int) -> int:
    return 0 if b == 0 else a - truncdiv(a, b) * b


def shift_right(a: int, k: int, bits: int, signed: bool) -> int:
    inside = 0 <= k < bits
    return a >> (k if inside else bits - 1 if signed else bits)


def test_integer_modulo_floored_division_and_shifts(cache: Path) -> None:
    family = Family()
    for dtype in ("int64", "int32", "int8", "uint8"):
        info = np.iinfo(dtype)
        low, high, bits, signed = int(info.min), int(info.max), info.bits, info.min < 0
        values = [v for v in (low, low + 1, -7, -1, 0, 1, 2, 7, high) if v >= low]
        divisors = [v for v in (-1, -2, 0, 1, 2, 3, high, low) if v >= low]
        pairs = [(a, b) for a in values for b in divisors]
        elementwise(family, "mod", relay.mod, truncmod, pairs, dtype)
        floor_mod = lambda a, b: 0 if b == 0 else a % b  # noqa: E731
        elementwise(family, "floor_mod", relay.floor_mod, floor_mod, pairs, dtype)
        floor_div = lambda a, b: 0 if b == 0 else a // b  # noqa: E731
        elementwise(family, "floor_divide", relay.floor_divide, floor_div, pairs, dtype)
        elementwise(family, "trunc_divide", relay.trunc_divide, truncdiv, pairs, dtype)
        amounts = [v for v in (-1, low, 0, 1, bits - 1, bits, bits + 1, high) if v >= low]
        shifts = [(a, k) for a in values for k in amounts]
        left = lambda a, k, bits=bits: a << k if 0 <= k < bits else 0  # noqa: E731
        elementwise(family, "left_shift", relay.left_shift, left, shifts, dtype)
        right = lambda a, k, bits=bits, signed=signed: shift_right(a, k, bits, signed)  # noqa: E731
        elementwise(family, "right_shift", relay.right_shift, right, shifts, dtype)
        for name, fn in (("and", "__and__"), ("or", "__or__"), ("xor", "__xor__")):
            exact = lambda a, b, fn=fn: getattr(a, fn)(b)  # noqa: E731
            elementwise(
                family, f"bitwise_{name}", getattr(relay, f"bitwise_{name}"), exact, pairs, dtype
            )
        x = family.var(np.array(values, dtype))
        family.add(
            f"bitwise_not {dtype}",
            relay.bitwise_not(x),
            np.array([wrap(~v, bits, signed) for v in values], dtype),
        )
        family.add(
            f"sign {dtype}", relay.sign(x), np.array([(v > 0) - (v < 0) for v in values], dtype)
        )
    family.check(cache, ["c"])


MATH_IN = [NAN, INF, -INF, -0.0, 0.0, 0.5, -0.5, 2.5, -2.5, 0.49999997, F32_MAX, 1e-45]


def test_nan_inf_and_zeros_through_rounding_tests_modulo_and_where(cache: Path) -> None:
    family = Family()
    x = family.var(np.array(MATH_IN, "float32"))
    f32 = lambda values: np.array(values, "float32")  # noqa: E731
    family.add(
        "round", relay.round(x), f32([NAN, INF, -INF, -0.0, 0.0, 1, -1, 3, -3, 0, F32_MAX, 0])
    )
    family.add(
        "trunc", relay.trunc(x), f32([NAN, INF, -INF, -0.0, 0.0, 0, -0.0, 2, -2, 0, F32_MAX, 0])
    )
    family.add("sign", relay.sign(x), f32([NAN, 1, -1, 0.0, 0.0, 1, -1, 1, -1, 1, 1, 1]))
    family.add("isnan", relay.isnan(x), np.array([v != v for v in MATH_IN]))
    family.add("isinf", relay.isinf(x), np.array([abs(v) == INF for v in MATH_IN]))
    family.add("isfinite", relay.isfinite(x), np.array([abs(v) < INF for v in MATH_IN]))
    dividends = f32([5.5, -5.5, NAN, 1.0, INF, -1.0, -6.0, 6.0])
    divisors = f32([-2.0, 2.0, 1.0, NAN, 2.0, INF, 3.0, -3.0])
    a, b = family.var(dividends), family.var(divisors)
    family.add("mod", relay.mod(a, b), f32([1.5, -1.5, NAN, NAN, NAN, -1.0, -0.0, 0.0]))
    family.add("floor_mod", relay.floor_mod(a, b), f32([-0.5, 0.5, NAN, NAN, NAN, INF, 0.0, -0.0]))
    family.add("floor_divide", relay.floor_divide(a, b), f32([-3, -3, NAN, NAN, INF, -0.0, -2, -2]))
    family.add("trunc_divide", relay.trunc_divide(a, b), f32([-2, -2, NAN, NAN, INF, -0.0, -2, -2]))
    rows = np.array([[True], [False]])
    c = family.var(rows)
    family.add("where", relay.where(c, a, b), np.where(rows, dividends, divisors))
    family.check(cache, ["c", "accel"])


CAST_SOURCE = np.array(
    [
        NAN,
        -NAN,
        INF,
        -INF,
        3e9,
        -3e9,
        2147483520.0,
        -2147483648.0,
        300.5,
        -129.9,
        255.9,
        -0.9,
        0.9,
        -0.0,
        65535.5,
        1e30,
        -1e30,
    ],
    "float32",
)


def saturated(value: float, dtype: str) -> int:
    if value != value:
        return 0
    info = np.iinfo(dtype)
    if value in (INF, -INF):
        return int(info.max) if value > 0 else int(info.min)
    return min(max(int(value), int(info.min)), int(info.max))  # int() truncates toward zero


def test_float_to_integer_casts_saturate(cache: Path) -> None:
    family = Family()
    f32 = family.var(CAST_SOURCE)
    for dtype in ("int8", "uint8", "int16", "int32", "int64"):
        want = np.array([saturated(float(v), dtype) for v in CAST_SOURCE], dtype)
        family.add(f"float32 -> {dtype}", relay.cast(f32, dtype), want)
    f64 = np.array([2.0**63, -(2.0**63), 2.0**63 - 1024, -(2.0**63) - 4096, 1e300, NAN], "float64")
    family.add(
        "float64 -> int64",
        relay.cast(family.var(f64), "int64"),
        np.array([saturated(float(v), "int64") for v in f64], "int64"),
    )
    f16 = np.array([NAN, INF, -INF, 65504.0, -65504.0, 1.5, -1.5], "float16")
    family.add(
        "float16 -> int16",
        relay.cast(family.var(f16), "int16"),
        np.array([saturated(float(v), "int16") for v in f16], "int16"),
    )
    for value in (NAN, -INF, 1e10, -7.9):
        fill = family.var(np.array(value, "float32"))
        family.add(
            f"full {value} as int32",
            relay.full(fill, (2,), "int32"),
            np.full(2, saturated(value, "int32"), "int32"),
        )
    family.add("float32 -> bool", relay.cast(f32, "bool"), np.array([v != 0 for v in CAST_SOURCE]))
    family.check(cache, ["c"])


# --------------------------------------------------------------- empty reductions


def test_reductions_over_an_empty_axis(cache: Path) -> None:
    family = Family()
    for dtype in ("float32", "float64", "int32", "int64", "uint8"):
        x = family.var(np.zeros((2, 0, 3), dtype))
        is_float = dtype.startswith("float")
        low = -INF if is_float else int(np.iinfo(dtype).min)
        high = INF if is_float else int(np.iinfo(dtype).max)
        for name, fn, value in [
            ("sum", relay.sum, 0),
            ("prod", relay.prod, 1),
            ("mean", relay.mean, NAN if is_float else 0),
            ("max", relay.max, low),
            ("min", relay.min, high),
        ]:
            family.add(f"{name} {dtype}", fn(x, axis=[1]), np.full((2, 3), value, dtype))
        keep = np.full((2, 1, 3), -1, "int32")
        family.add(f"argmax {dtype}", relay.argmax(x, axis=[1], keepdims=True), keep)
        family.add(f"argmin {dtype}", relay.argmin(x, axis=[1]), np.full((2, 3), -1, "int32"))
    whole = family.var(np.zeros((0, 4), "float32"))
    family.add("max of all", relay.max(whole), np.array(-INF, "float32"))
    family.add("mean of all", relay.mean(whole), np.array(NAN, "float32"))
    family.add("sum over the non-empty axis", relay.sum(whole, axis=[1]), np.zeros(0, "float32"))
    family.check(cache, ["c"])


# --------------------------------------------------------------- NaN, Inf, -0.0


RELU_IN = [NAN, -NAN, INF, -INF, -0.0, 0.0, -1.0, 2.5, F32_MAX, -F32_MAX, 1e-45, -1e-45]
RELU_OUT = [NAN, NAN, INF, 0.0, 0.0, 0.0, 0.0, 2.5, F32_MAX, 0.0, 1e-45, 0.0]


def f32(values: Sequence[float], shape: Sequence[int] | None = None) -> Array:
    array = np.array(values, "float32")
    return array if shape is None else array.reshape(shape)


def test_nan_inf_and_signed_zero_through_elementwise_ops(cache: Path) -> None:
    family = Family()
    x = family.var(f32(RELU_IN * 4, (1, 4, 3, 4)))
    family.add("relu", relay.nn.relu(x), f32(RELU_OUT * 4, (1, 4, 3, 4)))
    flat = family.var(f32(RELU_IN))
    family.add("relu, 1-D", relay.nn.relu(flat), f32(RELU_OUT))
    leaky = [NAN, INF, -INF, -0.0, -4.0, 2.0, 0.0]
    family.add(
        "leaky_relu",
        relay.nn.leaky_relu(family.var(f32(leaky)), 0.25),
        f32([NAN, INF, -INF, -0.0, -1.0, 2.0, 0.0]),
    )
    clip = [NAN, INF, -INF, -0.0, 0.5, 3.0, -3.0]
    family.add(
        "clip",
        relay.clip(family.var(f32(clip)), -1.0, 1.0),
        f32([NAN, 1.0, -1.0, -0.0, 0.5, 1.0, -1.0]),
    )
    a = family.var(f32([NAN, 1.0, NAN, -INF, INF, 2.0, -INF]))
    b = family.var(f32([1.0, NAN, NAN, -INF, 3.0, -0.0, INF]))
    family.add("maximum", relay.maximum(a, b), f32([NAN, NAN, NAN, -INF, INF, 2.0, INF]))
    family.add("minimum", relay.minimum(a, b), f32([NAN, NAN, NAN, -INF, 3.0, -0.0, -INF]))
    family.add("add", relay.add(a, b), f32([NAN, NAN, NAN, -INF, INF, 2.0, NAN]))
    family.check(cache, list(TARGETS))


ROWS = [
    [1.0, NAN, 3.0, NAN],
    [-INF, -INF, -INF, -INF],
    [2.0, 5.0, 5.0, -1.0],
    [INF, 1.0, -INF, 0.0],
    [-1.0, -2.0, NAN, -3.0],
]


def test_nan_through_reductions_and_pools(cache: Path) -> None:
    family = Family()
    rows = family.var(f32([v for row in ROWS for v in row], (5, 4)))
    family.add("max", relay.max(rows, axis=[1]), f32([NAN, -INF, 5.0, INF, NAN]))
    family.add("min", relay.min(rows, axis=[1]), f32([NAN, -INF, -1.0, -INF, NAN]))
    family.add(
        "argmax: the first NaN, else the first maximum",
        relay.argmax(rows, axis=[1]),
        np.array([1, 0, 1, 0, 2], "int32"),
    )
    family.add("argmin", relay.argmin(rows, axis=[1]), np.array([1, 0, 3, 2, 2], "int32"))
    family.add(
        "argmax, last index",
        relay.argmax(rows, axis=[1], select_last_index=True),
        np.array([3, 3, 2, 0, 2], "int32"),
    )
    # 2x2 windows (stride 2) of a 4x4 image: NaN, -inf only, +inf, a plain one.
    image = f32(
        [NAN, 1.0, -INF, -INF, 2.0, 3.0, -INF, -INF, INF, -1.0, 4.0, -5.0, 0.0, 7.0, 6.0, NAN],
        (1, 1, 4, 4),
    )
    pools = family.var(np.concatenate([image, image * -1.0], axis=1))
    pooled = f32([NAN, -INF, INF, NAN, NAN, INF, 1.0, NAN], (1, 2, 2, 2))
    family.add("max_pool2d", relay.nn.max_pool2d(pools, (2, 2), (2, 2)), pooled)
    family.add(
        "avg_pool2d",
        relay.nn.avg_pool2d(pools, (2, 2), (2, 2)),
        f32([NAN, -INF, INF, NAN, NAN, INF, -INF, NAN], (1, 2, 2, 2)),
    )
    family.add(
        "global_max_pool2d", relay.nn.global_max_pool2d(pools), f32([NAN, NAN], (1, 2, 1, 1))
    )
    family.add(
        "global_avg_pool2d", relay.nn.global_avg_pool2d(pools), f32([NAN, NAN], (1, 2, 1, 1))
    )
    nhwc = family.var(
        np.ascontiguousarray(np.concatenate([image, image * -1.0], 1).transpose(0, 2, 3, 1))
    )
    family.add(
        "max_pool2d NHWC",
        relay.nn.max_pool2d(nhwc, (2, 2), (2, 2), layout="NHWC"),
        np.ascontiguousarray(pooled.transpose(0, 2, 3, 1)),
    )
    # Padding takes part in a max as the lowest finite value: -inf inside, -FLT_MAX at the edges.
    edges = np.full((4, 4), -F32_MAX, "float32")
    edges[1:3, 1:3] = -INF
    low = np.full((1, 1, 3, 3), -INF, "float32")
    family.add(
        "max_pool2d padded",
        relay.nn.max_pool2d(family.var(low), (2, 2), padding=(1, 1)),
        edges.reshape(1, 1, 4, 4),
    )
    padded = relay.nn.max_pool2d(
        family.var(low.reshape(1, 3, 3, 1)), (2, 2), padding=(1, 1), layout="NHWC"
    )
    family.add("max_pool2d padded NHWC", padded, edges.reshape(1, 4, 4, 1))
    files = family.check(cache, list(TARGETS))
    assert "accel.c" in files["accel"]
    assert "dnnl.c" in files["dnnl"]


# --------------------------------------------------------------- convolutions with a relu


def direct_conv(data: Array, weight: Array) -> Array:
    """NCHW x OIHW, stride 1, padding 1, in float64 (exact on the small integers used here)."""
    n, c, h, w = data.shape
    k = weight.shape[0]
    padded = np.zeros((n, c, h + 2, w + 2))
    padded[:, :, 1:-1, 1:-1] = data
    out = np.zeros((n, k, h, w))
    for y in range(h):
        for x in range(w):
            window = padded[:, :, y : y + 3, x : x + 3]
            with np.errstate(all="ignore"):
                out[:, :, y, x] = np.einsum("nchw,kchw->nk", window, weight)
    return out


def test_nan_through_convolutions_with_bias_batch_norm_and_relu(cache: Path) -> None:
    rng = np.random.default_rng(14)
    data = rng.integers(-3, 4, (1, 3, 6, 6)).astype("float32")
    data[0, 0, 1, 1], data[0, 1, 4, 4], data[0, 2, 0, 5] = NAN, INF, -INF
    weight = rng.integers(-2, 3, (4, 3, 3, 3)).astype("float32")
    bias = rng.integers(-4, 5, (4,)).astype("float32")
    conv = direct_conv(data.astype(np.float64), weight.astype(np.float64))
    family = Family()
    x = family.var(data)
    w = relay.const(weight)

    def relu(values: Array) -> Array:
        return np.where(np.isnan(values) | (values > 0), values, 0.0).astype("float32")

    with_bias = conv + bias.reshape(1, 4, 1, 1)
    family.add(
        "conv2d+bias+relu",
        relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1)), relay.const(bias))),
        relu(with_bias),
    )
    family.add("conv2d+relu", relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1))), relu(conv))
    mean, beta = rng.integers(-2, 3, (4,)).astype("float32"), bias
    ones = np.ones(4, "float32")
    normed = relay.nn.batch_norm(
        relay.nn.conv2d(x, w, padding=(1, 1)),
        relay.const(ones),
        relay.const(beta),
        relay.const(mean),
        relay.const(ones),
        epsilon=0.0,
    )[0]
    family.add(
        "conv2d+batch_norm+relu",
        relay.nn.relu(normed),
        relu(conv - mean.reshape(1, 4, 1, 1) + beta.reshape(1, 4, 1, 1)),
    )
    rows = rng.integers(-3, 4, (3, 6)).astype("float32")
    rows[0, 2], rows[1, 4] = NAN, -INF
    units = rng.integers(-2, 3, (5, 6)).astype("float32")
    with np.errstate(all="ignore"):
        dense = (rows[:, None, :].astype(np.float64) * units[None, :, :]).sum(-1)
    dense_out = relay.nn.bias_add(
        relay.nn.dense(family.var(rows), relay.const(units)), relay.const(bias[:1].repeat(5))
    )
    family.add("dense+bias+relu", relay.nn.relu(dense_out), relu(dense + bias[0]))
    assert np.isnan(conv).any()
    assert (conv > 0).any()
    assert (conv < 0).any()
    files = family.check(cache, list(TARGETS))
    assert "accel.c" in files["accel"]
    assert "dnnl.c" in files["dnnl"]


def test_nan_through_convolutions_and_dense_with_clip(cache: Path) -> None:
    """ReLU6 (`clip(x, 0, 6)`) after a conv2d (plain and depthwise) and a dense: a clip
    post-op on dnnl, where NaN stays NaN (oneDNN's clip maps it to a bound)."""
    rng = np.random.default_rng(15)
    data = rng.integers(-3, 4, (1, 3, 6, 6)).astype("float32")
    data[0, 0, 1, 1], data[0, 1, 4, 4], data[0, 2, 0, 5] = NAN, INF, -INF
    weight = rng.integers(-2, 3, (4, 3, 3, 3)).astype("float32")
    bias = rng.integers(-4, 5, (4,)).astype("float32")
    conv = direct_conv(data.astype(np.float64), weight.astype(np.float64))
    family = Family()
    x = family.var(data)

    def relu6(values: Array) -> Array:
        return np.clip(values, 0.0, 6.0).astype("float32")

    conv_out = relay.nn.conv2d(x, relay.const(weight), padding=(1, 1))
    family.add(
        "conv2d+bias+clip",
        relay.clip(relay.nn.bias_add(conv_out, relay.const(bias)), 0.0, 6.0),
        relu6(conv + bias.reshape(1, 4, 1, 1)),
    )
    depthwise = rng.integers(-2, 3, (3, 1, 3, 3)).astype("float32")
    with np.errstate(all="ignore"):
        per_channel = np.concatenate(
            [direct_conv(data[:, c : c + 1].astype(np.float64), depthwise[c : c + 1])
             for c in range(3)], axis=1)  # fmt: skip
    family.add(
        "depthwise conv2d+clip",
        relay.clip(relay.nn.conv2d(x, relay.const(depthwise), padding=(1, 1), groups=3), 0, 6),
        relu6(per_channel),
    )
    rows = rng.integers(-3, 4, (3, 6)).astype("float32")
    rows[0, 2], rows[1, 4] = NAN, -INF
    units = rng.integers(-2, 3, (5, 6)).astype("float32")
    with np.errstate(all="ignore"):
        dense = (rows[:, None, :].astype(np.float64) * units[None, :, :]).sum(-1)
    family.add(
        "dense+clip",
        relay.clip(relay.nn.dense(family.var(rows), relay.const(units)), -1.5, 2.5),
        np.clip(dense, -1.5, 2.5).astype("float32"),
    )
    assert np.isnan(conv).any()
    assert np.isnan(per_channel).any()
    assert np.isnan(dense).any()
    files = family.check(cache, list(TARGETS))
    assert "dnnl.c" in files["dnnl"]
    lowered = xrelay.build(family.module(), ["dnnl", "c"], options={"cache_dir": cache}).module
    clipped = [
        op for op in lowered.module.walk() if op.properties.get("eltwise") == StringAttr("clip")
    ]
    assert len(clipped) == 3  # the three clips are post-ops in oneDNN


def test_softmax_and_layer_norm_rows_with_nan_inf_and_huge_values(cache: Path) -> None:
    """A softmax row holding a NaN, +inf or only -inf is NaN throughout (`x - max` is NaN); a
    layer norm row holding one is NaN throughout, and one of values near 1e30 is normalized as
    in double (oneDNN's float statistics would overflow): the dnnl backend repairs both."""
    rows = f32(
        [NAN, 1, 2, 3, INF, 1, 2, 3, -INF, 1, 2, 3, -INF, -INF, -INF, -INF,
         INF, INF, 1, 2, 1e30, -1e30, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4],
        (8, 4),
    )  # fmt: skip
    data = rows.astype(np.float64)
    with np.errstate(all="ignore"):
        shifted = data - data.max(axis=1, keepdims=True)
        softmax = np.exp(shifted) / np.exp(shifted).sum(axis=1, keepdims=True)
        deviation = data - data.mean(axis=1, keepdims=True)
        normed = deviation / np.sqrt((deviation * deviation).mean(axis=1, keepdims=True) + 1e-5)
    gamma, beta = f32([1, 2, 0.5, -1], (4,)), f32([0, 1, 2, 3], (4,))
    family = Family()
    x = family.var(rows)
    family.add("softmax", relay.nn.softmax(x), softmax.astype("float32"))
    family.add(
        "layer_norm",
        relay.nn.layer_norm(x, relay.const(gamma), relay.const(beta)),
        (normed * gamma + beta).astype("float32"),
    )
    family.add(
        "layer_norm without scale and center",
        relay.nn.layer_norm(x, relay.const(gamma), relay.const(beta), center=False, scale=False),
        normed.astype("float32"),
    )
    assert np.isnan(softmax[[0, 1, 3, 4]]).all()
    assert np.isfinite(softmax[2]).all()  # exp(-inf) is 0
    assert np.isfinite(normed[5]).all()
    mod = family.module()  # rounded in float on the targets: close, NaN where expected
    for target in TARGETS.values():
        lib = xrelay.build(mod, target=target, options={"cache_dir": cache})
        got = flatten(lib(*family.values))
        for label, g, w in zip(family.labels, got, family.expected, strict=True):
            assert np.allclose(g, w, rtol=1e-5, atol=1e-5, equal_nan=True), (target, label, g)
    lowered = xrelay.build(mod, ["dnnl", "c"], options={"cache_dir": cache}).module
    names = [op.name for op in lowered.module.walk()]
    assert names.count("dnnl.softmax") == 1
    assert names.count("dnnl.layer_norm") == 2


def test_empty_tensors_on_every_target(cache: Path) -> None:
    """Zero-size dims through ops every target takes: nothing to compute, except a global pool
    over an empty image (its mean NaN, its max -inf); oneDNN leaves empty tensors to the host."""
    family = Family()
    rows = family.var(np.zeros((0, 4), "float32"))
    family.add("relu of nothing", relay.nn.relu(rows), np.zeros((0, 4), "float32"))
    family.add("add of nothing", relay.add(rows, rows), np.zeros((0, 4), "float32"))
    family.add("softmax of nothing", relay.nn.softmax(rows), np.zeros((0, 4), "float32"))
    columns = family.var(np.zeros((2, 0), "float32"))
    family.add(
        "log_softmax over nothing", relay.nn.log_softmax(columns), np.zeros((2, 0), "float32")
    )
    image = family.var(np.zeros((1, 2, 0, 3), "float32"))
    family.add(
        "global_avg_pool2d of nothing",
        relay.nn.global_avg_pool2d(image),
        np.full((1, 2, 1, 1), NAN, "float32"),
    )
    family.add(
        "global_max_pool2d of nothing",
        relay.nn.global_max_pool2d(image),
        np.full((1, 2, 1, 1), -INF, "float32"),
    )
    family.check(cache, list(TARGETS))
    family = Family()
    batch = family.var(np.zeros((0, 3, 4, 4), "float32"))
    weight = relay.const(np.ones((2, 3, 3, 3), "float32"))
    family.add(
        "conv2d+relu of batch 0",
        relay.nn.relu(relay.nn.conv2d(batch, weight)),
        np.zeros((0, 2, 2, 2), "float32"),
    )
    family.check(cache, list(TARGETS))


def test_padding_adds_nothing_and_batch_norm_folds(cache: Path) -> None:
    """A tap in a convolution's padding contributes nothing even under an infinite or NaN
    weight; batch_norm with an infinite gamma is `x * s + (beta - mean * s)`."""
    family = Family()
    x = np.ones((1, 1, 3, 3), "float32")
    data = family.var(x)
    weight = np.zeros((1, 1, 3, 3), "float32")
    weight[0, 0, 0, 0] = INF  # the top-left tap: in the padding for the first row and column
    weight[0, 0, 2, 2] = NAN  # the bottom-right tap: in the padding for the last row and column
    want = np.zeros((1, 1, 3, 3), "float32")
    # Hand values: output (r, c) reads the inf tap at input (r-1, c-1) and the NaN tap at
    # (r+1, c+1); a tap is inside when that input exists.
    for r in range(3):
        for c in range(3):
            inf_in = r >= 1 and c >= 1
            nan_in = r <= 1 and c <= 1
            want[0, 0, r, c] = NAN if nan_in else (INF if inf_in else 0.0)
    family.add(
        "conv2d with inf and NaN taps in the padding",
        relay.nn.conv2d(data, relay.const(weight), padding=(1, 1)),
        want,
    )
    # A grouped conv2d (2 groups of 1 channel, 2 outputs each), 2x1 kernels, padding 1: the
    # first and last output columns read only padding (oneDNN's grouped kernels multiply it).
    pair = family.var(np.ones((1, 2, 3, 3), "float32"))
    kernels = ((NAN, 1.0), (INF, 2.0), (3.0, -INF), (4.0, 5.0))
    taps = np.array(kernels, "float32").reshape(4, 1, 2, 1)
    grouped = relay.nn.conv2d(pair, relay.const(taps), padding=(1, 1), groups=2, channels=4)
    edges = np.zeros((1, 4, 4, 5), "float32")
    for channel, (top, bottom) in enumerate(kernels):
        edges[0, channel, 0, 1:4] = bottom  # the top tap in the padding
        edges[0, channel, 1:3, 1:4] = top + bottom
        edges[0, channel, 3, 1:4] = top  # the bottom tap in the padding
    family.add("grouped conv2d whose edge windows lie in the padding", grouped, edges)
    rows = np.array([[0.0, 1.0], [-1.0, 2.0]], "float32").reshape(2, 2, 1, 1)
    normed = relay.nn.batch_norm(
        family.var(rows),
        relay.const(np.array([-INF, 2.0], "float32")),  # gamma
        relay.const(np.array([0.0, 1.0], "float32")),  # beta
        relay.const(np.array([1.0, 0.0], "float32")),  # mean
        relay.const(np.array([1.0, 4.0], "float32")),  # var
        epsilon=0.0,
    )[0]
    # channel 0: s = -inf, t = 0 - 1 * -inf = inf: x * s + t is NaN for x = 0 and x = 1
    # (-inf + inf), and for x = -1: inf + inf = inf; channel 1: s = 1, t = 1.
    expected = np.array([[NAN, 2.0], [INF, 3.0]], "float32").reshape(2, 2, 1, 1)
    family.add("batch_norm with an infinite gamma", normed, expected)
    files = family.check(cache, list(TARGETS))
    # accel's kernels multiply zero-padded rows: it leaves this convolution to the host.
    assert "accel.c" not in files["accel"]


def test_accel_and_dnnl_leave_convolutions_with_non_finite_weights_to_the_host() -> None:
    x = relay.var("x", shape=(1, 1, 3, 3))
    finite = np.ones((1, 1, 3, 3), "float32")
    infinite = finite.copy()
    infinite[0, 0, 0, 0] = INF
    body = relay.Tuple(
        [
            relay.nn.conv2d(x, relay.const(finite), padding=(1, 1)),
            relay.nn.conv2d(x, relay.const(infinite), padding=(1, 1)),
            relay.nn.conv2d(x, relay.const(infinite)),  # no padding, still the host
        ]
    )
    mod = IRModule.from_expr(relay.Function([x], body))
    lib = xrelay.build(mod, target=["accel", "c"])
    convs = [op for op in lib.module.module.walk() if op.name == "accel.conv2d"]
    assert len(convs) == 1  # only the finite weight: Winograd and padded rows mix the others
    data = np.ones((1, 1, 3, 3), "float32")
    for got, want in zip(flatten(lib(data)), flatten(xrelay.evaluate(mod, data)), strict=True):
        assert same(got, want)
    dnnl = xrelay.build(mod, target=["dnnl", "c"])
    assert len([op for op in dnnl.module.module.walk() if op.name == "dnnl.conv2d"]) == 1
    for got, want in zip(flatten(dnnl(data)), flatten(xrelay.evaluate(mod, data)), strict=True):
        assert same(got, want)
