"""The dnnl backend: oneDNN primitives printed, compiled, run, checked against the interpreter.

Each family builds one module: one `Compiler = "dnnl"` function per case (a
single dnnl op, its weights a constant or a parameter), a host `main` calling
them all. It is planned, printed by `CEmitter` (the dnnl functions go to
`dnnl.c`, linked with `-ldnnl`), built, loaded and run on seeded random
inputs; every output must equal `xrelay.evaluate` (the dnnl reference
semantics) within float32 tolerance. Then: `xrelay.build(mod, ["dnnl", "c"])`
on tinyres (NHWC from dnnl's prelude, the pools in oneDNN too), the instance
hooks (two instances, host-only text unchanged), the refusal of oneDNN's
reference implementations (and the build option allowing them), the error
when oneDNN is not installed, located emit errors, and an AddressSanitizer/UBSan
run of tinyres from C.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from testlib.accel_cases import props
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Block, Operation, Region, SSAValue
from xrelay.codegen import runtime
from xrelay.codegen.build import BASE_CFLAGS, BuildError, compile_library, find_compiler
from xrelay.codegen.c import CEmitter, CSources
from xrelay.codegen.c.pipeline import lower
from xrelay.codegen.targets import get_codegen, register_codegen
from xrelay.dialects import dnnl
from xrelay.dialects.diagnostics import DiagnosticError
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_from_numpy
from xrelay.passes.plan_memory import PlanMemory

import xrelay
from xrelay import IRModule, relay
from xrelay.runtime import Library

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
from tinyres import tinyres  # noqa: E402

Array = np.ndarray[Any, Any]
RTOL, ATOL = 1e-4, 1e-4
SANITIZE = "-fsanitize=address,undefined -fno-omit-frame-pointer"
NO_WINOGRAD = "-DXRELAY_DNNL_NO_WINOGRAD"


@pytest.fixture(autouse=True)
def plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CC", "CFLAGS", "LDFLAGS"):
        monkeypatch.delenv(name, raising=False)


def build(sources: CSources, cache: Path, cflags: Sequence[str] = ()) -> Library:
    path = compile_library(
        sources.files,
        extra_cflags=cflags,
        extra_ldflags=sources.ldflags,
        unit_cflags=sources.unit_cflags,
        cache_dir=cache,
    )
    return Library(path)


def emit(mod: IRModule) -> CSources:
    """The C of a planned copy of `mod`."""
    return CEmitter(PlanMemory()(mod.clone()).module).emit()


class Partitions:
    """dnnl functions of one op each, and a host `main` that calls every one."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.functions: list[func.FuncOp] = []
        self.values: list[Array] = []
        self.labels: list[str] = []

    def add(
        self,
        label: str,
        op: type[dnnl.DnnlOp],
        shapes: Sequence[Sequence[int]],
        constant: Sequence[int] = (),
        positive: Sequence[int] = (),
        **attributes: Any,
    ) -> None:
        """`op` on fresh inputs of `shapes`; those in `constant` are constants of the function,
        those in `positive` are > 0."""
        arrays = [
            self.rng.uniform(0.5 if i in positive else -2.0, 2.0, shape).astype("float32")
            for i, shape in enumerate(shapes)
        ]
        types = [TensorType(f32, s) for i, s in enumerate(shapes) if i not in constant]
        block = Block(arg_types=types)
        args = iter(block.args)
        operands: list[SSAValue] = []
        for index, array in enumerate(arrays):
            if index in constant:
                value = ConstantOp(dense_from_numpy(array, f32))
                block.add_op(value)
                operands.append(value.result)
            else:
                operands.append(next(args))
                self.values.append(array)
        kernel = op.make(operands, props(**attributes))
        block.add_ops([kernel, func.ReturnOp(kernel.results[0])])
        name = f"tvmgen_default_dnnl_main_{len(self.functions)}"
        signature = FunctionType.from_lists(types, [kernel.results[0].type])
        function = func.FuncOp(name, signature, Region(block))
        function.attributes["Compiler"] = StringAttr("dnnl")
        function.attributes["Primitive"] = IntegerAttr(1, 32)
        self.functions.append(function)
        self.labels.append(label)

    def module(self) -> IRModule:
        """The functions and `main`, printed and parsed back (so errors have locations)."""
        inputs = [a.type for f in self.functions for a in f.body.block.args]
        block = Block(arg_types=inputs)
        results: list[SSAValue] = []
        position = 0
        for f in self.functions:
            count = len(f.body.block.args)
            call = func.CallOp(
                f.sym_name.data,
                block.args[position : position + count],
                f.function_type.outputs.data,
            )
            position += count
            block.add_op(call)
            results.append(call.results[0])
        block.add_op(func.ReturnOp(*results))
        signature = FunctionType.from_lists(inputs, [r.type for r in results])
        main = func.FuncOp("main", signature, Region(block))
        ops: list[Operation] = [f.clone() for f in self.functions]
        return xrelay.parse(str(ModuleOp([*ops, main])))

    def check(self, cache: Path, cflags: Sequence[str] = ()) -> CSources:
        """Build (with `cflags`), run and compare every case; the sources."""
        mod = self.module()
        sources = emit(mod)
        got = build(sources, cache, cflags)(*self.values)
        want = xrelay.evaluate(mod, *self.values)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        problems: list[str] = []
        for label, g, w in zip(self.labels, got, want, strict=True):
            w = np.asarray(w)
            if g.shape != w.shape or g.dtype != np.float32:
                problems.append(f"{label}: got {g.dtype}{list(g.shape)}, want {list(w.shape)}")
            elif not np.allclose(g, w, rtol=RTOL, atol=ATOL):
                problems.append(f"{label}: max abs difference {np.max(np.abs(g - w))}")
        assert not problems, "\n".join(problems)
        return sources


