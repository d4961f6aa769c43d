"""Untyped variables: InferType solves their types from the ops that use them, as TVM's type
relations do (`dialects/builder/solve.py`, `relations.py`), and typed code keeps its eager
checks."""

from __future__ import annotations

import numpy as np
import pytest
from xrelay.dialects.builder.incomplete import is_complete
from xrelay.dialects.relay.base import RelayTypeError

from xrelay import IRModule, evaluate, relay


def param_types(expr: relay.Expr) -> dict[str, str]:
    """The solved type of each parameter of `main`, by name."""
    mod = IRModule.from_expr(expr)
    main = mod["main"]
    return {p.name_hint or "": str(p.checked_type) for p in main.params}


def test_var_without_type_or_shape_is_untyped_as_in_tvm() -> None:
    assert not is_complete(relay.var("x").checked_type)
    assert not is_complete(relay.var("x", dtype="int32").checked_type)  # TVM ignores dtype alone
    assert str(relay.var("x", shape=()).checked_type) == "tensor<f32>"
    assert str(relay.var("x", "int32").checked_type) == "tensor<i32>"
    with pytest.raises(ValueError, match="either type_annotation or shape"):
        relay.var("x", relay.TensorType((1,)), shape=(1,))


@pytest.mark.parametrize(
    ("data_layout", "kernel_layout", "shape", "groups", "weight"),
    [
        ("NCHW", "OIHW", (1, 6, 8, 8), 1, "tensor<4x6x3x3xf32>"),
        ("NCHW", "OIHW", (1, 6, 8, 8), 2, "tensor<4x3x3x3xf32>"),
        ("NHWC", "HWIO", (1, 8, 8, 6), 1, "tensor<3x3x6x4xf32>"),
    ],
)
def test_conv2d_weight_from_data_channels_and_kernel_size(
    data_layout: str, kernel_layout: str, shape: tuple[int, ...], groups: int, weight: str
) -> None:
    x, w = relay.var("x", shape=shape), relay.var("w")
    y = relay.nn.conv2d(
        x, w, channels=4, kernel_size=(3, 3), groups=groups,
        data_layout=data_layout, kernel_layout=kernel_layout,
    )  # fmt: skip
    assert param_types(relay.Function([x, w], y))["w"] == weight


def test_depthwise_conv2d_weight() -> None:
    x, w = relay.var("x", shape=(1, 8, 5, 5)), relay.var("w")
    y = relay.nn.conv2d(x, w, channels=8, kernel_size=(3, 3), groups=8)
    assert param_types(relay.Function([x, w], y))["w"] == "tensor<8x1x3x3xf32>"


def test_transposed_and_nd_conv_weights() -> None:
    x, w = relay.var("x", shape=(1, 6, 8, 8)), relay.var("w")
    y = relay.nn.conv2d_transpose(x, w, channels=4, kernel_size=(3, 3), groups=2)
    assert param_types(relay.Function([x, w], y))["w"] == "tensor<6x2x3x3xf32>"
    x1, w1 = relay.var("x", shape=(1, 6, 10)), relay.var("w")
    y1 = relay.nn.conv1d(x1, w1, channels=4, kernel_size=(3,))
    assert param_types(relay.Function([x1, w1], y1))["w"] == "tensor<4x6x3xf32>"
    x3, w3 = relay.var("x", shape=(1, 2, 4, 4, 4)), relay.var("w")
    y3 = relay.nn.conv3d(x3, w3, channels=4, kernel_size=(1, 2, 3))
    assert param_types(relay.Function([x3, w3], y3))["w"] == "tensor<4x2x1x2x3xf32>"


