"""Loop nest of `relay.einsum`: one loop per output label, then one per summed label.

Labels come from the op's `einsum_spec`; an operand dim of extent 1 under a
label of another extent (a broadcast `...` dim) reads with stride 0. Sums
accumulate as `relay.matmul`'s (double, or wrapping 64-bit integers).
"""

from __future__ import annotations

from xrelay.codegen.c.kernel_api import Kernel, converted
from xrelay.codegen.c.writer import affine, strides
from xrelay.dialects.relay import einsum as e
from xrelay.dialects.relay.base import get_str


def einsum(k: Kernel) -> None:
    """out[output labels] = sum over the other labels of the product of the operands."""
    shapes = [k.in_shape(i) for i in range(len(k.ins))]
    spec = e.einsum_spec(get_str(k.op.properties, "equation"), shapes)
    summed = [label for label in range(len(spec.extents)) if label not in spec.output]
    element = k.out_scalar()
    acc = element.accumulator()
    w = k.w

    def var(label: int) -> str:
        return f"l{label}"

    factors: list[str] = []
    for i, (shape, labels) in enumerate(zip(shapes, spec.inputs, strict=True)):
        terms = [
            (var(label), stride)
            for label, dim, stride in zip(labels, shape, strides(shape), strict=True)
            if dim != 1 or spec.extents[label] == 1
        ]
        factors.append(f"({acc})in{i}[{affine(terms)}]")
    out_shape = [spec.extents[label] for label in spec.output]
    out_at = affine(list(zip(map(var, spec.output), strides(out_shape), strict=True)))
    outer = [var(label) for label in spec.output]
    with w.loops(outer, out_shape):
        w.line(f"{acc} acc = 0;")
        with w.loops([var(label) for label in summed], [spec.extents[s] for s in summed]):
            w.line(f"acc += {' * '.join(factors)};")
        w.line(f"out0[{out_at}] = {converted(element, 'acc')};")
