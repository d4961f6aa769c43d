"""The built-in pattern tables: `accel` (codegen/accel/patterns.py) and `dnnl` (seed 004).

Each accel composite forms on a graph made for it, and its check refuses what
the accelerator cannot take (NHWC convolutions, broadcasting adds, other
dtypes, a bias that is not per output channel); a bias is a `bias_add` or an
`add` of a per-channel constant, in either operand order. The dnnl table gives seed 004's
`dnnl.conv2d_bias_relu` (bias as an `add`) and `dnnl.conv2d_relu`, and TVM's
post-op variants (sum, sigmoid, tanh, dense). Every case runs MergeComposite
with the table's name, checks the module verifies and computes what it did.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from xdsl.dialects.builtin import StringAttr
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.passes.byoc_registry import get_pattern_table, has_pattern_table
from xrelay.passes.dataflow_pattern import DFPattern
from xrelay.passes.merge_composite import MergeComposite

from xrelay import IRModule, relay

ACCEL_NAMES = [
    "accel.conv2d_bias_relu",
    "accel.conv2d_bias_clip",
    "accel.conv2d_bias",
    "accel.conv2d_relu",
    "accel.conv2d_clip",
    "accel.dense_bias_relu",
    "accel.dense_bias_clip",
    "accel.dense_bias",
    "accel.dense_clip",
    "accel.add_relu",
]


def var(name: str, shape: tuple[int, ...], dtype: str = "float32") -> relay.Var:
    return relay.var(name, shape=shape, dtype=dtype)


def merge(body: relay.Expr, params: list[relay.Var], table: str) -> IRModule:
    """MergeComposite with a registered table; the result verifies and keeps the numerics."""
    return run_and_check(IRModule.from_expr(relay.Function(params, body)), MergeComposite(table))


def composites(mod: IRModule) -> list[tuple[str, str]]:
    """(Composite, PartitionedFromPattern) of each composite, in IR order."""
    out: list[tuple[str, str]] = []
    for op in mod.module.walk():
        if isinstance(op, CompositeOp):
            pattern = op.attributes["PartitionedFromPattern"]
            assert isinstance(pattern, StringAttr)
            out.append((op.composite.data, pattern.data))
    return out


def conv_inputs(
    dtype: str = "float32", layout: str = "NCHW"
) -> tuple[relay.Var, relay.Var, relay.Var]:
    data_shape = (1, 3, 6, 6) if layout == "NCHW" else (1, 6, 6, 3)
    return var("x", data_shape, dtype), var("w", (4, 3, 3, 3), dtype), var("b", (4,), dtype)


def conv(x: relay.Expr, w: relay.Expr, layout: str = "NCHW") -> relay.Expr:
    return relay.nn.conv2d(x, w, padding=(1, 1), data_layout=layout)


# --------------------------------------------------------------------------- #
# accel
# --------------------------------------------------------------------------- #


def test_accel_table_is_registered_in_priority_order() -> None:
    assert has_pattern_table("accel")
    entries = get_pattern_table("accel")
    assert [entry[0] for entry in entries] == ACCEL_NAMES
    for entry in entries:
        assert len(entry) == 3
        assert isinstance(entry[1], DFPattern)
        assert callable(entry[2])


def test_accel_conv2d_bias_relu() -> None:
    x, w, b = conv_inputs()
    out = merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b)), [x, w, b], "accel")
    assert composites(out) == [("accel.conv2d_bias_relu", "nn.conv2d_nn.bias_add_nn.relu_")]


def test_accel_conv2d_bias() -> None:
    x, w, b = conv_inputs()
    out = merge(relay.nn.bias_add(conv(x, w), b), [x, w, b], "accel")
    assert composites(out) == [("accel.conv2d_bias", "nn.conv2d_nn.bias_add_")]


def test_accel_conv2d_relu() -> None:
    x, w, _ = conv_inputs()
    out = merge(relay.nn.relu(conv(x, w)), [x, w], "accel")
    assert composites(out) == [("accel.conv2d_relu", "nn.conv2d_nn.relu_")]


def test_accel_dense_bias_relu() -> None:
    x, w, b = var("x", (2, 8)), var("w", (5, 8)), var("b", (5,))
    out = merge(relay.nn.relu(relay.nn.bias_add(relay.nn.dense(x, w), b)), [x, w, b], "accel")
    assert composites(out) == [("accel.dense_bias_relu", "nn.dense_nn.bias_add_nn.relu_")]


def test_accel_dense_bias() -> None:
    x, w, b = var("x", (2, 8)), var("w", (5, 8)), var("b", (5,))
    out = merge(relay.nn.bias_add(relay.nn.dense(x, w), b, axis=-1), [x, w, b], "accel")
    assert composites(out) == [("accel.dense_bias", "nn.dense_nn.bias_add_")]


def test_accel_add_relu() -> None:
    a, b = var("a", (1, 4, 6, 6)), var("b", (1, 4, 6, 6))
    out = merge(relay.nn.relu(a + b), [a, b], "accel")
    assert composites(out) == [("accel.add_relu", "add_nn.relu_")]


def test_accel_a_small_network() -> None:
    """conv-bias-relu, a residual add-relu, conv-bias, conv-relu, dense-bias: all merge."""
    x, w, b = conv_inputs()
    w2, w3 = var("w2", (4, 4, 3, 3)), var("w3", (4, 4, 1, 1))
    dw, db = var("dw", (3, 36)), var("db", (3,))
    h = relay.nn.relu(relay.nn.bias_add(conv(x, w), b))
    h = relay.nn.relu(h + relay.nn.bias_add(conv(h, w2), b))
    h = relay.nn.relu(relay.nn.conv2d(h, w3))
    flat = relay.nn.batch_flatten(relay.nn.max_pool2d(h, pool_size=(2, 2), strides=(2, 2)))
    out = merge(relay.nn.bias_add(relay.nn.dense(flat, dw), db), [x, w, b, w2, w3, dw, db], "accel")
    assert composites(out) == [
        ("accel.conv2d_bias_relu", "nn.conv2d_nn.bias_add_nn.relu_"),
        ("accel.conv2d_bias", "nn.conv2d_nn.bias_add_"),
        ("accel.add_relu", "add_nn.relu_"),
        ("accel.conv2d_relu", "nn.conv2d_nn.relu_"),
        ("accel.dense_bias", "nn.dense_nn.bias_add_"),
    ]


def test_accel_refuses_nhwc_convolutions() -> None:
    x, w, b = conv_inputs(layout="NHWC")
    c = conv(x, w, layout="NHWC")
    for body, params in (
        (relay.nn.relu(relay.nn.bias_add(c, b, axis=3)), [x, w, b]),
        (relay.nn.bias_add(c, b, axis=3), [x, w, b]),
        (relay.nn.relu(c), [x, w]),
    ):
        assert composites(merge(body, params, "accel")) == []


def test_accel_refuses_other_dtypes() -> None:
    x, w, b = conv_inputs(dtype="float16")
    assert (
        composites(merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b)), [x, w, b], "accel")) == []
    )
    a, c = var("a", (4, 4), "int32"), var("c", (4, 4), "int32")
    assert composites(merge(relay.nn.relu(a + c), [a, c], "accel")) == []


def test_accel_refuses_broadcasting_adds() -> None:
    """The accelerator has no broadcasting unit: add_relu needs two operands of one shape."""
    a, b = var("a", (1, 4, 6, 6)), var("b", (4, 1, 1))
    assert composites(merge(relay.nn.relu(a + b), [a, b], "accel")) == []
    c = var("c", (1, 4, 6, 6))
    assert composites(merge(relay.nn.relu(b + c), [b, c], "accel")) == []


def test_accel_refuses_a_bias_that_is_not_per_channel() -> None:
    """bias_add along another axis than the output channels stays on the host."""
    x, w, _ = conv_inputs()
    b = var("b", (6,))
    c = conv(x, w)  # (1, 4, 6, 6)
    out = merge(relay.nn.relu(relay.nn.bias_add(c, b, axis=2)), [x, w, b], "accel")
    assert composites(out) == []


def test_accel_refused_bias_leaves_the_relu_alone() -> None:
    """A refused conv-bias-relu is no conv-relu either: the relu reads the bias_add."""
    x, w, _ = conv_inputs()
    b = var("b", (6,))
    out = merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b, axis=3)), [x, w, b], "accel")
    assert composites(out) == []


def test_accel_conv_with_two_consumers() -> None:
    """The conv is also read by the add: no conv composite; the add-relu still merges."""
    x, w, _ = conv_inputs()
    c = conv(x, w)
    out = merge(relay.nn.relu(relay.nn.relu(c) + c), [x, w], "accel")
    assert composites(out) == [("accel.add_relu", "add_nn.relu_")]


def test_accel_constants_are_inputs() -> None:
    """The accel patterns use wildcards: constant weights stay outside, as inputs."""
    import numpy as np

    x = var("x", (1, 3, 6, 6))
    w = relay.const(np.full((4, 3, 3, 3), 0.1, "float32"))
    b = relay.const(np.full((4,), 0.2, "float32"))
    out = merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b)), [x], "accel")
    main = out["main"].op
    assert main is not None
    assert [op.name for op in main.body.block.ops] == [
        "relay.constant",
        "relay.constant",
        "relay.composite",
        "func.return",
    ]
    (composite,) = [op for op in out.module.walk() if isinstance(op, CompositeOp)]
    assert len(composite.inputs) == 3


# The bias as `add` of a per-channel constant (CanonicalizeOps + FoldConstant's bias_add).


def channel_const(*shape: int, dtype: str = "float32") -> relay.Expr:
    """A constant of `shape` with distinct values (one per element)."""
    size = int(np.prod(shape))
    return relay.const((np.arange(size) * 0.25 - 0.5).reshape(shape), dtype)


@pytest.mark.parametrize("shape", [(4, 1, 1), (1, 4, 1, 1)], ids=["C11", "1C11"])
@pytest.mark.parametrize("left", [False, True], ids=["conv_first", "constant_first"])
def test_accel_conv2d_bias_as_add_of_a_constant(shape: tuple[int, ...], left: bool) -> None:
    """`add(conv, c)` or `add(c, conv)`, c of (C,1,1) or (1,C,1,1): conv2d_bias(_relu), with
    the constant embedded in the body (the kernel's bias is known at compile time)."""
    x, w, _ = conv_inputs()

    def biased() -> relay.Expr:
        c = channel_const(*shape)
        return relay.add(c, conv(x, w)) if left else relay.add(conv(x, w), c)

    out = merge(relay.nn.relu(biased()), [x, w], "accel")
    assert composites(out) == [("accel.conv2d_bias_relu", "nn.conv2d_add_nn.relu_")]
    (composite,) = [op for op in out.module.walk() if isinstance(op, CompositeOp)]
    assert len(composite.inputs) == 2
    assert [op.name for op in composite.body.block.ops].count("relay.constant") == 1
    out = merge(biased(), [x, w], "accel")
    assert composites(out) == [("accel.conv2d_bias", "nn.conv2d_add_")]


@pytest.mark.parametrize("shape", [(5,), (1, 5)], ids=["C", "1C"])
@pytest.mark.parametrize("left", [False, True], ids=["dense_first", "constant_first"])
def test_accel_dense_bias_as_add_of_a_constant(shape: tuple[int, ...], left: bool) -> None:
    x, w = var("x", (2, 8)), var("w", (5, 8))

    def biased() -> relay.Expr:
        c, d = channel_const(*shape), relay.nn.dense(x, w)
        return relay.add(c, d) if left else relay.add(d, c)

    out = merge(relay.nn.relu(biased()), [x, w], "accel")
    assert composites(out) == [("accel.dense_bias_relu", "nn.dense_add_nn.relu_")]
    assert composites(merge(biased(), [x, w], "accel")) == [("accel.dense_bias", "nn.dense_add_")]


def test_accel_add_bias_then_bias_add_in_a_network() -> None:
    """Both spellings in one graph, with a residual add-relu: each is its own composite."""
    x, w, b = conv_inputs()
    w2 = var("w2", (4, 4, 3, 3))
    h = relay.nn.relu(relay.add(conv(x, w), channel_const(4, 1, 1)))
    y = relay.nn.bias_add(conv(h, w2), b)
    out = merge(relay.nn.relu(h + y), [x, w, b, w2], "accel")
    assert composites(out) == [
        ("accel.conv2d_bias_relu", "nn.conv2d_add_nn.relu_"),
        ("accel.conv2d_bias", "nn.conv2d_nn.bias_add_"),
        ("accel.add_relu", "add_nn.relu_"),
    ]


def test_accel_refuses_an_add_bias_that_is_not_a_constant() -> None:
    """add(conv, %b) with %b of (C,1,1): no composite (the add broadcasts: not add_relu)."""
    x, w, _ = conv_inputs()
    for shape in ((4, 1, 1), (1, 4, 1, 1)):
        b = var("b", shape)
        for body in (relay.add(conv(x, w), b), relay.add(b, conv(x, w))):
            assert composites(merge(relay.nn.relu(body), [x, w, b], "accel")) == []
            assert composites(merge(body, [x, w, b], "accel")) == []
    dx, dw, db = var("x", (2, 8)), var("w", (5, 8)), var("b", (5,))
    body = relay.add(relay.nn.dense(dx, dw), db)
    assert composites(merge(relay.nn.relu(body), [dx, dw, db], "accel")) == []


@pytest.mark.parametrize(
    "shape", [(1, 1, 6), (6,), (4, 6, 6), (1, 4, 6, 1), (6, 1), (1, 1, 4, 1, 1)]
)
def test_accel_refuses_an_add_constant_that_is_not_per_channel(shape: tuple[int, ...]) -> None:
    """A constant along W or H, per (C,H,W) element, or C on the wrong axis: no composite."""
    x, w, _ = conv_inputs()
    c = conv(x, w)  # (1, 4, 6, 6)
    assert (
        composites(merge(relay.nn.relu(relay.add(c, channel_const(*shape))), [x, w], "accel")) == []
    )
    assert composites(merge(relay.add(channel_const(*shape), c), [x, w], "accel")) == []


def test_accel_add_of_a_full_constant_is_an_add_relu() -> None:
    """A constant of the output's shape is no bias; the same-shape add-relu takes it."""
    x, w, _ = conv_inputs()
    body = relay.nn.relu(relay.add(conv(x, w), channel_const(1, 4, 6, 6)))
    assert composites(merge(body, [x, w], "accel")) == [("accel.add_relu", "add_nn.relu_")]
    dx, dw = var("x", (2, 8)), var("w", (5, 8))
    body = relay.add(relay.nn.dense(dx, dw), channel_const(2, 5))  # one per element: no bias
    assert composites(merge(body, [dx, dw], "accel")) == []


def test_accel_refuses_a_float64_add_bias() -> None:
    x = var("x", (1, 3, 6, 6), "float64")
    w = var("w", (4, 3, 3, 3), "float64")
    body = relay.nn.relu(relay.add(conv(x, w), channel_const(4, 1, 1, dtype="float64")))
    assert composites(merge(body, [x, w], "accel")) == []


# --------------------------------------------------------------------------- #
# dnnl
# --------------------------------------------------------------------------- #


def test_dnnl_table_has_the_seed_composites_first_among_its_kind() -> None:
    names = [entry[0] for entry in get_pattern_table("dnnl")]
    assert {"dnnl.conv2d_bias_relu", "dnnl.conv2d_relu"} <= set(names)
    assert names.index("dnnl.conv2d_bias_sum_relu") < names.index("dnnl.conv2d_bias_relu")
    assert names.index("dnnl.conv2d_bias_relu") < names.index("dnnl.conv2d_bias")
    assert names.index("dnnl.conv2d_bias") < names.index("dnnl.conv2d_relu")
    assert all(name.startswith("dnnl.") for name in names)


def test_dnnl_seed_conv2d_bias_relu_with_an_add() -> None:
    """Seed 004: relu(add(conv2d(data, weight), bias)) -> PartitionedFromPattern nn.conv2d_add_nn.relu_."""
    x, w, _ = conv_inputs()
    bias = var("bias", (4, 1, 1))
    out = merge(relay.nn.relu(relay.add(conv(x, w), bias)), [x, w, bias], "dnnl")
    assert composites(out) == [("dnnl.conv2d_bias_relu", "nn.conv2d_add_nn.relu_")]


def test_dnnl_conv2d_bias_relu_with_bias_add() -> None:
    x, w, b = conv_inputs()
    out = merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b)), [x, w, b], "dnnl")
    assert composites(out) == [("dnnl.conv2d_bias_relu", "nn.conv2d_nn.bias_add_nn.relu_")]


