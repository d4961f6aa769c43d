"""`backward-fold-scale-axis{fold-constants=true}`: the new weights as folded constants.

`optimize` runs FoldScaleAxis with its backward fold emitting the constants the
pipeline's FoldConstant would fold `w * expand_dims(squeeze(s))` and the scaled
biases to; the module it returns must be exactly the one the plain rewrite led
to, and compute the same values as the module before any pass.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from testlib.chain import chain
from testlib.numerics import run_and_check
from xdsl.dialects import func
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.passes import optimize as optimize_module
from xrelay.passes.adapters import XdslPass
from xrelay.passes.backward_fold_scale_axis import BackwardFoldScaleAxisPass
from xrelay.passes.fold_constant import FoldConstant
from xrelay.passes.fold_scale_axis import FoldScaleAxisPass

from xrelay import IRModule, parse, relay, transform

ROOT = Path(__file__).resolve().parent.parent


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def backward(fold: bool) -> transform.Pass:
    return XdslPass(BackwardFoldScaleAxisPass(fold_constants=fold))


def optimized(mod: IRModule, fold: bool, monkeypatch: pytest.MonkeyPatch) -> IRModule:
    """`optimize` at opt 3 on a clone, with the folding FoldScaleAxis or the plain one."""
    with monkeypatch.context() as patch:
        if not fold:
            patch.setattr(
                optimize_module, "_folding_fold_scale_axis", lambda: FoldScaleAxisPass().build()
            )
        with transform.PassContext(opt_level=3):
            return transform.get_pass("optimize")(mod.clone())


def scaled_convs(seed: int) -> IRModule:
    """conv2d/dense chains under per-channel constant multiplies: bias_add, add, relu, a
    scalar scale, a [1,C,1,1] scale on the left, a dense, a weight two convs share."""
    rng = np.random.default_rng(seed)

    def const(*shape: int, low: float = -1.0) -> relay.Constant:
        return relay.const(rng.uniform(low, 1.0, shape).astype("float32"))

    x = relay.var("x", shape=(1, 4, 6, 6))
    shared = const(4, 4, 3, 3)
    y = relay.nn.bias_add(relay.nn.conv2d(x, shared, padding=(1, 1)), const(4))
    y = relay.multiply(relay.nn.relu(y), const(4, 1, 1, low=0.1))
    y = relay.add(relay.nn.conv2d(y, const(4, 4, 1, 1)), const(4, 1, 1))
    y = relay.multiply(const(1, 4, 1, 1), y)
    y = relay.multiply(relay.nn.conv2d(y, const(4, 4, 3, 3), padding=(1, 1)), const())
    y = relay.add(y, relay.nn.conv2d(x, shared, padding=(1, 1)))
    flat = relay.reshape(y, (1, 144))
    z = relay.multiply(relay.nn.dense(flat, const(8, 144)), const(8))
    return IRModule.from_expr(relay.Function([x], z))


@pytest.mark.parametrize("which", ["scaled_convs", "chain", "tinyres"])
def test_optimize_prints_the_same_module_with_and_without_folding(
    which: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folded form is only a shortcut: optimize's result prints identically."""
    if which == "scaled_convs":
        mod = scaled_convs(0)
    elif which == "chain":
        mod = chain(300)
    else:
        mod = parse((ROOT / "examples" / "tinyres.mlir").read_text(), "tinyres.mlir")
    plain = optimized(mod, False, monkeypatch)
    folded = optimized(mod, True, monkeypatch)
    assert str(folded.module) == str(plain.module)
    main = next(
        op for op in mod.module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"
    )
    inputs = random_inputs(main, seed=1)
    reference = evaluate_module(mod.module, inputs)
    got = evaluate_module(folded.module, inputs)
    np.testing.assert_array_equal(got, evaluate_module(plain.module, inputs))
    np.testing.assert_allclose(got, reference, rtol=1e-4, atol=1e-4)


def test_the_folding_is_taken_on_constant_weights() -> None:
    """Positive: no weight or bias op is built, every multiply is gone; numerics against the
    interpreter before the pass, and bit for bit what FoldConstant makes of the plain form."""
    mod = scaled_convs(1)
    assert count(mod, "relay.multiply") == 4
    after = run_and_check(mod, [backward(True)], opt_level=3, rtol=1e-5, atol=1e-5)
    for name in ("relay.multiply", "relay.squeeze", "relay.expand_dims", "relay.full"):
        assert count(after, name) == 0, name
    with transform.PassContext(opt_level=3):
        plain = FoldConstant()(backward(False)(mod.clone()))
    assert str(after.module) == str(plain.module)


@pytest.mark.parametrize(("opt_level", "disabled"), [(3, ["FoldConstant"]), (1, [])])
def test_not_taken_unless_fold_constant_runs(opt_level: int, disabled: list[str]) -> None:
    """Negative: the folded form relies on the FoldConstant that follows; when it would not
    run, the new weights are the plain rewrite's ops."""
    mod = scaled_convs(2)
    with transform.PassContext(opt_level=opt_level, disabled_pass=disabled):
        after = backward(True)(mod.clone())
    assert count(after, "relay.squeeze") > 0
    assert count(after, "relay.multiply") > 0
    assert count(after, "relay.nn.conv2d") == 4


def test_not_taken_on_a_scale_that_is_a_parameter() -> None:
    """Negative: a parameter scale (no relu in between): the plain rewrite, same numerics."""
    x = relay.var("x", shape=(1, 2, 5, 5))
    s = relay.var("s", shape=(3, 1, 1))
    w = relay.const(np.random.default_rng(3).uniform(-1, 1, (3, 2, 3, 3)).astype("float32"))
    mod = IRModule.from_expr(relay.Function([x, s], relay.multiply(relay.nn.conv2d(x, w), s)))
    after = run_and_check(mod, [backward(True)], opt_level=3, rtol=1e-5, atol=1e-5)
    assert count(after, "relay.squeeze") == 1
    assert count(after, "relay.multiply") == 1
