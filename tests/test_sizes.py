"""Sizes: tensors too big to exist, an arena too big to allocate, and tensors with no elements.

A tensor (and the instance arena) may hold at most 2^63-1 bytes (`dialects/relay/sizes.py`):
more is a located error of the verifier or of plan-memory; a model within the limit whose
arena cannot be allocated fails at run time with one clear line. Empty tensors (a dim 0)
build and run on every target, equal to the interpreter. Libraries go to a cache
directory private to this module (`$XRELAY_CACHE_DIR`).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType, f16, f32, i1
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.sizes import (
    MAX_BYTES,
    element_count,
    format_bytes,
    size_problem,
    tensor_bytes,
)
from xrelay.passes.plan_memory import PlanMemoryPass

import xrelay

Array = np.ndarray[Any, Any]

GIB = 1 << 30
BIG = 1 << 43
"""f32 elements of a tensor of 2^45 bytes: within the limit, but no machine has it."""


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XRELAY_CACHE_DIR", str(cache))


def sum_of_zeros(shape: Sequence[int]) -> str:
    """`x + sum(zeros(shape))`: one intermediate of `shape` (f32)."""
    dims = "x".join(str(d) for d in shape)
    return textwrap.dedent(f"""\
        func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {{
          %z = relay.zeros {{shape = {list(shape)}, dtype = f32}} : tensor<{dims}xf32>
          %s = relay.sum %z : (tensor<{dims}xf32>) -> tensor<f32>
          %r = relay.add %x, %s : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
          func.return %r : tensor<1xf32>
        }}
        """)


def run_tool(args: Sequence[str], memory: int | None = None) -> subprocess.CompletedProcess[str]:
    """`xrelay-run args` as a console script would run it, its address space bounded."""

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    command = [sys.executable, "-m", "xrelay.tools.run", *args]
    return subprocess.run(
        command, capture_output=True, text=True, preexec_fn=limit, timeout=600, check=False
    )


# --------------------------------------------------------------------------- #
# The limit
# --------------------------------------------------------------------------- #


def test_counts_and_bytes_are_python_ints() -> None:
    big = 99999999999
    assert element_count((big, big)) == big * big  # np.prod on int64 would wrap
    assert element_count((2, -1, 3)) == 6  # a dynamic dim is skipped
    assert element_count((4, 0, 1 << 62)) == 0
    assert tensor_bytes(TensorType(f16, [3, 5])) == 30
    assert tensor_bytes(TensorType(i1, [9])) == 9  # a bool takes one byte
    assert format_bytes(1 << 70) == "2^70"
    assert format_bytes(96) == "96"


def test_the_limit_is_2_to_the_63_minus_1_bytes() -> None:
    assert MAX_BYTES == 2**63 - 1
    assert size_problem(TensorType(f32, [2**61 - 1])) is None  # 2^63 - 4 bytes
    assert size_problem(TensorType(i1, [MAX_BYTES])) is None
    assert size_problem(TensorType(i1, [2**62, 2])) == (
        "tensor<4611686018427387904x2xi1> has 2^63 bytes; a tensor may hold at most 2^63-1 bytes"
    )
    assert size_problem(TensorType(i1, [0, MAX_BYTES + 1])) == (
        "tensor<0x9223372036854775808xi1> has a dimension of 9223372036854775808; "
        "a dimension may be at most 2^63-1"
    )
    assert size_problem(TensorType(f32, [2**61])) is not None


def test_parse_reports_a_tensor_too_big_at_its_op() -> None:
    with pytest.raises(DiagnosticError, match=r"<string>:2:8: error: 'relay.zeros' op result"):
        xrelay.parse(sum_of_zeros([1 << 31, 1 << 30]))


# --------------------------------------------------------------------------- #
# plan-memory
# --------------------------------------------------------------------------- #


def test_an_arena_over_the_limit_is_a_located_error_of_build() -> None:
    """Each 2^62-byte buffer fits, two live at once do not; the error keeps its location
    (whether or not the pass manager wraps it: its cause is the DiagnosticError)."""
    text = textwrap.dedent("""\
        func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
          %z = relay.zeros {shape = [1073741824, 1073741824], dtype = f32} : tensor<1073741824x1073741824xf32>
          %e = relay.exp %z : tensor<1073741824x1073741824xf32>
          %a = relay.add %z, %e : tensor<1073741824x1073741824xf32>
          %s = relay.sum %a : (tensor<1073741824x1073741824xf32>) -> tensor<f32>
          %r = relay.add %x, %s : (tensor<1xf32>, tensor<f32>) -> tensor<1xf32>
          func.return %r : tensor<1xf32>
        }
        """)
    mod = xrelay.parse(text, "z.mlir")
    with pytest.raises(Exception, match="exceeds the limit") as caught:
        xrelay.build(mod, "c", options={"optimize": False})
    error: BaseException | None = caught.value
    while error is not None and not isinstance(error, DiagnosticError):
        error = error.__cause__
    assert isinstance(error, DiagnosticError), caught.value
    assert str(error).startswith("z.mlir:3:8: error: 'relay.exp' op arena of ")
    assert "exceeds the limit of 2^63-1 bytes" in str(error)


def test_alignment_is_bounded() -> None:
    mod = xrelay.parse(sum_of_zeros([4]))
    with pytest.raises(DiagnosticError, match=r"alignment must be at most 2\^62 bytes"):
        PlanMemoryPass(alignment=1 << 63).apply(Context(), mod.module)


def test_empty_buffers_live_at_once_do_not_share_an_address() -> None:
    text = textwrap.dedent("""\
        func.func @main(%x: tensor<0x4xf32>, %y: tensor<0x4xf32>) -> tensor<0x4xf32> {
          %a = relay.exp %x : tensor<0x4xf32>
          %b = relay.exp %y : tensor<0x4xf32>
          %c = relay.add %a, %b : tensor<0x4xf32>
          func.return %c : tensor<0x4xf32>
        }
        """)
    mod = xrelay.parse(text)
    PlanMemoryPass(alignment=16).apply(Context(), mod.module)
    main = mod.module.ops.first
    assert isinstance(main, func.FuncOp)
    offsets: list[int] = []
    for op in list(main.body.block.ops)[:2]:
        buffers = op.attributes["xrelay.buffers"]
        assert isinstance(buffers, ArrayAttr)
        (entry,) = buffers.data
        assert isinstance(entry, IntegerAttr)
        offsets.append(entry.value.data)
    assert sorted(offsets) == [0, 16]
    arena = main.attributes["xrelay.arena_size"]
    assert isinstance(arena, IntegerAttr)
    assert arena.value.data == 32


# --------------------------------------------------------------------------- #
# xrelay-run: one line, exit 1
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize("target", [[], ["--target", "c"]])
def test_xrelay_run_rejects_a_tensor_too_big_to_exist(tmp_path: Path, target: list[str]) -> None:
    """The issue's 2^61-element f32 intermediate (2^63 bytes): was a C compiler error."""
    model = tmp_path / "z.mlir"
    model.write_text(sum_of_zeros([1 << 31, 1 << 30]))
    result = run_tool([str(model), "--random", *target])
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    # Every op that fails is reported: the zeros, then the sum that reads them.
    assert result.stderr.startswith(
        f"{model}:2:8: error: 'relay.zeros' op result type tensor<2147483648x1073741824xf32> "
        "has 2^63 bytes; a tensor may hold at most 2^63-1 bytes\n"
    )
    assert all(": error: " in line for line in result.stderr.splitlines()), result.stderr


