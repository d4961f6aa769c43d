"""`convert-relay-to-accel` after `partition_for(mod, "accel")`: same numbers, accel ops only.

Each graph is partitioned for accel, then lowered. The reference interpreter
(which follows the calls into the partitioned functions, now accel ops) must
give what the original graph gave, and exactly what the partitioned graph gave
(an accel op computes what the composite or relay op it replaces computes).
The functions partitioned for accel then hold accel ops, constants, tuples and
their return only; the host functions are left as they were. A batch_norm is
lowered however its tuple is read: field 0, fields 1 and 2 (its moving mean and
variance operands), or whole (a `relay.tuple` of the kernel and those operands).
A bias written as an `add` of a per-channel constant (as `optimize` leaves a
`bias_add`) becomes the kernel's bias, a `(C,)` constant of the same values.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.graphs import random_graph
from testlib.numerics import assert_same_numerics
from xdsl.dialects import func
from xdsl.ir import Operation
from xrelay.dialects import accel
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.interpreter import evaluate_module
from xrelay.dialects.relay import nn
from xrelay.dialects.relay.elementwise import AddOp
from xrelay.dialects.relay.structure import CompositeOp, ConstantOp, TupleGetItemOp, TupleOp
from xrelay.dialects.relay.types import dense_to_numpy, shape_of
from xrelay.passes import lookup_pass
from xrelay.passes.convert_relay_to_accel import (
    ConvertRelayToAccel,
    ConvertRelayToAccelPass,
    convert_module,
    is_accel_function,
)
from xrelay.passes.optimize import OptimizePass
from xrelay.passes.partition_for import partition_for

import xrelay
from xrelay import IRModule, relay, transform

ROOT = Path(__file__).resolve().parent.parent
RNG = np.random.default_rng(11)
KEPT = frozenset({"relay.constant", "relay.tuple", "relay.tuple_get_item", "func.return"})
ACCEL_OPS = frozenset(op.name for op in accel.OPS)


def const(*shape: int, positive: bool = False) -> relay.Expr:
    value = RNG.standard_normal(shape).astype("float32")
    return relay.const(np.abs(value) + np.float32(0.5) if positive else value)


def conv(x: relay.Expr, cin: int, cout: int, k: int = 3, **kwargs: Any) -> relay.Expr:
    return relay.nn.conv2d(x, const(cout, cin, k, k), **kwargs)


def bias(x: relay.Expr, n: int, axis: int = 1) -> relay.Expr:
    return relay.nn.bias_add(x, const(n), axis=axis)


def conv_chain() -> IRModule:
    """conv-bias-relu, strided conv-bias-relu, conv-relu, host tanh, conv-bias."""
    x = relay.var("x", shape=(1, 3, 16, 16))
    y = relay.nn.relu(bias(conv(x, 3, 8, padding=(1, 1)), 8))
    y = relay.nn.relu(bias(conv(y, 8, 8, strides=(2, 2), padding=(1, 1)), 8))
    y = relay.nn.relu(conv(y, 8, 4, k=1))
    y = relay.tanh(y)
    y = bias(conv(y, 4, 6, dilation=(2, 2), padding=(2, 2)), 6)
    return IRModule.from_expr(relay.Function([x], y))


def mlp() -> IRModule:
    """dense-bias-relu twice, dense-bias, host softmax."""
    x = relay.var("x", shape=(2, 16))
    y = relay.nn.relu(bias(relay.nn.dense(x, const(32, 16)), 32))
    y = relay.nn.relu(bias(relay.nn.dense(y, const(16, 32), units=16), 16, axis=-1))
    y = bias(relay.nn.dense(y, const(4, 16)), 4)
    return IRModule.from_expr(relay.Function([x], relay.nn.softmax(y)))


def pools() -> IRModule:
    """max (padding, ceil_mode), avg (count_include_pad), global avg, host flatten, dense."""
    x = relay.var("x", shape=(1, 4, 9, 9))
    y = relay.nn.max_pool2d(x, pool_size=3, strides=2, padding=1, ceil_mode=True)
    y = relay.nn.avg_pool2d(y, pool_size=2, padding=1, count_include_pad=True)
    y = relay.nn.avg_pool2d(y, pool_size=(2, 3), strides=(1, 2))
    y = relay.nn.global_avg_pool2d(y)
    y = relay.nn.dense(relay.nn.batch_flatten(y), const(3, 4))
    return IRModule.from_expr(relay.Function([x], y))


def batch_norm() -> IRModule:
    """conv, batch_norm [0], relu, then a second batch_norm feeding a multiply."""
    x = relay.var("x", shape=(2, 3, 6, 6))
    y = conv(x, 3, 4, padding=(1, 1))
    params = [const(4), const(4), const(4), const(4, positive=True)]
    y = relay.nn.relu(relay.nn.batch_norm(y, *params, epsilon=1e-3)[0])
    params = [const(4), const(4), const(4), const(4, positive=True)]
    z = relay.nn.batch_norm(y, *params, center=False)[0]
    return IRModule.from_expr(relay.Function([x], relay.multiply(z, y)))


def residual() -> IRModule:
    """conv-bias-relu, conv-bias, residual add_relu, subtract, multiply, a lone relu."""
    x = relay.var("x", shape=(1, 4, 8, 8))
    a = relay.nn.relu(bias(conv(x, 4, 4, padding=(1, 1)), 4))
    b = bias(conv(a, 4, 4, padding=(1, 1)), 4)
    y = relay.nn.relu(relay.add(a, b))
    y = relay.multiply(relay.subtract(y, x), y)
    y = relay.nn.relu(relay.negative(y))
    return IRModule.from_expr(relay.Function([x], y))


def tinyres() -> IRModule:
    """The perf-anchors network (examples/tinyres.mlir)."""
    return xrelay.parse((ROOT / "examples" / "tinyres.mlir").read_text())


def add_biases() -> IRModule:
    """Biases as adds of per-channel constants, either operand order: conv + (C,1,1) + relu,
    (1,C,1,1) + conv, dense + (C,) + relu, (1,C) + dense; a host tanh between."""
    x = relay.var("x", shape=(2, 3, 6, 6))
    y = relay.nn.relu(relay.add(conv(x, 3, 4, padding=(1, 1)), const(4, 1, 1)))
    y = relay.add(const(1, 5, 1, 1), conv(y, 4, 5, strides=(2, 2)))
    y = relay.nn.batch_flatten(relay.tanh(y))
    y = relay.nn.relu(relay.add(relay.nn.dense(y, const(7, 20)), const(7)))
    y = relay.add(const(1, 3), relay.nn.dense(y, const(3, 7)))
    return IRModule.from_expr(relay.Function([x], y))


GRAPHS = {
    f.__name__: f for f in (conv_chain, mlp, pools, batch_norm, residual, tinyres, add_biases)
}


def functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in mod.module.ops if isinstance(op, func.FuncOp)}


def op_names(function: func.FuncOp) -> list[str]:
    return [op.name for op in function.body.block.ops]


def lower(mod: IRModule) -> tuple[IRModule, IRModule]:
    """(partitioned, partitioned then lowered); `mod` is left as it is."""
    with transform.PassContext(opt_level=3):
        partitioned = partition_for(mod.clone(), "accel")
        lowered = ConvertRelayToAccel()(partitioned.clone())
    lowered.module.verify()
    return partitioned, lowered


def check_lowered(original: IRModule, partitioned: IRModule, lowered: IRModule) -> int:
    """The checks every lowered graph passes; returns how many accel ops it holds."""
    assert_same_numerics(original, lowered, rtol=1e-4, atol=1e-5)
    assert_same_numerics(partitioned, lowered, rtol=0.0, atol=0.0)
    before, after = functions(partitioned), functions(lowered)
    assert list(before) == list(after)
    count = 0
    for name, function in after.items():
        if not is_accel_function(function):
            assert str(function) == str(before[name]), name
            continue
        names = op_names(function)
        assert set(names) <= ACCEL_OPS | KEPT, (name, names)
        assert function.function_type == before[name].function_type
        count += sum(n in ACCEL_OPS for n in names)
    return count


@pytest.mark.parametrize("graph", GRAPHS)
def test_lowered_graph_computes_the_same(graph: str) -> None:
    original = GRAPHS[graph]()
    partitioned, lowered = lower(original)
    assert check_lowered(original, partitioned, lowered) >= 2


def test_composites_become_one_kernel_each() -> None:
    partitioned, lowered = lower(conv_chain())
    text = str(lowered)
    assert "relay.composite" in str(partitioned)
    assert "relay.composite" not in text
    assert text.count("accel.conv2d") == 4
    assert text.count("has_bias = true, has_relu = true") == 2
    assert text.count("{has_relu = true}") == 1
    assert "relay.tanh" in text  # the host keeps it


def test_add_biases_become_kernel_biases() -> None:
    """Each add of a per-channel constant joins its kernel: four biased kernels, no accel.add,
    each bias a (C,) constant of the add's values."""
    original = add_biases()
    partitioned, lowered = lower(original)
    names = [op.composite.data for op in partitioned.module.walk() if isinstance(op, CompositeOp)]
    assert names == [
        "accel.conv2d_bias_relu",
        "accel.conv2d_bias",
        "accel.dense_bias_relu",
        "accel.dense_bias",
    ]
    kernels = [op for op in lowered.module.walk() if isinstance(op, accel.Conv2DOp | accel.DenseOp)]
    flags = [(bool(op.has_bias.value.data), bool(op.has_relu.value.data)) for op in kernels]
    assert flags == [(True, True), (True, False), (True, True), (True, False)]
    adds = [op for op in partitioned.module.walk() if isinstance(op, AddOp)]
    for kernel, add in zip(kernels, adds, strict=True):
        bias = kernel.bias
        assert bias is not None
        assert isinstance(bias.owner, ConstantOp)
        (constant,) = [o.owner for o in add.operands if isinstance(o.owner, ConstantOp)]
        assert tuple(shape_of(bias.type)) == (shape_of(kernel.results[0].type)[1],)
        np.testing.assert_array_equal(
            dense_to_numpy(bias.owner.value), dense_to_numpy(constant.value).reshape(-1)
        )
    assert "accel.add " not in str(lowered)


