"""SimplifyInference: batch_norm becomes `x * scale + shift`, dropout its input (TVM's pass).

The port of TVM's `test_pass_simplify_inference.py` compares the rewritten IR with
the module TVM's test expects, built with the builder; every case also checks the
numerics before and after, on seeded random inputs and on inputs whose variances
are positive (random variances make `sqrt(var + eps)` NaN in both modules).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.dialects import func
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.passes import lookup_pass
from xrelay.passes.simplify_inference import SimplifyInference, SimplifyInferencePass

from xrelay import IRModule, relay, transform


def module(params: list[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(params, body))


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def main_func(mod: IRModule) -> func.FuncOp:
    (main,) = [op for op in mod.module.ops if isinstance(op, func.FuncOp)]
    return main


def leaves(value: Any) -> list[Any]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in leaves(item)]
    return [np.asarray(value)]


def simplify(before: IRModule) -> IRModule:
    """`run_and_check` with SimplifyInference; random variances give NaN channels quietly."""
    with np.errstate(invalid="ignore"):
        return run_and_check(before, SimplifyInference(), rtol=1e-4, atol=1e-4)


def check_positive_variance(before: IRModule, after: IRModule, variances: list[int]) -> None:
    """The same outputs when the parameters at `variances` are positive (seeds 0..2)."""
    for seed in range(3):
        inputs: list[Any] = random_inputs(main_func(before), seed)
        for index in variances:
            inputs[index] = np.abs(inputs[index]) + np.float32(0.1)
        want = leaves(evaluate_module(before.module, inputs))
        got = leaves(evaluate_module(after.module, inputs))
        assert len(got) == len(want)
        for w, g in zip(want, got, strict=True):
            assert np.all(np.isfinite(w))
            np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)


def simple_bn(
    x: relay.Expr,
    gamma: relay.Expr,
    beta: relay.Expr,
    moving_mean: relay.Expr,
    moving_var: relay.Expr,
    axis: int,
    epsilon: float,
    ndim: int,
) -> relay.Expr:
    """TVM's expected form: (x - mean) / sqrt(var + eps) * gamma + beta, unpacked."""
    scale = relay.multiply(
        relay.const(1, "float32") / relay.sqrt(moving_var + relay.const(epsilon, "float32")),
        gamma,
    )
    shift = relay.add(relay.multiply(relay.negative(moving_mean), scale), beta)
    num_newaxis = ndim - (axis + 1)
    if num_newaxis:
        scale = relay.expand_dims(scale, axis=1, num_newaxis=num_newaxis)
        shift = relay.expand_dims(shift, axis=1, num_newaxis=num_newaxis)
    return x * scale + shift


@pytest.mark.parametrize(("dim", "axis", "nstep"), [(2, 1, 1), (4, 1, 1), (4, 0, 3)])
def test_simplify_batchnorm(dim: int, axis: int, nstep: int) -> None:
    """TVM's `test_simplify_batchnorm`: `nstep` chained batch_norm(x + 1)[0] then dropout."""
    eps = 0.01
    shape = tuple(10 for _ in range(dim))

    def params() -> list[relay.Var]:
        names = ("x", "gamma", "beta", "moving_mean", "moving_var")
        return [relay.var(n, shape=shape if n == "x" else (10,)) for n in names]

    x, gamma, beta, moving_mean, moving_var = ps = params()
    y1: relay.Expr = x
    for _ in range(nstep):
        bn = relay.nn.batch_norm(
            y1 + relay.const(1, "float32"),
            gamma,
            beta,
            moving_mean,
            moving_var,
            epsilon=eps,
            axis=axis,
        )
        y1 = relay.nn.dropout(bn[0])
    before = module(ps, y1)

    x, gamma, beta, moving_mean, moving_var = qs = params()
    y2: relay.Expr = x
    for _ in range(nstep):
        y2 = simple_bn(
            y2 + relay.const(1, "float32"), gamma, beta, moving_mean, moving_var, axis, eps, dim
        )
    expected = module(qs, y2)

    after = simplify(before)
    assert str(after) == str(expected)
    assert count(after, "relay.nn.batch_norm") == count(after, "relay.nn.dropout") == 0
    check_positive_variance(before, after, variances=[4])


@pytest.mark.parametrize(("center", "scale"), [(False, False), (True, False), (False, True)])
def test_center_and_scale_flags(center: bool, scale: bool) -> None:
    """Without `scale` there is no gamma multiply; without `center` no beta add (last axis)."""

    def params() -> list[relay.Var]:
        return [relay.var("x", shape=(4, 6))] + [relay.var(n, shape=(6,)) for n in "gbmv"]

    x, g, b, m, v = ps = params()
    bn = relay.nn.batch_norm(x, g, b, m, v, axis=-1, center=center, scale=scale)
    before = module(ps, bn[0])

    x, g, b, m, v = qs = params()
    factor = relay.const(1, "float32") / relay.sqrt(v + relay.const(1e-5, "float32"))
    if scale:
        factor = relay.multiply(factor, g)
    shift = relay.multiply(relay.negative(m), factor)
    if center:
        shift = relay.add(shift, b)
    expected = module(qs, x * factor + shift)

    after = simplify(before)
    assert str(after) == str(expected)
    check_positive_variance(before, after, variances=[4])


