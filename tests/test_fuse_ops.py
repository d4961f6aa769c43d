"""FuseOps: relay ops grouped into Primitive functions by TVM's post-dominator algorithm.

Ports of TVM's `tests/python/relay/test_pass_fuse_ops.py`: the expected module
is built with the builder (fused functions as `Primitive` functions called
with `func.call`, private, after `main`) and compared as text; every case also
checks the numerics before and after (`run_and_check`). Shapes are smaller
than TVM's so the reference interpreter stays fast; `nn.upsampling` (not a
xrelay op) is replaced by another injective op, `nn.pad`; `left_shift` by
`subtract`. `test_immutable` has no counterpart (xrelay passes change the
module in place, by design), nor `test_stop_fusion` (no `stop_fusion` op).
Then the cases of the brief (diamond, reduction, conv2d + bias + relu), the
op-kind table, the config key, negative cases, and the post-dominator tree
against TVM's own LCA walk on random graphs.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from testlib.graphs import random_graph
from testlib.numerics import run_and_check
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, StringAttr, TensorType
from xrelay.dialects.relay import RELAY
from xrelay.passes import lookup_pass
from xrelay.passes.fuse_ops import (
    ForwardGraph,
    FuseOps,
    FuseOpsPass,
    PostDominatorTree,
    build_forward_graph,
)
from xrelay.passes.op_pattern import OP_PATTERNS, OpPatternKind, op_pattern
from xrelay.passes.pass_config import config_option

from xrelay import IRModule, relay, transform

K = OpPatternKind


# --------------------------------------------------------------------------- #
# Helpers
# --------------------------------------------------------------------------- #


def primitive(params: list[relay.Var], body: relay.Expr) -> relay.Function:
    """A fused function as FuseOps makes it."""
    return relay.Function(params, body).with_attr("Primitive", 1)


def gv(name: str, function: relay.Function) -> relay.GlobalVar:
    """The callee of a fused function, typed."""
    ty = function.checked_type
    assert isinstance(ty, FunctionType)
    return relay.GlobalVar(name, ty)


def expected_module(main: relay.Function, fused: dict[str, relay.Function]) -> IRModule:
    """`main`, then the fused functions (private) in order: the layout FuseOps produces."""
    mod = IRModule({"main": main})
    for name, function in fused.items():
        mod[name] = function
    for op in mod.module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data in fused:
            op.sym_visibility = StringAttr("private")
    return mod


def fuse(mod: IRModule, level: int = -1, opt_level: int = 3) -> IRModule:
    """FuseOps on a clone of `mod`, checked for verification and numerics."""
    return run_and_check(mod, FuseOps(fuse_opt_level=level), opt_level=opt_level)


def primitive_functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {
        op.sym_name.data: op
        for op in mod.module.ops
        if isinstance(op, func.FuncOp) and "Primitive" in op.attributes
    }


def body_ops(function: func.FuncOp) -> list[str]:
    """The op names of a function body, its return aside."""
    return [op.name for op in function.body.block.ops][:-1]


def var(name: str, shape: tuple[int, ...], dtype: str = "float32") -> relay.Var:
    return relay.var(name, shape=shape, dtype=dtype)


def one() -> relay.Constant:
    return relay.const(1.0, "float32")


# --------------------------------------------------------------------------- #
# Ports of TVM's test_pass_fuse_ops.py
# --------------------------------------------------------------------------- #


def test_fuse_simple() -> None:
    x = var("x", (10, 20))
    before = IRModule.from_expr(relay.Function([x], relay.squeeze(relay.exp(x + one()))))
    p = var("p0", (10, 20))
    f = primitive([p], relay.squeeze(relay.exp(relay.add(p, one()))))
    x = var("x", (10, 20))
    want = expected_module(
        relay.Function([x], gv("fused_add_exp_squeeze", f)(x)), {"fused_add_exp_squeeze": f}
    )
    assert str(fuse(before, level=2)) == str(want)
    assert str(fuse(before)) == str(want)


def test_conv2d_fuse() -> None:
    dshape, wshape = (1, 4, 8, 8), (4, 4, 3, 3)

    def before() -> IRModule:
        x = var("x", dshape)
        w1, w2, w3 = var("w1", wshape), var("w2", (4, 4, 1, 1)), var("w3", wshape)
        y = relay.nn.conv2d(relay.add(x, one()), w1, padding=(1, 1))
        y = relay.add(y, relay.add(one(), y))  # the next dominator
        z2 = relay.nn.conv2d(y, w2)  # fuses with the add
        z3 = relay.nn.conv2d(y, w3, padding=(1, 1))  # the add is taken: alone
        return IRModule.from_expr(relay.Function([x, w1, w2, w3], relay.add(z2, z3)))

    p0, p1 = var("p0", dshape), var("p1", wshape)
    f0 = primitive([p0], relay.add(p0, one()))
    conv = relay.nn.conv2d(p0, p1, padding=(1, 1))
    f1 = primitive([p0, p1], relay.add(conv, relay.add(one(), conv)))
    f2 = primitive([p0, p1], relay.nn.conv2d(p0, p1, padding=(1, 1)))
    q1, q2 = var("p1", (4, 4, 1, 1)), var("p2", dshape)
    f3 = primitive([p0, q1, q2], relay.add(relay.nn.conv2d(p0, q1), q2))
    x = var("x", dshape)
    w1, w2, w3 = var("w1", wshape), var("w2", (4, 4, 1, 1)), var("w3", wshape)
    y = gv("fused_add", f0)(x)
    y = gv("fused_nn_conv2d_add_add", f1)(y, w1)
    z3 = gv("fused_nn_conv2d", f2)(y, w3)
    out = gv("fused_nn_conv2d_add", f3)(y, w2, z3)
    want = expected_module(
        relay.Function([x, w1, w2, w3], out),
        {
            "fused_add": f0,
            "fused_nn_conv2d_add_add": f1,
            "fused_nn_conv2d": f2,
            "fused_nn_conv2d_add": f3,
        },
    )
    assert str(fuse(before(), level=2)) == str(want)


def pool_pad(x: relay.Expr) -> tuple[relay.Expr, relay.Expr]:
    """max_pool2d halves H and W; pad (in place of TVM's upsampling) restores them."""
    pooled = relay.nn.max_pool2d(x, pool_size=(2, 2), strides=(2, 2))
    return pooled, relay.nn.pad(pooled, ((0, 0), (0, 0), (0, 2), (0, 2)))


def test_concatenate() -> None:
    dshape, half = (1, 2, 4, 4), (1, 2, 2, 2)
    x = var("x", dshape)
    _, padded = pool_pad(x)
    out = relay.add(relay.concatenate([padded, x], axis=1), one())
    before = IRModule.from_expr(relay.Function([x], out))

    p0 = var("p0", dshape)
    f0 = primitive([p0], pool_pad(p0)[0])
    q0, q1 = var("p0", half), var("p1", dshape)
    padded = relay.nn.pad(q0, ((0, 0), (0, 0), (0, 2), (0, 2)))
    f1 = primitive([q0, q1], relay.add(relay.concatenate([padded, q1], axis=1), one()))
    x = var("x", dshape)
    y = gv("fused_nn_max_pool2d", f0)(x)
    z = gv("fused_nn_pad_concatenate_add", f1)(y, x)
    want = expected_module(
        relay.Function([x], z),
        {"fused_nn_max_pool2d": f0, "fused_nn_pad_concatenate_add": f1},
    )
    assert len(primitive_functions(fuse(before, level=0))) == 4
    assert str(fuse(before, level=2)) == str(want)


def test_tuple_root() -> None:
    dshape, half = (1, 2, 4, 4), (1, 2, 2, 2)
    x = var("x", dshape)
    _, padded = pool_pad(x)
    before = IRModule.from_expr(relay.Function([x], relay.Tuple([padded, x])))

    p0 = var("p0", dshape)
    f0 = primitive([p0], pool_pad(p0)[0])
    q0 = var("p0", half)
    f1 = primitive([q0], relay.nn.pad(q0, ((0, 0), (0, 0), (0, 2), (0, 2))))
    x = var("x", dshape)
    y = gv("fused_nn_max_pool2d", f0)(x)
    z = gv("fused_nn_pad", f1)(y)
    want = expected_module(
        relay.Function([x], relay.Tuple([z, x])), {"fused_nn_max_pool2d": f0, "fused_nn_pad": f1}
    )
    assert len(primitive_functions(fuse(before, level=0))) == 2
    assert str(fuse(before, level=2)) == str(want)


def test_fuse_myia_regression() -> None:
    """The condition of an if is fused; the if itself stays (TVM: greater on int64 scalars)."""
    x, y = var("x", (), "int64"), var("y", (), "int64")
    before = IRModule.from_expr(relay.Function([x, y], relay.If(relay.greater(x, y), x, y)))
    p0, p1 = var("p0", (), "int64"), var("p1", (), "int64")
    f = primitive([p0, p1], relay.greater(p0, p1))
    x, y = var("x", (), "int64"), var("y", (), "int64")
    main = relay.Function([x, y], relay.If(gv("fused_greater", f)(x, y), x, y))
    assert str(fuse(before)) == str(expected_module(main, {"fused_greater": f}))


def test_fuse_tuple_get_elemwise() -> None:
    dim = 4

    def body(s: relay.Expr) -> relay.Expr:
        return relay.sigmoid(s[0]) + relay.tanh(s[1]) * relay.exp(s[2])

    x, w = var("X", (1, dim)), var("W", (3 * dim, dim))
    dense = relay.nn.dense(x, w)
    before = IRModule.from_expr(relay.Function([x, w], body(relay.split(dense, 3, axis=1))))

    p0, p1 = var("p0", (1, dim)), var("p1", (3 * dim, dim))
    f0 = primitive([p0, p1], relay.nn.dense(p0, p1))
    q0 = var("p0", (1, 3 * dim))
    f1 = primitive([q0], body(relay.split(q0, 3, axis=1)))
    x, w = var("X", (1, dim)), var("W", (3 * dim, dim))
    name = "fused_split_sigmoid_tanh_exp_multiply_add"
    out = gv(name, f1)(gv("fused_nn_dense", f0)(x, w))
    want = expected_module(relay.Function([x, w], out), {"fused_nn_dense": f0, name: f1})
    assert len(primitive_functions(fuse(before, level=0))) == 7  # projections stay
    assert str(fuse(before, level=2)) == str(want)


def test_tuple_get_root() -> None:
    dim = 4
    x, w = var("X", (1, 3 * dim)), var("W", (dim, dim))
    before = IRModule.from_expr(
        relay.Function([x, w], relay.nn.dense(relay.split(x, 3, axis=1)[0], w))
    )
    p0 = var("p0", (1, 3 * dim))
    f0 = primitive([p0], relay.split(p0, 3, axis=1)[0])
    q0, q1 = var("p0", (1, dim)), var("p1", (dim, dim))
    f1 = primitive([q0, q1], relay.nn.dense(q0, q1))
    x, w = var("X", (1, 3 * dim)), var("W", (dim, dim))
    out = gv("fused_nn_dense", f1)(gv("fused_split", f0)(x), w)
    want = expected_module(relay.Function([x, w], out), {"fused_split": f0, "fused_nn_dense": f1})
    assert str(fuse(before, level=2)) == str(want)


def test_tuple_intermediate() -> None:
    """Injective ops, parallel branches and a concatenate: all one function."""

    def body(x: relay.Expr) -> relay.Expr:
        inj = relay.squeeze(x)
        y1 = relay.add(inj, one())
        tmp = relay.add(relay.squeeze(inj), one())
        y2 = relay.add(tmp, one())
        y3 = relay.add(inj, one())
        concat = relay.concatenate([y1, y2, y3], axis=1)
        return relay.add(relay.squeeze(concat), one())

    dshape = (1, 2, 4, 4)
    x = var("x", dshape)
    before = IRModule.from_expr(relay.Function([x], body(x)))
    p0 = var("p0", dshape)
    f = primitive([p0], body(p0))
    name = "fused_squeeze_add_squeeze_add_add_add_concatenate_squeeze_add"
    x = var("x", dshape)
    want = expected_module(relay.Function([x], gv(name, f)(x)), {name: f})
    assert str(fuse(before, level=2)) == str(want)


def test_tuple_consecutive() -> None:
    """Three concatenations of concatenations fuse; the pool takes the add after it."""

    def intermediate(x: relay.Expr) -> relay.Expr:
        ys = [relay.add(x, one()) for _ in range(3)]
        return relay.add(relay.concatenate(ys, axis=1), one())

    def consecutive(x: relay.Expr) -> relay.Expr:
        return relay.concatenate([intermediate(x) for _ in range(3)], axis=1)

    dshape = (1, 2, 4, 4)
    x = var("x", dshape)
    pooled = relay.nn.max_pool2d(consecutive(x), pool_size=(2, 2), strides=(2, 2))
    out = relay.add(pooled, one())
    before = IRModule.from_expr(relay.Function([x], relay.Tuple([out, relay.add(out, one())])))

    p0 = var("p0", dshape)
    f0 = primitive([p0], consecutive(p0))
    q0 = var("p0", (1, 18, 4, 4))
    f1 = primitive([q0], relay.add(relay.nn.max_pool2d(q0, (2, 2), (2, 2)), one()))
    r0 = var("p0", (1, 18, 2, 2))
    f2 = primitive([r0], relay.add(r0, one()))
    # Whole op names while they fit in 80 characters (TVM cuts long names too).
    name0 = "fused_add_add_add_concatenate_add_add_add_add_concatenate_add_add_add_add"
    x = var("x", dshape)
    z = gv("fused_nn_max_pool2d_add", f1)(gv(name0, f0)(x))
    main = relay.Function([x], relay.Tuple([z, gv("fused_add", f2)(z)]))
    want = expected_module(main, {name0: f0, "fused_nn_max_pool2d_add": f1, "fused_add": f2})
    assert str(fuse(before, level=2)) == str(want)


def test_inception_like() -> None:
    """conv2d + relu pairs fuse; each concatenate is alone (a conv2d reads it)."""

    def conv(data: relay.Expr, w: relay.Expr) -> relay.Expr:
        return relay.nn.relu(relay.nn.conv2d(data, w, padding=(1, 1)))

    def inception(data: relay.Expr, w0: relay.Expr, w1: relay.Expr) -> relay.Expr:
        return relay.concatenate([conv(data, w0), conv(data, w1)], axis=1)

    dshape, dshape2 = (1, 2, 4, 4), (1, 4, 4, 4)
    wshape, wshape2 = (2, 2, 3, 3), (2, 4, 3, 3)
    x = var("x", dshape)
    ws = [var(f"w{i}", wshape if i < 2 else wshape2) for i in range(4)]
    out = inception(inception(x, ws[0], ws[1]), ws[2], ws[3])
    before = IRModule.from_expr(relay.Function([x, *ws], out))
    fused = fuse(before, level=2)
    functions = primitive_functions(fused)
    assert [body_ops(f) for f in functions.values()] == [
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.concatenate"],
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.concatenate"],
    ]
    (result,) = functions["fused_concatenate"].function_type.outputs.data
    assert isinstance(result, TensorType)
    assert tuple(result.get_shape()) == dshape2


def test_fuse_parallel_injective() -> None:
    """Parallel injective branches fuse into the elementwise op joining them."""

    def body(x: relay.Expr) -> relay.Expr:
        y = relay.add(x, one())
        return relay.subtract(relay.squeeze(y), relay.transpose(y, axes=[0, 1]))

    x = var("x", (10, 20))
    before = IRModule.from_expr(relay.Function([x], body(x)))
    p0 = var("p0", (10, 20))
    f = primitive([p0], body(p0))
    name = "fused_add_squeeze_transpose_subtract"
    x = var("x", (10, 20))
    want = expected_module(relay.Function([x], gv(name, f)(x)), {name: f})
    assert len(primitive_functions(fuse(before, level=0))) == 4
    assert str(fuse(before, level=2)) == str(want)


def exp_chain(n: int) -> IRModule:
    x = var("x", (10, 20))
    y: relay.Expr = x
    for _ in range(n):
        y = relay.exp(y)
    return IRModule.from_expr(relay.Function([x], y))


def group_sizes(mod: IRModule) -> list[int]:
    return [len(body_ops(f)) for f in primitive_functions(mod).values()]


def test_fuse_max() -> None:
    """300 exps split at TVM's default 256; `relay.FuseOps.max_depth = 10` splits 20 in 10 + 10."""
    out = fuse(exp_chain(300), level=2)
    assert group_sizes(out) == [256, 44]
    main = out["main"].op
    assert main is not None
    assert [op.name for op in main.body.block.ops] == ["func.call", "func.call", "func.return"]
    with transform.PassContext(opt_level=3, config={"relay.FuseOps.max_depth": 10}):
        out = FuseOps()(exp_chain(20))
    assert group_sizes(out) == [10, 10]
    names = list(primitive_functions(out))
    assert names == ["fused" + "_exp" * 10, "fused" + "_exp" * 10 + "_1"]


# --------------------------------------------------------------------------- #
# The brief's cases
# --------------------------------------------------------------------------- #


def test_conv2d_bias_relu_is_one_group() -> None:
    x = var("x", (1, 3, 8, 8))
    w = relay.const(np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype("float32"))
    b = relay.const(np.ones(4, "float32"))
    y = relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w, padding=(1, 1)), b))
    out = fuse(IRModule.from_expr(relay.Function([x], y)))
    (fused,) = primitive_functions(out).values()
    assert body_ops(fused) == ["relay.nn.conv2d", "relay.nn.bias_add", "relay.nn.relu"]
    assert len(fused.body.block.args) == 3  # x and both constants are parameters
    main = out["main"].op
    assert main is not None
    assert [op.name for op in main.body.block.ops] == [
        "relay.constant",
        "relay.constant",
        "func.call",
        "func.return",
    ]


