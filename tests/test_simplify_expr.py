"""SimplifyExpr: reshape chains collapse, identity ops vanish, adjacent constants combine
(TVM's pass).

TVM's `test_nested_sequential_with_scoping` is ported with the plain reshape its
`reverse_reshape` amounts to; every case compares the rewritten IR with a module
built with the builder (or with the input, for cases that must not change), or for
the constant rewrites the ops left and the folded constants' values, and checks the
numerics before and after on seeded random inputs.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_to_numpy
from xrelay.passes import lookup_pass
from xrelay.passes.simplify_expr import SimplifyExpr, SimplifyExprPass

from xrelay import IRModule, relay, transform


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def unchanged(mod: IRModule) -> None:
    """The pass leaves `mod` exactly as it was (and its numerics, trivially)."""
    out = run_and_check(mod, SimplifyExpr())
    assert str(out) == str(mod)


def test_nested_sequential_with_scoping() -> None:
    """TVM's test: Sequential([Sequential([SimplifyExpr()])]) at opt_level 1 collapses the
    reshapes; the inner Sequential (opt_level 0) must run."""

    def before() -> IRModule:
        x = relay.var("x", shape=(1, 16, 16, 16), dtype="float32")
        w = relay.var("w", shape=(32, 16, 3, 3), dtype="float32")
        y = relay.nn.conv2d(x, w, padding=(1, 1))
        y = relay.reshape(y, newshape=(1, 16, -1))
        y = relay.reshape(y, newshape=(4, 8, -1, 16))
        y = relay.reshape(y, newshape=(32, 16, -1))  # TVM: reverse_reshape(y, (32, 0, -1))
        return IRModule.from_expr(y)

    def expected() -> IRModule:
        x = relay.var("x", shape=(1, 16, 16, 16), dtype="float32")
        w = relay.var("w", shape=(32, 16, 3, 3), dtype="float32")
        y = relay.nn.conv2d(x, w, padding=(1, 1))
        y = relay.reshape(y, newshape=(32, 16, 16))
        return IRModule.from_expr(y)

    z = before()
    passes = [transform.Sequential([SimplifyExpr()])]
    with transform.PassContext(opt_level=1):
        zz = transform.Sequential(passes)(z.clone())
    assert str(zz) == str(expected())
    run_and_check(z, passes, opt_level=1, rtol=1e-4, atol=1e-4)


def test_reshape_like_chain_collapses() -> None:
    """batch_flatten, expand_dims, squeeze, reshape: one reshape of the input."""

    def build(simplified: bool) -> IRModule:
        x = relay.var("x", shape=(2, 3, 4))
        if simplified:
            return module([x], relay.exp(relay.reshape(x, (4, 6))))
        y = relay.expand_dims(relay.nn.batch_flatten(x), axis=0)
        y = relay.reshape(relay.squeeze(y, axis=[0]), (4, 6))
        return module([x], relay.exp(y))

    out = run_and_check(build(False), SimplifyExpr())
    assert str(out) == str(build(True))


def test_shared_intermediate_reshape() -> None:
    """The first reshape has another use: it stays for it; the second reads the input."""

    def build(simplified: bool) -> IRModule:
        x = relay.var("x", shape=(2, 3))
        first = relay.reshape(x, (6,))
        second = relay.reshape(x, (3, 2)) if simplified else relay.reshape(first, (3, 2))
        return module([x], relay.Tuple([relay.exp(first), second]))

    out = run_and_check(build(False), SimplifyExpr())
    assert str(out) == str(build(True))
    assert count(out, "relay.reshape") == 2


def test_round_trip_pair_forwards_to_input() -> None:
    """squeeze(expand_dims(x)) back to x's type: x itself, even when the expand_dims
    stays for another reader; a pair to another shape still becomes one reshape."""

    def build(simplified: bool) -> IRModule:
        x = relay.var("x", shape=(2, 3))
        wide = relay.expand_dims(x, axis=0)
        back = x if simplified else relay.squeeze(wide, axis=[0])
        other = relay.reshape(x, (3, 2)) if simplified else relay.reshape(wide, (3, 2))
        return module([x], relay.Tuple([relay.exp(wide), relay.exp(back), other]))

    out = run_and_check(build(False), SimplifyExpr())
    assert str(out) == str(build(True))
    assert count(out, "relay.squeeze") == 0
    assert count(out, "relay.expand_dims") == 1


def test_dynamic_reshape_chain_is_kept() -> None:
    """A chain ending in a `?` shape has no static newshape: it stays."""
    x = relay.var("x", shape=(None, 4))
    y = relay.reshape(relay.reshape(x, (-1,)), (-1, 2))
    unchanged(module([x], y))


def test_dynamic_same_type_reshape_is_kept() -> None:
    """reshape(?x4 -> ?x4) keeps its type, but with `?` that does not prove identity."""
    x = relay.var("x", shape=(None, 4))
    unchanged(module([x], relay.reshape(x, (-1, 4))))


def test_dynamic_squeeze_is_kept() -> None:
    """squeeze(?x5) has type ?x5, but drops the `?` when it is 1 at run time: it stays.

    (No numerics: with random inputs the `?` is 1, where the op does not match its type.)
    """
    x = relay.var("x", shape=(None, 5))
    mod = module([x], relay.exp(relay.squeeze(x)))
    text = str(mod)
    assert str(SimplifyExpr()(mod)) == text


def test_identity_reshapes_vanish() -> None:
    """Static same-shape reshape, squeeze of nothing, expand_dims by 0, cast to same dtype."""
    x = relay.var("x", shape=(2, 3))
    y = relay.reshape(x, (2, -1))
    y = relay.squeeze(y)
    y = relay.expand_dims(y, axis=0, num_newaxis=0)
    y = relay.cast(y, "float32")
    out = run_and_check(module([x], relay.exp(y)), SimplifyExpr())
    z = relay.var("x", shape=(2, 3))
    assert str(out) == str(module([z], relay.exp(z)))


@pytest.mark.parametrize(
    ("first", "second"),
    list(itertools.product(itertools.permutations(range(3)), repeat=2)),
)
def test_transpose_pairs(first: tuple[int, ...], second: tuple[int, ...]) -> None:
    """Every pair of rank-3 transposes: one transpose with the composed axes, or none."""
    x = relay.var("x", shape=(2, 3, 4))
    before = module([x], relay.transpose(relay.transpose(x, first), second))
    out = run_and_check(before, SimplifyExpr())
    composed = [first[s] for s in second]
    y = relay.var("x", shape=(2, 3, 4))
    body = y if composed == [0, 1, 2] else relay.transpose(y, composed)
    assert str(out) == str(module([y], body))


def test_non_identity_transpose_is_kept() -> None:
    """A single transpose that permutes something stays."""
    x = relay.var("x", shape=(2, 3))
    unchanged(module([x], relay.transpose(x, (1, 0))))


def test_layout_transform_chains() -> None:
    """A->B->A vanishes, A->B->C is A->C (through a blocked layout), A->A vanishes."""
    x = relay.var("x", shape=(1, 8, 2, 2))
    blocked = relay.layout_transform(x, "NCHW", "NCHW4c")
    back = relay.layout_transform(blocked, "NCHW4c", "NCHW")
    nhwc = relay.layout_transform(blocked, "NCHW4c", "NHWC")
    same = relay.layout_transform(x, "NCHW", "NCHW")
    out = run_and_check(module([x], relay.Tuple([back, nhwc, same])), SimplifyExpr())
    y = relay.var("x", shape=(1, 8, 2, 2))
    expected = module([y], relay.Tuple([y, relay.layout_transform(y, "NCHW", "NHWC"), y]))
    assert str(out) == str(expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x + relay.const(0.0),
        lambda x: relay.const(0.0) + x,
        lambda x: x - relay.const(0.0),
        lambda x: x * relay.const(1.0),
        lambda x: relay.const(1.0) * x,
        lambda x: x / relay.const(1.0),
        lambda x: x * relay.const(np.ones(3, "float32")),
        lambda x: x + relay.zeros((2, 3), "float32"),
        lambda x: relay.ones_like(x) * x,
        lambda x: x - relay.zeros_like(x),
    ],
)
def test_arithmetic_identities_vanish(make: Callable[[relay.Expr], relay.Expr]) -> None:
    """x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 (scalar, tensor, zeros/ones ops) -> x."""
    x = relay.var("x", shape=(2, 3))
    body = make(x)
    out = run_and_check(module([x], relay.nn.relu(body)), SimplifyExpr())
    y = relay.var("x", shape=(2, 3))
    assert str(out) == str(module([y], relay.nn.relu(y)))


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x * relay.const(np.ones((2, 3), "float32")),  # broadcasts x to 2x3
        lambda x: relay.zeros((2, 1), "float32") + x,  # broadcasts x to 2x3
        lambda x: relay.const(0.0) - x,
        lambda x: relay.const(1.0) / x,
        lambda x: x * relay.const(np.array([1.0, 2.0, 1.0], "float32")),
        lambda x: x + relay.const(1e-30),
    ],
)
def test_non_identities_are_kept(make: Callable[[relay.Expr], relay.Expr]) -> None:
    """Broadcasting that enlarges x, 0 - x, 1 / x, and constants not all the identity."""
    x = relay.var("x", shape=(3,))
    unchanged(module([x], make(x)))


def test_fixpoint_across_patterns() -> None:
    """A reshape round trip, then a transpose pair, then * 1: all gone in one run."""
    x = relay.var("x", shape=(2, 3))
    y = relay.reshape(relay.reshape(x, (3, 2)), (2, 3))
    y = relay.transpose(relay.transpose(y, (1, 0)), (1, 0))
    y = y * relay.const(1.0)
    out = run_and_check(module([x], relay.exp(y)), SimplifyExpr())
    z = relay.var("x", shape=(2, 3))
    assert str(out) == str(module([z], relay.exp(z)))


def test_pass_info_and_registration() -> None:
    """TVM's name and opt_level 0, a function pass; the flag and the name both resolve."""
    info = SimplifyExpr().info
    assert (info.name, info.opt_level, info.required) == ("SimplifyExpr", 0, ())
    entry = lookup_pass("SimplifyExpr")
    assert entry is not None
    assert entry.flag == "simplify-expr"
    assert entry.factory() is SimplifyExprPass
    assert transform.get_pass("simplify-expr").info.name == "SimplifyExpr"


