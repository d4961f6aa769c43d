"""Numerics checks for pass tests: the reference interpreter before and after a pass."""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects import func
from xrelay.dialects.interpreter import evaluate_module, random_inputs

from xrelay import IRModule, transform


def _flatten(value: Any) -> list[np.ndarray[Any, Any]]:
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in _flatten(item)]
    return [np.asarray(value)]


def _entry(mod: IRModule, entry: str) -> func.FuncOp:
    for op in mod.module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == entry:
            return op
    raise KeyError(f"module has no function '{entry}'")


def assert_same_numerics(
    before: IRModule,
    after: IRModule,
    *,
    entry: str = "main",
    seeds: tuple[int, ...] = (0, 1, 2),
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> None:
    """`entry` computes the same outputs in both modules on seeded random inputs."""
    for seed in seeds:
        inputs = random_inputs(_entry(before, entry), seed)
        want = _flatten(evaluate_module(before.module, inputs, entry))
        got = _flatten(evaluate_module(after.module, inputs, entry))
        assert len(got) == len(want), (len(got), len(want))
        for index, (g, w) in enumerate(zip(got, want, strict=True)):
            assert g.shape == w.shape, (index, g.shape, w.shape)
            assert g.dtype == w.dtype, (index, g.dtype, w.dtype)
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"output {index}")


def run_and_check(
    mod: IRModule,
    pass_: transform.Pass | list[transform.Pass],
    *,
    opt_level: int = 3,
    rtol: float = 1e-5,
    atol: float = 1e-6,
) -> IRModule:
    """Run a pass (or a list, as a Sequential) on a clone of `mod` under `opt_level`,
    check numerics against `mod` and that the result verifies; return the result."""
    original = mod.clone()
    passes = pass_ if isinstance(pass_, list) else [pass_]
    with transform.PassContext(opt_level=opt_level):
        out = transform.Sequential(passes)(mod.clone())
    out.module.verify()
    assert_same_numerics(original, out, rtol=rtol, atol=atol)
    return out