def test_an_arena_that_cannot_be_allocated_is_a_clean_runtime_error(tmp_path: Path) -> None:
    """A 2^45-byte arena is valid and builds; creating an instance fails with one line."""
    model = tmp_path / "big.mlir"
    model.write_text(sum_of_zeros([BIG]))
    result = run_tool([str(model), "--random", "--target", "c"], memory=8 * GIB)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith("xrelay-run: error: ")
    assert "cannot allocate the 35184372088896-byte arena" in result.stderr


def test_the_runtime_raises_when_the_arena_cannot_be_allocated(tmp_path: Path) -> None:
    """The Python runtime: a RuntimeError naming the size, and the library stays usable."""
    lib = xrelay.build(xrelay.parse(sum_of_zeros([BIG])), "c", options={"optimize": False})
    path = tmp_path / "big.so"
    lib.export_library(path)
    script = textwrap.dedent(f"""\
        import resource
        import numpy as np
        from xrelay.runtime import load
        resource.setrlimit(resource.RLIMIT_AS, ({8 * GIB}, {8 * GIB}))
        lib = load({str(path)!r})
        for _ in range(2):
            try:
                lib(np.ones(1, "float32"))
            except RuntimeError as error:
                print(error)
        """)
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    expected = "xrelay_model_create: cannot allocate the 35184372088896-byte arena\n"
    assert result.stdout == expected * 2