def text(sources: CSources, name: str) -> str:
    """A generated file; for `dnnl.c`, every dnnl unit (`dnnl_<n>.c` when split)."""
    stem = name.removesuffix(".c")
    parts = [
        content
        for file, content in sources.files.items()
        if file == name or (name == "dnnl.c" and file.startswith(f"{stem}_"))
    ]
    assert parts, list(sources.files)
    return "".join(str(part) for part in parts)


def test_conv2d_shapes_layouts_and_post_ops(cache: Path) -> None:
    p = Partitions(1)
    conv = dnnl.Conv2DOp
    nhwc: dict[str, Any] = {"data_layout": "NHWC"}
    p.add("NHWC 3x3 pad 1, bias, relu", conv, [(1, 8, 8, 3), (4, 3, 3, 3), (4,)], [1, 2],
          padding=[1, 1, 1, 1], has_bias=True, eltwise="relu", **nhwc)  # fmt: skip
    p.add("NHWC stride 2, asymmetric pad, tanh", conv, [(2, 9, 8, 4), (8, 4, 3, 3), (8,)], [1],
          strides=[2, 2], padding=[1, 0, 2, 1], has_bias=True, eltwise="tanh", **nhwc)  # fmt: skip
    p.add("NHWC bias, sum, relu", conv, [(1, 6, 6, 16), (16, 16, 3, 3), (16,), (1, 6, 6, 16)],
          [1, 2], padding=[1, 1, 1, 1], has_bias=True, has_sum=True, eltwise="relu",
          **nhwc)  # fmt: skip
    p.add("NHWC sum, sigmoid, HWIO weights", conv, [(1, 7, 7, 8), (3, 3, 8, 8), (1, 5, 5, 8)],
          [1], kernel_layout="HWIO", has_sum=True, eltwise="sigmoid", **nhwc)  # fmt: skip
    p.add("NHWC dilation 2", conv, [(1, 9, 9, 8), (16, 8, 3, 3)], [1], dilation=[2, 2],
          padding=[2, 2, 2, 2], **nhwc)  # fmt: skip
    p.add("NHWC depthwise", conv, [(1, 6, 6, 16), (16, 1, 3, 3), (16,)], [1, 2], groups=16,
          padding=[1, 1, 1, 1], has_bias=True, **nhwc)  # fmt: skip
    p.add("NHWC depthwise, bias, clip (ReLU6)", conv, [(1, 7, 7, 8), (8, 1, 3, 3), (8,)], [1, 2],
          groups=8, strides=[2, 2], padding=[1, 1, 1, 1], has_bias=True, eltwise="clip",
          a_min=0.0, a_max=1.0, **nhwc)  # fmt: skip
    p.add("NHWC 1x1, OHWI weights", conv, [(1, 5, 5, 8), (4, 1, 1, 8)], [1],
          kernel_layout="OHWI", **nhwc)  # fmt: skip
    p.add("NHWC weights given per run", conv, [(1, 6, 6, 8), (8, 8, 3, 3), (8,)],
          padding=[1, 1, 1, 1], has_bias=True, **nhwc)  # fmt: skip
    p.add("NCHW as written, bias", conv, [(1, 3, 8, 8), (4, 3, 3, 3), (4,)], [1, 2],
          padding=[1, 1, 1, 1], has_bias=True)  # fmt: skip
    sources = p.check(cache)
    unit = text(sources, "dnnl.c")
    assert "dnnl_dilated_convolution_forward_desc_init" in unit
    assert "xd_primitive(s, 0, &desc, 1, XD_RELU_POST_OP" in unit  # sum; relu after it (default)
    assert "xd_relu_after(s, 0, (float *)" in unit  # relu keeping NaN, as relay's
    assert ", 0.0f, 1.0f);" in unit  # xd_clip with the bounds, keeping NaN
    assert "memcpy(" in unit  # the sum operand copied into the result first
    assert "xd_weights_reorder(" in unit  # weights given per run are reordered per run
    assert "#include <dnnl.h>" not in text(sources, "model.c")  # oneDNN is in dnnl.c only


