"""MergeComposite: pattern matches wrapped in `relay.composite` ops (tvm-semantics.md C.1).

Ports of TVM's `tests/python/relay/test_pass_merge_composite.py` (all cases but
`test_einsum_reshape_pattern`, whose einsum is no xrelay op: its `Tuple_`
naming is covered by `test_tuple_naming`) and of the `pattern.partition` cases
of `test_dataflow_pattern.py` that apply to MergeComposite (double partition,
batch norm, overlapping and overused partitions, fuzzy tuples, checks, constant
embedding, parallel branches with one input, the dominated escape). Expected
graphs are built with the builder (`composite(...)` below) and compared as
graphs; every case also runs the reference interpreter before and after
(`run_and_check`), which verifies the module (composite bodies included).

Not ported: function patterns (`FunctionPattern` partitions), dominator
patterns, `rewrite` callbacks, `import_prelude` (ADTs) and Let/If patterns.
Differences from TVM pinned here: shapes are smaller; TVM's
`test_matched_outside_but_dominated` partitions by duplicating the escaping
add, xrelay rejects every escape (`test_dominated_escape_is_rejected`).
"""

# ruff: noqa: F403, F405
from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import canonical
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Region
from xrelay.dialects.builder.expr import OpaqueCall, free_vars
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.structure import CompositeOp, YieldOp
from xrelay.passes import lookup_pass
from xrelay.passes.byoc_registry import (
    ByocError,
    ExprView,
    register_pattern_table,
    unregister_pattern_table,
)
from xrelay.passes.dataflow_pattern import *
from xrelay.passes.merge_composite import MergeComposite, MergeCompositePass
from xrelay.passes.pass_manager import PassError

import xrelay
from xrelay import IRModule, relay, transform

ROOT = Path(__file__).resolve().parent.parent

# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def var(name: str, shape: tuple[int, ...] = (4, 4), dtype: str = "float32") -> relay.Var:
    return relay.var(name, shape=shape, dtype=dtype)


def composite(
    name: str,
    partitioned: str,
    params: Sequence[relay.Var],
    body: relay.Expr,
    args: Sequence[relay.Expr],
) -> relay.Expr:
    """A `relay.composite` call, as TVM's `Function(params, body).with_attr("Composite", name)(args)`."""
    function = relay.Function(list(params), body).to_func_op("composite")
    block = function.body.blocks[0]
    function.body.detach_block(block)
    ret = block.last_op
    assert ret is not None
    result = ret.operands[0]
    block.erase_op(ret)
    block.add_op(YieldOp(result))
    op = CompositeOp(name, [], body.checked_type, Region(block))
    op.attributes["PartitionedFromPattern"] = StringAttr(partitioned)
    return OpaqueCall(op, list(args))


def module(params: Sequence[relay.Var], body: relay.Expr) -> IRModule:
    return IRModule.from_expr(relay.Function(list(params), body))


def merge(mod: IRModule, table: Sequence[tuple[Any, ...]] | str) -> IRModule:
    """MergeComposite on a copy of `mod`: the result verifies and computes what `mod` does."""
    return run_and_check(mod, MergeComposite(table))


def anonymous(mod: IRModule) -> str:
    """The module rebuilt without any SSA or parameter names (TVM's map_free_vars)."""
    out = canonical(mod)
    for op in out.module.walk():
        for result in op.results:
            result.name_hint = None
        for region in op.regions:
            for block in region.blocks:
                for arg in block.args:
                    arg.name_hint = None
    return str(out)


def assert_graph(actual: IRModule, expected: IRModule) -> None:
    """Same graph as `expected`, and no op left over in `actual`."""
    assert anonymous(actual) == anonymous(expected), f"actual:\n{actual}"
    ops = sum(1 for _ in actual.module.walk())
    assert ops == sum(1 for _ in canonical(actual).module.walk()), f"unused ops:\n{actual}"


def composites(mod: IRModule) -> list[tuple[str, str, int]]:
    """(Composite, PartitionedFromPattern, number of inputs) of each composite, in IR order."""
    out: list[tuple[str, str, int]] = []
    for op in mod.module.walk():
        if isinstance(op, CompositeOp):
            pattern = op.attributes["PartitionedFromPattern"]
            assert isinstance(pattern, StringAttr)
            out.append((op.composite.data, pattern.data, len(op.inputs)))
    return out


def main_ops(mod: IRModule) -> list[str]:
    """The op names of @main's body (composite bodies not included), its return aside."""
    main = mod["main"].op
    assert main is not None
    return [op.name for op in main.body.block.ops][:-1]


# TVM's patterns (make_*_pattern in the test file).


def add_sub_mul_pattern() -> DFPattern:
    x, y = wildcard(), wildcard()
    return (x + y) * (x - y)


def add_relu_pattern() -> DFPattern:
    return is_op("nn.relu")(wildcard() + wildcard())


def conv_bias_relu_pattern() -> DFPattern:
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("nn.relu")(is_op("nn.bias_add")(conv, wildcard()))


def conv_bias_optional_relu_pattern() -> DFPattern:
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    return is_op("nn.bias_add")(conv, wildcard()).optional(lambda x: is_op("nn.relu")(x))


def add_add_add_pattern() -> DFPattern:
    x, y = wildcard(), wildcard()
    add = is_op("add")(x, y)
    return is_op("add")(is_op("add")(x, add), add)


def bn_relu_pattern() -> DFPattern:
    bn = is_op("nn.batch_norm")(wildcard(), wildcard(), wildcard(), wildcard(), wildcard())
    return is_op("nn.relu")(is_tuple_get_item(bn, 0))


def conv_bias_relu(x: relay.Expr, w: relay.Expr, b: relay.Expr) -> relay.Expr:
    return relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w), b))


# --------------------------------------------------------------------------- #
# Ports of TVM's test_pass_merge_composite.py
# --------------------------------------------------------------------------- #


def test_simple_merge() -> None:
    a, b = var("a", (10, 10)), var("b", (10, 10))
    before = module([a, b], relay.nn.relu(relay.add(a, b)))
    i1, i2 = var("in_1", (10, 10)), var("in_2", (10, 10))
    add_relu = composite("add_relu", "add_nn.relu_", [i1, i2], relay.nn.relu(i1 + i2), [a, b])
    out = merge(before, [("add_relu", add_relu_pattern())])
    assert_graph(out, module([a, b], add_relu))


