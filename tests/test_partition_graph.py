"""PartitionGraph (tvm-semantics.md C.5): ports of TVM's test_pass_partition_graph.py.

Annotated graphs are written by hand with the builder's begin/end calls (`cb`, `ce`),
as TVM's tests do with `compiler_begin`/`compiler_end`; expected modules are built the
same way and compared as graphs (`assert_graph_equal`, TVM's structural equality with
parameter names). Every partitioned module is checked against the original with the
reference interpreter, which follows `func.call` into the lifted functions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import numpy as np
import pytest
from testlib.numerics import run_and_check
from testlib.pass_helpers import assert_graph_equal
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.structure import CompilerBeginOp, CompilerEndOp, ConstantOp
from xrelay.passes import lookup_pass
from xrelay.passes.byoc_registry import register_partition_hook, unregister_partition_hook
from xrelay.passes.fold_constant import FoldConstantPass
from xrelay.passes.merge_compiler_regions import MergeCompilerRegions
from xrelay.passes.partition_graph import (
    PartitionGraph,
    PartitionGraphPass,
    mangle_module_name,
    sanitize_name,
)
from xrelay.passes.pass_manager import PassError

import xrelay
from xrelay import IRModule, relay, transform


def cb(value: relay.Expr, target: str) -> relay.Expr:
    """TVM's `compiler_begin(value, target)`."""
    return relay.Call(CompilerBeginOp, [value], {"compiler": StringAttr(target)})


def ce(value: relay.Expr, target: str) -> relay.Expr:
    """TVM's `compiler_end(value, target)`."""
    return relay.Call(CompilerEndOp, [value], {"compiler": StringAttr(target)})


def set_func_attr(function: relay.Function, compiler: str, symbol: str) -> relay.Function:
    """TVM's helper (the attributes in the order the pass sets them)."""
    return (
        function.with_attr("Compiler", compiler)
        .with_attr("global_symbol", symbol)
        .with_attr("Primitive", 1)
        .with_attr("Inline", 1)
    )


def partition(mod: IRModule, *passes: transform.Pass) -> IRModule:
    """`mod` through `passes` (PartitionGraph by default), numerics checked."""
    return run_and_check(mod, list(passes) or [PartitionGraph()], opt_level=0)


def leaves(value: object) -> list[np.ndarray[Any, Any]]:
    """The arrays of a (nested) tuple value, in order."""
    if isinstance(value, tuple | list):
        return [leaf for item in cast(tuple[object, ...], value) for leaf in leaves(item)]
    return [np.asarray(value)]


def assert_same_on_positive_inputs(before: IRModule, after: IRModule) -> None:
    """Same outputs on positive inputs (batch_norm's variance must be positive: random
    inputs give NaNs there, which compare equal and prove little)."""
    main = functions(before)["main"]
    rng = np.random.default_rng(0)
    inputs = [
        np.abs(rng.standard_normal(cast(TensorType[Attribute], t).get_shape())).astype("float32")
        + 0.5
        for t in main.function_type.inputs.data
    ]
    want, got = leaves(xrelay.evaluate(before, *inputs)), leaves(xrelay.evaluate(after, *inputs))
    assert len(want) == len(got) > 0
    for w, g in zip(want, got, strict=True):
        assert not np.isnan(w).any()
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


BATCH_NORM_NAN = pytest.mark.filterwarnings("ignore:invalid value encountered in sqrt")


def functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {op.sym_name.data: op for op in mod.module.ops if isinstance(op, func.FuncOp)}


def var(name: str, shape: tuple[int, ...] = (8, 8), dtype: str = "float32") -> relay.Var:
    return relay.var(name, shape=shape, dtype=dtype)


# --------------------------------------------------------------------------- #
# The pass and its names
# --------------------------------------------------------------------------- #


def test_registered_with_tvm_name_options_and_level() -> None:
    entry = lookup_pass("PartitionGraph")
    assert entry is not None
    assert entry.flag == "partition-graph"
    assert entry.factory() is PartitionGraphPass
    info = PartitionGraph().info
    assert (info.name, info.opt_level, info.required) == ("PartitionGraph", 0, ())
    assert PartitionGraphPass() == PartitionGraphPass(mod_name="default", bind_constants=True)
    built = PartitionGraph(mod_name="m", bind_constants=False)
    assert isinstance(built, transform.XdslPass)
    assert built.xdsl_pass == PartitionGraphPass(mod_name="m", bind_constants=False)
    assert transform.get_pass("partition-graph").info.name == "PartitionGraph"