def test_skips_partitioned_functions() -> None:
    """A function with `Compiler` is not rewritten (TVM's FunctionPass rule)."""
    x = relay.var("x", shape=(2, 3))
    body = relay.reshape(relay.reshape(x, (6,)), (3, 2))
    mod = IRModule.from_expr(relay.Function([x], body).with_attr("Compiler", "accel"))
    text = str(mod)
    assert str(SimplifyExpr()(mod)) == text


def ops(mod: IRModule) -> list[str]:
    """The names of the ops of `main`'s body, in order."""
    return [op.name for op in mod.module.walk() if op.name.startswith(("relay.", "func.return"))]


def constants(mod: IRModule) -> list[np.ndarray[Any, Any]]:
    """The values of the module's relay.constants, in order."""
    return [dense_to_numpy(op.value) for op in mod.module.walk() if isinstance(op, ConstantOp)]


def test_conv_bias_shift_adds_become_one() -> None:
    """add(add(conv, b), shift) with per-channel 16x1x1 constants (CanonicalizeOps' bias_add
    and SimplifyInference's shift): one add of b + shift, the composite-friendly form."""
    rng = np.random.default_rng(0)
    b = rng.standard_normal((16, 1, 1)).astype("float32")
    shift = rng.standard_normal((16, 1, 1)).astype("float32")
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(16, 3, 3, 3))
    conv = relay.nn.conv2d(x, w, padding=(1, 1))
    before = module([x, w], relay.nn.relu(conv + relay.const(b) + relay.const(shift)))
    out = run_and_check(before, SimplifyExpr(), rtol=1e-5, atol=1e-5)
    assert count(out, "relay.add") == 1
    (folded,) = constants(out)
    np.testing.assert_array_equal(folded, b + shift)