def test_dense_bias_and_norm_parameters() -> None:
    x = relay.var("x", shape=(2, 16))
    w, b = relay.var("w"), relay.var("b")
    y = relay.nn.bias_add(relay.nn.dense(x, w, units=8), b, axis=-1)
    types = param_types(relay.Function([x, w, b], y))
    assert (types["w"], types["b"]) == ("tensor<8x16xf32>", "tensor<8xf32>")

    d = relay.var("d", shape=(1, 5, 4, 4))
    g, be, m, v = (relay.var(n) for n in ("gamma", "beta", "mean", "var"))
    bn = relay.nn.batch_norm(d, g, be, m, v)[0]
    types = param_types(relay.Function([d, g, be, m, v], bn))
    assert {types[n] for n in ("gamma", "beta", "mean", "var")} == {"tensor<5xf32>"}

    ln_g, ln_b = relay.var("g"), relay.var("b")
    ln = relay.nn.layer_norm(x, ln_g, ln_b)
    types = param_types(relay.Function([x, ln_g, ln_b], ln))
    assert (types["g"], types["b"]) == ("tensor<16xf32>", "tensor<16xf32>")

    alpha = relay.var("alpha")
    pr = relay.nn.prelu(d, alpha)
    assert param_types(relay.Function([d, alpha], pr))["alpha"] == "tensor<5xf32>"


def test_elementwise_partner_and_same_type_ops_both_ways() -> None:
    x, y = relay.var("x", shape=(2, 3), dtype="int32"), relay.var("y")
    assert param_types(relay.Function([x, y], relay.add(y, x)))["y"] == "tensor<2x3xi32>"
    # backward through a same-type op: the conv's weight is relu(w)
    d, w = relay.var("d", shape=(1, 2, 4, 4)), relay.var("w")
    out = relay.nn.conv2d(d, relay.nn.relu(w), channels=3, kernel_size=(1, 1))
    assert param_types(relay.Function([d, w], out))["w"] == "tensor<3x2x1x1xf32>"


def test_declared_result_type_solves_the_body() -> None:
    x = relay.var("x")
    f = relay.Function([x], relay.nn.relu(x), ret_type=relay.TensorType((2, 3)))
    assert param_types(f)["x"] == "tensor<2x3xf32>"


def test_tuple_fields_and_if_branches() -> None:
    a, b = relay.var("a", shape=(2,)), relay.var("b")
    t = relay.Tuple([relay.add(a, b), b])
    assert param_types(relay.Function([a, b], t))["b"] == "tensor<2xf32>"
    c = relay.var("c", shape=(), dtype="bool")
    u, v = relay.var("u", shape=(3,)), relay.var("v")
    assert param_types(relay.Function([c, u, v], relay.If(c, u, v)))["v"] == "tensor<3xf32>"


def test_unsolvable_variable_is_an_error_naming_it_and_its_op() -> None:
    q = relay.var("q")
    with pytest.raises(
        RelayTypeError, match=r"variable 'q' cannot be solved; it is used by 'relay.nn.relu'"
    ):
        IRModule.from_expr(relay.Function([q], relay.nn.relu(q)))
    x, w = relay.var("x", shape=(2, 16)), relay.var("w")
    with pytest.raises(
        RelayTypeError, match=r"variable 'w' cannot be solved; it is used by 'relay.nn.dense'"
    ):
        IRModule.from_expr(relay.Function([x, w], relay.nn.dense(x, w)))  # no units


def test_conflicting_uses_are_an_error_from_the_op_that_disagrees() -> None:
    x, w = relay.var("x", shape=(1, 2, 4, 4)), relay.var("w")
    conv = relay.nn.conv2d(x, w, channels=3, kernel_size=(1, 1))
    d = relay.var("d", shape=(1, 5))
    other = relay.nn.dense(d, w, units=4)
    with pytest.raises(
        RelayTypeError,
        match=r"'w' has type tensor<\S+> from its use by 'relay.nn.(conv2d|dense)'",
    ):
        IRModule.from_expr(relay.Function([x, w, d], relay.Tuple([conv, other])))


def test_typed_code_keeps_its_eager_errors() -> None:
    x, w = relay.var("x", shape=(1, 2, 4, 4)), relay.var("w", shape=(3, 5, 1, 1))
    with pytest.raises(RelayTypeError, match="weight input channels 5"):
        relay.nn.conv2d(x, w, channels=3, kernel_size=(1, 1))
    assert is_complete(relay.nn.relu(x).checked_type)