def test_branch_merge() -> None:
    """Two add_sub_mul composites, the second taking the first's result."""
    a, b, c = var("a", (10, 10)), var("b", (10, 10)), var("c", (10, 10))
    mul = relay.multiply(a + b, a - b)
    before = module([a, b, c], relay.nn.relu((c + mul) * (c - mul)))

    def add_sub_mul(x: relay.Expr, y: relay.Expr) -> relay.Expr:
        i1, i2 = var("in_1", (10, 10)), var("in_2", (10, 10))
        return composite(
            "add_sub_mul", "add_subtract_multiply_", [i1, i2], (i1 + i2) * (i1 - i2), [x, y]
        )

    out = merge(before, [("add_sub_mul", add_sub_mul_pattern())])
    assert_graph(out, module([a, b, c], relay.nn.relu(add_sub_mul(c, add_sub_mul(a, b)))))


def test_reuse_call_merge() -> None:
    a, b = var("a", (10, 10)), var("b", (10, 10))
    sub = relay.subtract(a, b)
    add = sub + b
    before = module([a, b], (sub + add) + add)
    i1, i2 = var("in_1", (10, 10)), var("in_2", (10, 10))
    inner = i1 + i2
    expected = composite("add_add_add", "add_add_add_", [i1, i2], (i1 + inner) + inner, [sub, b])
    out = merge(before, [("add_add_add", add_add_add_pattern())])
    assert_graph(out, module([a, b], expected))


def test_multiple_patterns() -> None:
    data, kernel = var("data", (1, 4, 6, 6)), var("kernel", (3, 4, 1, 1))
    bias, a, b = var("bias", (3,)), var("a", (1, 3, 6, 6)), var("b", (1, 3, 6, 6))
    conv = relay.nn.conv2d(data, kernel, padding=(0, 0), strides=(1, 1))
    relu = relay.nn.relu(relay.nn.bias_add(conv, bias))
    before = module([data, kernel, bias, a, b], relay.nn.relu(relu + a) * b)

    i1, i2, i3 = var("in_1", (1, 4, 6, 6)), var("in_2", (3, 4, 1, 1)), var("in_3", (3,))
    cbr = composite(
        "conv2d_bias_relu",
        "nn.conv2d_nn.bias_add_nn.relu_",
        [i1, i2, i3],
        conv_bias_relu(i1, i2, i3),
        [data, kernel, bias],
    )
    i4, i5 = var("in_4", (1, 3, 6, 6)), var("in_5", (1, 3, 6, 6))
    add_relu = composite("add_relu", "add_nn.relu_", [i4, i5], relay.nn.relu(i4 + i5), [cbr, a])
    table = [("conv2d_bias_relu", conv_bias_relu_pattern()), ("add_relu", add_relu_pattern())]
    out = merge(before, table)
    assert_graph(out, module([data, kernel, bias, a, b], add_relu * b))


def test_optional_pattern() -> None:
    """One Composite name, two PartitionedFromPattern strings (with and without relu)."""
    x, w1, w2 = var("x", (1, 3, 7, 7)), var("w", (3, 3, 1, 1)), var("w", (3, 3, 1, 1))
    b1, b2 = var("b", (3,)), var("b", (3,))
    relu = conv_bias_relu(x, w1, b1)
    before = module([x, w1, w2, b1, b2], relay.nn.bias_add(relay.nn.conv2d(relu, w2), b2))

    p = [var("x", (1, 3, 7, 7)), var("w", (3, 3, 1, 1)), var("b", (3,))]
    layer_a = composite(
        "layer", "nn.conv2d_nn.bias_add_nn.relu_", p, conv_bias_relu(*p), [x, w1, b1]
    )
    q = [var("x", (1, 3, 7, 7)), var("w", (3, 3, 1, 1)), var("b", (3,))]
    layer_b = composite(
        "layer",
        "nn.conv2d_nn.bias_add_",
        q,
        relay.nn.bias_add(relay.nn.conv2d(q[0], q[1]), q[2]),
        [layer_a, w2, b2],
    )
    out = merge(before, [("layer", conv_bias_optional_relu_pattern())])
    assert_graph(out, module([x, w1, w2, b1, b2], layer_b))
    assert composites(out) == [
        ("layer", "nn.conv2d_nn.bias_add_nn.relu_", 3),
        ("layer", "nn.conv2d_nn.bias_add_", 3),
    ]


def _merge_order_patterns() -> dict[str, DFPattern]:
    """TVM's A: add-abs-relu, B: add-abs, C: abs-relu."""
    x, y = wildcard(), wildcard()
    z = wildcard()
    return {
        "A": is_op("nn.relu")(is_op("abs")(is_op("add")(x, y))),
        "B": is_op("abs")(is_op("add")(wildcard(), wildcard())),
        "C": is_op("nn.relu")(is_op("abs")(z)),
    }


@pytest.mark.parametrize("order", ["ABC", "BCA", "CAB"])
def test_merge_order(order: str) -> None:
    """The first pattern of the table wins where matches overlap."""
    i1, i2 = var("input_1", (10, 10)), var("input_2", (10, 10))
    before = module([i1, i2], relay.nn.relu(relay.abs(i1 + i2)))
    patterns = _merge_order_patterns()
    out = merge(before, [(name, patterns[name]) for name in order])

    x, y = var("x", (10, 10)), var("y", (10, 10))
    if order[0] == "A":
        expected = composite(
            "A", "add_abs_nn.relu_", [x, y], relay.nn.relu(relay.abs(x + y)), [i1, i2]
        )
    elif order[0] == "B":
        expected = relay.nn.relu(composite("B", "add_abs_", [x, y], relay.abs(x + y), [i1, i2]))
    else:
        expected = composite("C", "abs_nn.relu_", [x], relay.nn.relu(relay.abs(x)), [i1 + i2])
    assert_graph(out, module([i1, i2], expected))