def pair(
    op: str, first: bool, second: bool
) -> Callable[[relay.Expr, relay.Expr, relay.Expr], relay.Expr]:
    """`(x op c1) op c2` with each constant on the left (True) or the right."""

    def apply(a: relay.Expr, b: relay.Expr, constant_left: bool) -> relay.Expr:
        lhs, rhs = (b, a) if constant_left else (a, b)
        return relay.add(lhs, rhs) if op == "add" else relay.multiply(lhs, rhs)

    return lambda x, c1, c2: apply(apply(x, c1, first), c2, second)


@pytest.mark.parametrize("dtype", ["float32", "int32", "int8"])
@pytest.mark.parametrize("op", ["add", "multiply"])
@pytest.mark.parametrize(("first", "second"), list(itertools.product([False, True], repeat=2)))
def test_adjacent_constants_fold(dtype: str, op: str, first: bool, second: bool) -> None:
    """(x op c1) op c2 -> x op (c1 op c2), every operand order, floats and integers; integer
    constants wrap (int8: 100 + 100 and 100 * 100) exactly as the reference computes."""
    big = dtype == "int8"
    c1 = np.array([100, 3, 5] if big else [1.5, -2.0, 3.0]).astype(dtype)
    c2 = np.array(100 if big else 0.5).astype(dtype)
    x = relay.var("x", shape=(2, 3), dtype=dtype)
    body = pair(op, first, second)(x, relay.const(c1), relay.const(c2))
    out = run_and_check(module([x], body), SimplifyExpr())
    assert ops(out) == ["relay.constant", f"relay.{op}", "func.return"]
    with np.errstate(all="ignore"):
        want = c1 + c2 if op == "add" else c1 * c2
    (folded,) = constants(out)
    assert folded.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(folded, want)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize(("first", "second"), list(itertools.product([False, True], repeat=2)))
