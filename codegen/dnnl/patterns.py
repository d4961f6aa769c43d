"""The `dnnl` pattern table: seed 004's composites and TVM's post-op variants.

Seed 004 maps `relu(add(conv2d(x, w), b))` to `dnnl.conv2d_bias_relu` and
`relu(conv2d(x, w))` to `dnnl.conv2d_relu` (oneDNN's convolution with bias
and a relu post-op). As in TVM's `dnnl.py`, the table also has the other
eltwise post-ops (tanh, sigmoid), the `sum` post-op (a residual add of a
tensor of the output's shape) and the same set for dense:

    dnnl.conv2d_bias_sum_relu, dnnl.conv2d_bias_sum,
    dnnl.conv2d_bias_relu, dnnl.conv2d_bias_tanh, dnnl.conv2d_bias_sigmoid, dnnl.conv2d_bias,
    dnnl.conv2d_relu, dnnl.conv2d_tanh, dnnl.conv2d_sigmoid,
    dnnl.dense_bias_relu, dnnl.dense_bias_tanh, dnnl.dense_bias_sigmoid, dnnl.dense_bias,
    dnnl.dense_relu, dnnl.dense_tanh, dnnl.dense_sigmoid

The bias is an `add` (the seed's spelling) or an `nn.bias_add` of one value
per output channel; the checks require float32 throughout.
"""

from __future__ import annotations

from typing import Any

from xrelay.passes.byoc_registry import ExprView, register_pattern_table
from xrelay.passes.dataflow_pattern import DFPattern, is_op, wildcard

ELTWISE = ("nn.relu", "tanh", "sigmoid")


def _short(eltwise: str) -> str:
    return eltwise.removeprefix("nn.")


def _check(pattern: DFPattern, kernel: str, with_bias: bool) -> Any:
    """A check reading the matched ops: float32 throughout, a per-channel bias."""

    def check(root: ExprView) -> bool:
        state = pattern.match_state(root.value)
        if state is None:
            return False
        ops = [ExprView(v) for v in state.ops]
        types = [t for e in ops for t in (e.checked_type, *(a.checked_type for a in e.args))]
        if any(t.dtype != "float32" for t in types):
            return False
        if not with_bias:
            return True
        conv = next(e for e in ops if e.op is not None and e.op.name == kernel)
        bias_op = next(e for e in ops if any(a.value is conv.value for a in e.args))
        other = next((a for a in bias_op.args if a.value is not conv.value), None)
        if other is None:
            return False  # add(conv, conv) is no bias
        bias, channels = other.checked_type.shape, conv.checked_type.shape[1]
        return bias in ((channels,), (channels, 1, 1), (1, channels, 1, 1), (1, channels))

    return check


def make_pattern(
    kernel: str, with_bias: bool, eltwise: str | None, with_sum: bool = False
) -> DFPattern:
    """The seed's `make_pattern`, for conv2d or dense, with bias, sum and eltwise options."""
    out: DFPattern = is_op(kernel)(wildcard(), wildcard())
    if with_bias:
        out = (is_op("add") | is_op("nn.bias_add"))(out, wildcard())
    if with_sum:
        out = is_op("add")(out, wildcard())
    if eltwise is not None:
        out = is_op(eltwise)(out)
    return out


@register_pattern_table("dnnl")
def pattern_table() -> list[tuple[Any, ...]]:
    """`[(name, pattern, check)]`, most specific first."""
    table: list[tuple[Any, ...]] = []

    def entry(
        name: str, kernel: str, with_bias: bool, eltwise: str | None, with_sum: bool = False
    ) -> None:
        pattern = make_pattern(kernel, with_bias, eltwise, with_sum)
        table.append((name, pattern, _check(pattern, kernel, with_bias)))

    for kernel, short in (("nn.conv2d", "conv2d"), ("nn.dense", "dense")):
        if kernel == "nn.conv2d":
            entry(f"dnnl.{short}_bias_sum_relu", kernel, True, "nn.relu", True)
            entry(f"dnnl.{short}_bias_sum", kernel, True, None, True)
        for eltwise in ELTWISE:
            entry(f"dnnl.{short}_bias_{_short(eltwise)}", kernel, True, eltwise)
        entry(f"dnnl.{short}_bias", kernel, True, None)
        for eltwise in ELTWISE:
            entry(f"dnnl.{short}_{_short(eltwise)}", kernel, False, eltwise)
    return table
