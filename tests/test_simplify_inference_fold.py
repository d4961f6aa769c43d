"""`simplify-inference{fold-constants=true}`: batch_norm's scale and shift as folded constants.

`optimize` runs SimplifyInference with the option; the module it returns must be
exactly the one the plain expansion led to (FoldConstant folding the ops later),
and compute the same values as the module before any pass.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from testlib.chain import chain
from testlib.numerics import run_and_check
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr
from xrelay.dialects.interpreter import evaluate_module, random_inputs
from xrelay.passes import optimize as optimize_module
from xrelay.passes.adapters import XdslPass
from xrelay.passes.simplify_inference import SimplifyInferencePass

from xrelay import IRModule, parse, relay, transform

ROOT = Path(__file__).resolve().parent.parent


def count(mod: IRModule, name: str) -> int:
    return sum(1 for op in mod.module.walk() if op.name == name)


def folding() -> transform.Pass:
    return XdslPass(SimplifyInferencePass(fold_constants=True))


def optimized(mod: IRModule, fold: bool, monkeypatch: pytest.MonkeyPatch) -> IRModule:
    """`optimize` at opt 3 on a clone, with the folding SimplifyInference or the plain one."""
    with monkeypatch.context() as patch:
        if not fold:
            patch.setattr(
                optimize_module,
                "_folding_simplify_inference",
                lambda: XdslPass(SimplifyInferencePass()),
            )
        with transform.PassContext(opt_level=3):
            return transform.get_pass("optimize")(mod.clone())


def resnet_like(seed: int) -> IRModule:
    """conv -> bias_add -> batch_norm -> relu blocks, a residual add, a shared parameter set."""
    rng = np.random.default_rng(seed)

    def const(*shape: int, low: float = -1.0) -> relay.Constant:
        return relay.const(rng.uniform(low, 1.0, shape).astype("float32"))

    x = relay.var("x", shape=(1, 4, 6, 6))
    shared = [const(4, low=0.5) for _ in range(4)]
    y: relay.Expr = x
    for block in range(3):
        conv = relay.nn.conv2d(y, const(4, 4, 3, 3), padding=(1, 1))
        conv = relay.nn.bias_add(conv, const(4))
        params = shared if block != 1 else [const(4, low=0.5) for _ in range(4)]
        bn = relay.nn.batch_norm(conv, *params, epsilon=1e-3)[0]
        y = relay.nn.relu(relay.add(bn, y) if block == 2 else bn)
    return IRModule.from_expr(relay.Function([x], y))


@pytest.mark.parametrize("which", ["resnet_like", "chain", "tinyres"])
def test_optimize_prints_the_same_module_with_and_without_folding(
    which: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The folded form is only a shortcut: optimize's result prints identically."""
    if which == "resnet_like":
        mod = resnet_like(0)
    elif which == "chain":
        mod = chain(300)
    else:
        mod = parse((ROOT / "examples" / "tinyres.mlir").read_text(), "tinyres.mlir")
    before = count(mod, "relay.nn.batch_norm")
    assert before > 0
    plain = optimized(mod, False, monkeypatch)
    folded = optimized(mod, True, monkeypatch)
    assert str(folded.module) == str(plain.module)
    # The outputs, on the interpreter, bit for bit and against the unoptimized module.
    main = next(
        op for op in mod.module.ops if isinstance(op, func.FuncOp) and op.sym_name.data == "main"
    )
    inputs = random_inputs(main, seed=1)
    reference = evaluate_module(mod.module, inputs)
    got = evaluate_module(folded.module, inputs)
    np.testing.assert_array_equal(got, evaluate_module(plain.module, inputs))
    np.testing.assert_allclose(got, reference, rtol=1e-4, atol=1e-4)


def test_the_folding_is_taken_on_constant_parameters() -> None:
    """Positive: no expansion op is built; numerics against the interpreter before the pass."""
    mod = resnet_like(1)
    # Block 2 reads a residual add of no constant: still folded (no SimplifyExpr rule).
    after = run_and_check(mod, [folding()], opt_level=3, rtol=1e-5, atol=1e-5)
    for name in ("relay.sqrt", "relay.divide", "relay.negative", "relay.expand_dims"):
        assert count(after, name) == 0, name
    assert count(after, "relay.nn.batch_norm") == 0


@pytest.mark.parametrize(
    ("opt_level", "disabled"),
    [(1, []), (3, ["FoldConstant"]), (3, ["DeadCodeElimination"])],
)
def test_not_taken_unless_fold_constant_and_dce_run(opt_level: int, disabled: list[str]) -> None:
    """Negative: the folded form relies on FoldConstant's semantics and on dce for the
    scalars it leaves; when either would not run, the plain expansion."""
    mod = resnet_like(2)
    with transform.PassContext(opt_level=opt_level, disabled_pass=disabled):
        after = folding()(mod.clone())
    assert count(after, "relay.sqrt") == 3  # the shared parameters' expansions, unmerged


def test_not_taken_in_primitive_functions() -> None:
    """FoldConstant leaves a fused (Primitive) function alone; so does the folding."""
    mod = resnet_like(3)
    for op in mod.module.walk():
        if op.name == "func.func":
            op.attributes["Primitive"] = IntegerAttr(1, 32)
    with transform.PassContext(opt_level=3):
        after = folding()(mod.clone())
    assert count(after, "relay.sqrt") == 3