def test_mangle_module_name_and_sanitize_name() -> None:
    assert mangle_module_name("default") == "tvmgen_default"
    assert mangle_module_name("") == "tvmgen"
    assert mangle_module_name(None) == "tvmgen"
    assert mangle_module_name("my-net") == "tvmgen_my-net"
    with pytest.raises(ValueError, match="contains invalid characters"):
        mangle_module_name("réseau")
    with pytest.raises(ValueError, match="contains invalid characters"):
        PartitionGraph(mod_name="réseau")
    with pytest.raises(ValueError, match="contains invalid characters"):
        PartitionGraphPass(mod_name="réseau")
    assert sanitize_name("tvmgen_default_unsanitary-name++_main_0") == (
        "tvmgen_default_unsanitary_name___main_0"
    )
    assert sanitize_name("a.b c") == "a_b_c"
    assert sanitize_name("é") == "__"  # one underscore per UTF-8 byte, as TVM's std::isalnum


def single_op() -> IRModule:
    """TVM's test_extern_ccompiler_single_op, annotated as its MyAnnotator does."""
    x, y = var("x"), var("y")
    body = ce(relay.add(cb(x, "ccompiler"), cb(y, "ccompiler")), "ccompiler")
    return IRModule.from_expr(relay.Function([x, y], body))


def test_single_op_lifted_with_tvm_attributes() -> None:
    out = partition(single_op())
    a, b = var("ccompiler_0_i0"), var("ccompiler_0_i1")
    name = "tvmgen_default_ccompiler_main_0"
    expected = IRModule()
    expected[name] = set_func_attr(relay.Function([a, b], relay.add(a, b)), "ccompiler", name)
    x, y = var("x"), var("y")
    expected["main"] = relay.Function([x, y], expected.get_global_var(name)(x, y))
    assert_graph_equal(out, expected)
    lifted = functions(out)[name]
    assert lifted.sym_visibility is None  # public: global_symbol names an external symbol
    assert list(functions(out)) == [name, "main"]  # inserted before its caller


@pytest.mark.parametrize(
    ("mod_name", "prefix"),
    [("default", "tvmgen_default"), ("", "tvmgen"), (None, "tvmgen"), ("my-net", "tvmgen_my_net")],
)
def test_mod_name_mangling(mod_name: str | None, prefix: str) -> None:
    out = partition(single_op(), PartitionGraph(mod_name=mod_name))
    name = f"{prefix}_ccompiler_main_0"
    assert list(functions(out)) == [name, "main"]
    assert functions(out)[name].attributes["global_symbol"] == StringAttr(name)


def test_sanitized_target_name() -> None:
    """TVM's test_extern_compiler_sanitized_ops: the name is sanitized, Compiler is not."""
    x, y = var("x"), var("y")
    target = "unsanitary-name++"
    add = ce(relay.add(cb(x, target), cb(y, target)), target)
    out = partition(IRModule.from_expr(relay.Function([x, y], relay.log(add))))
    name = "tvmgen_default_unsanitary_name___main_0"
    lifted = functions(out)[name]
    assert lifted.attributes["Compiler"] == StringAttr(target)
    assert lifted.attributes["global_symbol"] == StringAttr(name)
    # Parameter names are SSA names: the characters xDSL does not accept become `_`.
    assert [a.name_hint for a in lifted.body.block.args] == [
        "unsanitary-name___0_i0",
        "unsanitary-name___0_i1",
    ]


def test_taken_name_gets_a_suffix() -> None:
    mod = single_op()
    taken = var("t")
    mod["tvmgen_default_ccompiler_main_0"] = relay.Function([taken], relay.exp(taken))
    out = partition(mod)
    assert list(functions(out)) == [
        "tvmgen_default_ccompiler_main_0_1",
        "main",
        "tvmgen_default_ccompiler_main_0",
    ]


# --------------------------------------------------------------------------- #
# Region ids
# --------------------------------------------------------------------------- #