def test_fuse_opt_level_zero_gives_one_op_per_group() -> None:
    x = var("x", (1, 3, 8, 8))
    w = var("w", (4, 3, 3, 3))
    b = var("b", (4,))
    y = relay.exp(relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x, w), b)))
    before = IRModule.from_expr(relay.Function([x, w, b], y))
    for out in (fuse(before, level=0), fuse(before, level=-1, opt_level=0)):
        assert [body_ops(f) for f in primitive_functions(out).values()] == [
            ["relay.nn.conv2d"],
            ["relay.nn.bias_add"],
            ["relay.nn.relu"],
            ["relay.exp"],
        ]
    assert group_sizes(fuse(before, level=-1, opt_level=1)) == [4]


def test_diamond_of_elementwise_ops_is_one_group() -> None:
    x = var("x", (4, 4))
    y = relay.add(relay.exp(x), relay.tanh(x))
    out = fuse(IRModule.from_expr(relay.Function([x], relay.multiply(y, y))))
    (fused,) = primitive_functions(out).values()
    assert body_ops(fused) == ["relay.exp", "relay.tanh", "relay.add", "relay.multiply"]
    assert len(fused.body.block.args) == 1


def test_reduction_takes_the_ops_before_it_not_after() -> None:
    x = var("x", (4, 8))
    y = relay.sqrt(relay.sum(relay.exp(x), axis=1))
    out = fuse(IRModule.from_expr(relay.Function([x], y)))
    assert [body_ops(f) for f in primitive_functions(out).values()] == [
        ["relay.exp", "relay.sum"],
        ["relay.sqrt"],
    ]


