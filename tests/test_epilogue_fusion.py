"""Host epilogue fusion (`codegen/c/epilogue_chains.py`): which chains after a float32 GEMM
producer are fused into `xg_sgemm_ep`, and that the fused C computes what the interpreter does.

Each chain form (bias by `bias_add` and by `add` in either order, residual in either order,
each activation, GELU in three op orders, everything at once) is printed on its own and
checked for its `/* fused: ... */` line and for no loop of its own; the chains that must not
fuse (an intermediate used twice, an intermediate that is an output, a broadcast that is
not along the channel axis, a residual computed after the producer) print no fused line.
All cases are then built in one module, unoptimized (chains in `main`) and optimized
(chains inside FuseOps' primitive functions), and compared with the interpreter (the 1e-4
rule of issue 16: error within 1e-4 of the output's largest magnitude), twice: the
dense's constant weights are packed by the first run (`xg_sgemm_pp`), read packed after.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from testlib.accel_cases import emit
from testlib.sanitized import main_inputs, main_outputs, run_main

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Make = Callable[["Inputs", relay.Expr], relay.Expr]

ROWS, DEPTH, UNITS = 13, 300, 45
"""The dense: odd rows and units, a depth past the GEMM's depth block (the epilogue waits
for the last block)."""


class Inputs:
    """The parameters a case adds (beside the data `x`), with seeded values."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.params: list[relay.Var] = []
        self.values: list[Array] = []

    def var(self, shape: tuple[int, ...]) -> relay.Var:
        v = relay.var(f"v{len(self.params)}", shape=shape, dtype="float32")
        self.params.append(v)
        self.values.append(self.rng.standard_normal(shape).astype("float32"))
        return v

    def const(self, *shape: int) -> relay.Expr:
        return relay.const(self.rng.standard_normal(shape).astype("float32"))


def scalar(value: float) -> relay.Expr:
    return relay.const(np.float32(value))


def gelu_a(h: relay.Expr) -> relay.Expr:  # the ONNX importer's order
    inner = relay.add(relay.erf(relay.multiply(h, scalar(2**-0.5))), scalar(1.0))
    return relay.multiply(relay.multiply(h, scalar(0.5)), inner)


def gelu_b(h: relay.Expr) -> relay.Expr:
    inner = relay.add(scalar(1.0), relay.erf(relay.divide(h, scalar(math.sqrt(2)))))
    return relay.multiply(relay.multiply(h, inner), scalar(0.5))


def gelu_c(h: relay.Expr) -> relay.Expr:
    inner = relay.add(relay.erf(relay.multiply(scalar(2**-0.5), h)), scalar(1.0))
    return relay.multiply(h, relay.multiply(inner, scalar(0.5)))


def dense(p: Inputs, x: relay.Expr) -> relay.Expr:
    return relay.nn.dense(x, p.const(UNITS, DEPTH))


FUSED: dict[str, tuple[Make, str]] = {
    "bias_add": (lambda p, x: relay.nn.bias_add(dense(p, x), p.const(UNITS)), "nn.bias_add"),
    "add bias": (lambda p, x: relay.add(dense(p, x), p.const(UNITS)), "add"),
    "bias add": (lambda p, x: relay.add(p.var((1, UNITS)), dense(p, x)), "add"),
    "residual": (lambda p, x: relay.add(dense(p, x), p.var((ROWS, UNITS))), "add"),
    "residual first": (lambda p, x: relay.add(p.var((ROWS, UNITS)), dense(p, x)), "add"),
    "relu": (lambda p, x: relay.nn.relu(dense(p, x)), "nn.relu"),
    "clip": (lambda p, x: relay.clip(dense(p, x), -0.5, 0.75), "clip"),
    "sigmoid": (lambda p, x: relay.sigmoid(dense(p, x)), "sigmoid"),
    "tanh": (lambda p, x: relay.tanh(dense(p, x)), "tanh"),
    "gelu a": (lambda p, x: gelu_a(dense(p, x)), "multiply, erf, add, multiply, multiply"),
    "gelu b": (lambda p, x: gelu_b(dense(p, x)), "divide, erf, add, multiply, multiply"),
    "gelu c": (lambda p, x: gelu_c(dense(p, x)), "multiply, erf, add, multiply, multiply"),
    "all": (
        lambda p, x: gelu_a(
            relay.add(relay.add(dense(p, x), p.const(UNITS)), p.var((ROWS, UNITS)))
        ),
        "add, add, multiply, erf, add, multiply, multiply",
    ),
    "batch_matmul": (
        lambda p, x: relay.nn.relu(
            relay.add(
                relay.add(
                    relay.nn.batch_matmul(relay.reshape(x, (1, ROWS, DEPTH)), p.var((2, 7, DEPTH))),
                    p.const(7),
                ),
                p.var((2, ROWS, 7)),
            )
        ),
        "add, add, nn.relu",
    ),
    "matmul": (
        lambda p, x: relay.clip(relay.add(relay.matmul(x, p.var((DEPTH, 9))), p.const(9)), 0, 6),
        "add, clip",
    ),
}
"""Chains that fuse: case -> (model over `x`, the fused ops in order, without `relay.`)."""


