"""The BYOC pattern table of target `myacc`: which relay subgraphs the accelerator takes.

| composite | matches |
| --- | --- |
| `myacc.dense_relu` | `nn.relu(nn.dense(x, w))`, float32, 2-D |
| `myacc.gelu` | `x * 0.5 * (1 + erf(x / sqrt(2)))`, float32, in the orders below |

GELU is matched as ONNX exporters and hand-written models spell it:
`(x * 0.5) * (1 + erf(x * c))` and `(x * (1 + erf(x * c))) * 0.5`, each product and
sum in either operand order, with `x * 0.7071...` or `x / 1.4142...` inside the
erf. The check accepts a match only if its constants are those of GELU
(scalars 0.5, 1 and 1/sqrt(2), or sqrt(2) when divided by).

`partition_for(mod, "myacc")` (and `xrelay.build(mod, target=["myacc", "c"])`)
wraps each match in a `relay.composite` named as above, then offloads it: a
composite goes to the target its name starts with.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from xrelay.byoc import DFPattern, ExprView, is_constant, is_op, register_pattern_table, wildcard

HALF, ONE, ROOT_HALF = 0.5, 1.0, math.sqrt(0.5)


def _either(op: str, a: DFPattern, b: DFPattern) -> DFPattern:
    """`op(a, b)` or `op(b, a)`: a commutative op in either operand order."""
    return is_op(op)(a, b) | is_op(op)(b, a)


def gelu_pattern(x: DFPattern) -> DFPattern:
    """GELU in erf form around `x` (module docstring)."""
    scaled = _either("multiply", x, is_constant()) | is_op("divide")(x, is_constant())
    one_plus_erf = _either("add", is_op("erf")(scaled), is_constant())
    return _either("multiply", _either("multiply", x, is_constant()), one_plus_erf) | _either(
        "multiply", _either("multiply", x, one_plus_erf), is_constant()
    )


def dense_relu_pattern() -> DFPattern:
    """`nn.relu(nn.dense(x, w))`."""
    return is_op("nn.relu")(is_op("nn.dense")(wildcard(), wildcard()))


def _name(expr: ExprView) -> str | None:
    return expr.op.name if expr.op is not None else None


def _scalar(expr: ExprView) -> float | None:
    """The value of a one-element constant, None for anything else."""
    data = expr.data
    return float(data.reshape(-1)[0]) if data is not None and data.size == 1 else None


def _gelu_constants(root: ExprView) -> list[float] | None:
    """The constants of a matched GELU, the scale inside the erf last (as a multiplier:
    a divisor is inverted); None if one of them is not a scalar."""
    erf = _find_erf(root)
    if erf is None:
        return None
    scaled = erf.args[0]
    inputs = [a for a in scaled.args if a.data is None]
    if len(inputs) != 1:
        return None
    x = inputs[0].value
    values: list[float] = []
    stack, seen = [root], set[int]()
    while stack:
        expr = stack.pop()
        if expr.value is x or id(expr.value) in seen:
            continue
        seen.add(id(expr.value))
        if expr.data is not None:
            value = _scalar(expr)
            if value is None:
                return None
            values.append(value)
        elif expr.value is not scaled.value and _name(expr) in ("multiply", "add", "erf"):
            stack.extend(expr.args)
    scale = _scalar(next(a for a in scaled.args if a.data is not None))
    if scale is None or scale == 0.0:
        return None
    return [*sorted(values), 1.0 / scale if _name(scaled) == "divide" else scale]


def _find_erf(root: ExprView) -> ExprView | None:
    """The GELU's erf: within three ops of the root, its argument scaled by a constant."""
    level = [root]
    for _ in range(3):
        level = [a for e in level if _name(e) in ("multiply", "add") for a in e.args]
        for expr in level:
            if (
                _name(expr) == "erf"
                and _name(expr.args[0]) in ("multiply", "divide")
                and sum(a.data is not None for a in expr.args[0].args) == 1
            ):
                return expr
    return None


def gelu_check(root: ExprView) -> bool:
    """A float32 GELU whose constants are 0.5, 1 and 1/sqrt(2) (module docstring)."""
    if root.checked_type.dtype != "float32":
        return False
    found = _gelu_constants(root)
    wanted = [HALF, ONE, ROOT_HALF]
    return (
        found is not None
        and len(found) == len(wanted)
        and all(math.isclose(f, w, rel_tol=1e-6) for f, w in zip(found, wanted, strict=True))
    )


def dense_relu_check(root: ExprView) -> bool:
    """A float32 dense of a 2-D data and a 2-D weight."""
    dense = root.args[0]
    x, w = dense.args
    return all(
        e.checked_type.dtype == "float32" and len(e.checked_type.shape) == 2 for e in (root, x, w)
    )


@register_pattern_table("myacc")
def pattern_table() -> Sequence[tuple[Any, ...]]:
    """`[(composite name, pattern, check)]`, the first entry winning where matches overlap."""
    return [
        ("myacc.dense_relu", dense_relu_pattern(), dense_relu_check),
        ("myacc.gelu", gelu_pattern(wildcard()), gelu_check),
    ]
