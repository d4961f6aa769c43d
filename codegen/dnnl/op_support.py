"""Which single relay ops the `dnnl` backend takes (`target.dnnl` predicates).

Seed 004's list, registered with its `_register_external_op_helper` idiom:
batch_norm, conv2d, dense, relu, add, subtract, multiply; then pools, layout_transform,
batch_matmul, matmul, softmax and layer_norm. The seed's predicates
answer True unconditionally; ours also ask what oneDNN's primitives can run:

- every operand and result is a float32 tensor of static shape with no zero
  dim (oneDNN rejects empty tensors, or runs a reference kernel on them: an
  empty op stays on the host, which does nothing for it);
- add, subtract and multiply: oneDNN's binary primitive broadcasts its second
  source only, so the lhs has the result's shape (or, for the commutative add
  and multiply, the rhs does: the lowering swaps them); and its fast (jit)
  kernels broadcast a scalar or one value per channel only, so the other
  operand is of the result's shape, a single value, or (its dims aligned with
  the result's last ones) a vector along axis 1 or along the last axis (which
  the emitter describes to oneDNN as its channel axis); other broadcasts run
  on the host;
- conv2d: not with a constant weight holding ±Inf or NaN (oneDNN's kernels may
  multiply the zero padding or mix the weights in Winograd; docs/semantics.md);
- batch_norm: 2-D to 5-D data (oneDNN's batch normalization);
- layout_transform: between NCHW and NHWC only (oneDNN's jit reorders; dnnl's
  prelude leaves these at the model's edges, so they run in oneDNN too);
- pools (`max_pool2d`, `avg_pool2d`, `global_avg_pool2d`): NHWC data only
  (oneDNN's NCHW pooling is a slow fallback, and seed 004 leaves NCHW pools
  to the host), no dilation, each padding smaller than the window, and a
  `ceil_mode` that adds no window (oneDNN has no ceil mode);
- matmul (relay.matmul): two 2-D or two 3-D operands; `nn.batch_matmul` (3-D) always
  (oneDNN's matmul, a batch of 1 broadcast);
- softmax, log_softmax and layer_norm: along the last axis only (oneDNN's jit kernels;
  other axes run on the host: oneDNN 2.6 has only its reference softmax for an axis that
  is not the innermost dense one, however the memory is described, and its layer
  normalization normalizes the innermost dim).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from xrelay.byoc import ExprView, register_op_attr
from xrelay.ext import pad_2d

SUPPORTED_OPS = (
    "nn.batch_norm",
    "nn.conv2d",
    "nn.dense",
    "nn.relu",
    "add",
    "subtract",
    "multiply",
    "nn.max_pool2d",
    "nn.avg_pool2d",
    "nn.global_avg_pool2d",
    "layout_transform",
    "nn.batch_matmul",
    "matmul",
    "nn.softmax",
    "nn.layer_norm",
    "nn.log_softmax",
)


def _static_float32(expr: ExprView) -> bool:
    """Every operand and result: float32, of static shape, no dim 0."""
    types = [a.checked_type for a in expr.args]
    types.extend(expr.checked_type.fields or (expr.checked_type,))
    return all(t.dtype == "float32" and all(d > 0 for d in t.shape) for t in types)


def broadcast_kind(shape: tuple[int, ...], out: tuple[int, ...]) -> str | None:
    """How `shape` broadcasts to `out` in a way oneDNN's jit binary kernels take: `same`,
    `scalar`, `channel` (axis 1), `last` (the last axis); None for any other way."""
    padded = (1,) * (len(out) - len(shape)) + shape
    if padded == out:
        return "same"
    if all(d == 1 for d in padded):
        return "scalar"
    if len(out) >= 2 and all(d == 1 for i, d in enumerate(padded) if i != 1):
        return "channel"
    if all(d == 1 for d in padded[:-1]):
        return "last"
    return None


def _binary(commutative: bool) -> Callable[[ExprView], bool]:
    def rule(expr: ExprView) -> bool:
        lhs, rhs = (a.checked_type.shape for a in expr.args)
        out = expr.checked_type.shape
        if len(lhs) > len(out) or len(rhs) > len(out):
            return False
        if lhs == out:
            return broadcast_kind(rhs, out) is not None
        return commutative and rhs == out and broadcast_kind(lhs, out) is not None

    return rule


def _conv2d(expr: ExprView) -> bool:
    """Plain layouts only; not with a constant weight holding ±Inf or NaN: depending on the
    implementation oneDNN picks, it multiplies the zero padding (`0 * inf` is NaN, where
    relay's padding adds nothing) or runs Winograd, which mixes the weights
    (docs/semantics.md)."""
    weight = expr.args[1].data
    layouts = expr.attrs.get("data_layout", "NCHW"), expr.attrs.get("kernel_layout", "OIHW")
    if layouts[0] not in ("NCHW", "NHWC") or layouts[1] not in ("OIHW", "HWIO", "OHWI", "HWOI"):
        return False  # blocked (NCHW4c) or permuted (HWNC) layouts: relay's own loops
    return weight is None or bool(np.isfinite(weight).all())


def _batch_norm(expr: ExprView) -> bool:
    return 2 <= len(expr.args[0].checked_type.shape) <= 5


def _ints(expr: ExprView, name: str, default: tuple[int, ...]) -> tuple[int, ...]:
    value: object = expr.attrs.get(name, default)
    if not isinstance(value, list | tuple):
        return default
    return tuple(int(v) for v in value)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]


def _pool(expr: ExprView) -> bool:
    if expr.attrs.get("layout", "NCHW") != "NHWC":
        return False
    if expr.op is not None and expr.op.name == "nn.global_avg_pool2d":
        return True
    size, steps = _ints(expr, "pool_size", (1, 1)), _ints(expr, "strides", (1, 1))
    if _ints(expr, "dilation", (1, 1)) != (1, 1):
        return False
    top, left, bottom, right = pad_2d(_ints(expr, "padding", (0,)))
    if top >= size[0] or bottom >= size[0] or left >= size[1] or right >= size[1]:
        return False  # a window could lie in the padding only
    if not expr.attrs.get("ceil_mode", False):
        return True
    _, height, width, _ = expr.args[0].checked_type.shape
    extents = ((height, top + bottom), (width, left + right))
    return all(
        (extent + pad - k) % step == 0  # else the ceiling adds a window
        for (extent, pad), k, step in zip(extents, size, steps, strict=True)
    )


def _layout_transform(expr: ExprView) -> bool:
    layouts = {expr.attrs.get("src_layout"), expr.attrs.get("dst_layout")}
    return layouts == {"NCHW", "NHWC"} and len(expr.args[0].checked_type.shape) == 4


def _matmul(expr: ExprView) -> bool:
    """relay.matmul: two 2-D or two 3-D operands (numpy's broadcast of more batch dims runs
    on the host)."""
    ranks = [len(a.checked_type.shape) for a in expr.args]
    return ranks in ([2, 2], [3, 3])


def _last_axis(expr: ExprView) -> bool:
    """softmax, log_softmax and layer_norm: along the last axis (oneDNN's fast kernels for
    plain memory), of data of rank 1 or more."""
    rank = len(expr.args[0].checked_type.shape)
    axis = expr.attrs.get("axis", -1)
    return rank >= 1 and isinstance(axis, int) and axis % rank == rank - 1


RULES: dict[str, Callable[[ExprView], bool]] = {
    "add": _binary(commutative=True),
    "multiply": _binary(commutative=True),
    "subtract": _binary(commutative=False),
    "nn.batch_norm": _batch_norm,
    "nn.conv2d": _conv2d,
    "nn.max_pool2d": _pool,
    "nn.avg_pool2d": _pool,
    "nn.global_avg_pool2d": _pool,
    "layout_transform": _layout_transform,
    "matmul": _matmul,
    "nn.softmax": _last_axis,
    "nn.layer_norm": _last_axis,
    "nn.log_softmax": _last_axis,
}
"""What an op needs beyond static float32 tensors, by op name."""


def _register_external_op_helper(op_name: str, supported: bool = True) -> None:
    rule = RULES.get(op_name, lambda expr: True)

    @register_op_attr(op_name, "target.dnnl")
    def _func_wrapper(expr: ExprView) -> bool:
        return supported and _static_float32(expr) and rule(expr)


for _op in SUPPORTED_OPS:
    _register_external_op_helper(_op)