def test_optimized_tinyres_keeps_each_conv_with_its_bias() -> None:
    """tinyres after `optimize` without fusion (its bias_adds now adds of (C,1,1) constants),
    partitioned for accel: each conv2d and the dense sits in a bias composite, with the relu
    that reads its bias where there is one; it lowers to biased kernels, same numbers."""
    original = tinyres()
    optimized = OptimizePass(opt_level=3, fuse=False).build()(original.clone())
    assert "relay.nn.bias_add" not in str(optimized)
    partitioned, lowered = lower(optimized)
    composites = [op for op in partitioned.module.walk() if isinstance(op, CompositeOp)]
    kernels = [op for op in partitioned.module.walk() if isinstance(op, nn.Conv2DOp | nn.DenseOp)]
    assert len(kernels) == 5
    for kernel in kernels:
        composite = kernel.parent_op()
        assert isinstance(composite, CompositeOp), kernel
        assert "_bias" in composite.composite.data, composite.composite.data
    for op in partitioned.module.walk():  # no relu left outside reading a biased kernel
        if isinstance(op, nn.ReluOp) and not isinstance(op.parent_op(), CompositeOp):
            owner = op.data.owner
            assert not (isinstance(owner, CompositeOp) and "_bias" in owner.composite.data)
    names = sorted(op.composite.data for op in composites)
    assert names.count("accel.conv2d_bias_relu") >= 2
    assert names.count("accel.dense_bias") == 1
    check_lowered(original, partitioned, lowered)
    lowered_kernels = [
        op for op in lowered.module.walk() if isinstance(op, accel.Conv2DOp | accel.DenseOp)
    ]
    assert all(op.has_bias.value.data and op.bias is not None for op in lowered_kernels)
    assert len(lowered_kernels) == 5


