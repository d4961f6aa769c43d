"""The `accel` pattern table: the fused kernels of the demo accelerator, as composites.

In priority order (an earlier entry wins where matches overlap); `bias(k)` is
`nn.bias_add(k, b)` or `add(k, c)` with `c` a `relay.constant` on either side:

| composite | matches | kernel |
| --- | --- | --- |
| `accel.conv2d_bias_relu` | `relu(bias(conv2d(x, w)))` | conv2d, has_bias, has_relu |
| `accel.conv2d_bias_clip` | `clip(bias(conv2d(x, w)))` | conv2d, has_bias, clip |
| `accel.conv2d_bias` | `bias(conv2d(x, w))` | conv2d, has_bias |
| `accel.conv2d_relu` | `relu(conv2d(x, w))` | conv2d, has_relu |
| `accel.conv2d_clip` | `clip(conv2d(x, w))` | conv2d, clip |
| `accel.dense_bias_relu` | `relu(bias(dense(x, w)))` | dense, has_bias, has_relu |
| `accel.dense_bias_clip` | `clip(bias(dense(x, w)))` | dense, has_bias, clip |
| `accel.dense_bias` | `bias(dense(x, w))` | dense, has_bias |
| `accel.dense_clip` | `clip(dense(x, w))` | dense, clip |
| `accel.add_relu` | `relu(add(a, b))` | elementwise add with relu |

`clip` is relay's `clip` with finite bounds on float32 (ReLU6 is `clip(0, 6)`): its
`target.accel` predicate must accept it; the kernel gets `clip_min` / `clip_max`.

Each check accepts a match only if the accelerator takes its ops: the conv2d,
dense and add satisfy their `target.accel` predicates, and the bias is one
float32 value per output channel: a `bias_add` along the channel axis, or an
`add` of a constant that broadcasts along the channels only, `(C, 1, 1)` or
`(1, C, 1, 1)` on an NCHW conv2d, `(C,)` or `(1, C)` on a dense (what
CanonicalizeOps and FoldConstant make of a `bias_add`, TVM's dnnl table's
`add` bias). Any other `add` is no bias: with a same-shape operand it may still
be `accel.add_relu` or a single `accel.add`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xrelay.byoc import DFPattern, ExprView, is_constant, is_op, register_pattern_table, wildcard
from xrelay.ext import op_supported
from xrelay.ext.ops import ConstantOp


def _bias(x: DFPattern) -> DFPattern:
    """`nn.bias_add(x, b)`, else `add(x, c)` of a constant (either operand order)."""
    return is_op("nn.bias_add")(x, wildcard()) | is_op("add")(x, is_constant())


def _relu(x: DFPattern) -> DFPattern:
    return is_op("nn.relu")(x)


def _clip(x: DFPattern) -> DFPattern:
    return is_op("clip")(x)


def _named(expr: ExprView, name: str) -> bool:
    return expr.op is not None and expr.op.name == name


def _bias_ok(bias_op: ExprView, kernel: str) -> bool:
    """`bias_op` adds one float32 value per output channel to the `kernel` it reads."""
    lhs, rhs = bias_op.args
    if _named(bias_op, "nn.bias_add"):
        out, bias = lhs, rhs
    else:  # add(k, c) or add(c, k): the pattern put a constant on one side
        out, bias = (rhs, lhs) if isinstance(lhs.operation, ConstantOp) else (lhs, rhs)
    if not (_named(out, kernel) and op_supported(out.value, "accel")):
        return False
    shape, channels = out.checked_type.shape, out.checked_type.shape[1]  # NCHW, or 2-D
    if _named(bias_op, "nn.bias_add"):
        shapes: tuple[tuple[int, ...], ...] = ((channels,),)
        if bias_op.attrs.axis not in (1, 1 - len(shape)):
            return False
    elif not isinstance(bias.operation, ConstantOp):
        return False
    elif kernel == "nn.conv2d":
        shapes = ((channels, 1, 1), (1, channels, 1, 1))
    else:
        shapes = ((channels,), (1, channels))
    return bias.checked_type.dtype == "float32" and bias.checked_type.shape in shapes


def _kernel_check(kernel: str) -> Callable[[ExprView], bool]:
    """The check of `relu(bias(kernel(..)))`, `bias(kernel(..))`, `relu(kernel(..))`, and
    of those with a clip in place of the relu."""

    def check(root: ExprView) -> bool:
        if _named(root, "clip") and not op_supported(root.value, "accel"):
            return False
        node = root.args[0] if _named(root, "nn.relu") or _named(root, "clip") else root
        if _named(node, kernel):
            return op_supported(node.value, "accel")
        return _bias_ok(node, kernel)

    return check


def _add_relu_check(root: ExprView) -> bool:
    add = root.args[0]
    return op_supported(add.value, "accel")


@register_pattern_table("accel")
def pattern_table() -> list[tuple[Any, ...]]:
    """`[(name, pattern, check)]`, most specific first."""
    conv = is_op("nn.conv2d")(wildcard(), wildcard())
    dense = is_op("nn.dense")(wildcard(), wildcard())
    add = is_op("add")(wildcard(), wildcard())
    conv_check, dense_check = _kernel_check("nn.conv2d"), _kernel_check("nn.dense")
    return [
        ("accel.conv2d_bias_relu", _relu(_bias(conv)), conv_check),
        ("accel.conv2d_bias_clip", _clip(_bias(conv)), conv_check),
        ("accel.conv2d_bias", _bias(conv), conv_check),
        ("accel.conv2d_relu", _relu(conv), conv_check),
        ("accel.conv2d_clip", _clip(conv), conv_check),
        ("accel.dense_bias_relu", _relu(_bias(dense)), dense_check),
        ("accel.dense_bias_clip", _clip(_bias(dense)), dense_check),
        ("accel.dense_bias", _bias(dense), dense_check),
        ("accel.dense_clip", _clip(dense), dense_check),
        ("accel.add_relu", _relu(add), _add_relu_check),
    ]
