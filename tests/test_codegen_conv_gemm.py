"""Deep 1x1 convolutions through the shared GEMM, on accel (`codegen/accel/conv_gemm.py`)
and on the host (`codegen/c/kernels_conv2d.py`).

On accel, a constant weight is packed once, every row of it, by the first call (`xg_sgemm_pa`), and
threads split the output channels in whole tiles of `gemm.MR` channels; a weight computed
at run time is packed by each call, the channels split anywhere. Built and run on
`["accel", "c"]` on 1, 2 and 3 threads, twice (the second run reads the packed weight),
against the interpreter within the 1e-4 rule: output channels that are not a multiple of
the tile (200) and more than one block of rows (`XG_MC`, 144), input channels in two blocks
of depth (300 = 256 + 44), two images, a plane of 13 x 13, with and without an epilogue.
On the host, the same, and 2 groups: each group's constant weight packed once into the call
site's buffer (the routine is shared by convs of the same shape).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import accel_code
from xrelay.codegen.kernels import gemm

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def conv_model(epilogue: bool, constant: bool, groups: int = 1) -> tuple[IRModule, list[Array]]:
    rng = np.random.default_rng(3 + 2 * epilogue + constant)
    x = relay.var("x", shape=(2, 300 * groups, 13, 13), dtype="float32")
    shape = (200 * groups, 300, 1, 1)
    weight = (rng.standard_normal(shape) / np.sqrt(300)).astype("float32")
    args = [rng.standard_normal((2, 300 * groups, 13, 13)).astype("float32")]
    params = [x]
    if constant:
        w: relay.Expr = relay.const(weight)
    else:
        v = relay.var("w", shape=shape, dtype="float32")
        params.append(v)
        args.append(weight)
        w = relay.abs(v)  # computed at run time: not a constant
    y = relay.nn.conv2d(x, w, groups=groups)
    if epilogue:
        bias = relay.const(rng.standard_normal(200 * groups).astype("float32"))
        y = relay.nn.relu(relay.nn.bias_add(y, bias))
    return IRModule.from_expr(relay.Function(params, y)), args


def check(lib: Any, mod: IRModule, args: list[Array]) -> None:
    want = np.asarray(xrelay.evaluate(mod, *args)).astype(np.float64)
    for _ in range(2):  # the second run reads the weight the first packed
        got = np.asarray(lib(*args)).astype(np.float64)
        error = float(np.max(np.abs(got - want)))
        assert error <= 1e-4 * max(1.0, float(np.max(np.abs(want))))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("epilogue", [False, True])
def test_a_constant_weight_is_packed_once(cache: Path, threads: int, epilogue: bool) -> None:
    mod, args = conv_model(epilogue, constant=True)
    options = {"cache_dir": cache, "num_threads": threads}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    accel = accel_code(lib.sources)
    assert "xg_sgemm_pa(c1 - c0, 169, 300, in1, 300, 1, c0, 200," in accel
    assert f"static float xp_a[{gemm.packed_a_floats(200, 300)}]" in accel
    tiles = -(-200 // gemm.MR)
    assert (f"xn_parallel(xa_nt, {tiles}, xa_nt, " in accel) == (threads > 1)
    check(lib, mod, args)


@pytest.mark.parametrize("threads", [1, 3])
def test_a_computed_weight_is_packed_by_each_call(cache: Path, threads: int) -> None:
    mod, args = conv_model(epilogue=False, constant=False)
    options = {"cache_dir": cache, "num_threads": threads}
    lib = xrelay.build(mod, target=["accel", "c"], options=options)
    accel = accel_code(lib.sources)
    if "accel.conv2d" not in str(lib.module):
        pytest.fail("the conv did not go to accel")
    assert "xg_sgemm_pa(" not in accel
    assert "xg_sgemm(c1 - c0, 169, 300, in1 + c0 * 300, 300, 1" in accel
    check(lib, mod, args)


@pytest.mark.parametrize("groups", [1, 2])
@pytest.mark.parametrize("epilogue", [False, True])
def test_a_host_conv_packs_its_constant_weight_once(
    cache: Path, groups: int, epilogue: bool
) -> None:
    mod, args = conv_model(epilogue, constant=True, groups=groups)
    lib = xrelay.build(mod, target="c", options={"cache_dir": cache})
    unit = "".join(str(text) for name, text in lib.sources.files.items() if name.endswith(".c"))
    size = groups * gemm.packed_a_floats(200, 300)
    assert f"static float xp_a[{size}] __attribute__((aligned(64)));" in unit
    assert f"static int xp_state[{groups}];" in unit
    packed = "packed, state" if groups == 1 else f"packed + g * {size // groups}, state + g"
    assert f", {packed}, out0 + " in unit or f", {packed}, out0, " in unit
    check(lib, mod, args)


def test_a_host_conv_of_a_computed_weight_packs_it_per_call(cache: Path) -> None:
    mod, args = conv_model(epilogue=False, constant=False)
    lib = xrelay.build(mod, target="c", options={"cache_dir": cache})
    files = lib.sources.files
    unit = "".join(str(files[name]) for name in ("model.c", "kernels_generated.c"))
    assert "xg_sgemm_pa(" not in unit  # the call sites (kernels_gemm.c defines it)
    assert "xg_sgemm(200, 169, 300, weight, 300, 1" in unit
    check(lib, mod, args)


@pytest.mark.parametrize("threads", [1, 2])
def test_convs_of_one_shape_share_the_routine_not_the_packed_weight(
    cache: Path, threads: int
) -> None:
    """Two 300 -> 300 1x1 convs with different constant weights: one routine (their loop
    nests are the same), called with each call site's own packed buffer and state; the
    second conv must not read the first's packed weight."""
    rng = np.random.default_rng(11)
    x = relay.var("x", shape=(1, 300, 13, 13), dtype="float32")
    y: relay.Expr = x
    for _ in range(2):
        weight = (rng.standard_normal((300, 300, 1, 1)) / np.sqrt(300)).astype("float32")
        y = relay.nn.conv2d(y, relay.const(weight))
    mod = IRModule.from_expr(relay.Function([x], y))
    lib = xrelay.build(mod, ["accel", "c"], options={"cache_dir": cache, "num_threads": threads})
    generated = "".join(
        str(t) for n, t in lib.sources.files.items() if n.startswith("kernels_generated")
    )
    calls = "".join(str(t) for n, t in lib.sources.files.items() if n.startswith("accel"))
    assert generated.count("xg_sgemm_pa(") == 1  # one routine
    assert calls.count("static float xp_a[") == 2  # a buffer per call site
    check(lib, mod, [rng.standard_normal((1, 300, 13, 13)).astype("float32")])
