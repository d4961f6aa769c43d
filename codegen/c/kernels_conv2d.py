"""The host's float32 `nn.conv2d` (NCHW / OIHW, and NHWC 1x1): the shared library's kernels.

Which kernel (`plan`, `kernels_conv2d_nhwc.plan`):

- depthwise (groups = input channels, one input channel per group, any channel
  multiplier): `codegen/kernels/conv_depthwise.py`;
- any other group count: the register-blocked direct kernel
  (`codegen/kernels/conv_direct.py`), once per group (groups = 1: once); a 1x1,
  stride 1, unpadded conv over its planes split into rows that fill the vectors
  (`conv_direct.flat_rows`: ShuffleNet's 7, 14 and 28 columns as 49, 196 and 784);
- 1x1, stride 1, unpadded, not depthwise, without an epilogue or from `GEMM_DEPTH`
  input channels per group: the shared GEMM per image and group,
  `out[g] = weight[g] @ data[g]` over the group's channels (`by_sgemm`);
- NHWC data with HWIO / OHWI weights, 1x1, stride 1, unpadded: one GEMM over
  the pixels (`kernels_conv2d_nhwc.py`); any other NHWC conv with those weights:
  the NHWC direct kernels (`codegen/kernels/conv_nhwc.py`);

each printed as a routine specialized to the op (`codegen/kernels/routine.py`:
compiled with the library's `-O3` and the machine's ISA, single-threaded) that
the op's kernel calls. The op's `Kernel.epilogue` (bias per output channel,
residual of the output's shape, an activation: `codegen/c/epilogue.py`) is
applied in the routine's store (after a GEMM: in one pass over its output),
so `nn.conv2d` is registered in `EPILOGUE_PRODUCERS` for exactly the ops it
takes (`takes`).

Numerics: float32 accumulators with fused multiply-adds (the accel kernels'),
each output the recursive float32 sum of its `C/groups * KH * KW` products in
tap order (the GEMM's: blocks of 256 added, docs/semantics.md): within about
`taps * 2^-24 * sum |w * x|` of the exact sum, well inside issue 16's 1e-4 of
the output's magnitude for the models' sizes. Everything else (other dtypes,
layouts, ranks, scratch rows past the budget) keeps the double-accumulator
loops of `kernels_conv.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xrelay.codegen.c import kernels_conv, kernels_gemm
from xrelay.codegen.c import kernels_conv2d_nhwc as nhwc
from xrelay.codegen.c.epilogue import EPILOGUE_PRODUCERS
from xrelay.codegen.c.epilogue import Epilogue as HostEpilogue
from xrelay.codegen.c.kernel_api import Kernel, leaf_types, numel, scalar, static_shape
from xrelay.codegen.c.scalars import INDEX
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.kernels import (
    conv_depthwise,
    conv_direct,
    conv_nhwc,
    conv_plan,
    gemm,
    routine,
    vectors,
)
from xrelay.dialects.relay.base import get_int, get_ints, get_str
from xrelay.dialects.relay.nn import pad_2d


@dataclass(frozen=True)
class Plan:
    """How a float32 conv2d runs: one group's `Conv` and the group count, or depthwise."""

    conv: conv_plan.Conv
    groups: int
    depthwise: bool


