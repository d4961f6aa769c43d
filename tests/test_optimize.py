"""`xrelay.optimize` and the `optimize` pipeline: relay.build's passes at each opt level."""

from __future__ import annotations

import numpy as np
import pytest
from testlib.graphs import random_graph
from testlib.numerics import assert_same_numerics
from testlib.pass_helpers import Recorder
from xrelay.passes.optimize import BUILD_PASSES, OptimizePass

import xrelay
from xrelay import IRModule, relay, transform


def conv_bn_relu() -> IRModule:
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.const(rng.standard_normal((4, 3, 3, 3)).astype("float32"))
    params = [rng.random(4).astype("float32") + 0.5 for _ in range(4)]
    y = relay.nn.conv2d(x, w, padding=(1, 1), channels=4, kernel_size=(3, 3))
    y = relay.nn.batch_norm(y, *(relay.const(p) for p in params))[0]
    return IRModule.from_expr(relay.Function([x], relay.nn.relu(y)))


def op_names(mod: IRModule) -> list[str]:
    return [op.name for op in mod.module.walk() if op.name.startswith("relay.")]


@pytest.mark.parametrize("opt_level", [0, 1, 2, 3])
def test_optimize_keeps_numerics_at_every_level(opt_level: int) -> None:
    mod = conv_bn_relu()
    out = xrelay.optimize(mod.clone(), opt_level=opt_level)
    out.module.verify()
    assert_same_numerics(mod, out, rtol=1e-4, atol=1e-5)
    assert "relay.nn.batch_norm" not in op_names(out)  # SimplifyInference is level 0


def test_optimize_at_level_3_folds_batch_norm_into_the_conv() -> None:
    out = xrelay.optimize(conv_bn_relu(), opt_level=3, fuse=False)
    names = op_names(out)
    assert names.count("relay.nn.conv2d") == 1
    assert "relay.multiply" not in names  # the scale went into the weights
    assert names.count("relay.add") == 1  # one shift
    assert "relay.sqrt" not in names  # folded


def test_optimize_fuses_into_primitive_functions() -> None:
    out = xrelay.optimize(conv_bn_relu(), opt_level=3)
    fused = [name for name, f in out.functions.items() if f.attrs.get("Primitive") == 1]
    assert fused == ["fused_nn_conv2d_add_nn_relu"]


def test_optimize_without_a_level_uses_the_context() -> None:
    with transform.PassContext(opt_level=1):
        low = xrelay.optimize(conv_bn_relu(), fuse=False)
    with transform.PassContext(opt_level=3):
        high = xrelay.optimize(conv_bn_relu(), fuse=False)
    assert "relay.rsqrt" in op_names(low)  # FoldConstant (level 2) did not run
    assert "relay.rsqrt" not in op_names(high)


def test_explicit_level_keeps_the_context_instruments_and_disabled_passes() -> None:
    recorder = Recorder()
    with transform.PassContext(
        opt_level=0, instruments=[recorder], disabled_pass=["FuseOps"]
    ) as ctx:
        xrelay.optimize(conv_bn_relu(), opt_level=3)
        assert transform.PassContext.current() is ctx  # the scoped level is gone again
    assert recorder.ran[0] == "Optimize"
    assert "FoldConstant" in recorder.ran  # level 2 ran: the pipeline's own level, 3
    assert "BackwardFoldScaleAxis" in recorder.ran  # nested passes are instrumented
    assert "FuseOps" not in recorder.ran  # disabled in the context


def test_pipeline_is_relay_builds_list() -> None:
    pipeline = OptimizePass(opt_level=3).build()
    assert [p.info.name for p in pipeline.passes] == [*BUILD_PASSES, "FuseOps"]
    assert pipeline.info.name == "Optimize"
    assert transform.get_pass("optimize").info.opt_level == 0  # the option is not its level


@pytest.mark.parametrize("seed", range(0, 40, 4))
def test_optimize_on_random_graphs(seed: int) -> None:
    mod = random_graph(seed)
    for level in (0, 3):
        out = xrelay.optimize(mod.clone(), opt_level=level)
        out.module.verify()
        assert_same_numerics(mod, out, rtol=1e-4, atol=1e-5)