def test_parallel_merge() -> None:
    """Two add_sub_mul branches on the same inputs both merge and both read those inputs."""
    i1, i2 = var("input_1", (10, 10)), var("input_2", (10, 10))
    branch_1 = relay.multiply(i1 + i2, i1 - i2)
    branch_2 = relay.multiply(i1 + i2, i1 - i2)
    before = module([i1, i2], relay.multiply(branch_1, branch_2))

    def add_sub_mul() -> relay.Expr:
        x, y = var("x", (10, 10)), var("y", (10, 10))
        return composite(
            "add_sub_mul", "add_subtract_multiply_", [x, y], (x + y) * (x - y), [i1, i2]
        )

    out = merge(before, [("add_sub_mul", add_sub_mul_pattern())])
    assert_graph(out, module([i1, i2], relay.multiply(add_sub_mul(), add_sub_mul())))


def test_multiple_input_subgraphs() -> None:
    """add_sub_mul needs its add and sub to read the same two values (case A) or nothing (B)."""
    inputs = [var(f"input_{i}", (10, 10)) for i in range(8)]
    add_relu = [relay.nn.relu(inputs[2 * i] + inputs[2 * i + 1]) for i in range(4)]
    add = add_relu[0] + add_relu[1]
    before_b = module(inputs, add * relay.subtract(add_relu[2], add_relu[3]))
    before_a = module(inputs[:4], add * relay.subtract(add_relu[0], add_relu[1]))
    table = [("add_sub_mul", add_sub_mul_pattern()), ("add_relu", add_relu_pattern())]

    def add_relu_call(i: int) -> relay.Expr:
        x, y = var("x", (10, 10)), var("y", (10, 10))
        return composite(
            "add_relu",
            "add_nn.relu_",
            [x, y],
            relay.nn.relu(x + y),
            [inputs[2 * i], inputs[2 * i + 1]],
        )

    x, y = var("x", (10, 10)), var("y", (10, 10))
    after_a = composite(
        "add_sub_mul",
        "add_subtract_multiply_",
        [x, y],
        (x + y) * (x - y),
        [add_relu_call(0), add_relu_call(1)],
    )
    assert_graph(merge(before_a, table), module(inputs[:4], after_a))

    calls = [add_relu_call(i) for i in range(4)]
    after_b = (calls[0] + calls[1]) * relay.subtract(calls[2], calls[3])
    assert_graph(merge(before_b, table), module(inputs, after_b))


def test_tuple_get_item_merge() -> None:
    """PartitionedFromPattern names a tuple_get_item with its index: TupleGetItem0_.

    The variance is `abs(moving_var)` (an input of the composite) so that the
    random inputs of the numerics check give no NaN.
    """
    x = var("x", (1, 8))
    gamma, beta, mean, moving_var = (
        var(n, (8,)) for n in ("gamma", "beta", "moving_mean", "moving_var")
    )
    variance = relay.abs(moving_var)
    bn = relay.nn.batch_norm(x, gamma, beta, mean, variance)
    before = module([x, gamma, beta, mean, moving_var], relay.nn.relu(bn[0]))

    p = [var("x1", (1, 8))] + [var(n, (8,)) for n in ("gamma1", "beta1", "mean1", "var1")]
    bn_relu = composite(
        "bn_relu",
        "nn.batch_norm_TupleGetItem0_nn.relu_",
        p,
        relay.nn.relu(relay.nn.batch_norm(*p)[0]),
        [x, gamma, beta, mean, variance],
    )
    out = merge(before, [("bn_relu", bn_relu_pattern())])
    assert_graph(out, module([x, gamma, beta, mean, moving_var], bn_relu))


def _nhwc_conv_bias_relu() -> tuple[IRModule, list[relay.Var]]:
    x, w, b = var("x", (1, 6, 6, 3)), var("w", (4, 3, 3, 3)), var("b", (4,))
    conv = relay.nn.conv2d(x, w, kernel_size=(3, 3), kernel_layout="OIHW", data_layout="NHWC")
    return module([x, w, b], relay.nn.relu(relay.nn.bias_add(conv, b, axis=3))), [x, w, b]


def test_pattern_with_check() -> None:
    """The check sees the typed root: here the conv2d's data_layout, two levels down."""
    before, (x, w, b) = _nhwc_conv_bias_relu()

    def check_true(extract: ExprView) -> bool:
        return extract.args[0].args[0].attrs.data_layout == "NHWC"

    def check_false(extract: ExprView) -> bool:
        return extract.args[0].args[0].attrs.data_layout == "NCHW"

    out = merge(before, [("conv_bias_relu", conv_bias_relu_pattern(), check_false)])
    assert_graph(out, before)

    p = [var("x", (1, 6, 6, 3)), var("w", (4, 3, 3, 3)), var("b", (4,))]
    conv = relay.nn.conv2d(p[0], p[1], kernel_size=(3, 3), kernel_layout="OIHW", data_layout="NHWC")
    expected = composite(
        "conv_bias_relu",
        "nn.conv2d_nn.bias_add_nn.relu_",
        p,
        relay.nn.relu(relay.nn.bias_add(conv, p[2], axis=3)),
        [x, w, b],
    )
    out = merge(before, [("conv_bias_relu", conv_bias_relu_pattern(), check_true)])
    assert_graph(out, module([x, w, b], expected))


def test_diamond_not_merge() -> None:
    """mul(r, clip(r)) does not match mul(r, clip(add(r, 1)))."""
    conv = conv_bias_relu_pattern()
    pattern = is_op("multiply")(conv, is_op("clip")(conv))
    data, kernel = var("data", (1, 4, 6, 6)), var("kernel", (3, 4, 1, 1))
    relu = conv_bias_relu(data, kernel, var("bias", (3,)))
    clip = relay.clip(relu + relay.const(1.0, "float32"), 0.0, 255.0)
    before = module(free_vars(relu * clip), relu * clip)
    out = merge(before, [("pat", pattern)])
    assert_graph(out, before)


