"""`convert-layout` (TVM's `ConvertLayout`): run convs and pools in a desired layout.

The option names, per op, the layouts wanted (TVM's `desired_layouts`)::

    ConvertLayout({"nn.conv2d": ["NCHW", "default"], "nn.max_pool2d": ["NHWC"]})
    xrelay-opt m.mlir \\
      -p 'convert-layout{desired-layouts="nn.conv2d:NCHW:default","nn.max_pool2d:NHWC"}'

On the command line each entry is one string `op:data_layout[:kernel_layout]`
(quoted: xDSL's option lexer reads `.` and `:` only inside quotes), the
entries a comma-separated tuple. Ops: `nn.conv2d` (data NCHW or NHWC; kernel
OIHW, HWIO, OHWI, HWOI or `default`, which is also what a missing kernel layout
means), `nn.conv2d_transpose` (data NCHW or NHWC; kernel IOHW, OIHW, HWIO, HWOI
or `default`), `nn.deformable_conv2d` (data, and its offset, NCHW or NHWC; kernel as
conv2d's, `default` OIHW / HWIO as TVM's `convert_deformable_conv2d`), the pools
`nn.max_pool2d`, `nn.avg_pool2d`, `nn.global_max_pool2d`, `nn.global_avg_pool2d`,
`image.resize2d` (one layout, NCHW or NHWC) and `image.resize1d` (NCW or NWC), and
`vision.roi_align` / `vision.roi_pool` (data NCHW or NHWC, then `default` or nothing for
the rois, which stay [num_roi, 5]).
`default` is the kernel layout TVM pairs with the data layout: OIHW for NCHW,
HWIO for NHWC, HWOI for an NHWC depthwise conv (groups = input channels =
output channels), as TVM's `convert_conv2d`; IOHW / HWIO for conv2d_transpose.
An unknown op or layout is an error when the pass is built. A `relay.` prefix
on the op name is accepted.

What it does, in each optimizable function (a function pass): first TVM's
required CanonicalizeOps (`nn.bias_add` becomes `expand_dims` + `add`, see
`passes/canonicalize_ops.py`), then block by block in program order:

- A listed op not already in its desired layouts is rebuilt in them: its data
  goes through `relay.layout_transform(x, old, new)`, and a conv's weight
  through `relay.layout_transform(w, old_kernel, new_kernel)` (on a constant
  weight FoldConstant folds it later). Its result is now the old value
  relaid: the pass records it as "value v is held by v' in layout dst instead
  of src" and does not transform it back yet.
- Layout-agnostic ops on such a value are rebuilt to work on v' directly,
  and their results are recorded the same way (the new layout propagates):
  - unary elementwise ops (`relu`, `exp`, `tanh`, `clip`, `cast`, `leaky_relu`, ...) and
    `annotation.stop_fusion` (TVM: ElemwiseArbitraryLayout);
  - broadcasting binary ops (arithmetic, `maximum`/`minimum`, comparisons) whose
    other operand has rank <= 4: a rank-4 other operand is transformed too, a
    lower-rank one (say a per-channel constant `[C, 1, 1]` or a bias `[C]`) is
    first widened with `expand_dims(axis=0)` to rank 4 then transformed, and one
    holding a single element (a scalar) is left as it is;
  - ops with an axis: `nn.batch_norm`, `nn.softmax`, `nn.log_softmax`,
    `concatenate`, `split` get the axis's new position (`softmax(y, axis=3)` in
    NHWC becomes `axis=1` in NCHW); `nn.pad` gets its `pad_width` pairs
    permuted; `squeeze`, reductions, `strided_slice`, `topk`, `nn.layer_norm`,
    `nn.instance_norm`, `nn.l2_normalize` and `image.resize1d/2d/3d` renumber their
    axes as TVM's FInferCorrectLayout (`passes/convert_layout_axes.py`); an op
    dropping axes leaves a result held in the layouts without those letters
    (`NWC` held as `NCW` after a squeeze);
  - the pools not listed in the option take the new layout of their input when
    their `layout` is the recorded old one;
  - `tuple` and `tuple_get_item` carry the layout of each field, when the tuple
    is read only by `tuple_get_item`s of the same block (else the fields go
    back before the tuple), and so do the tuples of `batch_norm` (field 0),
    `split`, `topk` and `dropout` (read elsewhere, such a tuple is rebuilt from
    its fields, each transformed back, as TVM);
  - a `layout_transform(v, src, X)` of the original graph becomes
    `layout_transform(v', dst, X)` (or v' itself when X is dst).
- Everywhere else (function returns, `func.call`, reductions, reshapes,
  `batch_flatten`, `dense`, convs and pools in another layout, ops in nested
  regions, BYOC annotations, composites, ...) the value is transformed back,
  once per value, right before its first such use: the boundaries.
- A transform of a value that is itself a transform the other way is the
  original value (`A -> B` then `B -> A` cancels), and each (value, layouts)
  pair is transformed once; so two consecutive convs need only the transforms
  at the edges. Original ops whose results no longer have users are erased.

A function already in the desired layouts is left unchanged. Function
signatures never change: values cross the boundaries in their original layout.
Numerics are exactly the original ones (`layout_transform` only moves data).
Blocks nested in `relay.if` branches are converted on their own (their values
cross into a branch in the original layout); composite bodies are left alone.

Where it differs from TVM, and why:

- Only the ops listed above follow a new layout; every other op is a boundary.
  TVM also lets `batch_flatten` take whatever layout comes (its
  `test_dual_path_convert_layout` flattens the NCHW value where the original
  flattened NHWC, which changes the result); here it gets its original layout
  back, so numerics stay exact. For the same reason `argmax`/`argmin` over
  several axes follow only when the new layout keeps their order. TVM remaps
  the axes of `transpose` and a few more; here they are boundaries.
- InferType is not run first: types are inferred as ops are rebuilt.
- `qnn.*` ops are not converted. `vision.roi_align` / `roi_pool` not listed keep their
  own layout (TVM's FInferCorrectLayout for them returns the op's `layout`): their data
  goes back, as at any boundary.

Blocked layouts (`nn.conv2d:NCHW4c:OIHW4i4o`, which makes
`nn.contrib_conv2d_NCHWc`) follow `passes/convert_layout_blocked.py`;
`LayoutConfig(skip_layers=[...])` (`passes/layout_config.py`) leaves the given
conv2d layers alone.

Linear: each op is visited once per enclosing block level, and transforms are
looked up in dicts keyed by values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xrelay.dialects.builder.attrs import int_, ints
from xrelay.dialects.relay.annotation import StopFusionOp
from xrelay.dialects.relay.base import RelayOp, get_int, get_ints, get_str, normalize_axis
from xrelay.dialects.relay.deformable_conv import DeformableConv2DOp
from xrelay.dialects.relay.elementwise import BinaryElementwiseOp, CastOp, UnaryElementwiseOp
from xrelay.dialects.relay.image import RESIZE1D_LAYOUTS, Resize1DOp, Resize2DOp, ResizeOp
from xrelay.dialects.relay.layout_blocked import is_plain, rank_of
from xrelay.dialects.relay.nn import (
    CONV_DATA_LAYOUTS,
    CONV_KERNEL_LAYOUTS,
    BatchNormOp,
    Conv2DOp,
    DropoutOp,
    LogSoftmaxOp,
    PadOp,
    SoftmaxOp,
)
from xrelay.dialects.relay.nn_conv import Conv2DTransposeOp
from xrelay.dialects.relay.nn_conv_blocked import Conv2DNCHWcOp
from xrelay.dialects.relay.nn_pool import (
    POOL_LAYOUTS,
    AvgPool2DOp,
    GlobalAvgPool2DOp,
    GlobalMaxPool2DOp,
    GlobalPool2DOp,
    MaxPool2DOp,
    Pool2DOp,
)
from xrelay.dialects.relay.structure import CompositeOp, TupleGetItemOp, TupleOp
from xrelay.dialects.relay.tensor import (
    ConcatenateOp,
    ExpandDimsOp,
    LayoutTransformOp,
    SplitOp,
)
from xrelay.dialects.relay.types import ANY, shape_of, tuple_elements
from xrelay.dialects.relay.vision_rcnn import ROI_LAYOUTS, ROIAlignOp, ROIPoolOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.canonicalize_ops import CanonicalizeOpsPass
from xrelay.passes.convert_layout_axes import RESIZE_LAYOUTS, remap_axes
from xrelay.passes.convert_layout_blocked import (
    blocked_split,
    check_conv_layouts,
    relayable,
    tile_of,
)
from xrelay.passes.layout_config import skip_conv2d_layer
from xrelay.passes.pass_manager import Pass

POOL_OPS: dict[str, type[RelayOp]] = {
    "nn.max_pool2d": MaxPool2DOp,
    "nn.avg_pool2d": AvgPool2DOp,
    "nn.global_max_pool2d": GlobalMaxPool2DOp,
    "nn.global_avg_pool2d": GlobalAvgPool2DOp,
    "image.resize2d": Resize2DOp,
    "image.resize1d": Resize1DOp,
}
"""The ops with one `layout` that take a desired layout, by TVM op name."""

CONV_OPS: dict[str, type[RelayOp]] = {
    "nn.conv2d": Conv2DOp,
    "nn.conv2d_transpose": Conv2DTransposeOp,
    "nn.deformable_conv2d": DeformableConv2DOp,
}
"""The ops with a data and a kernel layout that take desired layouts."""

ROI_OPS: dict[str, type[RelayOp]] = {
    "vision.roi_align": ROIAlignOp,
    "vision.roi_pool": ROIPoolOp,
}
"""The ops with a data layout and (TVM's "default" only) a rois layout."""

CONVERTIBLE = (*CONV_OPS, *POOL_OPS, *ROI_OPS)
"""Every op name the option may list."""

DEFAULT_KERNEL = {
    "nn.conv2d": {"NCHW": "OIHW", "NHWC": "HWIO", "HWNC": "HWOI"},
    "nn.conv2d_transpose": {"NCHW": "IOHW", "NHWC": "HWIO"},
    "nn.deformable_conv2d": {"NCHW": "OIHW", "NHWC": "HWIO"},
}
"""The kernel layout `default` means for each data layout (HWOI for NHWC depthwise conv2d)."""


def parse_desired_layouts(entries: Sequence[str]) -> dict[str, tuple[str, ...]]:
    """`("nn.conv2d:NHWC:default", ...)` as `{"nn.conv2d": ("NHWC", "default")}`, checked.

    ValueError names the entry and what is wrong with it.
    """
    out: dict[str, tuple[str, ...]] = {}
    for entry in entries:
        name, *layouts = entry.split(":")
        op = name.removeprefix("relay.")
        if op not in CONVERTIBLE:
            raise ValueError(
                f"desired layout '{entry}': unknown op '{name}'; "
                f"convertible ops: {', '.join(CONVERTIBLE)}"
            )
        if op in out:
            raise ValueError(f"desired layout '{entry}': '{op}' is given twice")
        if op in CONV_OPS:
            if len(layouts) == 1:
                layouts.append("default")
            if len(layouts) != 2:
                raise ValueError(
                    f"desired layout '{entry}': {op} takes a data and a kernel layout "
                    f"('{op}:NHWC:default')"
                )
            data, kernel = layouts
            if op == "nn.conv2d":
                problem = check_conv_layouts(data, kernel)
                if problem is not None:
                    raise ValueError(f"desired layout '{entry}': {problem}")
            else:
                data_layouts, kernel_layouts = _conv_layouts(op)
                _check_layout(entry, data, data_layouts, "data layout")
                _check_layout(entry, kernel, (*kernel_layouts, "default"), "kernel layout")
        elif op in ROI_OPS:
            if len(layouts) == 1:
                layouts.append("default")
            if len(layouts) != 2 or layouts[1] != "default":
                raise ValueError(
                    f"desired layout '{entry}': {op} takes a data layout and 'default' for "
                    f"the rois ('{op}:NHWC:default')"
                )
            _check_layout(entry, layouts[0], ROI_LAYOUTS, "data layout")
        else:
            if len(layouts) != 1:
                raise ValueError(f"desired layout '{entry}': {op} takes one layout ('{op}:NHWC')")
            resize = {"image.resize2d": RESIZE_LAYOUTS, "image.resize1d": RESIZE1D_LAYOUTS}
            allowed = resize.get(op, POOL_LAYOUTS)
            if op in resize or tile_of(layouts[0]) is None:
                _check_layout(entry, layouts[0], allowed, "layout")
        out[op] = tuple(layouts)
    return out


def _conv_layouts(op: str) -> tuple[Sequence[str], Sequence[str]]:
    """The data and kernel layouts the conv op `op` takes."""
    if op == "nn.conv2d_transpose":
        return Conv2DTransposeOp.DATA_LAYOUTS, Conv2DTransposeOp.KERNEL_LAYOUTS
    return CONV_DATA_LAYOUTS, CONV_KERNEL_LAYOUTS


def _check_layout(entry: str, layout: str, allowed: Sequence[str], what: str) -> None:
    if layout not in allowed:
        raise ValueError(
            f"desired layout '{entry}': unsupported {what} '{layout}'; "
            f"expected one of {', '.join(allowed)}"
        )


class Relaid(NamedTuple):
    """An original value held by `value` in layout `dst` instead of `src`."""

    value: SSAValue
    src: str
    dst: str


class RelaidTuple(NamedTuple):
    """An original tuple rebuilt as `value`, whose fields `fields` are relaid (src, dst)."""

    value: SSAValue
    fields: dict[int, tuple[str, str]]


def _remap_axis(axis: int, src: str, dst: str) -> int:
    """Where axis `axis` of a `src`-laid value sits in its `dst` layout."""
    return dst.index(src[normalize_axis(axis, len(src))])


def _tuple_readers_in(value: SSAValue, block: Block) -> bool:
    """Whether every use of a tuple value is a `tuple_get_item` in `block`."""
    return all(
        isinstance(use.operation, TupleGetItemOp) and use.operation.parent is block
        for use in value.uses
    )


class _BlockConverter:
    """Converts the ops of one block, then erases the originals it left unused."""

    def __init__(self, desired: Mapping[str, tuple[str, ...]], block: Block):
        self.desired = desired
        self.block = block
        self.anchor: Operation | None = None
        """The op being converted: new ops go right before it."""
        self.relaid: dict[SSAValue, Relaid] = {}
        self.tuples: dict[SSAValue, RelaidTuple] = {}
        self.transforms: dict[tuple[SSAValue, str, str], SSAValue] = {}
        self.expanded: dict[SSAValue, SSAValue] = {}
        self.replaced: list[Operation] = []
        """Original ops whose results are now held elsewhere, in program order."""
        self.bypassed: list[Operation] = []
        """Original layout_transforms cancelled by a transform the other way."""

    # ------------------------------------------------------------ building

    def build(
        self,
        cls: type[RelayOp],
        operands: Sequence[SSAValue],
        props: Mapping[str, Attribute],
        like: Operation | None = None,
    ) -> SSAValue:
        """A new op before the anchor, its result type inferred; attributes copied from `like`."""
        assert self.anchor is not None
        op = cls.make(operands, props, like.attributes if like is not None else None)
        op.location = self.anchor.location  # made for the op being converted
        self.block.insert_op_before(op, self.anchor)
        if like is not None:
            op.results[0].name_hint = like.results[0].name_hint
        return op.results[0]

    def transform(self, value: SSAValue, src: str, dst: str) -> SSAValue:
        """`value` relaid from `src` to `dst`: once per (value, layouts); inverse pairs cancel."""
        if src == dst:
            return value
        key = (value, src, dst)
        found = self.transforms.get(key)
        if found is not None:
            return found
        owner = value.owner
        if (
            isinstance(owner, LayoutTransformOp)
            and get_str(owner.properties, "src_layout") == dst
            and get_str(owner.properties, "dst_layout") == src
        ):
            result = owner.data
            if owner.parent is self.block:
                self.bypassed.append(owner)
        else:
            props = {"src_layout": StringAttr(src), "dst_layout": StringAttr(dst)}
            result = self.build(LayoutTransformOp, [value], props)
        self.transforms[key] = result
        return result

    def original(self, value: SSAValue) -> SSAValue:
        """A relaid value back in its original layout (other values as they are)."""
        if value in self.tuples:
            return self.original_tuple(value)
        held = self.relaid.get(value)
        if held is None:
            return value
        return self.transform(held.value, held.dst, held.src)

    def original_tuple(self, value: SSAValue) -> SSAValue:
        """A tuple with relaid fields rebuilt from its fields, each in its original layout."""
        key = (value, "", "")
        found = self.transforms.get(key)
        if found is not None:
            return found
        held = self.tuples[value]
        items: list[SSAValue] = []
        for index in range(len(tuple_elements(held.value.type))):
            item = self.build(TupleGetItemOp, [held.value], {"index": int_(index)})
            src, dst = held.fields.get(index, ("", ""))
            items.append(self.transform(item, dst, src))
        result = self.transforms[key] = self.build(TupleOp, items, {})
        return result

    def to_layout(self, value: SSAValue, src: str, dst: str) -> SSAValue:
        """`value`, read as laid out in `src`, relaid to `dst`."""
        held = self.relaid.get(value)
        if held is not None:
            if held.src == src:
                return self.transform(held.value, held.dst, dst)
            value = self.original(value)
        return self.transform(value, src, dst)

    def aligned(self, value: SSAValue, src: str, dst: str) -> SSAValue:
        """An operand broadcasting against a `src`-laid value, relaid to `dst`."""
        if value in self.relaid:
            return self.to_layout(value, src, dst)
        shape = shape_of(value.type)
        if all(d == 1 for d in shape):
            return value
        if len(shape) < rank_of(src):
            wide = self.expanded.get(value)
            if wide is None:
                props = {"axis": int_(0), "num_newaxis": int_(rank_of(src) - len(shape))}
                wide = self.expanded[value] = self.build(ExpandDimsOp, [value], props)
            value = wide
        return self.transform(value, src, dst)

    def define(self, op: Operation, value: SSAValue, src: str, dst: str) -> None:
        """`op`'s result is `value` relaid from `src` to `dst` (the same value if they agree)."""
        if src == dst:
            op.results[0].replace_all_uses_with(value)
            self.block.erase_op(op)
            return
        self.relaid[op.results[0]] = Relaid(value, src, dst)
        self.replaced.append(op)

    # ------------------------------------------------------------ the walk

    def run(self) -> None:
        for op in list(self.block.ops):
            self.anchor = op
            if self.convert_desired(op) or self.follow(op):
                continue
            self.restore_operands(op)
            if isinstance(op, CompositeOp):
                continue
            for region in op.regions:
                for inner in region.blocks:
                    _BlockConverter(self.desired, inner).run()
        self.erase_unused()

    def restore_operands(self, op: Operation) -> None:
        """A boundary: every relaid value `op` (or an op nested in it) reads goes back."""
        for nested in op.walk():
            for index, operand in enumerate(nested.operands):
                if operand in self.relaid or operand in self.tuples:
                    nested.operands[index] = self.original(operand)

    def erase_unused(self) -> None:
        for op in [*reversed(self.replaced), *reversed(self.bypassed)]:
            if op.parent is self.block and not any(r.uses for r in op.results):
                self.block.erase_op(op)

    # ------------------------------------------------------------ listed ops

    def convert_desired(self, op: Operation) -> bool:
        key = op.name.removeprefix("relay.")
        if key not in self.desired:
            return False
        if isinstance(op, Conv2DOp | Conv2DTransposeOp):
            if isinstance(op, Conv2DOp) and skip_conv2d_layer():
                return False  # LayoutConfig(skip_layers=...): a boundary
            return self.convert_conv(op, key, *self.desired[key])
        if isinstance(op, DeformableConv2DOp):
            if skip_conv2d_layer():  # TVM's convert_deformable_conv2d checks it too
                return False
            return self.convert_deformable(op, key, *self.desired[key])
        if isinstance(op, Pool2DOp | GlobalPool2DOp | ResizeOp | ROIAlignOp | ROIPoolOp):
            return self.convert_pool(op, self.desired[key][0])
        return False

    def convert_conv(self, op: RelayOp, key: str, data_layout: str, kernel_layout: str) -> bool:
        props = op.properties
        data, weight = op.operands[0], op.operands[1]
        old_data, old_kernel = get_str(props, "data_layout"), get_str(props, "kernel_layout")
        if kernel_layout == "default":
            kernel_layout = DEFAULT_KERNEL[key][data_layout]
            depthwise = key == "nn.conv2d" and self.is_depthwise(op, old_data, old_kernel)
            if data_layout == "NHWC" and depthwise:
                kernel_layout = "HWOI"
        if (data_layout, kernel_layout) == (old_data, old_kernel) and data not in self.relaid:
            return False
        tile = tile_of(data_layout)
        if tile is not None and isinstance(data, BlockArgument):
            channels = shape_of(data.type)[old_data.index("C")]
            if channels == ANY or channels % tile:
                return False  # TVM's convert_conv2d keeps such a conv as it is
        if not relayable(shape_of(data.type), old_data, data_layout) or not relayable(
            shape_of(weight.type), old_kernel, kernel_layout
        ):
            return False  # a block that does not divide its axis (where TVM fails)
        new_data = self.to_layout(data, old_data, data_layout)
        new_weight = self.transform(self.original(weight), old_kernel, kernel_layout)
        new_props = dict(props)
        new_props["data_layout"] = StringAttr(data_layout)
        new_props["kernel_layout"] = StringAttr(kernel_layout)
        cls = Conv2DNCHWcOp if tile is not None else _relay_class(op)
        result = self.build(cls, [new_data, new_weight], new_props, op)
        self.define(op, result, old_data, data_layout)
        return True

    @staticmethod
    def is_depthwise(op: Operation, data_layout: str, kernel_layout: str) -> bool:
        """TVM's `is_depthwise_conv2d`: input channels = output channels = groups."""
        groups = get_int(op.properties, "groups")
        channels_in = shape_of(op.operands[0].type)[data_layout.index("C")]
        channels_out = shape_of(op.operands[1].type)[kernel_layout.index("O")]
        return channels_in != ANY and channels_in == channels_out == groups

    def convert_pool(self, op: Operation, layout: str) -> bool:
        old = get_str(op.properties, "layout")
        data = op.operands[0]
        if layout == old and data not in self.relaid:
            return False
        if not relayable(shape_of(data.type), old, layout):
            return False  # a block that does not divide C (where TVM fails)
        relaid = self.to_layout(data, old, layout)
        props = dict(op.properties)
        props["layout"] = StringAttr(layout)
        rest = [self.original(v) for v in op.operands[1:]]  # roi ops' rois: [R, 5] as they are
        result = self.build(_relay_class(op), [relaid, *rest], props, op)
        self.define(op, result, old, layout)
        return True

    def convert_deformable(
        self, op: RelayOp, key: str, data_layout: str, kernel_layout: str
    ) -> bool:
        """TVM's `convert_deformable_conv2d`: data and offset (in the data layout) and weight
        relaid; `default` is OIHW for NCHW, HWIO for NHWC (no depthwise case)."""
        props = op.properties
        data, offset, weight = op.operands
        old_data, old_kernel = get_str(props, "data_layout"), get_str(props, "kernel_layout")
        if kernel_layout == "default":
            kernel_layout = DEFAULT_KERNEL[key][data_layout]
        if (data_layout, kernel_layout) == (old_data, old_kernel) and data not in self.relaid:
            return False
        new_data = self.to_layout(data, old_data, data_layout)
        new_offset = self.to_layout(offset, old_data, data_layout)
        new_weight = self.transform(self.original(weight), old_kernel, kernel_layout)
        new_props = dict(props)
        new_props["data_layout"] = StringAttr(data_layout)
        new_props["kernel_layout"] = StringAttr(kernel_layout)
        if get_str(props, "out_layout"):
            new_props["out_layout"] = StringAttr(data_layout)
        result = self.build(DeformableConv2DOp, [new_data, new_offset, new_weight], new_props, op)
        self.define(op, result, old_data, data_layout)
        return True

    # ------------------------------------------------------------ followers

    def follow(self, op: Operation) -> bool:
        """Rebuild a layout-agnostic op on relaid operands; False for a boundary."""
        if isinstance(op, TupleGetItemOp):
            return self.follow_get_item(op)
        first = next((self.relaid[v] for v in op.operands if v in self.relaid), None)
        if first is None or not isinstance(op, RelayOp):
            return False
        src, dst = first.src, first.dst
        props = dict(op.properties)
        if not (is_plain(src) and is_plain(dst)) and not self.follows_blocked(op, first):
            return False
        if isinstance(op, UnaryElementwiseOp | CastOp | StopFusionOp):
            self.define(op, self.build(type(op), [first.value], props, op), src, dst)
        elif isinstance(op, BinaryElementwiseOp):
            if any(len(shape_of(v.type)) > rank_of(src) for v in op.operands):
                return False
            operands = [self.aligned(v, src, dst) for v in op.operands]
            self.define(op, self.build(type(op), operands, props, op), src, dst)
        elif isinstance(op, ConcatenateOp):
            operands = [self.to_layout(v, src, dst) for v in op.operands]
            props["axis"] = int_(_remap_axis(get_int(props, "axis"), src, dst))
            self.define(op, self.build(ConcatenateOp, operands, props, op), src, dst)
        elif isinstance(op, SoftmaxOp | LogSoftmaxOp):
            if op.operands[0] not in self.relaid:
                return False
            props["axis"] = int_(_remap_axis(get_int(props, "axis"), src, dst))
            operands = [first.value, *op.operands[1:]]
            self.define(op, self.build(type(op), operands, props, op), src, dst)
        elif isinstance(op, PadOp):
            widths = get_ints(props, "pad_width")
            order = [src.index(axis) for axis in dst]
            props["pad_width"] = ints([w for k in order for w in widths[2 * k : 2 * k + 2]])
            self.define(op, self.build(PadOp, [first.value], props, op), src, dst)
        elif isinstance(op, Pool2DOp | GlobalPool2DOp):
            return self.follow_pool(op, first)
        elif isinstance(op, LayoutTransformOp):
            if get_str(props, "src_layout") != src:
                return False
            result = self.transform(first.value, dst, get_str(props, "dst_layout"))
            self.define(op, result, src, src)
        elif not self.follow_tuple_maker(op, first):
            return self.follow_axes(op, first)
        return True

    def follow_pool(self, op: RelayOp, first: Relaid) -> bool:
        """A pool not listed takes the new layout of its input (plain, or NCHW{k}c)."""
        src, dst = first.src, first.dst
        props = dict(op.properties)
        if get_str(props, "layout") != src or (dst not in POOL_LAYOUTS and tile_of(dst) is None):
            return False
        props["layout"] = StringAttr(dst)
        self.define(op, self.build(_relay_class(op), [first.value], props, op), src, dst)
        return True

    def follows_blocked(self, op: RelayOp, first: Relaid) -> bool:
        """Whether `op` may follow a value relaid to or from a blocked layout
        (`convert_layout_blocked.py`); a split gets its properties there."""
        src, dst = first.src, first.dst
        if isinstance(op, UnaryElementwiseOp | CastOp | TupleOp | LayoutTransformOp):
            return True
        if isinstance(op, Pool2DOp | GlobalPool2DOp):
            return is_plain(src)
        if isinstance(op, BinaryElementwiseOp):
            if not is_plain(src):
                return all(v in self.relaid for v in op.operands)
            return all(
                v in self.relaid or self.aligned_shape_fits(shape_of(v.type), src, dst)
                for v in op.operands
            )
        return isinstance(op, SplitOp) and is_plain(src) and op.operands[0] in self.relaid

    @staticmethod
    def aligned_shape_fits(shape: tuple[int, ...], src: str, dst: str) -> bool:
        """Whether `aligned` can relay an operand of `shape` (a scalar is left as it is)."""
        if all(d == 1 for d in shape):
            return True
        rank = rank_of(src)
        if len(shape) > rank:
            return False
        return relayable((1,) * (rank - len(shape)) + tuple(shape), src, dst)

    def follow_axes(self, op: RelayOp, first: Relaid) -> bool:
        """Ops renumbering their axes for the new layout of their data (operand 0)."""
        if op.operands[0] not in self.relaid:
            return False
        remapped = remap_axes(op, first.src, first.dst)
        if remapped is None:
            return False
        operands = [first.value, *(self.original(v) for v in op.operands[1:])]
        result = self.build(type(op), operands, remapped.props, op)
        if remapped.fields:
            layouts = (remapped.src, remapped.dst)
            self.tuples[op.results[0]] = RelaidTuple(
                result, dict.fromkeys(range(remapped.fields), layouts)
            )
            self.replaced.append(op)
        else:
            self.define(op, result, remapped.src, remapped.dst)
        return True

    def follow_tuple_maker(self, op: RelayOp, first: Relaid) -> bool:
        """Ops making a tuple read only by `tuple_get_item`s here: the fields keep layouts."""
        if not isinstance(op, TupleOp | BatchNormOp | DropoutOp | SplitOp):
            return False
        if op.operands[0] not in self.relaid and not isinstance(op, TupleOp):
            return False
        if isinstance(op, TupleOp) and not _tuple_readers_in(op.results[0], self.block):
            return False  # TVM realizes the fields of a tuple expression read elsewhere
        src, dst = first.src, first.dst
        props = dict(op.properties)
        fields: dict[int, tuple[str, str]]
        if isinstance(op, TupleOp):
            held = {i: self.relaid[v] for i, v in enumerate(op.operands) if v in self.relaid}
            fields = {i: (h.src, h.dst) for i, h in held.items()}
            operands = [held[i].value if i in held else v for i, v in enumerate(op.operands)]
            result = self.build(TupleOp, operands, props, op)
        elif isinstance(op, SplitOp):
            if is_plain(dst):
                props["axis"] = int_(_remap_axis(get_int(props, "axis"), src, dst))
            else:
                blocked = blocked_split(props, shape_of(op.operands[0].type), src, dst)
                if blocked is None:
                    return False
                props = blocked
            result = self.build(SplitOp, [first.value], props, op)
            fields = dict.fromkeys(range(len(tuple_elements(result.type))), (src, dst))
        else:
            if isinstance(op, BatchNormOp):
                props["axis"] = int_(_remap_axis(get_int(props, "axis"), src, dst))
                fields = {0: (src, dst)}
            else:
                fields = {0: (src, dst), 1: (src, dst)}
            operands = [first.value, *op.operands[1:]]
            result = self.build(type(op), operands, props, op)
        self.tuples[op.results[0]] = RelaidTuple(result, fields)
        self.replaced.append(op)
        return True

    def follow_get_item(self, op: TupleGetItemOp) -> bool:
        held = self.tuples.get(op.tuple)
        if held is None:
            return False
        props = dict(op.properties)
        result = self.build(TupleGetItemOp, [held.value], props, op)
        src, dst = held.fields.get(get_int(props, "index"), ("", ""))
        self.define(op, result, src, dst)
        return True


def _relay_class(op: Operation) -> type[RelayOp]:
    cls = type(op)
    assert issubclass(cls, RelayOp)
    return cls


@dataclass(frozen=True)
class ConvertLayoutPass(XdslFunctionPass):
    """Rebuild convs and pools in the desired layouts, transforming only at the boundaries."""

    name = "convert-layout"
    tvm_name: ClassVar[str] = "ConvertLayout"
    opt_level: ClassVar[int] = 3

    desired_layouts: tuple[str, ...] = ()
    """One `op:data_layout[:kernel_layout]` string per op, e.g. `nn.conv2d:NHWC:default`."""

    def __post_init__(self) -> None:
        parse_desired_layouts(self.desired_layouts)  # ValueError for a bad entry

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        desired = parse_desired_layouts(self.desired_layouts)
        CanonicalizeOpsPass().apply_to_function(ctx, function)  # TVM's required pass
        if desired and function.body.blocks:
            _BlockConverter(desired, function.body.block).run()


def ConvertLayout(desired_layouts: Mapping[str, Sequence[str]]) -> Pass:
    """TVM's `relay.transform.ConvertLayout(desired_layouts)`.

    `desired_layouts` maps an op name to its layouts: `{"nn.conv2d": ["NHWC", "default"]}`
    (data, kernel) or `{"nn.max_pool2d": ["NHWC"]}`.
    """
    entries = tuple(":".join([op, *map(str, layouts)]) for op, layouts in desired_layouts.items())
    return XdslPass(ConvertLayoutPass(desired_layouts=entries))