def test_concatenate_of_fused_groups() -> None:
    """Two conv2d + relu groups feed a concatenate, which takes the elementwise op after it."""
    x = var("x", (1, 2, 4, 4))
    w0, w1 = var("w0", (2, 2, 1, 1)), var("w1", (2, 2, 1, 1))
    a = relay.nn.relu(relay.nn.conv2d(x, w0))
    b = relay.nn.relu(relay.nn.conv2d(x, w1))
    y = relay.exp(relay.concatenate([a, b], axis=1))
    out = fuse(IRModule.from_expr(relay.Function([x, w0, w1], y)))
    assert [body_ops(f) for f in primitive_functions(out).values()] == [
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.nn.conv2d", "relay.nn.relu"],
        ["relay.concatenate", "relay.exp"],
    ]


# --------------------------------------------------------------------------- #
# Negative cases, registration, op kinds, config
# --------------------------------------------------------------------------- #


def test_compiler_and_primitive_functions_are_left_alone() -> None:
    x = var("x", (4,))
    mod = IRModule.from_expr(relay.Function([x], relay.exp(x)))
    mod["accel"] = relay.Function([x], relay.tanh(relay.exp(x))).with_attr("Compiler", "accel")
    mod["done"] = primitive([x], relay.tanh(relay.exp(x)))
    out = fuse(mod)
    assert str(out["accel"].op) == str(mod["accel"].op)
    assert str(out["done"].op) == str(mod["done"].op)
    assert sorted(primitive_functions(out)) == ["done", "fused_exp"]


