"""The `dnnl` pattern table: seed 004's composites and TVM's post-op variants.

Seed 004 maps `relu(add(conv2d(x, w), b))` to `dnnl.conv2d_bias_relu` and
`relu(conv2d(x, w))` to `dnnl.conv2d_relu` (oneDNN's convolution with bias
and a relu post-op). As in TVM's `dnnl.py`, the table also has the other
eltwise post-ops (tanh, sigmoid), the `sum` post-op (a residual add of a
tensor of the output's shape) and the same set for dense:

    dnnl.conv2d_bias_sum_relu, dnnl.conv2d_bias_sum,
    dnnl.conv2d_bias_{relu,tanh,sigmoid,clip}, dnnl.conv2d_bias,
    dnnl.conv2d_{relu,tanh,sigmoid,clip},
    dnnl.dense_bias_{relu,tanh,sigmoid,clip}, dnnl.dense_bias,
    dnnl.dense_{relu,tanh,sigmoid,clip}

and GELU in erf form as oneDNN's `gelu_erf` post-op of dense (`dnnl.dense_bias_gelu_erf`,
`dnnl.dense_gelu_erf`): `x * 0.5 * (1 + erf(x / sqrt(2)))` as ONNX exporters and
users write it, `(x * 0.5) * (1 + erf(x * 0.7071...))`, `(x * (erf(x / 1.414...) + 1)) * 0.5`,
`x * ((1 + erf(...)) * 0.5)`, and `x * (erf(...) * 0.5 + 0.5)` (what SimplifyExpr makes of
the last), each product and sum in either operand order, its constants scalars within 1e-6
of 0.5, 1 (0.5 when distributed) and sqrt(2) or 1/sqrt(2) (`gelu_erf`, `_gelu_constants`);
and twice that, `x * (1 + erf(x / sqrt(2)))` (`dnnl.dense[_bias]_gelu_erf_x2`, oneDNN's
gelu_erf post-op scaled by 2): what FoldScaleAxis leaves of a GELU whose `* 0.5` comes last
and feeds another dense (the 0.5 goes into that dense's weights).

The bias is an `add` (the seed's spelling) of a tensor holding one value per
output channel (broadcast along the other axes: `(C, 1, 1)` on an NCHW conv2d,
`(C,)` on an NHWC one or a dense), or an `nn.bias_add` along the output
channels; the sum operand has the kernel's output shape; the checks require
float32 throughout and no dim 0 (oneDNN rejects empty tensors: as for single
ops, `op_support.py`, an empty match stays on the host).
"""

from __future__ import annotations

import math
from typing import Any

from xrelay.byoc import DFPattern, ExprView, is_constant, is_op, register_pattern_table, wildcard
from xrelay.ext import op_supported

ELTWISE = ("nn.relu", "tanh", "sigmoid", "clip")


def _either(op: str, a: DFPattern, b: DFPattern) -> DFPattern:
    """`op(a, b)` or `op(b, a)` (a commutative op)."""
    return is_op(op)(a, b) | is_op(op)(b, a)


def gelu_erf(x: DFPattern) -> DFPattern:
    """GELU in erf form around `x` (its usual op orders, module docstring)."""
    scaled = _either("multiply", x, is_constant()) | is_op("divide")(x, is_constant())
    one_plus = _either("add", is_op("erf")(scaled), is_constant())
    half = is_constant()
    distributed = _either("add", _either("multiply", is_op("erf")(scaled), half), is_constant())
    return (
        _either("multiply", _either("multiply", x, half), one_plus)
        | _either("multiply", _either("multiply", x, one_plus), half)
        | _either("multiply", x, _either("multiply", one_plus, half))
        | _either("multiply", x, distributed)
    )


def gelu_erf_x2(x: DFPattern) -> DFPattern:
    """Twice GELU, `x * (1 + erf(x / sqrt(2)))`: a GELU whose 0.5 FoldScaleAxis folded into
    the next dense's weights (module docstring)."""
    scaled = _either("multiply", x, is_constant()) | is_op("divide")(x, is_constant())
    return _either("multiply", x, _either("add", is_op("erf")(scaled), is_constant()))