def test_type_check() -> None:
    """The check reads checked_type: accept only some shapes (TVM test_type_check)."""

    def before(batch: int) -> tuple[IRModule, list[relay.Var]]:
        x, w, b = var("x", (batch, 3, 6, 6)), var("w", (4, 3, 3, 3)), var("b", (4,))
        relu = relay.nn.relu(x + x)
        return module([x, w, b], conv_bias_relu(relu, w, b)), [x, w, b]

    def check_batch_one(extract: ExprView) -> bool:
        return extract.args[0].args[0].checked_type.shape[0] == 1

    table = [
        ("add_relu", add_relu_pattern()),
        ("conv_bias_relu", conv_bias_relu_pattern(), check_batch_one),
    ]
    for batch in (1, 2):
        mod, (x, w, b) = before(batch)
        x0 = var("x", (batch, 3, 6, 6))
        add_relu = composite("add_relu", "add_nn.relu_", [x0], relay.nn.relu(x0 + x0), [x])
        if batch == 1:
            p = [var("x", (1, 3, 6, 6)), var("w", (4, 3, 3, 3)), var("b", (4,))]
            expected = composite(
                "conv_bias_relu",
                "nn.conv2d_nn.bias_add_nn.relu_",
                p,
                conv_bias_relu(*p),
                [add_relu, w, b],
            )
        else:
            expected = conv_bias_relu(add_relu, w, b)
        assert_graph(merge(mod, table), module([x, w, b], expected))


# --------------------------------------------------------------------------- #
# Ports of the partition cases of TVM's test_dataflow_pattern.py
# --------------------------------------------------------------------------- #


def test_double_partition() -> None:
    """conv_bias_relu first, then conv_bias on what is left: the second never looks inside."""
    x, w, b = var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1)), var("bias", (3,))
    w2, b2 = var("weight2", (3, 3, 1, 1)), var("bias2", (3,))
    relu = conv_bias_relu(x, w, b)
    before = module([x, w, b, w2, b2], relay.nn.bias_add(relay.nn.conv2d(relu, w2), b2))
    conv_bias = is_op("nn.bias_add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard())
    table = [("conv_bias_relu", conv_bias_relu_pattern()), ("conv_bias", conv_bias)]

    p = [var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1)), var("bias", (3,))]
    f0 = composite(
        "conv_bias_relu", "nn.conv2d_nn.bias_add_nn.relu_", p, conv_bias_relu(*p), [x, w, b]
    )
    q = [var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1)), var("bias", (3,))]
    f1 = composite(
        "conv_bias",
        "nn.conv2d_nn.bias_add_",
        q,
        relay.nn.bias_add(relay.nn.conv2d(q[0], q[1]), q[2]),
        [f0, w2, b2],
    )
    assert_graph(merge(before, table), module([x, w, b, w2, b2], f1))


def get_bn(
    x: relay.Expr, variance: relay.Expr, mean: relay.Expr, beta: relay.Expr, gamma: relay.Expr
) -> relay.Expr:
    return gamma * (x - mean) / relay.sqrt(variance + relay.const(1e-5, "float32")) + beta


def bn_pattern() -> DFPattern:
    x, variance, mean, beta, gamma = (wildcard() for _ in range(5))
    return gamma * (x - mean) / is_op("sqrt")(variance + is_constant()) + beta


def test_partition_batchnorm() -> None:
    """Parameters in the order the pattern's leaves come: gamma, x, mean, var, beta.

    The variance is `abs(var)` (an input, computed outside) so the numerics check
    sees no NaN.
    """
    x, v, mean, beta, gamma = (var(n) for n in ("x", "var", "mean", "beta", "gamma"))
    variance = relay.abs(v)
    before = module([x, v, mean, beta, gamma], get_bn(x, variance, mean, beta, gamma))
    xf, varf, meanf, betaf, gammaf = (var(n) for n in ("xf", "varf", "meanf", "betaf", "gammaf"))
    expected = composite(
        "bn",
        "subtract_multiply_add_sqrt_divide_add_",
        [gammaf, xf, meanf, varf, betaf],
        get_bn(xf, varf, meanf, betaf, gammaf),
        [gamma, x, mean, variance, beta],
    )
    out = merge(before, [("bn", bn_pattern())])
    assert_graph(out, module([x, v, mean, beta, gamma], expected))
    assert main_ops(out) == ["relay.abs", "relay.composite"]  # eps is embedded


def test_partition_double_batchnorm() -> None:
    x, v, mean, beta, gamma = (var(n) for n in ("x", "var", "mean", "beta", "gamma"))
    variance = relay.abs(v)
    bn1 = get_bn(x, variance, mean, beta, gamma)
    before = module([x, v, mean, beta, gamma], get_bn(bn1, variance, mean, beta, gamma))

    def bn_call(arg: relay.Expr) -> relay.Expr:
        xf, varf, meanf, betaf, gammaf = (
            var(n) for n in ("xf", "varf", "meanf", "betaf", "gammaf")
        )
        return composite(
            "bn",
            "subtract_multiply_add_sqrt_divide_add_",
            [gammaf, xf, meanf, varf, betaf],
            get_bn(xf, varf, meanf, betaf, gammaf),
            [gamma, arg, mean, variance, beta],
        )

    out = merge(before, [("bn", bn_pattern())])
    assert_graph(out, module([x, v, mean, beta, gamma], bn_call(bn_call(x))))


def test_overlapping_partitions() -> None:
    """bn[0] twice: each match's batch_norm is also read by the other: no composite."""
    x = var("x", (1, 8))
    gamma, beta, mean, moving_var = (var(n, (8,)) for n in ("gamma", "beta", "mean", "var"))
    bn = relay.nn.batch_norm(x, gamma, beta, mean, relay.abs(moving_var), epsilon=1e-5)
    before = module([x, gamma, beta, mean, moving_var], bn[0] + bn[0])
    pattern = is_tuple_get_item(
        is_op("nn.batch_norm")(wildcard(), wildcard(), wildcard(), wildcard(), wildcard()), 0
    )
    out = merge(before, [("bn", pattern)])
    assert_graph(out, before)
    assert composites(out) == []


def test_partition_overused() -> None:
    """relu(conv) when the conv is also added to the relu: the conv escapes, no composite."""
    x, w = var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1))
    conv = relay.nn.conv2d(x, w)
    before = module([x, w], relay.nn.relu(conv) + conv)
    out = merge(
        before, [("conv_relu", is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard())))]
    )
    assert_graph(out, before)