@BATCH_NORM_NAN
def test_function_lifting_region_ids_skip_merged_begins() -> None:
    """TVM's test_function_lifting: conv2d (begins 0, 1) is main_0, batch_norm main_2."""
    t = "test_compiler"
    data = var("data", (1, 3, 8, 8))
    weight = var("weight", (4, 3, 3, 3))
    bn = [var(n, (4,)) for n in ("bn_gamma", "bn_beta", "bn_mean", "bn_var")]
    conv = ce(relay.nn.conv2d(cb(data, t), cb(weight, t), padding=(1, 1)), t)
    norm = relay.nn.batch_norm(cb(conv, t), *(cb(p, t) for p in bn))
    body = ce(norm, t)
    mod = IRModule.from_expr(relay.Function([data, weight, *bn], body))
    out = partition(mod)
    assert_same_on_positive_inputs(mod, out)

    expected = IRModule()
    d1, w1 = var("test_compiler_0_i0", (1, 3, 8, 8)), var("test_compiler_0_i1", (4, 3, 3, 3))
    conv_fn = relay.Function([d1, w1], relay.nn.conv2d(d1, w1, padding=(1, 1)))
    expected["tvmgen_default_test_compiler_main_0"] = set_func_attr(
        conv_fn, t, "tvmgen_default_test_compiler_main_0"
    )
    d0 = var("test_compiler_2_i0", (1, 4, 8, 8))
    params = [var(f"test_compiler_2_i{k}", (4,)) for k in range(1, 5)]
    bn_fn = relay.Function([d0, *params], relay.nn.batch_norm(d0, *params))
    expected["tvmgen_default_test_compiler_main_2"] = set_func_attr(
        bn_fn, t, "tvmgen_default_test_compiler_main_2"
    )
    data0, weight0 = var("data", (1, 3, 8, 8)), var("weight", (4, 3, 3, 3))
    bn0 = [var(n, (4,)) for n in ("bn_gamma", "bn_beta", "bn_mean", "bn_var")]
    call1 = expected.get_global_var("tvmgen_default_test_compiler_main_0")(data0, weight0)
    call0 = expected.get_global_var("tvmgen_default_test_compiler_main_2")(call1, *bn0)
    expected["main"] = relay.Function([data0, weight0, *bn0], call0)
    assert_graph_equal(out, expected)


def test_ids_restart_per_function_and_several_targets() -> None:
    """Two functions, two targets each: ids count from 0 in each function."""
    mod = IRModule()
    for name in ("f", "main"):
        x = var("x")
        first = ce(relay.abs(cb(x, "accel")), "accel")
        second = ce(relay.exp(cb(first, "dnnl")), "dnnl")
        mod[name] = relay.Function([x], second)
    out = partition(mod)
    assert list(functions(out)) == [
        "tvmgen_default_accel_f_0",
        "tvmgen_default_dnnl_f_1",
        "f",
        "tvmgen_default_accel_main_0",
        "tvmgen_default_dnnl_main_1",
        "main",
    ]
    compilers = {n: f.attributes.get("Compiler") for n, f in functions(out).items()}
    assert compilers["tvmgen_default_dnnl_main_1"] == StringAttr("dnnl")
    assert compilers["main"] is None


def test_partitioned_functions_are_left_alone() -> None:
    mod = single_op()
    x = var("x")
    kept = relay.Function([x], ce(relay.abs(cb(x, "accel")), "accel")).with_attr("Compiler", "x")
    mod["done"] = kept
    out = partition(mod)
    assert "relay.compiler_begin" in str(functions(out)["done"])
    assert not any(name.startswith("tvmgen_default_accel") for name in functions(out))


# --------------------------------------------------------------------------- #
# Outputs
# --------------------------------------------------------------------------- #