def test_winograd_where_onednn_has_it(cache: Path) -> None:
    """3x3 stride-1 convolutions of 16 channels or more run oneDNN's Winograd kernels (over the
    16-channel buffers, or between reorders); the others, and all with -DXRELAY_DNNL_NO_WINOGRAD,
    direct."""
    p = Partitions(6)
    conv, nhwc = dnnl.Conv2DOp, {"data_layout": "NHWC"}
    p.add("16 to 16, bias, sum, relu", conv, [(1, 12, 12, 16), (16, 16, 3, 3), (16,),
          (1, 12, 12, 16)], [1, 2], padding=[1, 1, 1, 1], has_bias=True, has_sum=True,
          eltwise="relu", **nhwc)  # fmt: skip
    p.add("16 to 32, bias", conv, [(1, 10, 10, 16), (32, 16, 3, 3), (32,)], [1, 2],
          padding=[1, 1, 1, 1], has_bias=True, **nhwc)  # fmt: skip
    p.add("32 to 32, sum, batch 2", conv, [(2, 9, 9, 32), (32, 32, 3, 3), (2, 9, 9, 32)], [1],
          padding=[1, 1, 1, 1], has_sum=True, **nhwc)  # fmt: skip
    p.add("3 channels: direct", conv, [(1, 8, 8, 3), (16, 3, 3, 3)], [1], **nhwc)
    unit = text(p.check(cache), "dnnl.c")
    assert unit.count("dnnl_convolution_winograd") == 3
    assert unit.count("#ifndef XRELAY_DNNL_NO_WINOGRAD") == 3
    p.check(cache, [NO_WINOGRAD])  # and the same without Winograd


def test_dense_and_eltwise(cache: Path) -> None:
    p = Partitions(2)
    p.add("dense bias relu", dnnl.DenseOp, [(1, 64), (10, 64), (10,)], [1, 2], has_bias=True,
          eltwise="relu")  # fmt: skip
    p.add("dense batch 4, sum, sigmoid", dnnl.DenseOp, [(4, 33), (7, 33), (4, 7)], [1],
          has_sum=True, eltwise="sigmoid")  # fmt: skip
    p.add("dense 3-D data, bias, tanh", dnnl.DenseOp, [(2, 3, 8), (5, 8), (5,)], [1, 2],
          has_bias=True, eltwise="tanh")  # fmt: skip
    p.add("dense weights per run", dnnl.DenseOp, [(2, 16), (3, 16)])
    p.add("relu", dnnl.ReluOp, [(3, 7)])
    p.add("tanh 4-D", dnnl.TanhOp, [(1, 4, 3, 3)])
    p.add("sigmoid scalar", dnnl.SigmoidOp, [()])
    unit = text(p.check(cache), "dnnl.c")
    # Constant weights of at most GEMV_ROWS rows keep relay's layout; the others oneDNN's choice.
    assert unit.count("static const dnnl_dims_t weights_strides = {64, 1};") == 1
    assert unit.count("static const dnnl_dims_t weights_strides = {33, 1};") == 1
    assert unit.count("XD_TRY(xd_md(&weights, 2, weights_dims, NULL)") == 2


