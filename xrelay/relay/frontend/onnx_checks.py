"""Checks made before any conversion: the file, the opsets, the types and the op set.

Each returns (or raises) every problem at once, so one `OnnxImportError` lists
them all: every unsupported op type with its node names, every tensor type
relay cannot represent.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import onnx
from google.protobuf.message import DecodeError

from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_errors import OnnxImportError, node_label
from xrelay.relay.frontend.onnx_registry import lookup
from xrelay.relay.frontend.onnx_scope import subgraphs

NEWEST_OPSET = 28
"""The newest default-domain opset the importer knows (onnx 1.23's)."""

DEFAULT_DOMAINS = ("", "ai.onnx")


def load_model(model: onnx.ModelProto | str | Path) -> tuple[onnx.ModelProto, str]:
    """The model and the file name messages use; a file that is not ONNX raises."""
    if isinstance(model, onnx.ModelProto):
        return model, "<onnx>"
    filename = str(model)
    try:
        data = Path(model).read_bytes()
    except OSError as error:
        raise OnnxImportError(f"cannot read the file: {error.strerror}", filename) from None
    proto = onnx.ModelProto()
    try:
        proto.ParseFromString(data)
    except (DecodeError, RuntimeError, ValueError) as error:
        raise OnnxImportError(
            f"not an ONNX model (truncated or not a protobuf ModelProto: {error})", filename
        ) from None
    if proto.ir_version <= 0 or not proto.HasField("graph"):
        raise OnnxImportError("not an ONNX model (no IR version or no graph)", filename)
    _load_external(proto, Path(model).parent, filename)
    return proto, filename


def _load_external(proto: onnx.ModelProto, base: Path, filename: str) -> None:
    from onnx.external_data_helper import load_external_data_for_model, uses_external_data

    if any(uses_external_data(t) for t in proto.graph.initializer):
        try:
            load_external_data_for_model(proto, str(base))
        except (OSError, ValueError) as error:
            raise OnnxImportError(f"cannot load external data: {error}", filename) from None


def default_opset(model: onnx.ModelProto, opset: int | None) -> int:
    """The default-domain opset to convert at (the `opset` override wins)."""
    if opset is not None:
        version = opset
    else:
        versions = [o.version for o in model.opset_import if o.domain in DEFAULT_DOMAINS]
        version = versions[0] if versions else 1
    if version > NEWEST_OPSET:
        raise OnnxImportError(
            f"opset {version} is newer than the newest this importer knows ({NEWEST_OPSET})"
        )
    return version


def type_problems(model: onnx.ModelProto) -> list[str]:
    """Values whose type relay cannot represent, by name (inputs, outputs, value_info)."""
    graph = model.graph
    problems: list[str] = []
    described = [("input", v) for v in graph.input] + [("output", v) for v in graph.output]
    described += [("value", v) for v in graph.value_info]
    for role, info in described:
        kind = info.type.WhichOneof("value")
        if kind is None:
            continue
        if kind != "tensor_type":
            name = kind.replace("_type", "")
            article = "an" if name[0] in "aeiou" else "a"
            problems.append(f"{role} '{info.name}' is {article} {name}; only tensors are supported")
            continue
        elem = info.type.tensor_type.elem_type
        if elem != 0 and relay_dtype(elem) is None:
            problems.append(
                f"{role} '{info.name}' has element type {onnx_type_name(elem)}, "
                "which relay cannot represent"
            )
    for init in graph.initializer:
        if relay_dtype(init.data_type) is None:
            problems.append(
                f"initializer '{init.name}' has element type {onnx_type_name(init.data_type)}, "
                "which relay cannot represent"
            )
    return problems


def op_problems(nodes: Iterable[onnx.NodeProto], opset: int) -> list[str]:
    """Every node in a custom domain and every unsupported op type, with all its node names
    (nodes inside subgraphs, such as If's branches and Loop's body, included)."""
    custom: list[str] = []
    missing: dict[str, list[str]] = {}
    for node in _walk(nodes):
        if node.domain not in DEFAULT_DOMAINS:
            custom.append(
                f"{node_label(node.name, node.op_type)} is in the custom domain "
                f"'{node.domain}'; only the default ONNX domain is supported"
            )
        elif lookup(node.op_type, opset) is None:
            missing.setdefault(node.op_type, []).append(node.name or "<unnamed>")
    problems = custom
    for op_type, names in sorted(missing.items()):
        shown = ", ".join(f"'{n}'" for n in names[:10])
        more = f" and {len(names) - 10} more" if len(names) > 10 else ""
        problems.append(
            f"unsupported op {op_type} at opset {opset} ({len(names)} node"
            f"{'s' if len(names) != 1 else ''}: {shown}{more})"
        )
    return problems


def _walk(nodes: Iterable[onnx.NodeProto]) -> Iterator[onnx.NodeProto]:
    """`nodes` and, after each, the nodes of its subgraphs (depth first)."""
    for node in nodes:
        yield node
        for graph in subgraphs(node):
            yield from _walk(graph.node)