def test_batch_norm_becomes_one_result() -> None:
    _, lowered = lower(batch_norm())
    kinds = [type(op) for op in lowered.module.walk()]
    assert kinds.count(accel.BatchNormOp) == 2
    assert nn.BatchNormOp not in kinds
    assert TupleGetItemOp not in kinds


def test_only_accel_functions_change() -> None:
    """A host function with ops and composites accel takes, and a dnnl function, stay."""
    text = (
        'func.func @d(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "dnnl"} {\n'
        "  %0 = relay.nn.relu %x : tensor<4xf32>\n"
        "  func.return %0 : tensor<4xf32>\n"
        "}\n"
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %0 = relay.nn.relu %x : tensor<4xf32>\n"
        "  %1 = relay.add %0, %x : tensor<4xf32>\n"
        "  %2 = func.call @d(%1) : (tensor<4xf32>) -> tensor<4xf32>\n"
        "  func.return %2 : tensor<4xf32>\n"
        "}\n"
    )
    mod = xrelay.parse(text)
    before = str(mod)
    convert_module(mod.module)
    assert str(mod) == before


def test_error_leaves_the_module_unchanged() -> None:
    """All checks run before any rewrite: one bad op, and the good function is not lowered."""
    text = (
        'func.func @good(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {\n'
        "  %0 = relay.nn.relu %x : tensor<4xf32>\n"
        "  func.return %0 : tensor<4xf32>\n"
        "}\n"
        'func.func @bad(%x: tensor<4xf32>) -> tensor<4xf32> attributes {Compiler = "accel"} {\n'
        "  %0 = relay.nn.relu %x : tensor<4xf32>\n"
        "  %1 = relay.sigmoid %0 : tensor<4xf32>\n"
        "  func.return %1 : tensor<4xf32>\n"
        "}\n"
    )
    mod = xrelay.parse(text, "m.mlir")
    before = str(mod)
    with pytest.raises(DiagnosticError) as info:
        convert_module(mod.module)
    assert str(info.value) == (
        "m.mlir:7:8: error: 'relay.sigmoid' op cannot be lowered to target 'accel': "
        "accel has no kernel for 'sigmoid'"
    )
    assert str(mod) == before