def test_matmuls_transposed_and_broadcast(cache: Path) -> None:
    """oneDNN matmul for batch_matmul (TVM's `x @ y^T` by default) and 2-D / 3-D matmul: the
    transposes described by strides, a batch of 1 broadcast on either side, weights constant
    or given per run."""
    p = Partitions(7)
    bmm, mm = dnnl.BatchMatmulOp, dnnl.MatmulOp
    p.add("batch_matmul x @ y^T", bmm, [(4, 5, 8), (4, 6, 8)])
    p.add("batch_matmul x batch 1", bmm, [(1, 5, 8), (3, 6, 8)])
    p.add("batch_matmul x^T @ y, y batch 1, y constant", bmm, [(3, 8, 5), (1, 8, 6)], [1],
          transpose_a=True, transpose_b=False)  # fmt: skip
    p.add("matmul 3-D", mm, [(2, 5, 7), (2, 7, 3)])
    p.add("matmul 2-D, b^T", mm, [(5, 7), (3, 7)], transpose_b=True)
    p.add("matmul 3-D, a^T, b batch 1", mm, [(2, 7, 5), (1, 7, 3)], transpose_a=True)
    unit = text(p.check(cache), "dnnl.c")
    assert unit.count("dnnl_matmul_desc_init(") == 6
    assert "static const dnnl_dims_t weights_strides = {48, 1, 8};" in unit  # y^T by strides


def test_softmax_and_layer_norm(cache: Path) -> None:
    """oneDNN softmax and layer normalization along the last axis; the layer norm with and
    without its scale (gamma) and shift (beta)."""
    p = Partitions(8)
    p.add("softmax 2-D", dnnl.SoftmaxOp, [(4, 33)], axis=-1)
    p.add("softmax 3-D, axis 2", dnnl.SoftmaxOp, [(2, 3, 16)], axis=2)
    p.add("softmax 1-D", dnnl.SoftmaxOp, [(7,)], axis=0)
    shapes = [(6, 40), (40,), (40,)]
    p.add("layer_norm", dnnl.LayerNormOp, shapes, [1, 2], axis=-1, epsilon=1e-5)
    p.add("layer_norm 3-D, gamma and beta per run", dnnl.LayerNormOp, [(2, 3, 24), (24,), (24,)],
          axis=-1, epsilon=1e-3)  # fmt: skip
    p.add("layer_norm no scale", dnnl.LayerNormOp, shapes, [1, 2], axis=-1, epsilon=1e-5,
          scale=False)  # fmt: skip
    p.add("layer_norm neither", dnnl.LayerNormOp, shapes, [1, 2], axis=-1, epsilon=1e-5,
          scale=False, center=False)  # fmt: skip
    unit = text(p.check(cache), "dnnl.c")
    assert unit.count("dnnl_softmax_v2_forward_desc_init(") == 3
    assert unit.count("xd_softmax_nan((float *)") == 3
    assert "dnnl_use_scale | dnnl_use_shift)" in unit
    assert "dnnl_use_shift)" in unit
    assert ", NULL, NULL, 6, 40, 1e-05);" in unit  # the double pass without gamma and beta


def test_binary_broadcasts_batch_norm_and_reorder(cache: Path) -> None:
    p = Partitions(3)
    for op in (dnnl.AddOp, dnnl.SubtractOp, dnnl.MultiplyOp):
        p.add(f"{op.name} same shape", op, [(2, 3, 4, 5), (2, 3, 4, 5)])
    p.add("add per channel", dnnl.AddOp, [(1, 8, 4, 4), (8, 1, 1)], [1])
    p.add("multiply per last axis", dnnl.MultiplyOp, [(1, 4, 4, 8), (8,)])
    p.add("subtract a scalar", dnnl.SubtractOp, [(2, 5), ()])
    p.add("add 2-D per channel", dnnl.AddOp, [(3, 6), (1, 6)])
    norm = dnnl.BatchNormOp
    p.add("batch_norm NHWC axis 3", norm, [(1, 4, 4, 8), (8,), (8,), (8,), (8,)], [1, 2, 3, 4],
          [4], axis=3)  # fmt: skip
    p.add("batch_norm NCHW, no scale/center", norm, [(2, 3, 4, 4), (3,), (3,), (3,), (3,)],
          positive=[4], scale=False, center=False, epsilon=1e-3)  # fmt: skip
    p.add("batch_norm 2-D", norm, [(6, 4), (4,), (4,), (4,), (4,)], positive=[4])
    reorder = dnnl.ReorderOp
    p.add("reorder NCHW to NHWC", reorder, [(2, 5, 4, 3)], src_layout="NCHW", dst_layout="NHWC")
    p.add("reorder NHWC to NCHW", reorder, [(1, 6, 7, 16)], src_layout="NHWC", dst_layout="NCHW")
    p.check(cache)


