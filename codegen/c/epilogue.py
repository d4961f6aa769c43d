"""Elementwise consumers fused into the store of the kernel that produces their input.

A producer (a convolution, a matrix product) whose result feeds a chain of
elementwise ops, each the only user of the one before, can apply the chain to
each element while it is still in registers, instead of writing the result and
reading it back in another loop. The chains taken are the ones FuseOps groups
after such a producer in models: `+ bias` (one value per output channel),
`+ residual` (a tensor of the output's shape), then one activation. An
`Epilogue` names what the kernel applies, in that order; the kernel printer
finds it in `Kernel.epilogue` and the fused ops print nothing.

`EPILOGUE_PRODUCERS` maps an op name to a predicate saying whether its host
kernel printer applies an epilogue for this op (dtype, layout and shape may
decide); the emitter fuses only into those.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from xdsl.ir import Operation

Activation = Literal["relu", "clip", "gelu_erf", "gelu_tanh", "sigmoid", "tanh"]
"""The activations an epilogue applies last (`clip` reads `Epilogue.clip`)."""


@dataclass(frozen=True)
class Epilogue:
    """What a producer kernel applies to each result element before storing it, in order:
    `x + bias[channel]`, `+ residual[index]`, then the activation."""

    bias: str | None = None
    """C pointer to one value per output channel (NCHW's C, a dense's or matmul's last dim)."""
    residual: str | None = None
    """C pointer to a tensor of the output's shape and layout, read at the output's index."""
    activation: Activation | None = None
    clip: tuple[float, float] | None = None
    """The bounds of a `clip` activation (numpy's float32 rounding of relay's a_min, a_max)."""


EpilogueSupport = Callable[[Operation], bool]
"""Whether a producer op's host kernel applies an epilogue (its dtype, layout, shape)."""

EPILOGUE_PRODUCERS: dict[str, EpilogueSupport] = {}
"""Op name -> whether its host kernel printer applies `Kernel.epilogue` to this op."""