@BATCH_NORM_NAN
def test_multiple_outputs() -> None:
    """TVM's test_multiple_outputs: conv2d + batch_norm + relu with three outputs."""
    t = "test_target"
    names = ("data", "weight", "bn_gamma", "bn_beta", "bn_mean", "bn_var")
    shapes = ((1, 3, 8, 8), (4, 3, 3, 3), (4,), (4,), (4,), (4,))

    def graph_vars() -> list[relay.Var]:
        return [var(n, s) for n, s in zip(names, shapes, strict=True)]

    data, weight, gamma, beta, mean, var_ = graph_vars()
    conv = relay.nn.conv2d(cb(data, t), cb(weight, t), padding=(1, 1))
    norm = relay.nn.batch_norm(conv, cb(gamma, t), cb(beta, t), cb(mean, t), cb(var_, t))
    relu_end = ce(relay.nn.relu(norm[0]), t)
    mean_end, var_end = ce(norm[1], t), ce(norm[2], t)
    body = relay.Tuple([relu_end, relay.abs(mean_end), relay.abs(var_end)])
    mod = IRModule.from_expr(relay.Function([data, weight, gamma, beta, mean, var_], body))
    out = partition(mod)
    assert_same_on_positive_inputs(mod, out)

    expected = IRModule()
    p = [var(f"test_target_0_i{k}", s) for k, s in enumerate(shapes)]
    conv0 = relay.nn.conv2d(p[0], p[1], padding=(1, 1))
    bn0 = relay.nn.batch_norm(conv0, *p[2:])
    fn0 = relay.Function(p, relay.Tuple([relay.nn.relu(bn0[0]), bn0[1], bn0[2]]))
    name = "tvmgen_default_test_target_main_0"
    expected[name] = set_func_attr(fn0, t, name)
    vs = graph_vars()
    call = expected.get_global_var(name)(*vs)
    main_body = relay.Tuple([call[0], relay.abs(call[1]), relay.abs(call[2])])
    expected["main"] = relay.Function(vs, main_body)
    assert_graph_equal(out, expected)


def test_mixed_single_multiple_outputs() -> None:
    """TVM's test_mixed_single_multiple_outputs: outputs in the order their ends are reached."""
    t = "test_target"
    data = var("data", (10, 10))
    o1 = relay.abs(cb(data, t))
    ce_2 = ce(o1, t)
    ce_3 = ce(relay.nn.relu(o1), t)
    x = relay.tanh(ce_2)
    body = ce(relay.add(cb(ce_3, t), cb(x, t)), t)
    out = partition(IRModule.from_expr(relay.Function([data], body)))

    expected = IRModule()
    i0 = var("test_target_0_i0", (10, 10))
    f1_o1 = relay.abs(i0)
    fn1 = relay.Function([i0], relay.Tuple([relay.nn.relu(f1_o1), f1_o1]))
    expected["tvmgen_default_test_target_main_0"] = set_func_attr(
        fn1, t, "tvmgen_default_test_target_main_0"
    )
    a, b = var("test_target_1_i0", (10, 10)), var("test_target_1_i1", (10, 10))
    expected["tvmgen_default_test_target_main_1"] = set_func_attr(
        relay.Function([a, b], relay.add(a, b)), t, "tvmgen_default_test_target_main_1"
    )
    data0 = var("data", (10, 10))
    tuple_out = expected.get_global_var("tvmgen_default_test_target_main_0")(data0)
    x0 = relay.tanh(tuple_out[1])
    last = expected.get_global_var("tvmgen_default_test_target_main_1")(tuple_out[0], x0)
    expected["main"] = relay.Function([data0], last)
    assert_graph_equal(out, expected)


def test_duplicate_outputs() -> None:
    """TVM's test_duplicate_outputs (abs supported; one end per consumer edge)."""
    t = "test_duplicate_outputs"
    data = var("data", (10, 10))
    x = relay.abs(cb(data, t))
    outs = [op(cb(ce(x, t), "default")) for op in (relay.nn.relu, relay.tanh, relay.log)]
    body = relay.Tuple([ce(o, "default") for o in outs])
    out = partition(
        IRModule.from_expr(relay.Function([data], body)), MergeCompilerRegions(), PartitionGraph()
    )

    expected = IRModule()
    i0 = var(f"{t}_0_i0", (10, 10))
    name = f"tvmgen_default_{t}_main_0"
    expected[name] = set_func_attr(relay.Function([i0], relay.abs(i0)), t, name)
    data0 = var("data", (10, 10))
    call = expected.get_global_var(name)(data0)
    main = relay.Tuple([relay.nn.relu(call), relay.tanh(call), relay.log(call)])
    expected["main"] = relay.Function([data0], main)
    assert_graph_equal(out, expected)