def test_fusing_again_changes_nothing() -> None:
    x = var("x", (1, 2, 4, 4))
    pooled, padded = pool_pad(x)
    y = relay.Tuple([relay.exp(padded), relay.nn.dropout(pooled)])
    once = fuse(IRModule.from_expr(relay.Function([x], y)))
    assert str(fuse(once)) == str(once)


def test_registered_under_both_names() -> None:
    entry = lookup_pass("FuseOps")
    assert entry is not None
    assert entry.flag == "fuse-ops"
    assert entry.factory() is FuseOpsPass
    pass_ = FuseOps(fuse_opt_level=0)
    assert pass_.info.name == "FuseOps"
    assert pass_.info.opt_level == 0
    assert transform.FuseOps is FuseOps


def test_every_relay_op_has_a_pattern_kind() -> None:
    missing = [op.name for op in RELAY.operations if op not in OP_PATTERNS]
    assert missing == []


def test_instance_rules_for_constants_and_projections() -> None:
    x = var("x", (2, 3))
    scalar, big = relay.const(1.0, "float32"), relay.const(np.ones((2, 3), "float32"))
    y = var("y", (2, 3), "float16")
    half = relay.const(np.float16(1.0))
    mod = IRModule.from_expr(relay.Function([x, y], relay.Tuple([x + scalar, x + big, y + half])))
    main = mod["main"].op
    assert main is not None
    kinds = [op_pattern(op) for op in main.body.block.ops if op.name == "relay.constant"]
    assert kinds == [K.ELEMWISE, K.OPAQUE, K.OPAQUE]