def test_mean_and_var_fields_become_the_parameters() -> None:
    """Fields 1 and 2 are the moving mean and variance: the batch_norm disappears."""

    def params() -> list[relay.Var]:
        return [relay.var("x", shape=(2, 3, 4))] + [relay.var(n, shape=(3,)) for n in "gbmv"]

    x, g, b, m, v = ps = params()
    bn = relay.nn.batch_norm(x, g, b, m, v)
    before = module(ps, relay.Tuple([bn[0], bn[1], bn[2]]))

    x, g, b, m, v = qs = params()
    expected = module(qs, relay.Tuple([simple_bn(x, g, b, m, v, 1, 1e-5, 3), m, v]))

    after = simplify(before)
    assert str(after) == str(expected)
    assert count(after, "relay.nn.batch_norm") == count(after, "relay.tuple_get_item") == 0
    check_positive_variance(before, after, variances=[4])


def test_whole_tuple_use_keeps_the_batch_norm() -> None:
    """The tuple itself is returned: [0] is rewritten, the batch_norm stays for that use."""
    x, p = relay.var("x", shape=(2, 3)), relay.var("p", shape=(3,))
    bn = relay.nn.batch_norm(x, p, p, p, p)
    before = module([x, p], relay.Tuple([bn[0], bn]))
    after = simplify(before)
    assert count(after, "relay.nn.batch_norm") == 1
    assert count(after, "relay.tuple_get_item") == 0
    assert count(after, "relay.sqrt") == 1
    check_positive_variance(before, after, variances=[1])


def test_dropout_becomes_its_input() -> None:
    """`dropout(x)` and `dropout_raw(x)[0]` are x; a read mask keeps its dropout."""
    x = relay.var("x", shape=(2, 3))
    plain = relay.nn.dropout(relay.exp(x), rate=0.3)
    raw = relay.nn.dropout_raw(relay.nn.relu(x))
    before = module([x], relay.Tuple([plain, raw[0] + raw[1]]))
    after = run_and_check(before, SimplifyInference())

    y = relay.var("x", shape=(2, 3))
    mask_source = relay.nn.relu(y)
    expected = module(
        [y], relay.Tuple([relay.exp(y), mask_source + relay.nn.dropout_raw(mask_source)[1]])
    )
    assert str(after) == str(expected)
    assert count(after, "relay.nn.dropout") == 1


def test_dynamic_channels_are_left_alone() -> None:
    """x * scale would turn a `?` channel dim static: the function's types must not change."""
    x, p = relay.var("x", shape=(2, None)), relay.var("p", shape=(3,))
    before = module([x, p], relay.nn.batch_norm(x, p, p, p, p)[0])
    text = str(before)
    after = SimplifyInference()(before.clone())
    assert str(after) == text


def test_numerics_equal_the_reference_batch_norm_on_constants() -> None:
    """Constant parameters (positive variance), NCHW conv then batch_norm then relu."""
    rng = np.random.default_rng(3)
    x = relay.var("x", shape=(1, 3, 6, 6))
    w = relay.const(rng.standard_normal((4, 3, 3, 3)).astype("float32"))
    gamma, beta, mean = (relay.const(rng.standard_normal(4).astype("float32")) for _ in range(3))
    var = relay.const((np.abs(rng.standard_normal(4)) + 0.5).astype("float32"))
    y = relay.nn.conv2d(x, w, padding=(1, 1))
    y = relay.nn.relu(relay.nn.batch_norm(y, gamma, beta, mean, var, epsilon=1e-3)[0])
    after = run_and_check(module([x], y), SimplifyInference(), rtol=1e-4, atol=1e-4)
    assert count(after, "relay.nn.batch_norm") == 0
    assert count(after, "relay.expand_dims") == 2


def test_pass_info_and_registration() -> None:
    """TVM's name and opt_level 0, a function pass; the flag and the name both resolve."""
    info = SimplifyInference().info
    assert (info.name, info.opt_level, info.required) == ("SimplifyInference", 0, ())
    entry = lookup_pass("SimplifyInference")
    assert entry is not None
    assert entry.flag == "simplify-inference"
    assert entry.factory() is SimplifyInferencePass
    assert transform.get_pass("simplify-inference").info.name == "SimplifyInference"


def test_skips_partitioned_functions() -> None:
    """A function with `Compiler` is not rewritten (TVM's FunctionPass rule)."""
    x = relay.var("x", shape=(2, 3))
    mod = IRModule.from_expr(
        relay.Function([x], relay.nn.dropout(x)).with_attr("Compiler", "accel")
    )
    text = str(mod)
    assert str(SimplifyInference()(mod)) == text
