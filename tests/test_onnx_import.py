"""from_onnx: parameters, params, name hints, outputs, shape overrides and shape folding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx
from xrelay.relay.frontend.onnx_names import Namer, sanitize


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto] | None = None,
    opset: int = 17,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers or [])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _tensor(name: str, shape: list[int | str | None], elem: int = TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def test_inputs_then_initializers_become_params_in_order() -> None:
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3), "gpu_0/w_0")
    model = _model(
        [helper.make_node("MatMul", ["x", "gpu_0/w_0"], ["y"], name="mm")],
        [_tensor("x", [4, 2]), _tensor("gpu_0/w_0", [2, 3])],  # old style: listed as an input
        [_tensor("y", [4, 3])],
        [w],
    )
    mod, params = from_onnx(model)
    main = mod["main"]
    assert [p.name_hint for p in main.params] == ["x", "gpu_0_w.0"]
    assert list(params) == ["gpu_0_w.0"]
    x = np.random.default_rng(0).standard_normal((4, 2)).astype(np.float32)
    expected = x @ params["gpu_0_w.0"]
    np.testing.assert_allclose(xrelay.evaluate(mod, x, *params.values()), expected, rtol=1e-6)
    lib = xrelay.build(mod, target="c", params=params)
    np.testing.assert_allclose(lib(x), expected, rtol=1e-5)


def test_freeze_params_makes_constants() -> None:
    w = numpy_helper.from_array(np.ones((3,), np.float32), "w")
    model = _model(
        [helper.make_node("Add", ["x", "w"], ["y"])], [_tensor("x", [3])], [_tensor("y", [3])], [w]
    )
    mod, params = from_onnx(model, freeze_params=True)
    assert params == {}
    assert [p.name_hint for p in mod["main"].params] == ["x"]
    np.testing.assert_array_equal(xrelay.evaluate(mod, np.zeros(3, np.float32)), np.ones(3))


def test_several_outputs_are_a_tuple_in_order() -> None:
    model = _model(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["x"], ["n"])],
        [_tensor("x", [2])],
        [_tensor("n", [2]), _tensor("r", [2])],
    )
    mod, _ = from_onnx(model)
    n, r = xrelay.evaluate(mod, np.array([-1.0, 2.0], np.float32))
    np.testing.assert_array_equal(n, [1.0, -2.0])
    np.testing.assert_array_equal(r, [0.0, 2.0])


def test_value_names_become_name_hints() -> None:
    model = _model(
        [helper.make_node("Relu", ["in:0"], ["conv1/out"])],
        [_tensor("in:0", [2])],
        [_tensor("conv1/out", [2])],
    )
    text = from_onnx(model)[0].astext()
    assert "%in.0" in text  # `in_0`: a final `_<digits>` becomes `.<digits>`
    assert "%conv1_out" in text


def test_name_rule_is_predictable() -> None:
    assert sanitize("gpu_0/conv1_w_0") == "gpu_0_conv1_w.0"
    assert sanitize("0") == "v0"
    assert sanitize("") == "v"
    namer = Namer()
    assert [namer.hint(n) for n in ["a/b", "a:b", "a.1", "a_b", "a/b"]] == [
        "a_b",
        "a_b.1",
        "a.1",
        "a_b.2",
        "a_b",
    ]


def test_shape_override_and_dynamic_dims(tmp_path: Path) -> None:
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [_tensor("x", ["N", 3])], [])
    model.graph.output.extend([_tensor("y", ["N", 3])])
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    mod, _ = from_onnx(path)
    assert "tensor<?x3xf32>" in mod.astext()
    mod, _ = from_onnx(path, shape={"x": [5, 3]})
    assert "tensor<5x3xf32>" in mod.astext()


def test_shape_gather_concat_reshape_folds_to_a_static_reshape() -> None:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Constant", [], ["i"], value_ints=[0]),
        helper.make_node("Gather", ["s", "i"], ["batch"]),
        helper.make_node("Constant", [], ["minus1"], value_ints=[-1]),
        helper.make_node("Concat", ["batch", "minus1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["y"]),
    ]
    model = _model(nodes, [_tensor("x", [2, 3, 4])], [_tensor("y", [2, 12])])
    mod, _ = from_onnx(model)
    text = mod.astext()
    assert "shape_of" not in text
    assert "relay.gather" not in text
    assert "relay.concatenate" not in text
    assert "relay.reshape" in text
    assert "-> tensor<2x12xf32>" in text
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    np.testing.assert_array_equal(xrelay.evaluate(mod, x), x.reshape(2, 12))


def test_large_constant_of_shape_becomes_full() -> None:
    shape = numpy_helper.from_array(np.array([512, 512], np.int64), "shape")
    value = numpy_helper.from_array(np.array([0.5], np.float32), "value")
    model = _model(
        [
            helper.make_node("ConstantOfShape", ["shape"], ["c"], value=value),
            helper.make_node("Add", ["x", "c"], ["y"]),
        ],
        [_tensor("x", [512, 512])],
        [_tensor("y", [512, 512])],
        [shape],
    )
    mod, params = from_onnx(model)
    assert params == {}  # the integer shape initializer was read at import
    assert "relay.full" in mod.astext()
    y = xrelay.evaluate(mod, np.zeros((512, 512), np.float32))
    assert isinstance(y, np.ndarray)
    assert np.all(y == 0.5)


@pytest.mark.parametrize("opset", [12, 13])
def test_softmax_axis_semantics_change_at_opset_13(opset: int) -> None:
    model = _model(
        [helper.make_node("Softmax", ["x"], ["y"], axis=1)],
        [_tensor("x", [2, 3, 4])],
        [_tensor("y", [2, 3, 4])],
        opset=opset,
    )
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype(np.float32)
    y = xrelay.evaluate(from_onnx(model)[0], x)
    if opset < 13:
        flat = x.reshape(2, 12)
        expected = (np.exp(flat) / np.exp(flat).sum(1, keepdims=True)).reshape(2, 3, 4)
    else:
        expected = np.exp(x) / np.exp(x).sum(1, keepdims=True)
    np.testing.assert_allclose(y, expected, rtol=1e-5)


def test_round_is_half_to_even() -> None:
    model = _model(
        [helper.make_node("Round", ["x"], ["y"])], [_tensor("x", [6])], [_tensor("y", [6])]
    )
    x = np.array([0.5, 1.5, 2.5, -2.5, -0.5, 2.6], np.float32)
    np.testing.assert_array_equal(xrelay.evaluate(from_onnx(model)[0], x), np.round(x))


def test_opset_argument_overrides_the_models() -> None:
    model = _model(
        [helper.make_node("Softmax", ["x"], ["y"])],
        [_tensor("x", [2, 3])],
        [_tensor("y", [2, 3])],
        opset=13,
    )
    x = np.random.default_rng(2).standard_normal((2, 3)).astype(np.float32)
    # opset 12's default axis is 1 over the input flattened to 2-D: here the same rows
    y12 = xrelay.evaluate(from_onnx(model, opset=12)[0], x)
    np.testing.assert_allclose(y12, np.exp(x) / np.exp(x).sum(1, keepdims=True), rtol=1e-5)
    with pytest.raises(OnnxImportError, match="opset 40 is newer"):
        from_onnx(model, opset=40)