def test_dnnl_seed_conv2d_relu() -> None:
    x, w, _ = conv_inputs()
    out = merge(relay.nn.relu(conv(x, w)), [x, w], "dnnl")
    assert composites(out) == [("dnnl.conv2d_relu", "nn.conv2d_nn.relu_")]


def test_dnnl_seed_network() -> None:
    """Seed 004's figure: two conv layers, with and without bias, then an add-relu (no composite)."""
    x, w, _ = conv_inputs()
    w2, bias = var("w2", (4, 4, 3, 3)), var("bias", (1, 4, 1, 1))
    h = relay.nn.relu(relay.add(conv(x, w), bias))
    h = relay.nn.relu(conv(h, w2))
    out = merge(h, [x, w, w2, bias], "dnnl")
    assert composites(out) == [
        ("dnnl.conv2d_bias_relu", "nn.conv2d_add_nn.relu_"),
        ("dnnl.conv2d_relu", "nn.conv2d_nn.relu_"),
    ]


def test_dnnl_sum_variants() -> None:
    """conv2d + bias + a residual tensor (oneDNN's sum post-op), with and without relu."""
    x, w, b = conv_inputs()
    residual = var("residual", (1, 4, 6, 6))
    biased = relay.nn.bias_add(conv(x, w), b)
    out = merge(relay.nn.relu(relay.add(biased, residual)), [x, w, b, residual], "dnnl")
    assert composites(out) == [("dnnl.conv2d_bias_sum_relu", "nn.conv2d_nn.bias_add_add_nn.relu_")]
    out = merge(relay.add(biased, residual), [x, w, b, residual], "dnnl")
    assert composites(out) == [("dnnl.conv2d_bias_sum", "nn.conv2d_nn.bias_add_add_")]
    bias = var("bias", (4, 1, 1))
    out = merge(
        relay.nn.relu(relay.add(relay.add(conv(x, w), bias), residual)),
        [x, w, bias, residual],
        "dnnl",
    )
    assert composites(out) == [("dnnl.conv2d_bias_sum_relu", "nn.conv2d_add_add_nn.relu_")]