def plan(op: Operation) -> Plan | None:
    """The plan of a `relay.nn.conv2d` the shared kernels take, None for the loops."""
    props = op.properties
    types = [t for v in (*op.operands, *op.results) for t in leaf_types(v.type)]
    if len(types) != 3 or any(scalar(t).ctype != "float" for t in types):
        return None
    if get_str(props, "data_layout") != "NCHW" or get_str(props, "kernel_layout") != "OIHW":
        return None
    (n, c, h, w), (o, per_group, kh, kw), (_, _, oh, ow) = (static_shape(t) for t in types)
    if 0 in (n, c, h, w, o, kh, kw, oh, ow):
        return None
    groups = get_int(props, "groups")
    sh, sw = get_ints(props, "strides")
    dh, dw = get_ints(props, "dilation")
    top, left, _, _ = pad_2d(get_ints(props, "padding"))
    if groups == c and groups > 1 and per_group == 1 and o % c == 0:
        conv = conv_plan.Conv(n, c, h, w, o, kh, kw, oh, ow, sh, sw, dh, dw, top, left)
        return Plan(conv, 1, True) if conv_depthwise.fits(conv) else None
    cg, og = c // groups, o // groups
    images = (c * h * w, o * oh * ow)
    conv = conv_plan.Conv(n, cg, h, w, og, kh, kw, oh, ow, sh, sw, dh, dw, top, left, *images)
    fits = conv_direct.fits(conv, conv_direct.HOST_SCRATCH_FLOATS)
    conv = conv_direct.flat_rows(conv, conv_direct.HOST_SCRATCH_FLOATS)
    return Plan(conv, groups, False) if fits else None


def takes(op: Operation) -> bool:
    """Whether the host's conv2d kernel is the shared library's (and applies an epilogue)."""
    return plan(op) is not None or nhwc.plan(op) is not None or nhwc.direct_plan(op) is not None


def shared_epilogue(epilogue: HostEpilogue | None) -> conv_plan.Epilogue:
    """The host's epilogue as the shared printers take it (pointers `eb`, `er`)."""
    if epilogue is None:
        return conv_plan.Epilogue()
    act = epilogue.activation
    clip = None
    if act == "clip":
        assert epilogue.clip is not None
        clip = (conv_plan.literal(epilogue.clip[0]), conv_plan.literal(epilogue.clip[1]))
    return conv_plan.Epilogue(
        "eb" if epilogue.bias else None,
        "er" if epilogue.residual else None,
        act == "relu",
        clip,
        act if act not in (None, "relu", "clip") else None,
    )


def conv2d(k: Kernel) -> None:
    """Print `k` (a `relay.nn.conv2d`) as a call of its routine, or the loops."""
    found, pointwise = plan(k.op), nhwc.plan(k.op)
    direct = nhwc.direct_plan(k.op) if found is None and pointwise is None else None
    if found is None and pointwise is None and direct is None:
        assert k.epilogue is None, "an epilogue on a conv2d the shared kernels do not take"
        kernels_conv.conv(k)
        return
    epilogue = shared_epilogue(k.epilogue)
    params = ["const float *restrict data", "const float *restrict weight", "float *out"]
    args = ["in0", "in1", "out0"]
    if k.epilogue is not None and k.epilogue.bias:
        params.append("const float *bias")
        args.append(k.epilogue.bias)
    if k.epilogue is not None and k.epilogue.residual:
        params.append("const float *residual")
        args.append(k.epilogue.residual)
    w = CWriter(1)
    preludes: tuple[str, ...] = (vectors.PRELUDE,)
    if direct is not None:
        nhwc.direct_body(w, direct, epilogue)
        preludes = (vectors.PRELUDE, conv_nhwc.PRELUDE)
        stem, kind = (
            ("xc_dwconv_nhwc", "NHWC depthwise")
            if direct.is_depthwise
            else ("xc_conv_nhwc", "NHWC direct")
        )
    elif found is None:
        assert pointwise is not None
        k.libraries.add("gemm")
        nhwc.body(w, pointwise, epilogue)
        stem, kind = "xc_conv1x1_nhwc", "GEMM"
    elif by_sgemm(found, epilogue):
        k.libraries.add("gemm")
        packs = kernels_gemm.PACK_CONSTANT_WEIGHTS and 1 in k.constant_ins
        if packs:  # the weight packed once, into buffers of the call site's (not the routine's)
            size = found.groups * gemm.packed_a_floats(found.conv.o, found.conv.c)
            packing = gemm.call_site_packing("xp_a", size, found.groups)
            packing.declare(k.w)
            for ctype, name, argument in packing.parameters():
                params.append(f"{ctype}{name}")
                args.append(argument)
        _gemm(w, found, epilogue, packs)
        stem, kind = "xc_conv1x1", "GEMM"
    else:
        if reads_padding(found.conv):
            _finite_guard(w, k, found, epilogue)
        if found.groups > 1:
            with w.loop("g", found.groups):
                _group(w, found, epilogue, "g")
        else:
            _group(w, found, epilogue, None)
        stem, kind = ("xc_dwconv", "depthwise") if found.depthwise else ("xc_conv", "direct")
    if epilogue.activation:
        preludes = (*preludes, conv_plan.ACTIVATIONS)
    made = routine.routine(stem, ", ".join(params), w.lines, preludes)
    k.routines.append(made)
    k.w.line(f"/* the shared {kind} kernel (codegen/kernels) */")
    k.w.line(f"{made.name}({', '.join(args)});")


