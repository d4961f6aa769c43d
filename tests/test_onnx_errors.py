"""OnnxImportError: one line per problem, every problem at once, each naming what it is about."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper
from xrelay.dialects.diagnostics import DiagnosticError

from xrelay.relay.frontend import OnnxImportError, from_onnx


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    opset: int = 17,
    value_info: list[onnx.ValueInfoProto] | None = None,
) -> onnx.ModelProto:
    graph = helper.make_graph(nodes, "g", inputs, outputs, value_info=value_info or [])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _x(name: str = "x", elem: int = TensorProto.FLOAT, shape: list[int] | None = None):
    return helper.make_tensor_value_info(name, elem, shape or [2])


def _relu() -> onnx.ModelProto:
    return _model([helper.make_node("Relu", ["x"], ["y"])], [_x()], [_x("y")])


def _lines(error: pytest.ExceptionInfo[OnnxImportError]) -> list[str]:
    return str(error.value).splitlines()


def test_is_a_diagnostic_error() -> None:
    assert issubclass(OnnxImportError, DiagnosticError)


def test_truncated_file(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    path.write_bytes(_relu().SerializeToString()[:-7])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(path)
    assert len(_lines(error)) == 1
    assert _lines(error)[0].startswith(f"{path}: error: not an ONNX model")


def test_not_onnx_file(tmp_path: Path) -> None:
    path = tmp_path / "m.onnx"
    path.write_text("func.func @main() {}\n")
    with pytest.raises(OnnxImportError, match="not an ONNX model"):
        from_onnx(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(OnnxImportError, match="cannot read the file"):
        from_onnx(tmp_path / "none.onnx")


def test_opset_newer_than_known_states_the_newest() -> None:
    model = _model([helper.make_node("Relu", ["x"], ["y"])], [_x()], [_x("y")], opset=99)
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert _lines(error) == [
        "<onnx>: error: opset 99 is newer than the newest this importer knows (28)"
    ]


def test_every_unsupported_op_at_once_with_node_names() -> None:
    nodes = [
        helper.make_node("StringNormalizer", ["x"], ["a"], name="sn1"),
        helper.make_node("Relu", ["a"], ["b"], name="ok"),
        helper.make_node("StringNormalizer", ["b"], ["c"], name="sn2"),
        helper.make_node("Unique", ["c"], ["y"], name="uniq"),
    ]
    with pytest.raises(OnnxImportError) as error:
        from_onnx(_model(nodes, [_x()], [_x("y")]))
    assert _lines(error) == [
        "<onnx>: error: unsupported op StringNormalizer at opset 17 (2 nodes: 'sn1', 'sn2')",
        "<onnx>: error: unsupported op Unique at opset 17 (1 node: 'uniq')",
    ]


def test_custom_domain() -> None:
    node = helper.make_node("MyOp", ["x"], ["y"], name="mine", domain="com.example")
    model = _model([node], [_x()], [_x("y")])
    model.opset_import.extend([helper.make_opsetid("com.example", 1)])
    with pytest.raises(OnnxImportError, match="node 'mine' \\(MyOp\\) is in the custom domain"):
        from_onnx(model)


@pytest.mark.parametrize(
    ("elem", "name"),
    [
        (TensorProto.STRING, "STRING"),
        (TensorProto.FLOAT8E4M3FN, "FLOAT8E4M3FN"),
        (TensorProto.INT4, "INT4"),
        (TensorProto.COMPLEX64, "COMPLEX64"),
    ],
)
def test_unrepresentable_tensor_types_refused_by_name(elem: int, name: str) -> None:
    model = _model([helper.make_node("Identity", ["x"], ["y"])], [_x(elem=elem)], [_x("y", elem)])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert _lines(error) == [
        f"<onnx>: error: input 'x' has element type {name}, which relay cannot represent",
        f"<onnx>: error: output 'y' has element type {name}, which relay cannot represent",
    ]


def test_sequences_and_optionals_refused() -> None:
    seq = helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2])
    opt = helper.make_value_info(
        "o", helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))
    )
    model = _model([helper.make_node("Identity", ["s"], ["o"])], [seq], [opt])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert _lines(error) == [
        "<onnx>: error: input 's' is a sequence; only tensors are supported",
        "<onnx>: error: output 'o' is an optional; only tensors are supported",
    ]


def test_declared_output_shape_disagreeing_with_inference_names_the_node() -> None:
    nodes = [helper.make_node("Transpose", ["x"], ["t"], name="tr", perm=[1, 0])]
    model = _model(nodes, [_x(shape=[2, 3])], [_x("t", shape=[2, 3])])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert _lines(error) == [
        "<onnx>: error: node 'tr' (Transpose): output 't' has shape [3, 2] but the model "
        "declares [2, 3]"
    ]


def test_declared_value_info_shape_is_checked_too() -> None:
    nodes = [
        helper.make_node("Transpose", ["x"], ["t"], name="tr", perm=[1, 0]),
        helper.make_node("Relu", ["t"], ["y"], name="r"),
    ]
    info = [_x("t", shape=[2, 3])]
    model = _model(nodes, [_x(shape=[2, 3])], [_x("y", shape=[3, 2])], value_info=info)
    with pytest.raises(OnnxImportError, match="node 'tr' \\(Transpose\\): output 't' has shape"):
        from_onnx(model)


def test_converter_refusal_names_the_node() -> None:
    node = helper.make_node("Pad", ["x", "p"], ["y"], name="pad", mode="reflect")
    pads = helper.make_tensor_value_info("p", TensorProto.INT64, [2])
    model = _model([node], [_x(), pads], [_x("y")])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert _lines(error) == [
        "<onnx>: error: node 'pad' (Pad): the pads (input #1 'p') must be known at import; "
        "only static values are supported"
    ]
