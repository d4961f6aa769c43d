"""`partition_for` and the `partition-for` pipeline: seed 004's flow end to end."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from testlib.numerics import assert_same_numerics
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xrelay.passes.byoc_registry import ByocError

import xrelay
from xrelay import IRModule, byoc, relay, transform


def conv_add_relu(x: relay.Expr, cin: int, cout: int, seed: int) -> relay.Expr:
    """Seed 004's block: conv2d, add of a per-channel bias, relu."""
    rng = np.random.default_rng(seed)
    w = relay.const(rng.standard_normal((cout, cin, 3, 3)).astype("float32") * 0.2)
    b = relay.const(rng.standard_normal((cout, 1, 1)).astype("float32"))
    y = relay.nn.conv2d(x, w, padding=(1, 1), channels=cout, kernel_size=(3, 3))
    return relay.nn.relu(relay.add(y, b))


def seed_graph() -> IRModule:
    """Figure 1: two conv blocks, a max pool the dnnl table does not take, a third block."""
    x = relay.var("x", shape=(1, 3, 8, 8))
    y = conv_add_relu(conv_add_relu(x, 3, 4, 0), 4, 4, 1)
    y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    y = conv_add_relu(y, 4, 4, 2)
    return IRModule.from_expr(relay.Function([x], y))


def bias_add_graph() -> IRModule:
    """conv2d, nn.bias_add, relu: both tables have a composite for it."""
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.const(np.full((4, 3, 3, 3), 0.1, "float32"))
    b = relay.const(np.arange(4, dtype="float32"))
    y = relay.nn.conv2d(x, w, padding=(1, 1), channels=4, kernel_size=(3, 3))
    return IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.nn.bias_add(y, b))))


def functions(mod: IRModule) -> dict[str, func.FuncOp]:
    return {f.sym_name.data: f for f in mod.module.ops if isinstance(f, func.FuncOp)}


def op_names(function: func.FuncOp) -> list[str]:
    return [op.name for op in function.body.block.ops]


def composites(function: func.FuncOp) -> list[str]:
    out: list[str] = []
    for op in function.body.block.ops:
        name = op.properties.get("composite")
        if isinstance(name, StringAttr):
            out.append(name.data)
    return out


def test_seed_004_flow_step_by_step() -> None:
    """MergeComposite -> AnnotateTarget -> MergeCompilerRegions -> PartitionGraph (figures 1-4)."""
    mod = seed_graph()
    original = mod.clone()
    mod = transform.MergeComposite(byoc.get_pattern_table("dnnl"))(mod)
    assert composites(functions(mod)["main"]).count("dnnl.conv2d_bias_relu") == 3
    mod = transform.AnnotateTarget(["dnnl"])(mod)
    mod = transform.MergeCompilerRegions()(mod)
    mod = transform.PartitionGraph()(mod)
    funcs = functions(mod)
    lifted = sorted(n for n in funcs if n != "main")
    # The first two blocks merge into one region; the pool stays on the host and
    # cuts the third block into a region of its own.
    assert len(lifted) == 2, lifted
    assert all(n.startswith("tvmgen_default_dnnl_main_") for n in lifted)
    assert [composites(funcs[n]) for n in lifted] in (
        [["dnnl.conv2d_bias_relu"] * 2, ["dnnl.conv2d_bias_relu"]],
        [["dnnl.conv2d_bias_relu"], ["dnnl.conv2d_bias_relu"] * 2],
    )
    main_ops = op_names(funcs["main"])
    assert main_ops.count("func.call") == 2
    assert "relay.nn.max_pool2d" in main_ops
    assert "relay.compiler_begin" not in main_ops
    for name in lifted:
        attrs = funcs[name].attributes
        assert attrs["Compiler"] == StringAttr("dnnl")
        assert attrs["global_symbol"] == StringAttr(name)
    assert_same_numerics(original, mod)


def test_partition_for_is_the_canonical_sequence() -> None:
    manual = seed_graph()
    for pass_ in (
        transform.InferType(),
        transform.MergeComposite(byoc.get_pattern_table("dnnl")),
        transform.AnnotateTarget(["dnnl"]),
        transform.MergeCompilerRegions(),
        transform.PartitionGraph(),
    ):
        manual = pass_(manual)
    assert str(byoc.partition_for(seed_graph(), "dnnl")) == str(manual)