GEMM_DEPTH = 256
"""A 1x1 conv with an epilogue takes the GEMM (then a pass over its output) from this many
input channels on; below, the direct kernel applies it in its store. A guess from the GEMM's
gains (`by_sgemm`) against a pass's cost, not measured with a fused epilogue."""


def by_sgemm(found: Plan, epilogue: conv_plan.Epilogue) -> bool:
    """Whether the conv is a matrix product per image and group (1x1, stride 1, no padding,
    not depthwise) that takes `xg_sgemm`: always without an epilogue (groups 1: the GEMM
    measured 1.1x the direct kernel's speed at 256 -> 64 and 64 -> 256 channels at 56x56,
    1.5-1.8x at 1024 -> 256 at 14x14 and 512 -> 2048 at 7x7), with one from `GEMM_DEPTH`
    input channels per group. ShuffleNet's 4-group 1x1 convs (34 to 136 channels per group,
    7x7 to 28x28, with epilogues) run faster through the direct kernel over flattened rows
    (`conv_direct.flat_rows`): the model took 1.1x the time with a GEMM per group."""
    conv = found.conv
    return (
        (epilogue == conv_plan.Epilogue() or conv.c >= GEMM_DEPTH)
        and not found.depthwise
        and (conv.kh, conv.kw, conv.sh, conv.sw) == (1, 1, 1, 1)
        and (conv.oh, conv.ow) == (conv.h, conv.w)
        and conv.top == conv.left == 0
    )


def _gemm(w: CWriter, found: Plan, epilogue: conv_plan.Epilogue, packs: bool) -> None:
    """Per image and group, `out[g] = weight[g] @ data[g]` by `xg_sgemm` (the group's
    `o x c` weights, `c` input planes, `o` output planes), then the epilogue over the
    image's output in one vectorized pass (it reads the output back from cache per channel).
    `packs`: the weight is a constant, each group's packed once (`xg_sgemm_pa`) into
    `packed` (the call site's buffer, `gemm.packed_a_floats` per group, guarded by
    `state[g]`)."""
    conv, groups = found.conv, found.groups
    plane = conv.h * conv.w
    in_image = conv.in_image or conv.c * plane
    out_image = conv.out_image or conv.o * plane
    size = gemm.packed_a_floats(conv.o, conv.c)
    with w.loop("n", conv.n):
        w.line(f"float *out0 = out + n * {out_image};")
        if groups == 1:
            data = (f"data + n * {in_image}", plane, 1)
            packed = ("packed", "state", 0, conv.o) if packs else None
            call = gemm.call((conv.o, plane, conv.c), ("weight", conv.c, 1), data, ("out0", plane),
                             a_packed=packed)  # fmt: skip
            w.line(call)
        else:
            with w.loop("g", groups):
                weight = (f"weight + g * {conv.o * conv.c}", conv.c, 1)
                data = (f"data + n * {in_image} + g * {conv.c * plane}", plane, 1)
                out = (f"out0 + g * {conv.o * plane}", plane)
                packed = (f"packed + g * {size}", "state + g", 0, conv.o) if packs else None
                w.line(gemm.call((conv.o, plane, conv.c), weight, data, out, a_packed=packed))
        _epilogue_pass(w, conv.o * groups, plane, epilogue)