@pytest.mark.parametrize(
    ("eltwise", "name"),
    [(relay.tanh, "tanh"), (relay.sigmoid, "sigmoid"), (relay.nn.relu, "nn.relu")],
)
def test_dnnl_eltwise_post_ops(eltwise: Any, name: str) -> None:
    short = name.removeprefix("nn.")
    x, w, b = conv_inputs()
    out = merge(eltwise(relay.nn.bias_add(conv(x, w), b)), [x, w, b], "dnnl")
    assert composites(out) == [(f"dnnl.conv2d_bias_{short}", f"nn.conv2d_nn.bias_add_{name}_")]
    out = merge(eltwise(conv(x, w)), [x, w], "dnnl")
    assert composites(out) == [(f"dnnl.conv2d_{short}", f"nn.conv2d_{name}_")]
    d, k, c = var("d", (2, 8)), var("k", (5, 8)), var("c", (5,))
    out = merge(eltwise(relay.nn.bias_add(relay.nn.dense(d, k), c)), [d, k, c], "dnnl")
    assert composites(out) == [(f"dnnl.dense_bias_{short}", f"nn.dense_nn.bias_add_{name}_")]
    out = merge(eltwise(relay.nn.dense(d, k)), [d, k], "dnnl")
    assert composites(out) == [(f"dnnl.dense_{short}", f"nn.dense_{name}_")]