def test_pools(cache: Path) -> None:
    p = Partitions(4)
    nhwc = {"layout": "NHWC"}
    p.add("max 2x2/2", dnnl.MaxPool2DOp, [(1, 8, 8, 16)], pool_size=[2, 2], strides=[2, 2],
          **nhwc)  # fmt: skip
    p.add("max 3x3/2 pad 1", dnnl.MaxPool2DOp, [(2, 7, 7, 3)], pool_size=[3, 3],
          strides=[2, 2], padding=[1, 1, 1, 1], **nhwc)  # fmt: skip
    p.add("avg pad 1", dnnl.AvgPool2DOp, [(1, 7, 7, 8)], pool_size=[3, 3], strides=[2, 2],
          padding=[1, 1, 1, 1], **nhwc)  # fmt: skip
    p.add("avg count_include_pad", dnnl.AvgPool2DOp, [(1, 6, 6, 8)], pool_size=[3, 3],
          padding=[1, 2, 1, 0], count_include_pad=True, **nhwc)  # fmt: skip
    p.add("global avg", dnnl.GlobalAvgPool2DOp, [(2, 5, 4, 8)], **nhwc)
    p.check(cache)


def test_tinyres_through_build_equals_the_interpreter(cache: Path) -> None:
    """dnnl's prelude makes the convolutions NHWC first: the pools join them in oneDNN and the
    only transposes are the two at the model's edges (its input, and before the flatten)."""
    x = np.random.default_rng(7).standard_normal((1, 3, 32, 32)).astype("float32")
    mod = tinyres(32)
    lib = xrelay.build(mod, target=["dnnl", "c"], options={"cache_dir": cache})
    names = [op.name for op in lib.module.module.walk()]
    assert names.count("dnnl.conv2d") == 4, names
    assert names.count("dnnl.dense") == 1, names
    assert names.count("dnnl.max_pool2d") == 2, names
    assert names.count("dnnl.reorder") == 2, names
    np.testing.assert_allclose(lib(x), xrelay.evaluate(mod, x), rtol=1e-5, atol=1e-6)