def _epilogue_pass(w: CWriter, channels: int, plane: int, epilogue: conv_plan.Epilogue) -> None:
    """The epilogue over image `n`'s output at `out0` (`channels` planes of `plane`
    floats), vectorized; nothing without one."""
    tail = conv_plan.finish("v", epilogue, "xa_ldn(er + i, m)" if epilogue.residual else None)
    if not (epilogue.bias or tail):
        return
    with w.loop("oc", channels):
        w.line(f"float *p = out0 + oc * {plane};")
        if epilogue.residual:
            w.line(f"const float *er = residual + n * {channels * plane} + oc * {plane};")
        w.line(f"const xa_v b = {'xa_splat(bias[oc])' if epilogue.bias else '(xa_v){0}'};")
        with w.block(f"for ({INDEX} i = 0; i < {plane}; i += XA_VL)"):
            w.line(f"const {INDEX} m = {plane} - i;")
            w.line("xa_v v = xa_ldn(p + i, m) + b;")
            for line in tail:
                w.line(line)
            w.line("xa_stn(p + i, v, m);")


def reads_padding(conv: conv_plan.Conv) -> bool:
    """Whether some tap of the scratch kernels reads a padding column (a zero there)."""
    reach = (conv.ow - 1) * conv.sw + (conv.kw - 1) * conv.dw - conv.left
    return conv.left > 0 or reach >= conv.w


def _finite_guard(w: CWriter, k: Kernel, found: Plan, epilogue: conv_plan.Epilogue) -> None:
    """Weights holding +-Inf or NaN run the loops of `kernels_conv.py` (then the epilogue):
    the scratch kernels would multiply them by the zero padding (`0 * inf` is NaN) where
    the reference adds nothing (docs/semantics.md). A scan of the weights, once per call."""
    conv = found.conv
    channels = conv.o * found.groups
    count = numel(k.in_shape(1))
    w.line("int finite = 1;")
    with w.loop("i", count):
        w.line("finite &= isfinite(weight[i]) != 0;")
    with w.block("if (!finite)"):
        w.line("const float *restrict in0 = data;")
        w.line("const float *restrict in1 = weight;")
        w.line("float *out0 = out;")
        loops = Kernel(k.op, w, ["in0", "in1"], ["out0"], k.in_types[:2], k.out_types)
        kernels_conv.conv(loops)
        plane = conv.oh * conv.ow
        if epilogue != conv_plan.Epilogue():
            with w.loop("n", conv.n):
                w.line(f"float *restrict out0 = out + n * {channels * plane};")
                _epilogue_pass(w, channels, plane, epilogue)
        w.line("return;")


def _group(w: CWriter, found: Plan, epilogue: conv_plan.Epilogue, g: str | None) -> None:
    """One group's pointers (`in0`, `in1`, `out0`, `eb`, `er`) and its kernel over every
    output row (blocked) or plane (depthwise)."""
    conv = found.conv

    def at(base: str, step: int) -> str:
        return f"{base} + {g} * {step}" if g else base

    weights = conv.o * (1 if found.depthwise else conv.c) * conv.kh * conv.kw
    w.line(f"const float *restrict in0 = {at('data', conv.c * conv.h * conv.w)};")
    w.line(f"const float *restrict in1 = {at('weight', weights)};")
    w.line(f"float *out0 = {at('out', conv.o * conv.oh * conv.ow)};")
    if epilogue.bias:
        w.line(f"const float *eb = {at('bias', conv.o)};")
    if epilogue.residual:
        w.line(f"const float *er = {at('residual', conv.o * conv.oh * conv.ow)};")
    with w.block():
        if found.depthwise:
            w.line(f"const {INDEX} q0 = 0, q1 = {conv.n * conv.c};")
            conv_depthwise.planes(w, conv_depthwise.Depthwise(conv, conv.o // conv.c), epilogue)
        else:
            w.line(f"const {INDEX} q0 = 0, q1 = {conv.n * conv.oh};")
            conv_direct.rows(w, conv, epilogue, conv_direct.HOST_SCRATCH_FLOATS)


EPILOGUE_PRODUCERS["relay.nn.conv2d"] = takes