@BATCH_NORM_NAN
def test_duplicate_merge_and_tuplegetitem() -> None:
    """TVM's test_duplicate_merge_and_tuplegetitem: batch_norm and relu supported."""
    t = "test_duplicate_merge_and_tuplegetitem"
    data = var("data", (10, 10))
    params = [var(n, (10,)) for n in ("bn_gamma", "bn_beta", "bn_mean", "bn_var")]
    norm = relay.nn.batch_norm(cb(data, t), *(cb(p, t) for p in params))
    get0 = norm[0]
    relu = relay.nn.relu(cb(ce(get0, t), t))
    get1 = norm[1]
    out_2 = relay.tanh(cb(ce(get1, t), "default"))
    out_3 = relay.log(cb(ce(get1, t), "default"))
    body = relay.Tuple([ce(relu, t), ce(out_2, "default"), ce(out_3, "default")])
    mod = IRModule.from_expr(relay.Function([data, *params], body))
    out = partition(mod, MergeCompilerRegions(), PartitionGraph())
    assert_same_on_positive_inputs(mod, out)

    expected = IRModule()
    i0 = var(f"{t}_0_i0", (10, 10))
    ps = [var(f"{t}_0_i{k}", (10,)) for k in range(1, 5)]
    bn0 = relay.nn.batch_norm(i0, *ps)
    fn0 = relay.Function([i0, *ps], relay.Tuple([relay.nn.relu(bn0[0]), bn0[1]]))
    name = f"tvmgen_default_{t}_main_0"
    expected[name] = set_func_attr(fn0, t, name)
    data0 = var("data", (10, 10))
    params0 = [var(n, (10,)) for n in ("bn_gamma", "bn_beta", "bn_mean", "bn_var")]
    call = expected.get_global_var(name)(data0, *params0)
    get_out1 = call[1]
    main = relay.Tuple([call[0], relay.tanh(get_out1), relay.log(get_out1)])
    expected["main"] = relay.Function([data0, *params0], main)
    assert_graph_equal(out, expected)


def test_flatten_tuple_output() -> None:
    """TVM's test_flatten_tuple_output: the end of the tuple fed to concatenate becomes one
    end per field, so the function returns (split.0, split.1, abs), not a nested tuple."""
    t = "test_flatten_tuple_output"
    a = var("a", (10, 10), "uint8")
    a_split = relay.split(cb(a, t), 2)
    tuple_end = ce(relay.Tuple([a_split[0], a_split[1]]), t)
    a_con = relay.concatenate([cb(tuple_end[0], "default"), cb(tuple_end[1], "default")], 0)
    a_relu = relay.nn.relu(cb(ce(relay.abs(a_split[0]), t), "default"))
    body = relay.Tuple([ce(a_con, "default"), ce(a_relu, "default")])
    mod = IRModule.from_expr(relay.Function([a], body))
    out = partition(mod, MergeCompilerRegions(), PartitionGraph())

    expected = IRModule()
    f0_i0 = var(f"{t}_0_i0", (10, 10), "uint8")
    split = relay.split(f0_i0, 2)
    fn0 = relay.Function([f0_i0], relay.Tuple([split[0], split[1], relay.abs(split[0])]))
    name = f"tvmgen_default_{t}_main_0"
    expected[name] = set_func_attr(fn0, t, name)
    data = var("a", (10, 10), "uint8")
    f_out = expected.get_global_var(name)(data)
    pair = relay.Tuple([f_out[0], f_out[1]])
    concat = relay.concatenate([pair[0], pair[1]], 0)
    expected["main"] = relay.Function([data], relay.Tuple([concat, relay.nn.relu(f_out[2])]))
    assert_graph_equal(out, expected)


def test_nested_tuples_flattened_recursively() -> None:
    """TVM flattens one level; here a tuple of tuples leaves as a flat tuple of leaves."""
    t = "accel"
    x = var("x", (4,))
    b = cb(x, t)
    first, second = relay.abs(b), relay.exp(b)
    nested = relay.Tuple([relay.Tuple([first, second]), relay.Tuple([second, relay.tanh(b)])])
    out = partition(IRModule.from_expr(relay.Function([x], ce(nested, t))))
    lifted = functions(out)["tvmgen_default_accel_main_0"]
    assert str(lifted.function_type.outputs.data[0]) == (
        "tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xf32>>"
    )
    main_ops = [op.name for op in functions(out)["main"].body.block.ops]
    assert main_ops.count("relay.tuple_get_item") == 3
    assert main_ops.count("relay.tuple") == 3