def _gelu_constants(ops: list[ExprView], doubled: bool = False) -> bool:
    """Whether a matched GELU's constants are scalars of 0.5, 1 (0.5 when the half is
    distributed over the sum) and sqrt(2) (divided by) or 1/sqrt(2) (multiplied by); `ops`:
    the matched ops but the GELU's input (the bias op)."""
    erf = next((e for e in ops if e.op is not None and e.op.name == "erf"), None)
    if erf is None:
        return False
    scale = erf.args[0]
    root = math.sqrt(2.0) if scale.op is not None and scale.op.name == "divide" else 0.5**0.5
    reader = next((e for e in ops if any(a.value is erf.value for a in e.args)), None)
    distributed = reader is not None and reader.op is not None and reader.op.name == "multiply"
    values: list[float] = []
    for e in ops:
        if e.op is None or e.op.name not in ("multiply", "add", "divide"):
            continue
        for a in e.args:
            data = a.data
            if data is not None:
                if data.size != 1:
                    return False
                values.append(float(data.reshape(-1)[0]))
    wanted = sorted([1.0, root] if doubled else [0.5, 0.5 if distributed else 1.0, root])
    return len(values) == len(wanted) and all(
        math.isclose(v, w, rel_tol=1e-6) for v, w in zip(sorted(values), wanted, strict=True)
    )


def _short(eltwise: str) -> str:
    return eltwise.removeprefix("nn.")


def _channel_axis(kernel: ExprView) -> int:
    """The output channels' axis of a conv2d (C of its data layout) or a dense (the last)."""
    if kernel.op is not None and kernel.op.name == "nn.conv2d":
        return str(kernel.attrs.get("data_layout", "NCHW")).index("C")
    return len(kernel.checked_type.shape) - 1


def _per_channel(bias_op: ExprView, bias: ExprView, kernel: ExprView) -> bool:
    """Whether `bias_op` adds one value per output channel of `kernel`: a `bias_add` along the
    channels, or an `add` of a tensor broadcasting along every other axis."""
    out, axis = kernel.checked_type.shape, _channel_axis(kernel)
    shape = bias.checked_type.shape
    if bias_op.op is not None and bias_op.op.name == "nn.bias_add":
        along = bias_op.attrs.get("axis", 1)
        return isinstance(along, int) and along % len(out) == axis and shape == (out[axis],)
    offset = len(out) - len(shape)  # numpy broadcasting lines up the trailing dims
    wanted = tuple(out[axis] if offset + i == axis else 1 for i in range(len(shape)))
    return 0 <= offset <= axis and shape == wanted


def _other(op: ExprView, value: ExprView) -> ExprView | None:
    """The operand of a binary `op` that is not `value` (None for `op(value, value)`)."""
    return next((a for a in op.args if a.value is not value.value), None)


def _check(
    pattern: DFPattern,
    kernel: str,
    with_bias: bool,
    with_sum: bool = False,
    gelu: bool = False,
    doubled: bool = False,
) -> Any:
    """A check reading the matched ops: float32 throughout and no dim 0, a per-channel bias,
    a sum operand of the kernel's output shape (oneDNN's sum post-op adds a whole tensor)."""

    def check(root: ExprView) -> bool:
        state = pattern.match_state(root.value)
        if state is None:
            return False
        ops = [ExprView(v) for v in state.ops]
        types = [t for e in ops for t in (e.checked_type, *(a.checked_type for a in e.args))]
        if any(t.dtype != "float32" or 0 in t.shape for t in types):
            return False
        conv = next(e for e in ops if e.op is not None and e.op.name == kernel)
        if not op_supported(conv.value, "dnnl"):
            return False  # e.g. a weight holding ±Inf or NaN (op_support.py)
        inner = conv
        if with_bias:
            bias_op = next(e for e in ops if any(a.value is conv.value for a in e.args))
            other = _other(bias_op, conv)
            if other is None or not _per_channel(bias_op, other, conv):
                return False  # add(conv, conv) is no bias
            inner = bias_op
        if with_sum:
            summed = next(e for e in ops if any(a.value is inner.value for a in e.args))
            other = _other(summed, inner)
            if other is None or other.checked_type.shape != conv.checked_type.shape:
                return False
        gelu_ops = [e for e in ops if e.value is not inner.value]
        return not gelu or _gelu_constants(gelu_ops, doubled)

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
    if eltwise == "gelu_erf":
        return gelu_erf(out)
    if eltwise == "gelu_erf_x2":
        return gelu_erf_x2(out)
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
        gelu, doubled = eltwise in ("gelu_erf", "gelu_erf_x2"), eltwise == "gelu_erf_x2"
        check = _check(pattern, kernel, with_bias, with_sum, gelu, doubled)
        table.append((name, pattern, check))

    entry("dnnl.dense_bias_gelu_erf", "nn.dense", True, "gelu_erf")
    entry("dnnl.dense_gelu_erf", "nn.dense", False, "gelu_erf")
    entry("dnnl.dense_bias_gelu_erf_x2", "nn.dense", True, "gelu_erf_x2")
    entry("dnnl.dense_gelu_erf_x2", "nn.dense", False, "gelu_erf_x2")
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
