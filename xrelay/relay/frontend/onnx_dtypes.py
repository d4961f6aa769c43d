"""ONNX element types (`TensorProto.DataType`) <-> relay dtype names.

Every ONNX type relay represents maps to its relay name; the others (strings,
complex, float8, 4-bit, ...) are refused by their ONNX name.
"""

from __future__ import annotations

ONNX_TO_RELAY: dict[int, str] = {
    1: "float32",
    2: "uint8",
    3: "int8",
    4: "uint16",
    5: "int16",
    6: "int32",
    7: "int64",
    9: "bool",
    10: "float16",
    11: "float64",
    12: "uint32",
    13: "uint64",
    16: "bfloat16",
}
"""ONNX `TensorProto.DataType` number -> relay dtype."""

RELAY_TO_ONNX: dict[str, int] = {v: k for k, v in ONNX_TO_RELAY.items()}

ONNX_TYPE_NAMES: dict[int, str] = {
    0: "UNDEFINED",
    1: "FLOAT",
    2: "UINT8",
    3: "INT8",
    4: "UINT16",
    5: "INT16",
    6: "INT32",
    7: "INT64",
    8: "STRING",
    9: "BOOL",
    10: "FLOAT16",
    11: "DOUBLE",
    12: "UINT32",
    13: "UINT64",
    14: "COMPLEX64",
    15: "COMPLEX128",
    16: "BFLOAT16",
    17: "FLOAT8E4M3FN",
    18: "FLOAT8E4M3FNUZ",
    19: "FLOAT8E5M2",
    20: "FLOAT8E5M2FNUZ",
    21: "UINT4",
    22: "INT4",
    23: "FLOAT4E2M1",
    24: "FLOAT8E8M0",
    25: "UINT2",
    26: "INT2",
    27: "FLOAT6E2M3",
    28: "FLOAT6E3M2",
}


def onnx_type_name(elem_type: int) -> str:
    """The ONNX name of an element type number (`16` -> `BFLOAT16`)."""
    return ONNX_TYPE_NAMES.get(elem_type, f"type #{elem_type}")


def relay_dtype(elem_type: int) -> str | None:
    """The relay dtype of an ONNX element type, or None when relay cannot represent it."""
    return ONNX_TO_RELAY.get(elem_type)
