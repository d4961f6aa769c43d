"""Ops in any layout of their primal axes, blocked ones included (TVM's `BijectiveLayout`).

TVM's type relations for conv2d and the pools take a layout string, convert the
input shapes to the canonical layout (`NCHW`, `OIHW`), check and compute there,
and convert the output shape back: `NCHW4c` data `[N, C/4, H, W, 4]`, an
`OIHW4i4o` kernel `[O/4, I/4, KH, KW, 4, 4]`, an `OIHW4o` kernel
`[O/4, I, KH, KW, 4]`, or a permutation such as `HWNC`. These helpers do the
conversions, with errors naming the operand and layout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute
from xrelay.dialects.relay.base import Props, RelayTypeError, expect_tensor, get_str
from xrelay.dialects.relay.tensor import layout_transform_shape, parse_layout
from xrelay.dialects.relay.types import Shape, shape_of, tensor_type


def element_type_of_tensor(ty: Attribute) -> Attribute:
    """The element type of a tensor type."""
    assert isinstance(ty, TensorType)
    return cast(TensorType[Attribute], ty).get_element_type()


def is_plain(layout: str) -> bool:
    """Whether a layout has no sub-axes (`NHWC`, not `NCHW4c`)."""
    return all(ch.isupper() for ch in layout)


def rank_of(layout: str) -> int:
    """The number of dims a value in `layout` has (`NCHW4c`: 5)."""
    return len(parse_layout(layout))


def check_primal(layout: str, canonical: str, what: str) -> None:
    """A RelayTypeError unless `layout`'s primal axes are exactly `canonical`'s letters."""
    axes = parse_layout(layout, what)
    primal = sorted(name for name, factor in axes if not factor)
    if primal != sorted(canonical):
        raise RelayTypeError(
            f"{what} '{layout}' must have the primal axes {', '.join(canonical)} "
            "(each once, sub-axes such as '4c' after them)"
        )


def to_canonical(shape: Shape, layout: str, canonical: str, what: str) -> Shape:
    """`shape` (in `layout`) in the canonical layout; errors name `what`."""
    check_primal(layout, canonical, f"{what} layout")
    rank = rank_of(layout)
    if len(shape) != rank:
        raise RelayTypeError(
            f"expected {rank}-D {what} for layout '{layout}', got rank {len(shape)}"
        )
    try:
        return layout_transform_shape(shape, layout, canonical)
    except RelayTypeError as err:
        raise RelayTypeError(f"{what} in layout '{layout}': {err}") from None


def from_canonical(shape: Shape, canonical: str, layout: str, what: str) -> Shape:
    """A canonical-layout `shape` in `layout`; errors name `what`."""
    try:
        return layout_transform_shape(shape, canonical, layout)
    except RelayTypeError as err:
        raise RelayTypeError(f"{what} in layout '{layout}': {err}") from None


def canonical_types(
    types: Sequence[Attribute], layouts: Sequence[tuple[str, str, str]]
) -> list[Attribute]:
    """Each tensor type of `types` with its shape in the canonical layout.

    `layouts` holds one (layout, canonical, what) per type.
    """
    out: list[Attribute] = []
    for ty, (layout, canonical, what) in zip(types, layouts, strict=True):
        shape = to_canonical(shape_of(ty), layout, canonical, what)
        out.append(tensor_type(shape, element_type_of_tensor(ty)))
    return out


def blocked_pool_types(
    infer: Callable[[Sequence[Attribute], Props], Sequence[Attribute]],
    operand_types: Sequence[Attribute],
    props: Props,
) -> Sequence[Attribute]:
    """A 2-D pool's result type for its data in any layout of N, C, H, W with H and W
    not split (`NCHW4c`), by `infer` in NCHW (TVM's Pool2DRel)."""
    layout = get_str(props, "layout")
    expect_tensor(operand_types, 0, "data")
    (data,) = canonical_types(operand_types[:1], [(layout, "NCHW", "data")])
    if any(name in "hw" for name, factor in parse_layout(layout) if factor):
        raise RelayTypeError(f"layout '{layout}' splits H or W; pools cannot")
    plain = dict(props)
    plain["layout"] = StringAttr("NCHW")
    (result,) = infer([data], plain)
    out = from_canonical(shape_of(result), "NCHW", layout, "output")
    return [tensor_type(out, element_type_of_tensor(result))]