def test_instances_are_independent_and_host_code_keeps_its_text(cache: Path) -> None:
    mod = tinyres(32)
    host = xrelay.build(mod, target="c", options={"cache_dir": cache}).sources
    assert "xd_" not in text(host, "model.c")
    assert "memset(model->arena" not in text(host, "model.c")
    lib = xrelay.build(mod, target=["dnnl", "c"], options={"cache_dir": cache})
    model = text(lib.sources, "model.c")
    assert "xd_init_xk_tvmgen_default_dnnl_main_" in model
    assert "xd_destroy_xk_tvmgen_default_dnnl_main_" in model
    x = np.random.default_rng(3).standard_normal((1, 3, 32, 32)).astype("float32")
    second = Library(lib.path)  # its own instance: its own primitives and scratchpad
    first_out, second_out = lib(x), second(x * 2)
    np.testing.assert_allclose(first_out, xrelay.evaluate(mod, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second_out, xrelay.evaluate(mod, x * 2), rtol=1e-5, atol=1e-6)
    second.close()


def test_num_threads_fixes_the_primitives_thread_count(cache: Path) -> None:
    """The build's num_threads (`CEmitter(num_threads=...)`): the primitives are created with
    that many OpenMP threads (oneDNN 2.x keeps the count); by default, OpenMP's."""
    low = lower(tinyres(32), targets=["dnnl"])
    x = np.random.default_rng(5).standard_normal((1, 3, 32, 32)).astype("float32")
    want = xrelay.evaluate(tinyres(32), x)
    for threads, call in ((1, "xd_threads_begin(1)"), (None, "xd_threads_begin(0)")):
        sources = CEmitter(low.module, num_threads=threads).emit()
        assert call in text(sources, "dnnl.c")
        np.testing.assert_allclose(build(sources, cache)(x), want, rtol=1e-5, atol=1e-6)


BROADCAST = """func.func @part(%a: tensor<2x2x3xf32>, %b: tensor<2x1x1xf32>) -> tensor<2x2x3xf32> attributes {Compiler = "dnnl"} {
  %0 = dnnl.add %a, %b : (tensor<2x2x3xf32>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
  func.return %0 : tensor<2x2x3xf32>
}
func.func @main(%a: tensor<2x2x3xf32>, %b: tensor<2x1x1xf32>) -> tensor<2x2x3xf32> {
  %0 = func.call @part(%a, %b) : (tensor<2x2x3xf32>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
  func.return %0 : tensor<2x2x3xf32>
}"""


def test_reference_implementations_are_refused_unless_allowed(cache: Path) -> None:
    """A broadcast oneDNN's jit kernels lack (the predicates keep it on the host; written by
    hand here) would run `ref:any`: the instance is not created, and the error names the op."""
    mod = xrelay.parse(BROADCAST)
    sources = emit(mod)
    with pytest.raises(RuntimeError) as error:
        build(sources, cache)(np.zeros((2, 2, 3), "float32"), np.zeros((2, 1, 1), "float32"))
    assert str(error.value) == (
        "xrelay_model_create: dnnl.add #0 in @part would run oneDNN's reference implementation "
        "'ref:any'; build with -DXRELAY_DNNL_ALLOW_REFERENCE to allow it"
    )
    lib = build(sources, cache, ["-DXRELAY_DNNL_ALLOW_REFERENCE"])
    a, b = np.arange(12, dtype="float32").reshape(2, 2, 3), np.ones((2, 1, 1), "float32")
    np.testing.assert_array_equal(lib(a, b), a + b)


def test_a_missing_onednn_is_a_build_error_naming_the_package(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system root whose /usr/include has everything but oneDNN's headers."""
    include = tmp_path / "root" / "usr" / "include"
    include.mkdir(parents=True)
    for entry in Path("/usr/include").iterdir():
        if not entry.name.startswith(("dnnl", "oneapi")):
            (include / entry.name).symlink_to(entry)
    monkeypatch.setenv("CFLAGS", f"--sysroot={tmp_path / 'root'}")
    with pytest.raises(
        BuildError, match=r"needs oneDNN 2\.x: dnnl\.h not found \(Debian: libdnnl-dev\)"
    ):
        xrelay.build(tinyres(32), target=["dnnl", "c"], options={"cache_dir": cache})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "%0 = relay.exp %a : tensor<4xf32>",
            r"<string>:3:8: error: 'relay\.exp' op cannot be emitted for target 'dnnl': "
            r"lower it with convert-relay-to-dnnl first "
            r"\(in function @part, partitioned for 'dnnl'\)$",
        ),
        (
            "%0 = relay.nn.relu %a : tensor<4xf32>",
            r"<string>:3:8: error: 'relay\.nn\.relu' op cannot be emitted for target 'dnnl': "
            "lower it with convert-relay-to-dnnl first",
        ),
    ],
)
def test_what_dnnl_cannot_emit_is_a_located_error(body: str, message: str) -> None:
    mod = xrelay.parse(
        f"""func.func @part(%a: tensor<4xf32>) -> tensor<4xf32> attributes {{Compiler = "dnnl"}} {{
  %r = dnnl.relu %a : tensor<4xf32>
  {body}
  func.return %0 : tensor<4xf32>
}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
  %0 = func.call @part(%x) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}}"""
    )
    with pytest.raises(DiagnosticError, match=message):
        emit(mod)


def sanitized_main(tmp_path: Path) -> Path:
    """tests/c/main.c compiled with ASan and UBSan."""
    obj = tmp_path / "main.o"
    compiler = find_compiler().command
    compile_main = [
        *compiler, *BASE_CFLAGS, *shlex.split(SANITIZE), "-I", str(runtime.INCLUDE_DIR), "-c"
    ]  # fmt: skip
    main_c = ROOT / "tests" / "c" / "main.c"
    subprocess.run([*compile_main, str(main_c), "-o", str(obj)], check=True, capture_output=True)
    return obj