def test_untyped_model_runs_like_the_typed_one() -> None:
    """TVM's model-zoo style (untyped weights), numerics against the same model typed."""
    rng = np.random.default_rng(0)
    data = rng.standard_normal((1, 3, 6, 6)).astype(np.float32)
    weight = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(4).astype(np.float32)

    def model(w: relay.Var, b: relay.Var) -> IRModule:
        x = relay.var("x", shape=(1, 3, 6, 6))
        y = relay.nn.conv2d(x, w, channels=4, kernel_size=(3, 3), padding=(1, 1))
        y = relay.nn.relu(relay.nn.bias_add(y, b))
        return IRModule.from_expr(relay.Function([x, w, b], y))

    untyped = model(relay.var("w"), relay.var("b"))
    typed = model(relay.var("w", shape=(4, 3, 3, 3)), relay.var("b", shape=(4,)))
    assert str(untyped) == str(typed)
    got = evaluate(untyped, data, weight, bias)
    want = evaluate(typed, data, weight, bias)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_patterns_match_untyped_expressions_as_in_tvm() -> None:
    from xrelay.relay.dataflow_pattern import is_op, wildcard

    x, y = relay.var("x"), relay.var("y")
    assert is_op("add")(wildcard(), wildcard()).match(x + y)
    assert not is_op("multiply")(wildcard(), wildcard()).match(x + y)
    assert is_op("nn.relu")(is_op("add")(wildcard(), wildcard())).match(relay.nn.relu(x + y))


def test_every_relation_names_a_registered_op() -> None:
    from xrelay.dialects.builder import relations
    from xrelay.dialects.parser import make_context

    ctx = make_context()
    for name in (*relations.RELATIONS, *relations._SAME_TYPE_OPS):
        assert ctx.get_optional_op(name) is not None, name


def test_an_elementwise_partner_is_guessed_only_after_the_ops_that_deduce() -> None:
    # TVM's FoldScaleAxis tests: the conv's result is known once its weight is solved
    # from `channels`; the add must not first guess it from the bias.
    x, w = relay.var("x", shape=(2, 4, 10, 10)), relay.var("w")
    bias = relay.var("b", shape=(8,))
    conv = relay.nn.conv2d(x, w, channels=8, kernel_size=(3, 3), padding=(1, 1))
    y = relay.add(conv, relay.expand_dims(bias, axis=1, num_newaxis=2))
    mod = IRModule.from_expr(relay.Function([x, w, bias], y))
    assert "tensor<8x4x3x3xf32>" in str(mod)
    assert "-> tensor<2x8x10x10xf32>" in str(mod)


@pytest.mark.parametrize(
    ("layout", "kernel_layout", "shape", "weight", "offset"),
    [
        ("NCHW", "OIHW", (1, 6, 8, 8), None, "tensor<1x36x6x6xf32>"),
        ("NHWC", "HWIO", (1, 8, 8, 6), None, "tensor<1x3x3x36xf32>"),
        ("NCHW", "OIHW", (1, 6, 8, 8), (4, 6, 1, 2), "tensor<1x4x8x7xf32>"),
    ],
)
def test_deformable_conv2d_offset_and_weight(
    layout: str,
    kernel_layout: str,
    shape: tuple[int, ...],
    weight: tuple[int, ...] | None,
    offset: str,
) -> None:
    """TVM's DeformableConv2DRel: the weight from channels and kernel_size, the offset
    [N, 2 * KH * KW * deformable_groups, OH, OW] in the data layout (from the weight given)."""
    x, o = relay.var("x", shape=shape), relay.var("o")
    w = relay.var("w") if weight is None else relay.var("w", shape=weight)
    strides = 1 if weight is not None or layout == "NCHW" else 2
    kwargs = {} if weight is not None else {"channels": 4, "kernel_size": (3, 3)}
    y = relay.nn.deformable_conv2d(
        x, o, w, strides=strides, deformable_groups=2 if weight is None else 1,
        data_layout=layout, kernel_layout=kernel_layout, **kwargs,  # type: ignore[arg-type]
    )  # fmt: skip
    types = param_types(relay.Function([x, o, w], y))
    assert types["o"] == offset
    if weight is None:
        assert types["w"] == ("tensor<4x6x3x3xf32>" if layout == "NCHW" else "tensor<3x3x6x4xf32>")