def test_max_depth_config_key_is_registered_and_typed() -> None:
    option = config_option("relay.FuseOps.max_depth")
    assert option is not None
    assert option.value_type is int
    assert option.default == 256
    with pytest.raises(AttributeError):
        transform.PassContext(config={"relay.FuseOps.max_depth": "ten"})
    with transform.PassContext(opt_level=3, config={"relay.FuseOps.max_depth": -1}):
        assert group_sizes(FuseOps()(exp_chain(300))) == [300]


# --------------------------------------------------------------------------- #
# The post-dominator tree against TVM's LCA walk
# --------------------------------------------------------------------------- #


def tvm_post_dominators(graph: ForwardGraph) -> tuple[list[int], list[OpPatternKind]]:
    """TVM's `DominatorTree::PostDom`, walking parents one step at a time."""
    n = len(graph.outputs)
    parent, depth, pattern = [-1] * n, [1] * n, [K.OPAQUE] * n

    def lca(a: int, b: int, seen: OpPatternKind) -> tuple[int, OpPatternKind]:
        while a != b:
            if a < 0 or b < 0:
                return -1, seen
            if depth[a] < depth[b]:
                seen, b = max(seen, pattern[b]), parent[b]
            elif depth[b] < depth[a]:
                seen, a = max(seen, pattern[a]), parent[a]
            else:
                seen = max(seen, pattern[a], pattern[b])
                a, b = parent[a], parent[b]
        return a, seen

    for v in range(n - 1, -1, -1):
        if graph.extern_ref[v] or not graph.outputs[v]:
            pattern[v] = K.OPAQUE if graph.extern_ref[v] else K.ELEMWISE
            continue
        node, seen = graph.outputs[v][0][0], max(K.ELEMWISE, graph.outputs[v][0][1])
        for consumer, edge in graph.outputs[v][1:]:
            node, seen = lca(node, consumer, seen)
            seen = max(seen, edge)
        parent[v], pattern[v] = node, seen
        depth[v] = depth[node] + 1 if node >= 0 else 1
    return parent, pattern