@pytest.mark.parametrize("fields", [1, 2, 3])
def test_partition_fuzzy_tuple(fields: int) -> None:
    """A call with any operands: each operand is an input (TVM's concat of a fuzzy tuple)."""
    x, y = var("x"), var("y")
    args = [x, y, x + y][:fields]
    before = module([x, y], relay.concatenate(args, axis=0))
    params = [var(f"p{i}") for i in range(fields)]
    expected = composite("concat", "concatenate_", params, relay.concatenate(params, axis=0), args)
    out = merge(before, [("concat", is_op("concatenate")(None))])
    assert_graph(out, module([x, y], expected))


def test_partition_check() -> None:
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(is_var("input"), wildcard()))

    def check(pre: ExprView) -> bool:
        return pre.args[0].attrs.data_layout == "NCHW"

    x, w = var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1))
    before = module([x, w], relay.nn.relu(relay.nn.conv2d(x, w)))
    xf, wf = var("input", (1, 3, 6, 6)), var("weight", (3, 3, 1, 1))
    expected = composite(
        "c", "nn.conv2d_nn.relu_", [xf, wf], relay.nn.relu(relay.nn.conv2d(xf, wf)), [x, w]
    )
    assert_graph(merge(before, [("c", pattern, check)]), module([x, w], expected))

    x, w = var("input", (1, 6, 6, 3)), var("weight", (3, 3, 1, 1))
    nhwc = module([x, w], relay.nn.relu(relay.nn.conv2d(x, w, data_layout="NHWC")))
    assert_graph(merge(nhwc, [("c", pattern, check)]), nhwc)


def test_partition_check_types() -> None:
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), wildcard()))

    def check(pre: ExprView) -> bool:
        conv = pre.args[0]
        return conv.attrs.data_layout == "NCHW" and conv.checked_type.shape[0] == 1

    def graph(shape: tuple[int, ...], layout: str) -> IRModule:
        x, w = var("input", shape), var("weight", (3, 3, 1, 1))
        return module([x, w], relay.nn.relu(relay.nn.conv2d(x, w, data_layout=layout)))

    out = merge(graph((1, 3, 6, 6), "NCHW"), [("c", pattern, check)])
    assert composites(out) == [("c", "nn.conv2d_nn.relu_", 2)]
    for mod in (graph((1, 6, 6, 3), "NHWC"), graph((2, 3, 6, 6), "NCHW")):
        assert_graph(merge(mod, [("c", pattern, check)]), mod)


def test_partition_option() -> None:
    """Both spellings of an optional bias_add/relu give one conv-bias-relu composite."""
    x, w, b = var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1)), var("b", (3,))
    before = module([x, w, b], conv_bias_relu(x, w, b))
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    pattern1 = is_op("nn.relu")(conv.optional(lambda x: is_op("nn.bias_add")(x, wildcard())))
    pattern2 = conv_bias_optional_relu_pattern()
    p = [var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1)), var("b", (3,))]
    expected = composite("f", "nn.conv2d_nn.bias_add_nn.relu_", p, conv_bias_relu(*p), [x, w, b])
    for pattern in (pattern1, pattern2):
        assert pattern.match(before["main"].body)
        assert_graph(merge(before, [("f", pattern)]), module([x, w, b], expected))


def test_partition_constant_embedding() -> None:
    """Constants matched by is_constant()/is_expr are embedded; by a wildcard, inputs."""
    x, w, b = var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1)), var("b", (3,))
    wc = relay.const(np.ones((3, 3, 1, 1), "float32"))
    relu = module([x, w, b], conv_bias_relu(x, w, b))
    reluc = module([x, b], conv_bias_relu(x, wc, b))

    def lifted(weight: relay.Expr, params: list[relay.Var]) -> IRModule:
        p = [var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1)), var("b", (3,))]
        f = composite("f", "nn.conv2d_nn.bias_add_nn.relu_", p, conv_bias_relu(*p), [x, weight, b])
        return module(params, f)

    def embedded() -> IRModule:
        p = [var("x", (1, 3, 6, 6)), var("b", (3,))]
        f = composite(
            "f", "nn.conv2d_nn.bias_add_nn.relu_", p, conv_bias_relu(p[0], wc, p[1]), [x, b]
        )
        return module([x, b], f)

    def pattern(weight: DFPattern) -> list[tuple[str, DFPattern]]:
        return [
            (
                "f",
                is_op("nn.relu")(
                    is_op("nn.bias_add")(is_op("nn.conv2d")(wildcard(), weight), wildcard())
                ),
            )
        ]

    # A wildcard lifts the weight, var or constant, to an input.
    assert_graph(merge(relu, pattern(wildcard())), lifted(w, [x, w, b]))
    assert_graph(merge(reluc, pattern(wildcard())), lifted(wc, [x, b]))
    # is_var() lifts vars; constants are not vars.
    assert_graph(merge(relu, pattern(is_var())), lifted(w, [x, w, b]))
    assert_graph(merge(reluc, pattern(is_var())), reluc)
    # is_constant() embeds the constant.
    assert_graph(merge(relu, pattern(is_constant())), relu)
    assert_graph(merge(reluc, pattern(is_constant())), embedded())
    # is_expr(constant) embeds it too (an equal constant matches).
    assert_graph(merge(relu, pattern(is_expr(wc))), relu)
    assert_graph(merge(reluc, pattern(is_expr(wc))), embedded())
    # Alternatives: whichever side matches decides.
    for alt in (is_var() | is_constant(), is_constant() | is_var()):
        assert_graph(merge(relu, pattern(alt)), lifted(w, [x, w, b]))
        assert_graph(merge(reluc, pattern(alt)), embedded())


