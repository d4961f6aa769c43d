"""The `accel` pattern table: the fused kernels of the demo accelerator, as composites.

In priority order (an earlier entry wins where matches overlap):

| composite | matches | kernel |
| --- | --- | --- |
| `accel.conv2d_bias_relu` | `relu(bias_add(conv2d(x, w), b))` | conv2d, has_bias, has_relu |
| `accel.conv2d_bias` | `bias_add(conv2d(x, w), b)` | conv2d, has_bias |
| `accel.conv2d_relu` | `relu(conv2d(x, w))` | conv2d, has_relu |
| `accel.dense_bias_relu` | `relu(bias_add(dense(x, w), b))` | dense, has_bias, has_relu |
| `accel.dense_bias` | `bias_add(dense(x, w), b)` | dense, has_bias |
| `accel.add_relu` | `relu(add(a, b))` | elementwise add with relu |

Each check accepts a match only if the accelerator takes its ops: the conv2d,
dense and add satisfy their `target.accel` predicates, and the bias is one
value per output channel.
"""

from __future__ import annotations

from typing import Any

from xrelay.passes.byoc_registry import ExprView, op_supported, register_pattern_table
from xrelay.passes.dataflow_pattern import DFPattern, is_op, wildcard


def _bias_add(x: DFPattern) -> DFPattern:
    return is_op("nn.bias_add")(x, wildcard())


def _relu(x: DFPattern) -> DFPattern:
    return is_op("nn.relu")(x)


def _find(expr: ExprView, op_name: str) -> ExprView | None:
    """The first op named `op_name` on the chain of first operands from `expr`."""
    current: ExprView | None = expr
    while current is not None and current.op is not None:
        if current.op.name == op_name:
            return current
        current = current.args[0] if current.args else None
    return None


def _kernel_check(kernel: str) -> Any:
    def check(root: ExprView) -> bool:
        found = _find(root, kernel)
        if found is None or not op_supported(found.value, "accel"):
            return False
        bias = _find(root, "nn.bias_add")
        if bias is None:
            return True
        channels = found.checked_type.shape[1]
        return (
            bias.args[1].checked_type.shape == (channels,)
            and bias.args[1].checked_type.dtype == "float32"
            and bias.attrs.axis in (1, -len(found.checked_type.shape) + 1)
        )

    return check


def _add_relu_check(root: ExprView) -> bool:
    add = _find(root, "add")
    return add is not None and op_supported(add.value, "accel")


@register_pattern_table("accel")
def pattern_table() -> list[tuple[Any, ...]]:
    """`[(name, pattern, check)]`, most specific first."""
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    dense = is_op("nn.dense")(wildcard(), wildcard())
    add = is_op("add")(wildcard(), wildcard())
    conv_check, dense_check = _kernel_check("nn.conv2d"), _kernel_check("nn.dense")
    return [
        ("accel.conv2d_bias_relu", _relu(_bias_add(conv)), conv_check),
        ("accel.conv2d_bias", _bias_add(conv), conv_check),
        ("accel.conv2d_relu", _relu(conv), conv_check),
        ("accel.dense_bias_relu", _relu(_bias_add(dense)), dense_check),
        ("accel.dense_bias", _bias_add(dense), dense_check),
        ("accel.add_relu", _relu(add), _add_relu_check),
    ]