def run_sanitized(
    sources: CSources, cache: Path, main: Path, exe: Path, flags: Sequence[str] = ()
) -> list[list[float]]:
    """Build `sources` with ASan and UBSan (and `flags`), link with `main`, run: clean; each
    output's values."""
    sanitize = shlex.split(SANITIZE)
    library = compile_library(
        sources.files,
        extra_cflags=[*sanitize, *flags],
        extra_ldflags=sources.ldflags,
        unit_cflags=sources.unit_cflags,
        cache_dir=cache,
    )
    link = [*find_compiler().command, *sanitize, str(main), str(library), "-o", str(exe)]
    subprocess.run(link, check=True, capture_output=True)
    env = {
        **os.environ,
        "ASAN_OPTIONS": "detect_leaks=1:halt_on_error=1",
        "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
        "OMP_NUM_THREADS": "1",
    }
    result = subprocess.run([str(exe)], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr[:3000]
    assert not result.stderr, result.stderr[:3000]
    return [
        [float(v) for v in line.split("]", 1)[1].split()]
        for line in result.stdout.splitlines()
        if line.startswith("output ")
    ]


def main_c_input(shape: Sequence[int]) -> Array:
    """The input tests/c/main.c feeds: element i = ((i % 7) - 3) * 0.75."""
    k = (np.arange(int(np.prod(shape))) % 7) - 3
    return (k * 0.75).astype("float32").reshape(shape)


def test_sanitizers_find_nothing_running_tinyres_from_c(cache: Path, tmp_path: Path) -> None:
    """tinyres built with ASan and UBSan (as built: NHWC from the prelude, Winograd; without
    Winograd; without the prelude: NCHW, reordered in each partition), run by tests/c/main.c
    (two instances):
    clean, and equal to the interpreter. LeakSanitizer stays on: every oneDNN object the
    library creates is destroyed with its instance."""
    main = sanitized_main(tmp_path)
    codegen = get_codegen("dnnl")
    assert codegen is not None
    models = [("built", codegen, []), ("direct", codegen, [NO_WINOGRAD])]
    models.append(("nchw", dataclasses.replace(codegen, prelude=()), []))
    for name, variant, flags in models:
        register_codegen(variant)
        try:
            sources = CEmitter(lower(tinyres(32), targets=["dnnl"]).module).emit()
        finally:
            register_codegen(codegen)
        (values,) = run_sanitized(sources, cache, main, tmp_path / f"main-{name}", flags)
        want = np.asarray(xrelay.evaluate(tinyres(32), main_c_input((1, 3, 32, 32)))).ravel()
        np.testing.assert_allclose(values, want, rtol=1e-4, atol=1e-6)


def test_sanitizers_find_nothing_in_matmul_softmax_layer_norm_and_clip(
    cache: Path, tmp_path: Path
) -> None:
    """A small attention step (layer norm, batch_matmul, softmax, 3-D matmul, dense + clip) and a
    depthwise conv2d + ReLU6, all in oneDNN, built with ASan and UBSan and run from C: clean
    (no leak), equal to the interpreter."""
    rng = np.random.default_rng(9)
    x = relay.var("x", shape=(2, 8, 16))
    image = relay.var("image", shape=(1, 8, 6, 6))
    gamma, beta = (relay.const(rng.uniform(0.5, 1.5, 16).astype("float32")) for _ in range(2))
    y = relay.nn.layer_norm(x, gamma, beta)
    scores = relay.nn.softmax(relay.nn.batch_matmul(y, y))
    context = relay.matmul(scores, y)
    units = relay.const(rng.uniform(-1, 1, (5, 16)).astype("float32"))
    out = relay.clip(relay.nn.dense(context, units), -0.5, 0.5)
    depthwise = relay.const(rng.uniform(-1, 1, (8, 1, 3, 3)).astype("float32"))
    conv = relay.nn.conv2d(image, depthwise, padding=(1, 1), groups=8)
    mod = IRModule.from_expr(relay.Function([x, image], relay.Tuple([out, relay.clip(conv, 0, 6)])))
    lowered = lower(mod, targets=["dnnl"]).module
    names = {op.name for op in lowered.walk()}
    wanted = {"dnnl.layer_norm", "dnnl.batch_matmul", "dnnl.softmax", "dnnl.matmul", "dnnl.dense"}
    assert wanted | {"dnnl.conv2d"} <= names
    host = {"relay.clip", "relay.nn.softmax", "relay.nn.layer_norm", "relay.nn.batch_matmul"}
    assert not names & (host | {"relay.matmul", "relay.nn.dense", "relay.nn.conv2d"}), names
    got = run_sanitized(CEmitter(lowered).emit(), cache, sanitized_main(tmp_path), tmp_path / "m")
    inputs = [main_c_input((2, 8, 16)), main_c_input((1, 8, 6, 6))]
    for values, want in zip(got, xrelay.evaluate(mod, *inputs), strict=True):
        np.testing.assert_allclose(values, np.asarray(want).ravel(), rtol=1e-4, atol=1e-5)