ADD_BIAS_COMPOSITE = """\
func.func @{name}(%x: tensor<1x3x2x2xf32>, %w: tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> \
attributes {{Compiler = "accel"}} {{
  %0 = relay.composite "accel.conv2d_bias" (%x, %w) : \
(tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32> {{
  ^bb0(%i: tensor<1x3x2x2xf32>, %k: tensor<4x3x1x1xf32>):
    %c = relay.constant dense<1.0> : tensor<{shape}xf32>
    %1 = relay.nn.conv2d %i, %k : (tensor<1x3x2x2xf32>, tensor<4x3x1x1xf32>) -> tensor<1x4x2x2xf32>
    %2 = relay.add %1, %c : (tensor<1x4x2x2xf32>, tensor<{shape}xf32>) -> tensor<1x4x2x2xf32>
    relay.yield %2 : tensor<1x4x2x2xf32>
  }}
  func.return %0 : tensor<1x4x2x2xf32>
}}
"""


def test_add_bias_error_leaves_the_module_unchanged() -> None:
    """A (C,1,1) add bias lowers, a (C,H,W) one is refused: the module stays as it was."""
    good = ADD_BIAS_COMPOSITE.format(name="good", shape="4x1x1")
    mod = xrelay.parse(good + ADD_BIAS_COMPOSITE.format(name="bad", shape="4x2x2"))
    before = str(mod)
    with pytest.raises(DiagnosticError, match=r"its bias constant of shape \(4, 2, 2\)"):
        convert_module(mod.module)
    assert str(mod) == before
    lowered = xrelay.parse(good)
    convert_module(lowered.module)
    assert "accel.conv2d %x, %w, %0 {has_bias = true}" in str(lowered)


def test_pass_identity_and_gating() -> None:
    entry = lookup_pass("ConvertRelayToAccel")
    assert entry is not None
    assert entry.flag == "convert-relay-to-accel"
    assert entry.factory() is ConvertRelayToAccelPass
    pass_ = ConvertRelayToAccel()
    assert pass_.info.name == "ConvertRelayToAccel"
    assert pass_.info.opt_level == 0
    partitioned = partition_for(conv_chain(), "accel")
    with transform.PassContext(disabled_pass=["ConvertRelayToAccel"]):
        skipped = transform.Sequential([pass_])(partitioned.clone())
    assert "= accel.conv2d " not in str(skipped)
    assert "= accel.conv2d " in str(transform.Sequential([pass_])(partitioned.clone()))


def _batch_norm_escapes(function: func.FuncOp) -> list[Operation]:
    """The batch_norms of a function read other than through `tuple_get_item 0`."""
    return [
        op
        for op in function.body.block.ops
        if isinstance(op, nn.BatchNormOp)
        and any(
            not (isinstance(u.operation, TupleGetItemOp) and u.operation.index.value.data == 0)
            for u in op.result.uses
        )
    ]


def partitioned_random_graph(seed: int) -> tuple[IRModule, IRModule]:
    """(generated graph `seed` without its own accel function, partitioned for accel)."""
    original = random_graph(seed)
    for function in functions(original).values():
        function.attributes.pop("Compiler", None)  # the generator's own accel function
    with transform.PassContext(opt_level=3):
        partitioned = partition_for(original.clone(), "accel")
    return original, partitioned


SEEDS = 200