def test_partition_for_accel_makes_one_function_per_region() -> None:
    mod = seed_graph()
    out = byoc.partition_for(mod.clone(), "accel")
    funcs = functions(out)
    lifted = sorted(n for n in funcs if n != "main")
    # accel takes the pool too (NCHW, float32), and each block's `add` of a (C,1,1)
    # constant as its conv's bias: the whole graph is one accel function.
    assert lifted == ["tvmgen_default_accel_main_0"]
    assert composites(funcs[lifted[0]]) == ["accel.conv2d_bias_relu"] * 3
    assert op_names(funcs["main"]) == ["func.call", "func.return"]
    assert_same_numerics(mod, out)


def test_first_target_wins() -> None:
    """Single ops go to the first target whose predicate accepts them; composites to the
    target whose table comes first (partition_for applies the tables in target order)."""
    x = relay.var("x", shape=(1, 16))
    w = relay.const(np.ones((8, 16), "float32"))
    dense = IRModule.from_expr(relay.Function([x], relay.nn.dense(x, w)))
    for targets in (["accel", "dnnl"], ["dnnl", "accel"]):
        out = byoc.partition_for(dense.clone(), targets)
        lifted = [n for n in functions(out) if n != "main"]
        assert lifted == [f"tvmgen_default_{targets[0]}_main_0"], (targets, lifted)
        out = byoc.partition_for(bias_add_graph(), targets)
        lifted_composites = {
            c.split(".")[0] for n, f in functions(out).items() if n != "main" for c in composites(f)
        }
        assert lifted_composites == {targets[0]}, (targets, lifted_composites)


def test_params_are_bound_then_embedded() -> None:
    x = relay.var("x", shape=(1, 4))
    w = relay.var("w", shape=(3, 4))
    mod = IRModule.from_expr(relay.Function([x, w], relay.nn.relu(relay.nn.dense(x, w))))
    weight = np.arange(12, dtype="float32").reshape(3, 4)
    out = byoc.partition_for(mod, "accel", params={"w": weight})
    funcs = functions(out)
    assert len(funcs["main"].body.block.args) == 1  # w is no parameter any more
    lifted = funcs["tvmgen_default_accel_main_0"]
    assert len(lifted.body.block.args) == 1  # the constant is bound inside
    assert "relay.constant" in op_names(lifted)
    data = np.ones((1, 4), "float32")
    expected = np.maximum(data @ weight.T, 0)
    np.testing.assert_allclose(xrelay.evaluate(out, data), expected)  # pyright: ignore[reportUnknownMemberType]


def test_bind_params_errors_name_the_parameter() -> None:
    x = relay.var("x", shape=(1, 4))
    mod = IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
    with pytest.raises(ValueError, match=r"params \['y'\] are not parameters of 'main'"):
        byoc.bind_params_by_name(mod, {"y": np.zeros(4, "float32")})
    with pytest.raises(ValueError, match=r"param 'x': expected float32\[1, 4\], got float32\[4\]"):
        byoc.bind_params_by_name(mod, {"x": np.zeros(4, "float32")})


def test_unknown_target_is_a_clear_error() -> None:
    with pytest.raises(ByocError, match=r"unknown target 'acel'.*known targets: .*accel.*"):
        byoc.partition_for(seed_graph(), "acel")


def test_disabled_merge_keeps_regions_apart() -> None:
    with transform.PassContext(disabled_pass=["MergeCompilerRegions"]):
        out = byoc.partition_for(seed_graph(), "dnnl")
    lifted = [n for n in functions(out) if n != "main"]
    assert len(lifted) == 3, lifted  # one per composite: nothing merged


def test_named_pipeline_from_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "model.mlir"
    source.write_text(str(seed_graph()))
    result = subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", str(source), "-p", "partition-for{target=dnnl}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "func.func @tvmgen_default_dnnl_main_0" in result.stdout
    assert 'Compiler = "dnnl"' in result.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "xrelay.tools.opt", str(source), "-p", "partition-for{target=npu}"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 1
    assert "unknown target 'npu'" in bad.stderr
    assert "Traceback" not in bad.stderr
