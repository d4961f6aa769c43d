"""relay.einsum: the reference against naive loops (ONNX's einsum node cases and more), type
errors, and the C target against the interpreter."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import xrelay
from tests.testlib.c_compare import check_c_against_interpreter
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def naive_einsum(equation: str, operands: list[Array]) -> Array:
    """An explicit, ellipsis-free equation by Python loops over every letter."""
    lhs, rhs = equation.replace(" ", "").split("->")
    terms = lhs.split(",")
    extent: dict[str, int] = {}
    for term, x in zip(terms, operands, strict=True):
        for char, dim in zip(term, x.shape, strict=True):
            extent[char] = dim
    letters = sorted(extent)
    out = np.zeros([extent[c] for c in rhs], np.float64)
    for values in itertools.product(*(range(extent[c]) for c in letters)):
        at = dict(zip(letters, values, strict=True))
        product = 1.0
        for term, x in zip(terms, operands, strict=True):
            product *= float(x[tuple(at[c] for c in term)])
        out[tuple(at[c] for c in rhs)] += product
    return out


def run(equation: str, operands: list[Array]) -> Array:
    params = [relay.var(f"x{i}", shape=x.shape, dtype=str(x.dtype)) for i, x in enumerate(operands)]
    body = relay.einsum(params, equation)
    return xrelay.evaluate(IRModule.from_expr(relay.Function(params, body)), *operands)


# (equation, shapes, the same computation written explicitly without '...')
CASES = [
    ("ij->ji", [(3, 4)], "ij->ji"),
    ("ij->i", [(3, 4)], "ij->i"),
    ("...ii ->...i", [(3, 5, 5)], "bii->bi"),
    ("i,i", [(5,), (5,)], "i,i->"),
    ("bij, bjk -> bik", [(5, 2, 3), (5, 3, 4)], "bij,bjk->bik"),
    ("->", [()], "->"),
    ("i,j", [(3,), (4,)], "i,j->ij"),
    ("ba", [(3, 4)], "ba->ab"),
    ("ii", [(4, 4)], "ii->"),
    ("...j,jk->...k", [(2, 3, 4), (4, 5)], "abj,jk->abk"),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)], "ij,jk,kl->il"),
    ("Ab,bA->A", [(3, 2), (2, 3)], "Ab,bA->A"),
]


@pytest.mark.parametrize(("equation", "shapes", "explicit"), CASES)
def test_reference_matches_naive_loops(
    equation: str, shapes: list[tuple[int, ...]], explicit: str
) -> None:
    rng = np.random.default_rng(0)
    operands = [rng.standard_normal(s).astype("float32") for s in shapes]
    got = run(equation, operands)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, naive_einsum(explicit, operands), rtol=1e-5, atol=1e-6)


def test_ellipsis_broadcasts_and_integers_wrap() -> None:
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 1, 3)).astype("float32")
    b = rng.standard_normal((4, 3)).astype("float32")
    got = run("...i,...i->...", [a, b])
    want = naive_einsum(
        "xyi,xyi->xy", [np.broadcast_to(a, (2, 4, 3)), np.broadcast_to(b, (2, 4, 3))]
    )
    np.testing.assert_allclose(got, want, rtol=1e-5)
    big = np.array([2**30, 2**30], "int32")
    got = run("i,i", [big, np.array([4, 4], "int32")])
    assert got.dtype == np.int32
    assert int(got) == 0  # 2^33 wraps to 0


@pytest.mark.parametrize(
    ("equation", "shapes", "message"),
    [
        ("ij,jk->ik", [(2, 3), (4, 5)], "'j' is 3 in one place and 4 in operand #1"),
        ("ij->ik", [(2, 3)], "output 'ik' has 'k', which no input term has"),
        ("ij->ii", [(2, 2)], "output 'ii' repeats 'i'"),
        ("ij", [(2, 3), (3,)], "has 1 input terms for 2 operands"),
        ("ijk", [(2, 3)], "term 'ijk' does not fit operand #0 of shape (2, 3)"),
        ("i1", [(2, 3)], "subscripts are letters or '...'"),
        ("...i,...i", [(2, 3), (4, 3)], "does not broadcast"),
        ("...ij->ij", [(5, 2, 3)], "output has no '...' for the broadcast dims (5)"),
    ],
)
def test_type_errors(equation: str, shapes: list[tuple[int, ...]], message: str) -> None:
    params = [relay.var(f"x{i}", shape=s) for i, s in enumerate(shapes)]
    with pytest.raises(relay.RelayTypeError, match=re.escape(message)):
        relay.einsum(params, equation)


def test_operands_share_a_number_type() -> None:
    a, b = relay.var("a", shape=(2,)), relay.var("b", shape=(2,), dtype="int32")
    with pytest.raises(relay.RelayTypeError, match="element type i32 does not match f32"):
        relay.einsum([a, b], "i,i")
    with pytest.raises(relay.RelayTypeError, match="einsum needs numbers"):
        relay.einsum([relay.var("c", shape=(2,), dtype="bool")], "i")


@pytest.mark.parametrize("dtype", ["float32", "int32", "int8", "float16", "float64"])
@pytest.mark.parametrize("optimize", [False, True])
def test_c_target_matches_the_interpreter(dtype: str, optimize: bool, cache: Path) -> None:
    rng = np.random.default_rng(2)
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for equation, shapes, _ in [*CASES, ("...i,...i->...", [(2, 1, 3), (4, 3)], "")]:
        args: list[relay.Expr] = []
        for shape in shapes:
            v = relay.var(f"x{len(params)}", shape=shape, dtype=dtype)
            params.append(v)
            args.append(v)
            values.append((rng.standard_normal(shape) * 4).astype(dtype))
        outputs.append(
            relay.exp(relay.einsum(args, equation))
            if dtype == "float32" and optimize
            else relay.einsum(args, equation)
        )
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": optimize})
    got = lib(*values)
    want = xrelay.evaluate(mod, *values)
    for g, w in zip(got, want, strict=True):
        assert (g.dtype, g.shape) == (w.dtype, w.shape)
        rtol = 1e-2 if dtype == "float16" else 1e-5
        np.testing.assert_allclose(
            np.asarray(g, np.float64), np.asarray(w, np.float64), rtol=rtol, atol=1e-4
        )


def test_c_target_on_empty_and_summed_away_dims(cache: Path) -> None:
    a, b = np.zeros((0, 3), "float32"), np.ones((3, 2), "float32")
    params = [relay.var("a", shape=a.shape), relay.var("b", shape=b.shape)]
    outputs = [relay.einsum(params, "ij,jk->ik"), relay.einsum(params, "ij,jk->jk")]
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    zeros, summed = check_c_against_interpreter(mod, [a, b], cache)
    assert zeros.shape == (0, 2)
    np.testing.assert_array_equal(summed, np.zeros((3, 2), "float32"))