def test_switch_add_multiply(dtype: str, first: bool, second: bool) -> None:
    """(x + c1) * c2 -> x * c2 + c1 * c2, constants on either side; c2 broadcasts x."""
    c1 = np.array([1, 2, 3]).astype(dtype)
    c2 = np.array([[2], [-3]]).astype(dtype)
    x = relay.var("x", shape=(3,), dtype=dtype)
    inner = relay.add(relay.const(c1), x) if first else relay.add(x, relay.const(c1))
    body = (
        relay.multiply(relay.const(c2), inner) if second else relay.multiply(inner, relay.const(c2))
    )
    out = run_and_check(module([x], body), SimplifyExpr())
    names = ["relay.constant", "relay.constant", "relay.multiply", "relay.add", "func.return"]
    assert ops(out) == names
    np.testing.assert_array_equal(constants(out)[1], c1 * c2)


def test_long_chain_folds_to_multiply_add() -> None:
    """(((x + a) * b + c) * d) * e + f over 40 steps: one multiply and one add remain."""
    rng = np.random.default_rng(1)
    x = relay.var("x", shape=(4, 5))
    y: relay.Expr = x
    for step in range(40):
        c = relay.const(rng.uniform(0.5, 1.5, (5,)).astype("float32"))
        y = y + c if step % 2 else y * c
    out = run_and_check(module([x], relay.exp(y)), SimplifyExpr(), rtol=1e-4, atol=1e-5)
    assert [name for name in ops(out) if name != "relay.constant"] == [
        "relay.multiply",
        "relay.add",
        "relay.exp",
        "func.return",
    ]
    assert count(out, "relay.constant") == 2


@pytest.mark.parametrize(
    "make",
    [
        # x is a constant too: FoldConstant's job
        lambda x, k: relay.const(np.ones(3, "float32")) + relay.const(2.0) + relay.const(3.0) + x,
        # the inner add / multiply has another reader
        lambda x, k: relay.Tuple([(y := x + relay.const(2.0)) + relay.const(3.0), y]),
        lambda x, k: relay.Tuple([(y := x * relay.const(2.0)) * relay.const(3.0), y]),
        lambda x, k: relay.Tuple([(y := x + relay.const(2.0)) * relay.const(3.0), y]),
        # an operand that is not a relay.constant
        lambda x, k: (x + k) + relay.const(3.0),
        lambda x, k: (x + relay.const(2.0)) * k,
        # mul-add is the form switched to; subtract is not reassociated
        lambda x, k: (x * relay.const(2.0)) + relay.const(3.0),
        lambda x, k: (x - relay.const(2.0)) - relay.const(3.0),
    ],
)
def test_arithmetic_chains_kept(make: Callable[[relay.Expr, relay.Expr], relay.Expr]) -> None:
    """Constant x, a shared inner op, a non-constant operand, and other op pairs stay."""
    x = relay.var("x", shape=(3,))
    k = relay.var("k", shape=())
    unchanged(module([x, k], make(x, k)))
