"""The host C target on the relay ops added for the ONNX frontend (`nn_norm` and friends):
`xrelay.build(mod, target="c")` against the reference interpreter.

One module per family returns many cases at once (one compile), with seeded random
inputs; every output must match `xrelay.evaluate` (the C kernels accumulate in
double in the interpreter's order, so most cases agree bit for bit), with
`optimize=False` (each op reaches its own C) and through the whole pipeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(15)


class Cases:
    """Many small computations in one module, each with its own inputs."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.params: list[relay.Var] = []
        self.values: list[Array] = []
        self.outputs: list[relay.Expr] = []
        self.labels: list[str] = []

    def var(
        self, shape: Sequence[int], dtype: str = "float32", value: Array | None = None
    ) -> relay.Var:
        v = relay.var(f"v{len(self.params)}", shape=tuple(shape), dtype=dtype)
        self.params.append(v)
        self.values.append(
            self.rng.standard_normal(tuple(shape)).astype(dtype) if value is None else value
        )
        return v

    def add(self, label: str, expr: relay.Expr) -> None:
        self.labels.append(label)
        self.outputs.append(expr)

    def check(self, cache: Path, optimize: bool, rtol: float = 1e-6, atol: float = 1e-7) -> None:
        mod = IRModule.from_expr(relay.Function(self.params, relay.Tuple(self.outputs)))
        lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
        got = [np.asarray(g) for g in lib(*self.values)]
        want = [np.asarray(w) for w in xrelay.evaluate(mod, *self.values)]
        problems = []
        for label, g, w in zip(self.labels, got, want, strict=True):
            if g.dtype != w.dtype or g.shape != w.shape:
                problems.append(f"{label}: got {g.dtype}{g.shape}, want {w.dtype}{w.shape}")
            elif not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
                problems.append(f"{label}: max abs difference {np.max(np.abs(g - w))}")
        assert not problems, "\n".join(problems)


@pytest.mark.parametrize("optimize", [False, True])
def test_lrn(optimize: bool, cache: Path) -> None:
    cases = Cases(1)
    for shape, size, axis, dtype in [
        ((2, 5, 3, 3), 5, 1, "float32"),
        ((2, 5, 3, 3), 3, 3, "float32"),
        ((1, 6, 4), 4, -2, "float64"),
        ((7,), 2, 0, "float16"),
        ((2, 3), 9, 1, "float32"),
    ]:
        lrn = relay.nn.lrn(cases.var(shape, dtype), size, axis, bias=1.0, alpha=0.5, beta=0.75)
        cases.add(f"lrn {shape} size {size} axis {axis} {dtype}", relay.nn.relu(lrn))
    edges = np.array([[np.nan, 1.0, np.inf, -0.0, -3.0e38, 2.0]], "float32")
    cases.add("lrn edges", relay.nn.lrn(cases.var(edges.shape, value=edges), 3))
    cases.check(cache, optimize)