@pytest.mark.parametrize("chunk", range(4))
def test_partitioned_random_graphs_lower(chunk: int) -> None:
    """The 200 generated graphs: every accel function PartitionGraph makes lowers."""
    for seed in range(chunk, SEEDS, 4):
        original, partitioned = partitioned_random_graph(seed)
        lowered = partitioned.clone()
        convert_module(lowered.module)
        lowered.module.verify()
        check_lowered(original, partitioned, lowered)


@pytest.mark.parametrize("seed", [76, 141])
def test_random_graphs_with_whole_batch_norm_tuples_lower(seed: int) -> None:
    """Seeds 76 and 141 partition a batch_norm whose whole tuple the accel function returns
    (in a relay.tuple, or alone): it becomes a relay.tuple of the kernel and its operands."""
    original, partitioned = partitioned_random_graph(seed)
    accel_functions = [f for f in functions(partitioned).values() if is_accel_function(f)]
    assert [op for f in accel_functions for op in _batch_norm_escapes(f)], seed
    lowered = partitioned.clone()
    convert_module(lowered.module)
    lowered.module.verify()
    check_lowered(original, partitioned, lowered)
    rebuilt = [
        op
        for f in functions(lowered).values()
        if is_accel_function(f)
        for op in f.body.block.ops
        if isinstance(op, TupleOp) and isinstance(op.fields[0].owner, accel.BatchNormOp)
    ]
    assert rebuilt, seed


VARIANCE = np.abs(RNG.standard_normal(4)).astype("float32") + np.float32(0.5)


def batch_norm_fields(whole: bool) -> IRModule:
    """relu, batch_norm (moving mean an input, moving variance a constant); the host reads
    fields 0, 1 and 2, through a host tuple (the partition returns the tuple whole) or not
    (the partition reads the fields, returns them in a tuple)."""
    x = relay.var("x", shape=(2, 4, 3, 3))
    mean = relay.var("mean", shape=(4,))
    variance = relay.const(VARIANCE)
    bn = relay.nn.batch_norm(relay.nn.relu(x), const(4), const(4), mean, variance, epsilon=1e-3)
    pair = relay.Tuple([bn, relay.tanh(mean)])  # tanh is the host's: the pair too
    fields = relay.TupleGetItem(pair, 0) if whole else bn
    y = [relay.tanh(fields[0]), relay.exp(fields[1]), relay.negative(fields[2]), pair[1]]
    return IRModule.from_expr(relay.Function([x, mean], relay.Tuple(y)))


@pytest.mark.parametrize("whole", [True, False], ids=["whole", "fields"])
def test_batch_norm_tuple_fields_keep_their_values(whole: bool) -> None:
    """Fields 1 and 2 are the moving mean and variance operands, whether the partition reads
    them or returns the tuple whole; numerics as the original graph's, and as numpy's."""
    original = batch_norm_fields(whole)
    partitioned, lowered = lower(original)
    (before,) = [f for f in functions(partitioned).values() if is_accel_function(f)]
    (bn,) = _batch_norm_escapes(before)  # returned whole, or fields 1 and 2 read
    assert isinstance(before.body.block.last_op, func.ReturnOp)
    assert (before.body.block.last_op.operands[0] is bn.result) == whole
    (accel_function,) = [f for f in functions(lowered).values() if is_accel_function(f)]
    names = op_names(accel_function)
    assert names.count("accel.batch_norm") == 1
    assert "relay.tuple_get_item" not in names
    returned = accel_function.body.block.last_op
    assert returned is not None
    if whole:  # the partition returns the batch_norm's tuple, rebuilt after the kernel
        (tuple_type,) = accel_function.function_type.outputs.data
        (value,) = returned.operands
        assert isinstance(value.owner, TupleOp)
        assert value.type == tuple_type
        kernel, *operands = value.owner.fields
        assert isinstance(kernel.owner, accel.BatchNormOp)
        assert operands == list(kernel.owner.operands[3:])
        assert value.owner.prev_op is kernel.owner
    check_lowered(original, partitioned, lowered)
    x, mean = RNG.standard_normal((2, 4, 3, 3)), RNG.standard_normal(4)
    inputs = [x.astype("float32"), mean.astype("float32")]
    outputs = evaluate_module(lowered.module, inputs, "main")
    assert isinstance(outputs, tuple)
    assert len(outputs) == 4
    np.testing.assert_allclose(outputs[1], np.exp(inputs[1]), rtol=1e-6)
    np.testing.assert_array_equal(outputs[2], -VARIANCE)