@pytest.mark.parametrize("seed", range(40))
def test_post_dominators_match_tvms_walk(seed: int) -> None:
    mod = random_graph(seed, 60)
    main = mod["main"].op
    assert main is not None
    graph = build_forward_graph(main.body.block)
    tree = PostDominatorTree(graph)
    parent, pattern = tvm_post_dominators(graph)
    assert tree.parent == parent
    linked = [v for v in range(len(parent)) if parent[v] >= 0]
    assert [tree.pattern[v] for v in linked] == [pattern[v] for v in linked]


def random_dag(seed: int, n: int = 120) -> ForwardGraph:
    """Nodes in topological order with random consumers, edge kinds and external refs."""
    rng = np.random.default_rng(seed)
    kinds = [K.ELEMWISE, K.BROADCAST, K.INJECTIVE, K.COMM_REDUCE, K.OUT_ELEMWISE_FUSABLE, K.OPAQUE]
    weights = np.array([0.45, 0.3, 0.15, 0.04, 0.04, 0.02])  # mostly low: maxima stay varied

    def kind() -> OpPatternKind:
        return kinds[int(rng.choice(len(kinds), p=weights))]

    outputs: list[list[tuple[int, OpPatternKind]]] = []
    for v in range(n):
        later = list(range(v + 1, min(n, v + 12)))
        count = min(int(rng.integers(1, 4)), len(later))
        picks = rng.choice(later, size=count, replace=False) if count else []
        outputs.append([(int(u), kind()) for u in picks])
    extern = [bool(rng.random() < 0.02) for _ in range(n)]
    pattern = [kind() for _ in range(n)]
    return ForwardGraph([], pattern, outputs, extern)