# --------------------------------------------------------------------------- #
# Zero-size dims on every target
# --------------------------------------------------------------------------- #

ZERO_CASES: dict[str, str] = {
    "dense_batch0": """
func.func @main(%x: tensor<0x8xf32>, %w: tensor<4x8xf32>) -> tensor<0x4xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<0x8xf32>, tensor<4x8xf32>) -> tensor<0x4xf32>
  %1 = relay.nn.relu %0 : tensor<0x4xf32>
  func.return %1 : tensor<0x4xf32>
}""",
    "dense_units0": """
func.func @main(%x: tensor<2x8xf32>, %w: tensor<0x8xf32>) -> tensor<2x0xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<0x8xf32>) -> tensor<2x0xf32>
  func.return %0 : tensor<2x0xf32>
}""",
    "dense_depth0": """
func.func @main(%x: tensor<2x0xf32>, %w: tensor<3x0xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = relay.nn.dense %x, %w : (tensor<2x0xf32>, tensor<3x0xf32>) -> tensor<2x3xf32>
  %1 = relay.nn.bias_add %0, %b {axis = -1} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}""",
    "conv_batch0": """
func.func @main(%x: tensor<0x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<0x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<0x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<0x4x6x6xf32>
  %1 = relay.nn.relu %0 : tensor<0x4x6x6xf32>
  func.return %1 : tensor<0x4x6x6xf32>
}""",
    "conv_out_channels0": """
func.func @main(%x: tensor<1x3x8x8xf32>, %w: tensor<0x3x3x3xf32>) -> tensor<1x0x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<0x3x3x3xf32>) -> tensor<1x0x6x6xf32>
  func.return %0 : tensor<1x0x6x6xf32>
}""",
    "conv_in_channels0": """
func.func @main(%x: tensor<1x0x8x8xf32>, %w: tensor<4x0x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %0 = relay.nn.conv2d %x, %w : (tensor<1x0x8x8xf32>, tensor<4x0x3x3xf32>) -> tensor<1x4x6x6xf32>
  func.return %0 : tensor<1x4x6x6xf32>
}""",
    "pools_batch0": """
func.func @main(%x: tensor<0x3x8x8xf32>) -> (tensor<0x3x4x4xf32>, tensor<0x3x4x4xf32>, tensor<0x3x1x1xf32>) {
  %0 = relay.nn.max_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : (tensor<0x3x8x8xf32>) -> tensor<0x3x4x4xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = [2, 2], strides = [2, 2]} : (tensor<0x3x8x8xf32>) -> tensor<0x3x4x4xf32>
  %2 = relay.nn.global_avg_pool2d %x : (tensor<0x3x8x8xf32>) -> tensor<0x3x1x1xf32>
  func.return %0, %1, %2 : tensor<0x3x4x4xf32>, tensor<0x3x4x4xf32>, tensor<0x3x1x1xf32>
}""",
    "elementwise_empty": """
func.func @main(%x: tensor<0x4xf32>, %y: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %0 = relay.add %x, %y : tensor<0x4xf32>
  %1 = relay.multiply %0, %y : tensor<0x4xf32>
  %2 = relay.nn.relu %1 : tensor<0x4xf32>
  func.return %2 : tensor<0x4xf32>
}""",
}
"""Graphs with a dim 0 somewhere: what the accel kernels (and oneDNN) must survive."""

