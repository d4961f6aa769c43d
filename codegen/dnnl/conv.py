"""How a `dnnl.conv2d` becomes a oneDNN convolution: direct, or Winograd where it pays.

A printer for `primitives.PRINTERS`: the source and destination described as
the plan laid them out (NHWC activations), the weights in oneDNN's "any"
layout (reordered once at init), bias and post-ops; then, for a
`winograd_candidate`, the Winograd descriptor tried first at init
(`runtime_winograd.xd_winograd`), the direct one where oneDNN has no fast
Winograd kernel for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from xrelay.codegen.dnnl.dims import Dims, logical
from xrelay.codegen.dnnl.primitive import Primitive
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d


def weights_dims(shape: Sequence[int], layout: str, groups: int) -> Dims:
    """oneDNN's (O, I, KH, KW), or (G, O/G, I, KH, KW) when grouped, of relay weights."""
    dims, steps = logical(shape, layout, "OIHW")
    if groups == 1:
        return dims, steps
    return [groups, dims[0] // groups, *dims[1:]], [steps[0] * (dims[0] // groups), *steps]


def winograd_candidate(p: Primitive) -> bool:
    """Whether a convolution may run Winograd: 3x3, stride 1, no dilation, no groups, and at
    least 16 input channels (below that the transforms cost more than they save). Measured
    with oneDNN 2.6 on AVX-512 (1 thread, bias and relu, reorders included): 0.54-0.98x the
    direct time from 16 to 64 channels and 7x7 to 224x224, up to 1.05x for 16 -> 32 channels at
    112x112, which needs its result reordered; 0.71x for the 16 -> 16 convolutions at 224x224
    that dominate tinyres."""
    props = p.op.properties
    layout = get_str(props, "data_layout")
    channels = p.shape(0)[layout.index("C")]
    weights = dict(zip(get_str(props, "kernel_layout"), p.shape(1), strict=True))
    return (
        (weights["H"], weights["W"]) == (3, 3)
        and get_ints(props, "strides") == (1, 1)
        and get_ints(props, "dilation") == (1, 1)
        and get_int(props, "groups") == 1
        and channels >= 16
    )


WINOGRAD_2X3, WINOGRAD_4X3 = "wino_2x3", "wino_4x3"
"""oneDNN 2.6's two f32 Winograd kernels on AVX-512, by the names they report:
`jit_fp32_wino_2x3` computes 2x2 outputs from each 4x4 input tile, `jit_wino_4x3` 4x4
from 6x6 (fewer multiplies; costlier transforms; weights 36/16 times the 2x3 kernel's size,
read from memory at every run once they outgrow the caches; and a tile count that small
images fill poorly). oneDNN's own first choice is the 2x3 kernel for every shape."""


def winograd_kernels(p: Primitive) -> tuple[str, str] | None:
    """The oneDNN Winograd kernels a `winograd_candidate` asks for, on one thread and on
    more (None: not a candidate): `wino_4x3` from 32 input channels on images of at least
    25x25; on one thread also on images of at least 13x13 with at least 96 input and 208
    output channels; `wino_2x3` otherwise.

    Measured with oneDNN 2.6 on an AVX-512 Intel Xeon, each kernel with its reorders from
    and to NHWC, on the 3x3 convolutions of the speed benchmark's models
    (`benchmarks/dnnl_winograd_kernels.py`, one thread): the 4x3 kernel took 0.70-0.85x the
    2x3 time at 55x55 and 56x56 from 64 input channels (64 -> 64, 64 -> 128, 128 -> 128,
    128 -> 32, 64 -> 192), 0.75-1.00x at 27x27 and 28x28 (128 -> 192 the same), 0.54-1.05x
    at 13x13 and 14x14 with 96 -> 208 channels and more (256 -> 256 0.94x, 112 -> 224 1.05x);
    1.02-1.16x on fewer channels there (16 -> 64 at 55x55, 48 -> 192 and 64 -> 256 at 13x13,
    128 -> 32 at 14x14), and 1.6-2.2x on images of 7x7 and below, which it tiles 4 times at
    most. That benchmark runs one convolution again and again, its weights in cache; inside
    light ResNet-50 on two threads oneDNN's own log (`ONEDNN_VERBOSE=1`) showed the 4x3
    kernel slower than the 2x3 one on its 256 -> 256 convolutions at 14x14, whose 4x3
    weights take 9.4 MB each: there the 13x13 case stays on 2x3. Whole models:
    `benchmarks/dnnl_variants.py` (`-DXRELAY_DNNL_WINOGRAD_DEFAULT`)."""
    if not winograd_candidate(p):
        return None
    layout = get_str(p.op.properties, "data_layout")
    shape = p.shape(0)
    cin, cout = shape[layout.index("C")], p.out_shape()[layout.index("C")]
    side = min(shape[layout.index("H")], shape[layout.index("W")])
    if cin >= 32 and side >= 25:
        return WINOGRAD_4X3, WINOGRAD_4X3
    if cin >= 96 and cout >= 208 and side >= 13:
        return WINOGRAD_4X3, WINOGRAD_2X3
    return WINOGRAD_2X3, WINOGRAD_2X3


def conv2d(p: Primitive) -> None:
    """Convolution: Winograd for a `winograd_candidate` where oneDNN has a fast kernel for it
    (on its blocked layouts: over the user's NHWC bytes where they are alike, else reordered
    from and to them, `runtime_buffers.xd_winograd`), else direct. `-DXRELAY_DNNL_NO_WINOGRAD`
    keeps every convolution direct."""
    props = p.op.properties
    layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    groups = get_int(props, "groups")
    src = p.desc("src", *logical(p.shape(0), layout, "NCHW"))
    dst = p.desc("dst", *logical(p.out_shape(), layout, "NCHW"))
    dims, steps = weights_dims(p.shape(1), kernel_layout, groups)
    user = p.desc("user_weights", dims, steps)
    weights = p.desc("weights", dims, None)
    bias = p.desc("bias", [p.out_shape()[layout.index("C")]], [1]) if p.has_bias() else "NULL"
    top, left, bottom, right = pad_2d(get_ints(props, "padding"))
    dh, dw = get_ints(props, "dilation")
    sizes = p.array("conv_strides", get_ints(props, "strides"))
    dilates = p.array("dilates", [dh - 1, dw - 1])
    pad_l, pad_r = p.array("pad_l", [top, left]), p.array("pad_r", [bottom, right])
    geometry = f"{sizes}, {dilates}, {pad_l}, {pad_r}"
    p.init.line("dnnl_convolution_desc_t desc;")
    p.check(
        f"dnnl_dilated_convolution_forward_desc_init(&desc, dnnl_forward_inference, "
        f"dnnl_convolution_direct, {src}, {weights}, {bias}, {dst}, {geometry})",
        "describing the convolution",
    )
    kernels = winograd_kernels(p)
    if kernels is not None:
        p.init.line("#ifndef XRELAY_DNNL_NO_WINOGRAD")
        blocked_src = p.desc("blocked_src", logical(p.shape(0), layout, "NCHW")[0], None)
        blocked_dst = p.desc("blocked_dst", logical(p.out_shape(), layout, "NCHW")[0], None)
        p.init.line("dnnl_convolution_desc_t winograd;")
        p.init.line(
            f"dnnl_status_t described = dnnl_dilated_convolution_forward_desc_init(&winograd, "
            f"dnnl_forward_inference, dnnl_convolution_winograd, {blocked_src}, {weights}, "
            f"{bias}, {blocked_dst}, {geometry});"
        )
        post_ops = p.post_ops()
        p.init.line(
            f'if (xd_winograd(s, {p.index}, described, &winograd, "{kernels[0]}", '
            f'"{kernels[1]}", {post_ops}, {src}, {dst}))'
        )
        p.init.line("#endif")
    with p.init.block():
        p.create("&desc")
    p.buffer("DNNL_ARG_SRC", "dnnl_query_src_md", 0, p.op.operands[0], src)
    p.weights(p.op.operands[1], user)
    if p.has_bias():
        p.buffer("DNNL_ARG_BIAS", "dnnl_query_weights_md", 1, p.op.operands[2])
    p.result("DNNL_ARG_DST", "dnnl_query_dst_md", dst)
