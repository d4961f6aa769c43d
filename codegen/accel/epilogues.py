"""The clip epilogue of accel's kernels, as C: relay's `clip` (ReLU6 is `clip(0, 6)`).

`clip_bounds` reads an op's bounds (`clip_min` / `clip_max` on conv2d and dense,
`a_min` / `a_max` on `accel.clip`) as float32 C literals, rounded to float32 as
numpy rounds them for a float32 array. `clip` and the prelude's `xa_clip`
(`vectors.py`) compute `x < lo ? lo : (x > hi ? hi : x)`: a NaN compares false both
times and stays NaN, and an input inside the bounds is returned as it is
(`clip(-0.0, 0, 6) = -0.0`), as docs/semantics.md says (C's `fminf(fmaxf(..))`
would turn a NaN into a bound).
"""

from __future__ import annotations

from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import Operation
from xrelay.codegen.kernels.conv_plan import literal


def clip_bounds(op: Operation) -> tuple[str, str] | None:
    """The C literals of the op's clip bounds, None when it has no clip."""
    props = op.properties
    for low, high in (("clip_min", "clip_max"), ("a_min", "a_max")):
        lo, hi = props.get(low), props.get(high)
        if isinstance(lo, FloatAttr) and isinstance(hi, FloatAttr):
            return literal(lo.value.data), literal(hi.value.data)
    return None


def clip(value: str, bounds: tuple[str, str]) -> str:
    """The scalar C of `value` clamped into `bounds` (`value` is read up to three times)."""
    lo, hi = bounds
    return f"({value} < ({lo}) ? ({lo}) : ({value} > ({hi}) ? ({hi}) : {value}))"


def vector_clip(value: str, bounds: tuple[str, str]) -> str:
    """The vector C (an `xa_v`) of `value` clamped into `bounds`, lane by lane."""
    return f"xa_clip({value}, {bounds[0]}, {bounds[1]})"
