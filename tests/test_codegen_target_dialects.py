"""Targets say what they are (`CodegenTarget.dialect`, `.accepts`): a build never turns a
partition for one of its targets into host C.

- `xrelay.build(target=[t, "c"])` with `t`'s lowering disabled is a located error naming
  each op left, the function and the target; with the lowering it builds and runs.
- `xrelay.build(target="c")` of a module already partitioned for accel: host code.
- What accel's and dnnl's registrations say they accept is what their emitters print.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xrelay.codegen.accel import ACCEPTS as ACCEL_ACCEPTS
from xrelay.codegen.accel import CODEGEN as ACCEL
from xrelay.codegen.build import compile_library
from xrelay.codegen.c import CEmitter
from xrelay.codegen.dnnl import ACCEPTS as DNNL_ACCEPTS
from xrelay.codegen.dnnl import CODEGEN as DNNL
from xrelay.codegen.targets import CodegenTarget
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.passes.partition_for import partition_for
from xrelay.passes.plan_memory import PlanMemory

import xrelay
from xrelay import transform
from xrelay.runtime import Library

DENSE = """func.func @main(%x: tensor<4x8xf32>, %w: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %0 = relay.sigmoid %x : tensor<4x8xf32>
  %1 = relay.nn.dense %0, %w : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
  func.return %1 : tensor<4x6xf32>
}"""


def inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.standard_normal((4, 8), "float32"), rng.standard_normal((6, 8), "float32")


def test_a_disabled_lowering_is_a_located_error_not_host_c(cache: Path) -> None:
    mod = xrelay.parse(DENSE)
    message = (
        r"^<string>:3:8: error: 'relay.nn.dense' op cannot be emitted for target 'accel': "
        r"lower it with convert-relay-to-accel first \(in function @tvmgen_default_accel_main_0, "
        r"partitioned for 'accel'\)$"
    )
    for disabled in ("convert-relay-to-accel", "ConvertRelayToAccel"):
        with (
            transform.PassContext(disabled_pass=[disabled]),
            pytest.raises(DiagnosticError, match=message),
        ):
            xrelay.build(mod, target=["accel", "c"], options={"cache_dir": cache})
    lib = xrelay.build(mod, target=["accel", "c"], options={"cache_dir": cache})
    assert "accel.c" in lib.sources.files
    x, w = inputs()
    np.testing.assert_allclose(lib(x, w), xrelay.evaluate(mod, x, w), rtol=1e-5, atol=1e-6)


def test_a_dnnl_partition_left_unlowered_is_refused(cache: Path) -> None:
    mod = xrelay.parse(DENSE)
    with (
        transform.PassContext(disabled_pass=["convert-relay-to-dnnl"]),
        pytest.raises(
            DiagnosticError, match=r"'relay.nn.dense' op cannot be emitted for target 'dnnl'"
        ),
    ):
        xrelay.build(mod, target=["dnnl", "c"], options={"cache_dir": cache, "optimize": False})


def test_a_host_build_of_a_partitioned_module_runs_the_partitions_on_the_host(
    cache: Path,
) -> None:
    partitioned = partition_for(xrelay.parse(DENSE), "accel")
    compilers = [
        f.attributes.get("Compiler") for f in partitioned.module.ops if isinstance(f, func.FuncOp)
    ]
    assert any(c is not None for c in compilers)
    lib = xrelay.build(partitioned, target="c", options={"cache_dir": cache})
    assert "accel.c" not in lib.sources.files
    x, w = inputs()
    np.testing.assert_allclose(lib(x, w), xrelay.evaluate(partitioned, x, w), rtol=1e-5)


@pytest.mark.parametrize(("codegen", "accepts"), [(ACCEL, ACCEL_ACCEPTS), (DNNL, DNNL_ACCEPTS)])
def test_registrations_say_what_their_emitters_print(
    codegen: CodegenTarget, accepts: tuple[str, ...]
) -> None:
    assert codegen.dialect == codegen.name
    assert codegen.accepts == accepts
    assert {"relay.constant", "relay.tuple", "relay.tuple_get_item", "func.return"} <= set(accepts)
    assert codegen.takes(f"{codegen.name}.conv2d")
    assert codegen.takes("relay.constant")
    assert not codegen.takes("relay.nn.dense")
    assert not codegen.takes("relay.composite")


def test_a_target_without_a_dialect_takes_every_op() -> None:
    plain = CodegenTarget("plain", (), ACCEL.function_emitter)
    assert plain.dialect is None
    assert plain.takes("relay.nn.dense")


CONV_RELU = """func.func @main(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %0 = relay.nn.conv2d %x, %w {padding = [1, 1, 1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = relay.nn.relu %0 : tensor<1x4x8x8xf32>
  func.return %1 : tensor<1x4x8x8xf32>
}"""


def test_a_composite_left_unlowered_is_located_at_the_ops_it_wraps(cache: Path) -> None:
    """A composite is made by a pass (no place in the text of its own): the error on it points
    at the first op it wraps, not at the module."""
    mod = xrelay.parse(CONV_RELU, "model.mlir")
    with (
        transform.PassContext(disabled_pass=["convert-relay-to-accel"]),
        pytest.raises(
            DiagnosticError,
            match=r"^model.mlir:3:8: error: 'relay.composite' op cannot be emitted for target "
            r"'accel': lower it with convert-relay-to-accel first",
        ),
    ):
        xrelay.build(mod, target=["accel", "c"], options={"cache_dir": cache})


RESHAPE_ONLY = """func.func @part(%a: tensor<2x6xf32>) -> tensor<3x4xf32> attributes {Compiler = "dnnl"} {
  %0 = relay.reshape %a {newshape = [3, 4]} : (tensor<2x6xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
func.func @main(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %0 = relay.exp %x : tensor<2x6xf32>
  %1 = func.call @part(%0) : (tensor<2x6xf32>) -> tensor<3x4xf32>
  %2 = relay.negative %1 : tensor<3x4xf32>
  func.return %2 : tensor<3x4xf32>
}"""


def test_a_dnnl_partition_without_primitives_builds_and_runs(cache: Path) -> None:
    """A dnnl partition of aliases only (a reshape, which dnnl takes) is dnnl's too now: its
    emitter makes valid C without a primitive (no unused state or arena)."""
    mod = xrelay.parse(RESHAPE_ONLY)  # as convert-relay-to-dnnl leaves such a partition
    sources = CEmitter(PlanMemory()(mod.clone()).module, targets=("dnnl",)).emit()
    assert "dnnl.c" in sources.files
    path = compile_library(
        sources.files,
        extra_ldflags=sources.ldflags,
        unit_cflags=sources.unit_cflags,
        cache_dir=cache,
    )
    lib = Library(path)
    x = np.arange(12, dtype="float32").reshape(2, 6) / 12
    np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-6)