def test_partition_parallel_branch_with_same_input() -> None:
    """The conv feeds both branches: one parameter for it (TVM: no redundant parameters)."""
    pattern = is_op("add")(
        is_op("multiply")(wildcard(), wildcard()), is_op("add")(wildcard(), wildcard())
    )
    i, w = var("input", (1, 3, 4, 4)), var("weight", (3, 3, 1, 1))
    left, right = var("left", (1, 3, 4, 4)), var("right", (1, 3, 4, 4))
    conv = relay.nn.conv2d(i, w)
    before = module([i, w, left, right], relay.multiply(left, conv) + (conv + right))
    lf, mf, rf = var("leftf", (1, 3, 4, 4)), var("midf", (1, 3, 4, 4)), var("rightf", (1, 3, 4, 4))
    expected = composite(
        "p", "multiply_add_add_", [lf, mf, rf], (lf * mf) + (mf + rf), [left, conv, right]
    )
    out = merge(before, [("p", pattern)])
    assert_graph(out, module([i, w, left, right], expected))
    assert composites(out) == [("p", "multiply_add_add_", 3)]


def test_dominated_escape_is_rejected() -> None:
    """TVM's test_matched_outside_but_dominated duplicates the escaping add; xrelay rejects.

    The add is read by the sigmoid, which only flows into the multiply (the root):
    TVM partitions and computes conv2d and add twice; MergeComposite keeps the
    graph, since a composite cannot hand out an inner value.
    """
    x, w, b = var("data", (1, 3, 4, 4)), var("weight", (3, 3, 1, 1)), var("bias", (1, 3, 4, 4))
    add = relay.nn.conv2d(x, w) + b
    before = module([x, w, b], relay.multiply(add, relay.sigmoid(add)))
    pattern = is_op("multiply")(
        is_op("add")(is_op("nn.conv2d")(wildcard(), wildcard()), wildcard()), wildcard()
    )
    assert pattern.match(before["main"].body)
    assert_graph(merge(before, [("p", pattern)]), before)


# --------------------------------------------------------------------------- #
# The consequences of C.1
# --------------------------------------------------------------------------- #


def test_later_patterns_never_look_inside_composites() -> None:
    """add_relu, then a pattern that would match the add inside it: nothing more."""
    a, b = var("a"), var("b")
    before = module([a, b], relay.nn.relu(a + b))
    table = [("add_relu", add_relu_pattern()), ("add", is_op("add")(wildcard(), wildcard()))]
    out = merge(before, table)
    assert composites(out) == [("add_relu", "add_nn.relu_", 2)]
    # The relu outside the composite is gone; a wildcard callee does not match composites.
    out = merge(before, [*table, ("call", wildcard()(None))])
    assert composites(out) == [("add_relu", "add_nn.relu_", 2)]


def test_a_rejected_match_does_not_claim_its_ops() -> None:
    """add(add(add)) at the root escapes; the smaller match below it still forms (TVM)."""
    x, y, z, q = var("x"), var("y"), var("z"), var("q")
    inner = (x + y) + z
    before = module([x, y, z, q], relay.Tuple([inner + q, inner]))
    pattern = is_op("add")(is_op("add")(wildcard(), wildcard()), wildcard())
    out = merge(before, [("aa", pattern)])
    p = [var("x"), var("y"), var("z")]
    aa = composite("aa", "add_add_", p, (p[0] + p[1]) + p[2], [x, y, z])
    assert_graph(out, module([x, y, z, q], relay.Tuple([aa + q, aa])))


def test_a_refused_match_still_claims_its_ops() -> None:
    """A check that refuses a group leaves its ops claimed for that pattern (TVM's gid)."""
    x, y, z = var("x"), var("y"), var("z")
    before = module([x, y, z], relay.nn.relu(relay.nn.relu(relay.exp(x))))
    seen: list[tuple[int, ...]] = []

    def refuse_all(root: ExprView) -> bool:
        seen.append(root.checked_type.shape)
        return False

    pattern = is_op("nn.relu")(is_op("nn.relu")(wildcard())) | is_op("nn.relu")(wildcard())
    # relu(relu(exp)) is matched first (both relus claimed) and refused: the inner
    # relu is then not visited as a root of its own.
    out = merge(before, [("r", pattern, refuse_all)])
    assert_graph(out, before)
    assert len(seen) == 1
    # The same relus matched one by one: each is a group of its own, each refused.
    seen.clear()
    merge(before, [("r", is_op("nn.relu")(wildcard()), refuse_all)])
    assert len(seen) == 2


def test_reused_wildcards_in_a_graph() -> None:
    """(x+y)*(x-y) merges; (x+y)*(x-z) does not."""
    x, y, z = var("x"), var("y"), var("z")
    table = [("add_sub_mul", add_sub_mul_pattern())]
    out = merge(module([x, y], (x + y) * (x - y)), table)
    assert composites(out) == [("add_sub_mul", "add_subtract_multiply_", 2)]
    unchanged = module([x, y, z], (x + y) * (x - z))
    assert_graph(merge(unchanged, table), unchanged)


def test_composites_carry_only_composite_and_pattern_name() -> None:
    """No Primitive, no Compiler: only the pattern name, as a discardable attribute."""
    a, b = var("a"), var("b")
    out = merge(module([a, b], relay.nn.relu(a + b)), [("accel.add_relu", add_relu_pattern())])
    ops = [op for op in out.module.walk() if isinstance(op, CompositeOp)]
    assert len(ops) == 1
    assert ops[0].composite.data == "accel.add_relu"
    assert set(ops[0].attributes) == {"PartitionedFromPattern"}
    main = out["main"].op
    assert main is not None
    assert "Primitive" not in main.attributes
    assert "Compiler" not in main.attributes