@pytest.mark.parametrize("optimize", [False, True])
def test_batch_matmul(optimize: bool, cache: Path) -> None:
    cases = Cases(2)
    for x, y, ta, tb in [
        ((2, 3, 4), (2, 5, 4), False, True),
        ((1, 3, 4), (2, 4, 5), False, False),
        ((3, 4, 3), (1, 5, 4), True, True),
        ((2, 4, 3), (2, 4, 2), True, False),
    ]:
        product = relay.nn.batch_matmul(cases.var(x), cases.var(y), transpose_a=ta, transpose_b=tb)
        cases.add(f"batch_matmul {x} {y} {ta} {tb}", relay.tanh(product))
    ints = [cases.var((2, 3, 4), "int8", RNG.integers(-128, 128, (2, 3, 4)).astype("int8"))]
    ints.append(cases.var((2, 5, 4), "int8", RNG.integers(-128, 128, (2, 5, 4)).astype("int8")))
    cases.add("batch_matmul i8 -> i32", relay.nn.batch_matmul(*ints, out_dtype="int32"))
    cases.add("batch_matmul i8 wraps", relay.nn.batch_matmul(*ints))
    cases.add(
        "batch_matmul f64",
        relay.nn.batch_matmul(cases.var((2, 2, 3), "float64"), cases.var((1, 4, 3), "float64")),
    )
    cases.check(cache, optimize, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("optimize", [False, True])
def test_layer_instance_group_norm(optimize: bool, cache: Path) -> None:
    cases = Cases(3)

    def parts(shape: tuple[int, ...], axis: int, dtype: str = "float32") -> list[relay.Var]:
        c = shape[axis]
        return [cases.var(shape, dtype), cases.var((c,), dtype), cases.var((c,), dtype)]

    for shape, axis in [((2, 4, 3, 3), 1), ((2, 4, 3), -1), ((3, 5), 0), ((2, 3, 4, 5), 2)]:
        for center, scale in [(True, True), (False, True), (True, False)]:
            flags = {"center": center, "scale": scale}
            label = f"{shape} axis {axis} {flags}"
            layer = relay.nn.layer_norm(*parts(shape, axis), axis=axis, **flags)
            cases.add(f"layer_norm {label}", relay.nn.relu(layer))
            cases.add(
                f"instance_norm {label}",
                relay.nn.instance_norm(*parts(shape, axis), axis=axis, **flags),
            )
            cases.add(
                f"group_norm 1 {label}", relay.nn.group_norm(*parts(shape, axis), 1, axis, **flags)
            )
    cases.add("group_norm 3", relay.nn.group_norm(*parts((2, 6, 2, 3), 1), 3, epsilon=1e-3))
    cases.add("group_norm f64", relay.nn.group_norm(*parts((2, 6, 2, 3), 1, "float64"), 2))
    cases.add(
        "group_norm f16 axis 2", relay.nn.group_norm(*parts((2, 3, 6, 2), 2, "float16"), 6, 2)
    )
    cases.add("instance_norm f16", relay.nn.instance_norm(*parts((2, 3, 5), 1, "float16")))
    cases.check(cache, optimize, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("optimize", [False, True])
def test_prelu_and_l2_normalize(optimize: bool, cache: Path) -> None:
    cases = Cases(4)
    for shape, axis, dtype in [
        ((2, 3, 4), 1, "float32"),
        ((2, 3, 4), -1, "float64"),
        ((4, 1), 0, "float16"),
        ((2, 3), 1, "float32"),
    ]:
        alpha = cases.var((shape[axis],), dtype)
        cases.add(
            f"prelu {shape} {axis} {dtype}", relay.nn.prelu(cases.var(shape, dtype), alpha, axis)
        )
    chain = relay.nn.prelu(relay.negative(cases.var((2, 3, 2))), cases.var((3,)))
    cases.add("prelu fused", relay.multiply(chain, relay.const(np.float32(2.0))))
    edges = np.array([[np.nan, -0.0, np.inf, -np.inf]], "float32")
    cases.add("prelu edges", relay.nn.prelu(cases.var(edges.shape, value=edges), cases.var((4,))))
    for shape, axis, eps, dtype in [
        ((2, 3, 4), [1], 1e-12, "float32"),
        ((2, 3, 4), None, 0.5, "float32"),
        ((2, 3, 4), [0, 2], 1e-100, "float64"),
        ((3, 5), [-1], 1e-3, "float16"),
    ]:
        data = cases.var(shape, dtype)
        cases.add(f"l2_normalize {shape} {axis} {dtype}", relay.nn.l2_normalize(data, eps, axis))
    zeros = np.zeros((2, 3), "float32")
    cases.add(
        "l2_normalize zeros", relay.nn.l2_normalize(cases.var((2, 3), value=zeros), 1e-100, [1])
    )
    cases.check(cache, optimize, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("optimize", [False, True])
def test_adaptive_pools(optimize: bool, cache: Path) -> None:
    cases = Cases(5)
    for fn in (relay.nn.adaptive_avg_pool2d, relay.nn.adaptive_max_pool2d):
        name = fn.__name__
        cases.add(f"{name} 7x5 -> 3x2", fn(cases.var((2, 3, 7, 5)), (3, 2)))
        cases.add(f"{name} global", relay.nn.relu(fn(cases.var((2, 3, 4, 4)), 1)))
        cases.add(f"{name} NHWC up", fn(cases.var((1, 2, 3, 2)), (4, 5), layout="NHWC"))
        cases.add(f"{name} same", fn(cases.var((1, 2, 3, 3))))
        ints = RNG.integers(-50, 50, (1, 2, 5, 7)).astype("int32")
        cases.add(f"{name} i32", fn(cases.var(ints.shape, "int32", ints), (2, 3)))
        cases.add(f"{name} f16", fn(cases.var((1, 2, 5, 4), "float16"), (2, 3)))
        cases.add(f"{name} empty", fn(cases.var((1, 2, 0, 3)), (2, 2)))
        edges = np.array([[[[np.nan, 1.0], [np.inf, -np.inf]]]], "float32")
        cases.add(f"{name} edges", fn(cases.var(edges.shape, value=edges), (2, 1)))
    cases.check(cache, optimize, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("optimize", [False, True])
def test_norm_edges(optimize: bool, cache: Path) -> None:
    """NaN, infinities and constant slices (variance 0, with and without epsilon) agree."""
    cases = Cases(6)
    x = np.array([[2.0, 2.0, 2.0], [1.0, np.inf, 3.0], [np.nan, 0.0, 1.0]], "float32")
    for epsilon in (1e-5, 0.0):
        data, gamma, beta = cases.var(x.shape, value=x), cases.var((3,)), cases.var((3,))
        cases.add(
            f"layer_norm eps {epsilon}", relay.nn.layer_norm(data, gamma, beta, epsilon=epsilon)
        )
        data, gamma, beta = cases.var(x.shape, value=x), cases.var((3,)), cases.var((3,))
        cases.add(
            f"instance_norm eps {epsilon}", relay.nn.instance_norm(data, gamma, beta, 0, epsilon)
        )
    data, gamma, beta = cases.var(x.shape, value=x), cases.var((3,)), cases.var((3,))
    cases.add("group_norm", relay.nn.group_norm(data, gamma, beta, 3, axis=0))
    cases.add("l2_normalize", relay.nn.l2_normalize(cases.var(x.shape, value=x), 1e-12, [1]))
    cases.add("l2_normalize eps 0", relay.nn.l2_normalize(cases.var(x.shape, value=x), 0.0))
    cases.add("lrn", relay.nn.lrn(cases.var(x.shape, value=x), 3, 0, bias=-1.0, beta=0.5))
    cases.check(cache, optimize, rtol=1e-5, atol=1e-6)