def test_parameters_deduplicated_by_producer() -> None:
    """Begins reading one value (directly or through another end) share one parameter."""
    x, y = var("x"), var("y")
    a = relay.abs(cb(x, "dnnl"))
    ends = [ce(a, "dnnl") for _ in range(3)]
    body = relay.add(
        relay.multiply(cb(ends[0], "accel"), cb(ends[1], "accel")), cb(ends[2], "accel")
    )
    body = relay.add(body, relay.add(cb(y, "accel"), cb(y, "accel")))
    out = partition(IRModule.from_expr(relay.Function([x, y], ce(body, "accel"))))
    lifted = functions(out)["tvmgen_default_accel_main_1"]
    assert [arg.name_hint for arg in lifted.body.block.args] == ["accel_1_i0", "accel_1_i3"]
    main_ops = list(functions(out)["main"].body.block.ops)
    call = main_ops[1]
    assert isinstance(call, func.CallOp)
    assert len(call.arguments) == 2


# --------------------------------------------------------------------------- #
# Constants
# --------------------------------------------------------------------------- #


def constant_graph() -> IRModule:
    """TVM's test_constant_propagation (x bound to ones), plus a tuple of constants."""
    y = var("y")
    ones = relay.const(np.ones((8, 8), "float32"))
    pair = relay.Tuple([relay.const(np.full((8, 8), 2.0, "float32")), ones])
    add = relay.add(cb(ones, "ccompiler"), cb(y, "ccompiler"))
    body = relay.multiply(add, cb(pair, "ccompiler")[0])
    return IRModule.from_expr(relay.Function([y], relay.log(ce(body, "ccompiler"))))


def test_constants_bound_by_default() -> None:
    out = partition(constant_graph())
    lifted = functions(out)["tvmgen_default_ccompiler_main_0"]
    assert [arg.name_hint for arg in lifted.body.block.args] == ["ccompiler_0_i1"]
    constants = [op for op in lifted.body.block.ops if isinstance(op, ConstantOp)]
    assert len(constants) == 3  # ones, and the tuple's two fields
    main_ops = [op.name for op in functions(out)["main"].body.block.ops]
    assert main_ops == ["func.call", "relay.log", "func.return"]


def test_constants_not_bound() -> None:
    """TVM's test_not_bind_constant: with bind_constants=False constants stay parameters."""
    out = partition(constant_graph(), PartitionGraph(bind_constants=False))
    lifted = functions(out)["tvmgen_default_ccompiler_main_0"]
    assert [arg.name_hint for arg in lifted.body.block.args] == [
        "ccompiler_0_i0",
        "ccompiler_0_i1",
        "ccompiler_0_i2",
    ]
    assert not any(isinstance(op, ConstantOp) for op in lifted.body.block.ops)
    call = next(op for op in functions(out)["main"].body.block.ops if isinstance(op, func.CallOp))
    assert len(call.arguments) == 3


# --------------------------------------------------------------------------- #
# The partition hook (TVM's relay.ext.<target>.optimize)
# --------------------------------------------------------------------------- #


@pytest.fixture
def hook_calls() -> Iterator[list[func.FuncOp]]:
    """A partition hook for "test_target" that records and constant-folds each function."""
    calls: list[func.FuncOp] = []

    def optimize(function: func.FuncOp) -> None:
        assert "Compiler" not in function.attributes  # TVM runs it before the attributes
        calls.append(function)
        FoldConstantPass().apply_to_function(Context(), function)

    register_partition_hook("test_target", optimize)
    try:
        yield calls
    finally:
        unregister_partition_hook("test_target")