def test_escaping_interior_value_is_rejected() -> None:
    """The add inside add-relu is also returned: the match is dropped, the graph kept."""
    a, b = var("a"), var("b")
    add = a + b
    before = module([a, b], relay.Tuple([relay.nn.relu(add), add]))
    out = merge(before, [("add_relu", add_relu_pattern())])
    assert_graph(out, before)
    # Used by an op in another block (an if branch) counts as an escape too.
    text = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %s = relay.add %a, %b : tensor<4xf32>
  %r = relay.nn.relu %s : tensor<4xf32>
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %e = relay.exp %s : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %r : tensor<4xf32>
  }
  func.return %0 : tensor<4xf32>
}
"""
    mod = xrelay.parse(text)
    assert str(merge(mod, [("add_relu", add_relu_pattern())])) == str(mod)


def test_check_sees_attrs_and_types_of_the_typed_root() -> None:
    x, w, b = var("x", (1, 3, 6, 6)), var("w", (4, 3, 3, 3)), var("b", (4,))
    before = module([x, w, b], conv_bias_relu(relay.nn.relu(x), w, b))
    seen: list[tuple[str | None, tuple[int, ...], str, object, tuple[int, ...]]] = []

    def check(root: ExprView) -> bool:
        conv = root.args[0].args[0]
        assert root.op is not None
        assert conv.op is not None
        seen.append(
            (
                root.op.name,
                root.checked_type.shape,
                conv.op.name,
                conv.attrs.padding,
                conv.args[1].checked_type.shape,
            )
        )
        return True

    merge(before, [("cbr", conv_bias_relu_pattern(), check)])
    # run_and_check runs the pass once.
    assert seen == [("nn.relu", (1, 4, 4, 4), "nn.conv2d", (0, 0, 0, 0), (4, 3, 3, 3))]


def test_check_that_raises_names_the_op_and_pattern() -> None:
    a, b = var("a"), var("b")
    before = module([a, b], relay.nn.relu(a + b))

    def broken(root: ExprView) -> bool:
        raise KeyError("nope")

    with pytest.raises(PassError) as info:
        MergeComposite([("add_relu", add_relu_pattern(), broken)])(before.clone())
    error = info.value.__cause__
    assert isinstance(error, DiagnosticError)
    assert "'relay.nn.relu' op check of pattern 'add_relu' raised KeyError: 'nope'" in str(error)


def test_several_matches_and_a_diamond() -> None:
    """A diamond pattern, and several matches of several patterns in one graph."""
    x, w = var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1))
    c = relay.nn.conv2d(x, w)
    diamond = relay.nn.relu(c) + relay.tanh(c)
    y = var("y", (1, 3, 6, 6))
    before = module([x, w, y], relay.nn.relu(diamond + y) * relay.nn.relu(y + y))
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    diamond_pattern = is_op("add")(is_op("nn.relu")(conv), is_op("tanh")(conv))
    table = [("diamond", diamond_pattern), ("add_relu", add_relu_pattern())]
    out = merge(before, table)

    p = [var("x", (1, 3, 6, 6)), var("w", (3, 3, 1, 1))]
    pc = relay.nn.conv2d(*p)
    d = composite(
        "diamond", "nn.conv2d_nn.relu_tanh_add_", p, relay.nn.relu(pc) + relay.tanh(pc), [x, w]
    )

    def add_relu(args: list[relay.Expr]) -> relay.Expr:
        q = [var(f"q{i}", (1, 3, 6, 6)) for i in range(len(args))]
        body = relay.nn.relu(q[0] + q[-1])
        return composite("add_relu", "add_nn.relu_", q, body, args)

    expected = add_relu([d, y]) * add_relu([y])
    assert_graph(out, module([x, w, y], expected))


def test_tuple_naming() -> None:
    """A tuple in a pattern is named Tuple_ (TVM's reshape_reshape_Tuple_einsum_ case)."""
    a, b = var("a", (10, 10)), var("b", (10, 10))
    pair = relay.Tuple([relay.reshape(a, (20, 5)), relay.reshape(b, (20, 5))])
    before = module([a, b], relay.concatenate([pair[0], pair[1]], axis=0))
    x, y = wildcard(), wildcard()
    reshaped = is_tuple([is_op("reshape")(x) | x, is_op("reshape")(y) | y])
    pattern = is_op("concatenate")(is_tuple_get_item(reshaped, 0), is_tuple_get_item(reshaped, 1))
    out = merge(before, [("reshape_concat", pattern)])
    assert composites(out) == [
        ("reshape_concat", "reshape_reshape_Tuple_TupleGetItem0_TupleGetItem1_concatenate_", 2)
    ]
    # A tuple root: the composite returns the tuple.
    before = module([a, b], relay.Tuple([relay.reshape(a, (20, 5)), b]))
    out = merge(before, [("t", reshaped)])
    assert composites(out) == [("t", "reshape_Tuple_", 2)]


def test_calls_of_functions_are_named_call() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func private @f(%p: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.exp %p : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
"""
    out = merge(xrelay.parse(text), [("c", is_op("nn.relu")(wildcard()(wildcard())))])
    assert composites(out) == [("c", "Call_nn.relu_", 1)]


def test_compiler_functions_are_skipped() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = func.call @f(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = relay.add %0, %0 : tensor<4xf32>
  %2 = relay.nn.relu %1 : tensor<4xf32>
  func.return %2 : tensor<4xf32>
}
func.func private @f(%p: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {
  %0 = relay.add %p, %p : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
"""
    out = merge(xrelay.parse(text), [("add_relu", add_relu_pattern())])
    main, f = out["main"].op, out["f"].op
    assert main is not None
    assert f is not None
    assert [op.name for op in main.body.block.ops] == [
        "func.call",
        "relay.composite",
        "func.return",
    ]
    assert [op.name for op in f.body.block.ops] == ["relay.add", "relay.nn.relu", "func.return"]


def test_every_function_and_if_branch_is_merged() -> None:
    text = """
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %0 = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %s = relay.add %x, %x : tensor<4xf32>
    %r = relay.nn.relu %s : tensor<4xf32>
    relay.yield %r : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  %1 = func.call @g(%0) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
func.func private @g(%p: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %p, %p : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
"""
    out = merge(xrelay.parse(text), [("add_relu", add_relu_pattern())])
    assert composites(out) == [("add_relu", "add_nn.relu_", 1)] * 2


def test_no_match_leaves_the_module_alone() -> None:
    a, b = var("a"), var("b")
    before = module([a, b], relay.exp(a - b))
    out = merge(before, [("add_relu", add_relu_pattern()), ("conv", conv_bias_relu_pattern())])
    assert str(out) == str(before)


def test_empty_table() -> None:
    a = var("a")
    before = module([a], relay.nn.relu(a))
    assert str(merge(before, [])) == str(before)


def test_composite_bodies_are_isolated_and_verify() -> None:
    """Inputs are block arguments of the body; the body reads nothing from outside."""
    x, b = var("x", (1, 3, 6, 6)), var("b", (3,))
    wc = relay.const(np.full((3, 3, 1, 1), 0.5, "float32"))
    before = module([x, b], conv_bias_relu(x, wc, b) + conv_bias_relu(x, wc, b))
    pattern = is_op("nn.relu")(
        is_op("nn.bias_add")(is_op("nn.conv2d")(wildcard(), is_constant()), wildcard())
    )
    out = merge(before, [("cbr", pattern)])
    ops = [op for op in out.module.walk() if isinstance(op, CompositeOp)]
    assert len(ops) == 2
    for op in ops:
        op.verify()
        inside = {o for o in op.body.walk()}
        for inner in op.body.walk():
            for operand in inner.operands:
                assert operand.owner in inside or operand.owner is op.body.block
        assert [o.name for o in op.body.block.ops] == [
            "relay.constant",
            "relay.nn.conv2d",
            "relay.nn.bias_add",
            "relay.nn.relu",
            "relay.yield",
        ]
    # The shared constant is embedded in both composites and gone from main.
    assert main_ops(out) == ["relay.composite", "relay.composite", "relay.add"]


def test_constant_shared_with_an_unmatched_op_stays() -> None:
    x = var("x", (1, 3, 6, 6))
    wc = relay.const(np.full((3, 3, 1, 1), 0.5, "float32"))
    before = module([x], relay.nn.relu(relay.nn.conv2d(x, wc)) + relay.nn.conv2d(x, wc))
    pattern = is_op("nn.relu")(is_op("nn.conv2d")(wildcard(), is_constant()))
    out = merge(before, [("cr", pattern)])
    assert main_ops(out) == ["relay.constant", "relay.composite", "relay.nn.conv2d", "relay.add"]


# --------------------------------------------------------------------------- #
# The pass: registration, named tables, errors, speed
# --------------------------------------------------------------------------- #


def test_pass_info() -> None:
    info = MergeComposite([]).info
    assert info.name == "MergeComposite"
    assert info.opt_level == 0
    assert list(info.required) == []
    for name in ("merge-composite", "MergeComposite"):
        entry = lookup_pass(name)
        assert entry is not None
        assert entry.flag == "merge-composite"
        assert entry.factory() is MergeCompositePass
    assert MergeCompositePass.tvm_name == "MergeComposite"


def test_named_table() -> None:
    """`MergeComposite("name")` and the pass option use a registered table."""

    def table() -> list[tuple[Any, ...]]:
        return [("test.add_relu", add_relu_pattern())]

    register_pattern_table("test_mc", table)
    try:
        a, b = var("a"), var("b")
        before = module([a, b], relay.nn.relu(a + b))
        by_name = merge(before, "test_mc")
        by_list = merge(before, table())
        assert str(by_name) == str(by_list)
        assert composites(by_name) == [("test.add_relu", "add_nn.relu_", 2)]
        by_option = run_and_check(
            before, transform.to_pass(MergeCompositePass(pattern_table="test_mc"))
        )
        assert str(by_option) == str(by_list)
    finally:
        unregister_pattern_table("test_mc")


def test_unknown_table_is_an_error() -> None:
    with pytest.raises(
        ByocError, match=r"no pattern table is registered for 'nope' \(registered: .*accel"
    ):
        MergeComposite("nope")
    with pytest.raises(ByocError, match="'nope'"):
        MergeCompositePass(pattern_table="nope")


def test_bad_table_entries_are_errors() -> None:
    with pytest.raises(ValueError, match="entry 0 is not"):
        MergeComposite([("x",)])
    with pytest.raises(ValueError, match="entry 0: expected"):
        MergeComposite([(is_op("nn.relu")(wildcard()), "x")])


def _opt(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    return subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


ADD_RELU_TEXT = """func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.add %a, %b : tensor<4xf32>
  %1 = relay.nn.relu %0 : tensor<4xf32>
  func.return %1 : tensor<4xf32>
}
"""


def test_named_table_from_the_command_line() -> None:
    result = _opt("-p", "merge-composite{pattern-table=accel}", stdin=ADD_RELU_TEXT)
    assert result.returncode == 0, result.stderr
    assert (
        'relay.composite "accel.add_relu" (%a, %b) {PartitionedFromPattern = "add_nn.relu_"}'
        in result.stdout
    )


def test_unknown_table_from_the_command_line() -> None:
    result = _opt("-p", "merge-composite{pattern-table=nope}", stdin=ADD_RELU_TEXT)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(
        "error: bad options for pass 'merge-composite': no pattern table is registered for 'nope' (registered: "
    ), lines[0]
    assert "accel" in lines[0]
    assert "dnnl" in lines[0]
    assert result.stdout == ""


def conv_block_chain(blocks: int) -> IRModule:
    """`blocks` times conv2d-bias_add-relu, add of the block's input, relu: 5 ops each."""
    x = var("x", (1, 2, 4, 4))
    w = relay.const(np.full((2, 2, 1, 1), 0.5, "float32"))
    b = relay.const(np.full((2,), 0.1, "float32"))
    h: relay.Expr = x
    for _ in range(blocks):
        h = relay.nn.relu(relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(h, w), b)) + h)
    return module([x], h)


def test_scales_to_3000_ops() -> None:
    """The accel table on a 3000-op chain: 600 conv-bias-relu and 600 add-relu composites."""
    mod = conv_block_chain(600)
    assert sum(1 for op in mod.module.walk() if op.name.startswith("relay.")) == 3002
    start = time.perf_counter()
    with transform.PassContext(config={"transform.transactional": False}):
        out = MergeComposite("accel")(mod)
    elapsed = time.perf_counter() - start
    found = composites(out)
    assert found.count(("accel.conv2d_bias_relu", "nn.conv2d_nn.bias_add_nn.relu_", 3)) == 600
    assert found.count(("accel.add_relu", "add_nn.relu_", 2)) == 600
    assert len(found) == 1200
    assert main_ops(out) == ["relay.constant"] * 2 + ["relay.composite"] * 1200
    assert elapsed < 20, (
        elapsed
    )  # about 0.5 s; quadratic behaviour took 2 s at 3000 ops, 8 s at 6000


def test_scaled_chain_numerics() -> None:
    merge(conv_block_chain(20), "accel")