TARGETS = [["c"], ["accel", "c"], ["dnnl", "c"], ["accel", "dnnl", "c"]]


def random_inputs(mod: xrelay.IRModule, seed: int = 0) -> list[Array]:
    rng = np.random.default_rng(seed)
    main = next(op for op in mod.module.ops if isinstance(op, func.FuncOp))
    shapes = [tuple(t.get_shape()) for t in main.function_type.inputs.data]  # pyright: ignore
    return [rng.standard_normal(s).astype("float32") for s in shapes]


def kernel_ops(lib: Any) -> set[str]:
    return {op.name for op in lib.module.module.walk() if op.name.startswith(("accel.", "dnnl."))}


def as_tuple(value: Any) -> tuple[Array, ...]:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: "+".join(t))
@pytest.mark.parametrize("case", sorted(ZERO_CASES))
def test_zero_size_dims_build_and_equal_the_interpreter(case: str, target: list[str]) -> None:
    mod = xrelay.parse(ZERO_CASES[case])
    inputs = random_inputs(mod)
    want = as_tuple(xrelay.evaluate(mod, *inputs))
    lib = xrelay.build(mod, target)
    got = as_tuple(lib(*inputs))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-4)
    kernels = kernel_ops(lib)
    if target == ["accel", "c"] and case.startswith(("dense", "conv")):
        kernel = "accel.dense" if case.startswith("dense") else "accel.conv2d"
        assert kernel in kernels  # the accel kernel ran on the empty extents
    for op in lib.module.module.walk():  # oneDNN gets no empty tensor
        if op.name.startswith("dnnl."):
            types = [*(v.type for v in op.operands), *(r.type for r in op.results)]
            assert all(0 not in t.get_shape() for t in types if isinstance(t, TensorType))


@pytest.mark.parametrize("batch", [0, 1])
def test_winograd_with_batch_0(batch: int) -> None:
    """A constant 3x3 weight takes accel's Winograd kernel; with no images it does nothing."""
    shape = f"{batch}x32x8x32"
    mod = xrelay.parse(f"""
func.func @main(%x: tensor<{shape}xf32>, %w: tensor<32x32x3x3xf32>) -> tensor<{shape}xf32> {{
  %0 = relay.nn.conv2d %x, %w {{padding = [1, 1, 1, 1]}} : (tensor<{shape}xf32>, tensor<32x32x3x3xf32>) -> tensor<{shape}xf32>
  func.return %0 : tensor<{shape}xf32>
}}""")
    x, w = random_inputs(mod)
    lib = xrelay.build(mod, ["accel", "c"], params={"w": w})
    assert "accel.conv2d_winograd" in kernel_ops(lib)
    got = lib(x)
    assert isinstance(got, np.ndarray)
    assert got.shape == (batch, 32, 8, 32)
    np.testing.assert_allclose(got, xrelay.evaluate(mod, x, w), rtol=1e-3, atol=1e-3)


def test_an_arena_rounded_past_the_limit_fails_at_create_not_in_the_compiler() -> None:
    # Backend slots after an arena near 2^63-1 bytes take the allocation past any C object's
    # size: xrelay_model_create reports it (the C has no integer literal over 2^63-1).
    from xrelay.codegen.c.abi import Runner

    module = xrelay.parse(
        "func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {\n"
        "  func.return %x : tensor<1xf32>\n}\n"
    )
    entry = next(op for op in module.module.ops if isinstance(op, func.FuncOp))
    runner = Runner(entry, "xk_main", (MAX_BYTES - 20, 64), slots=4)
    create = "\n".join(runner._create())  # pyright: ignore[reportPrivateUsage]
    assert f"cannot allocate the {2**63 + 64}-byte arena" in create
    assert "aligned_alloc" not in create
    fits = Runner(entry, "xk_main", (1 << 20, 64), slots=4)
    assert "aligned_alloc(64, " in "\n".join(fits._create())  # pyright: ignore[reportPrivateUsage]