@pytest.mark.parametrize("seed", range(40))
def test_post_dominators_match_tvms_walk_on_random_dags(seed: int) -> None:
    n = 300
    graph = random_dag(seed, n)
    tree = PostDominatorTree(graph)
    parent, pattern = tvm_post_dominators(graph)
    assert tree.parent == parent
    linked = [v for v in range(len(parent)) if parent[v] >= 0]
    assert len(linked) > n // 4
    assert [tree.pattern[v] for v in linked] == [pattern[v] for v in linked]


def ladder(n: int) -> Callable[[], IRModule]:
    """A graph whose nodes each have two consumers far apart (deep LCAs)."""

    def build() -> IRModule:
        x = var("x", (4,))
        values: list[relay.Expr] = [x]
        for i in range(n):
            values.append(relay.add(values[-1], values[max(0, i - 7)]))
        return IRModule.from_expr(relay.Function([x], relay.tanh(values[-1])))

    return build


def test_post_dominators_on_long_skips() -> None:
    mod = ladder(200)()
    main = mod["main"].op
    assert main is not None
    graph = build_forward_graph(main.body.block)
    parent, pattern = tvm_post_dominators(graph)
    tree = PostDominatorTree(graph)
    assert tree.parent == parent
    assert [tree.pattern[v] for v in range(len(parent)) if parent[v] >= 0] == [
        pattern[v] for v in range(len(parent)) if parent[v] >= 0
    ]
    assert group_sizes(fuse(mod)) == [201]