def used_twice(p: Inputs, x: relay.Expr) -> relay.Expr:
    d = dense(p, x)
    return relay.add(relay.nn.relu(d), d)


def late_residual(p: Inputs, x: relay.Expr) -> relay.Expr:
    d = dense(p, x)
    late = relay.sigmoid(
        relay.sum(x, axis=[1], keepdims=True) * relay.const(np.ones((1, UNITS), "float32"))
    )
    return relay.add(d, late)


NOT_FUSED: dict[str, Make] = {
    "used twice": used_twice,
    "output": lambda p, x: relay.Tuple([(d := dense(p, x)), relay.nn.relu(d)]),
    "row broadcast": lambda p, x: relay.add(dense(p, x), p.var((ROWS, 1))),
    "scalar broadcast": lambda p, x: relay.add(dense(p, x), scalar(2.0)),
    "late residual": late_residual,
}
"""Chains that must not fuse (the residual of `late residual` is computed after the dense)."""


def module(makes: list[Make], seed: int) -> tuple[IRModule, list[Array]]:
    rng = np.random.default_rng(seed)
    x = relay.var("x", shape=(ROWS, DEPTH), dtype="float32")
    p = Inputs(rng)
    outputs = [make(p, x) for make in makes]
    body = outputs[0] if len(outputs) == 1 else relay.Tuple(outputs)
    data = rng.standard_normal((ROWS, DEPTH)).astype("float32") / 4
    return IRModule.from_expr(relay.Function([x, *p.params], body)), [data, *p.values]


def host_c(makes: list[Make]) -> str:
    return str(emit(module(makes, 0)[0]).files["model.c"])


@pytest.mark.parametrize("case", list(FUSED))
def test_chain_is_fused_into_the_gemm(case: str) -> None:
    make, fused = FUSED[case]
    text = host_c([make])
    names = ", ".join(f"relay.{name}" for name in fused.split(", "))
    assert f"/* fused: {names} */" in text
    assert "xg_sgemm_ep(" in text or "xg_sgemm_pp(" in text
    assert "out0[" not in text.split("void xk_main", 1)[1]  # no loop stores an element


@pytest.mark.parametrize("case", list(NOT_FUSED))
def test_chain_that_must_not_fuse(case: str) -> None:
    text = host_c([NOT_FUSED[case]])
    assert "/* fused:" not in text
    assert "xg_sgemm_pp(" in text


def flat(tree: Any) -> Iterator[Array]:
    """The leaves of the interpreter's nested tuples, in order (as the library returns them)."""
    if isinstance(tree, list | tuple):
        for item in cast(list[Any], tree):
            yield from flat(item)
    else:
        yield np.asarray(tree)


@pytest.mark.parametrize("optimize", [False, True])
def test_fused_chains_match_the_interpreter(cache: Path, optimize: bool) -> None:
    makes = [make for make, _ in FUSED.values()] + list(NOT_FUSED.values())
    mod, values = module(makes, 1)
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    text = str(lib.sources.files["model.c"])
    constant = [case for case in FUSED if case not in ("batch_matmul", "matmul")]
    assert text.count("xg_sgemm_pp(") == len(constant) + len(NOT_FUSED)  # constant weights
    assert text.count("xg_sgemm_ep(") == len(FUSED) - len(constant)
    first = [np.asarray(g).copy() for g in lib(*values)]
    got = [np.asarray(g) for g in lib(*values)]  # the packed weights, from the first run
    want = list(flat(xrelay.evaluate(mod, *values)))
    assert len(got) == len(want)
    for f, g, w in zip(first, got, want, strict=True):
        np.testing.assert_array_equal(f, g)
        assert g.shape == w.shape
        error = float(np.max(np.abs(g.astype(np.float64) - w.astype(np.float64))))
        assert error <= 1e-4 * max(1.0, float(np.max(np.abs(w))))


def test_fused_chains_are_clean_under_sanitizers(cache: Path, tmp_path: Path) -> None:
    """Bias, residual and GELU epilogues (and a chain that does not fuse) from C under ASan and
    UBSan, against the interpreter."""
    makes = [FUSED[case][0] for case in ("all", "batch_matmul", "matmul")]
    mod, values = module([*makes, NOT_FUSED["late residual"]], 2)
    sources = emit(mod)
    text = str(sources.files["model.c"])
    assert text.count("xg_sgemm_ep(") + text.count("xg_sgemm_pp(") == len(makes) + 1
    stdout = run_main(sources, cache, tmp_path)
    inputs = main_inputs(values)
    want = list(flat(xrelay.evaluate(mod, *inputs)))
    got = [
        np.array(printed, dtype=np.float64).reshape(w.shape)
        for printed, w in zip(main_outputs(stdout), want, strict=True)
    ]
    for g, w in zip(got, want, strict=True):
        error = float(np.max(np.abs(g - w.astype(np.float64))))
        assert error <= 1e-4 * max(1.0, float(np.max(np.abs(w))))