def test_dnnl_conv2d_bias_and_dense_bias() -> None:
    x, w, b = conv_inputs()
    assert composites(merge(relay.nn.bias_add(conv(x, w), b), [x, w, b], "dnnl")) == [
        ("dnnl.conv2d_bias", "nn.conv2d_nn.bias_add_")
    ]
    d, k, c = var("d", (2, 8)), var("k", (5, 8)), var("c", (5,))
    assert composites(merge(relay.add(relay.nn.dense(d, k), c), [d, k, c], "dnnl")) == [
        ("dnnl.dense_bias", "nn.dense_add_")
    ]


def test_dnnl_refuses_other_dtypes() -> None:
    x, w, b = conv_inputs(dtype="float16")
    assert (
        composites(merge(relay.nn.relu(relay.nn.bias_add(conv(x, w), b)), [x, w, b], "dnnl")) == []
    )
    assert composites(merge(relay.nn.relu(conv(x, w)), [x, w], "dnnl")) == []


def test_dnnl_refuses_a_bias_of_another_shape() -> None:
    """An add of a full tensor is a sum, not a bias: conv2d_bias_relu refuses it."""
    x, w, _ = conv_inputs()
    other = var("other", (1, 1, 6, 6))
    out = merge(relay.nn.relu(relay.add(conv(x, w), other)), [x, w, other], "dnnl")
    assert composites(out) == []