def test_partition_hook_runs_on_each_lifted_function(hook_calls: list[func.FuncOp]) -> None:
    """TVM's test_extern_opt: the hook folds the bound constants' sum into a constant."""
    x = var("x", (2, 2))
    c = relay.const(np.ones((2, 2), "float32"))
    end = ce(
        relay.add(cb(c, "test_target"), cb(relay.const(np.ones((2, 2), "float32")), "test_target")),
        "test_target",
    )
    other = ce(relay.abs(cb(x, "accel")), "accel")
    mod = IRModule.from_expr(relay.Function([x], relay.multiply(end, other)))
    out = partition(mod)
    assert len(hook_calls) == 1  # only test_target's function
    lifted = functions(out)["tvmgen_default_test_target_main_0"]
    assert hook_calls[0] is lifted
    ops = list(lifted.body.block.ops)
    assert isinstance(ops[0], ConstantOp)
    assert len(ops) == 2
    np.testing.assert_allclose(
        xrelay.evaluate(out, np.ones((2, 2), "float32")), np.full((2, 2), 2.0)
    )


# --------------------------------------------------------------------------- #
# Errors
# --------------------------------------------------------------------------- #


def test_value_leaving_a_region_without_end_is_an_error() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  func.return %a : tensor<4xf32>
}
"""
    mod = xrelay.parse(text, "bad.mlir")
    with pytest.raises(DiagnosticError) as info:
        PartitionGraphPass().apply(Context(), mod.clone().module)
    assert str(info.value) == (
        "bad.mlir:5:3: error: 'func.return' op reads a value of annotated region 0 ('accel') "
        "that has no compiler_end"
    )
    before = str(mod)
    with pytest.raises(PassError) as failure:
        PartitionGraph()(mod)
    assert isinstance(failure.value.cause, DiagnosticError)
    assert str(mod) == before  # rolled back


def test_non_convex_region_is_an_error() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %ea = relay.compiler_end %a {compiler = "accel"} : tensor<4xf32>
  %u = relay.tanh %ea : tensor<4xf32>
  %bu = relay.compiler_begin %u {compiler = "accel"} : tensor<4xf32>
  %s = relay.add %a, %bu : tensor<4xf32>
  %e = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  func.return %e : tensor<4xf32>
}
"""
    with pytest.raises(DiagnosticError, match="partitioning makes a cycle here"):
        PartitionGraphPass().apply(Context(), xrelay.parse(text).module)


# --------------------------------------------------------------------------- #
# Other shapes of regions
# --------------------------------------------------------------------------- #


def test_region_in_if_branch_and_composite() -> None:
    text = """
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %b0 = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %b1 = relay.compiler_begin %y {compiler = "accel"} : tensor<4xf32>
  %s = relay.composite "accel.add_relu" (%b0, %b1) {PartitionedFromPattern = "add_nn.relu_"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%p0: tensor<4xf32>, %p1: tensor<4xf32>):
    %0 = relay.add %p0, %p1 : tensor<4xf32>
    %1 = relay.nn.relu %0 : tensor<4xf32>
    relay.yield %1 : tensor<4xf32>
  }
  %es = relay.compiler_end %s {compiler = "accel"} : tensor<4xf32>
  %r = relay.if %c : tensor<i1> -> tensor<4xf32> {
    %b2 = relay.compiler_begin %es {compiler = "dnnl"} : tensor<4xf32>
    %t = relay.exp %b2 : tensor<4xf32>
    %e = relay.compiler_end %t {compiler = "dnnl"} : tensor<4xf32>
    relay.yield %e : tensor<4xf32>
  } else {
    relay.yield %es : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
"""
    out = partition(xrelay.parse(text))
    assert list(functions(out)) == [
        "tvmgen_default_accel_main_0",
        "tvmgen_default_dnnl_main_2",
        "main",
    ]
    accel = [op.name for op in functions(out)["tvmgen_default_accel_main_0"].body.block.ops]
    assert accel == ["relay.composite", "func.return"]


def test_dead_region_is_removed() -> None:
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %b = relay.compiler_begin %x {compiler = "accel"} : tensor<4xf32>
  %a = relay.abs %b : tensor<4xf32>
  %n = relay.exp %x : tensor<4xf32>
  func.return %n : tensor<4xf32>
}
"""
    out = partition(xrelay.parse(text))
    assert list(functions(out)) == ["main"]
    assert [op.name for op in functions(out)["main"].body.block.ops] == ["relay.exp", "func.return"]
