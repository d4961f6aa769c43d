"""TVM's operator pattern kinds (`TOpPattern`) for the relay dialect, as FuseOps reads them.

`OpPatternKind` is TVM's `OpPatternKind` enum with TVM's values; `OP_PATTERNS`
gives the kind of every relay op class, one table, following TVM's
registrations (`register_pattern` in `python/tvm/relay/op/*/_*.py` and
`TOpPattern` in `src/relay/op/**.cc`, v0.19):

- **ElemWise (0)**: unary math (`negative abs exp log sqrt rsqrt tanh sigmoid
  erf floor ceil`, and `elementwise_math`'s: trigonometry, `trunc round sign isnan
  isinf isfinite logical_not bitwise_not`), `clip`, `cast`, `nn.relu`, `nn.leaky_relu`,
  and the fill ops `zeros ones full full_like zeros_like ones_like`;
- **Broadcast (1)**: the binary arithmetic, comparison, modulo, bitwise, logical and
  shift ops, `where`, `nn.bias_add`, `repeat`;
- **Injective (2)**: `reshape transpose squeeze expand_dims concatenate split stack
  layout_transform strided_slice take`, `nn.batch_flatten`, `nn.pad`, `image.resize1d/2d/3d`, and
  `tuple_get_item` (a structural node TVM marks injective);
- **CommReduce (3)**: `sum mean max min prod argmax argmin`;
- **OutEWiseFusable (4)**: `nn.conv2d nn.dense matmul`, `nn.conv1d/3d` and the transposed
  convolutions, the pools of every rank, `vision.roi_align vision.roi_pool`,
  `nn.softmax`, `nn.log_softmax`, `nn.batch_norm` (TVM registers all of these
  so: pools and softmax may absorb the elementwise ops after them too);
- **Tuple (7)**: `tuple`;
- **Opaque (8)**: `nn.dropout` (TVM: opaque and stateful), `topk argsort sort`,
  `vision.all_class_non_max_suppression`, the BYOC
  annotations `compiler_begin`/`compiler_end` (opaque and non-computational
  in TVM), the fusion barrier `annotation.stop_fusion`, `if`, `composite`, `yield`,
  and every op of another dialect
  (`func.call` included), which `op_pattern` does not find in the table.

The ops added for the ONNX frontend follow TVM's registrations the same way:
`nn.prelu` Broadcast, `nn.batch_matmul`, `nn.l2_normalize` and the adaptive pools
OutEWiseFusable,
`nn.lrn` Opaque, and `nn.layer_norm`, `nn.instance_norm`, `nn.group_norm` Opaque
(TVM registers no pattern for them: SimplifyInference expands them first).

Two kinds depend on the op instance, as in TVM's `IndexedForwardGraph`:
`relay.constant` is ElemWise when it is a scalar of `i1`, `i32`, `i64`,
`f32` or `f64` ("simple" constants the code generator inlines) and Opaque
otherwise; `relay.tuple_get_item` is Opaque when the tuple it reads has a
field that is not a tensor.
"""

from __future__ import annotations

from enum import IntEnum

from xdsl.dialects.builtin import IntegerType, TensorType, f32, f64
from xdsl.ir import Attribute, Operation
from xrelay.dialects.relay import (
    algorithm,
    annotation,
    creation,
    deformable_conv,
    dyn,
    einsum,
    elementwise,
    elementwise_math,
    fast_math,
    image,
    image_sample,
    indexing,
    like_ops,
    movement,
    nn,
    nn_conv,
    nn_conv_blocked,
    nn_extra,
    nn_norm,
    nn_pool,
    reduce,
    reverse_reshape,
    scan,
    slice_like,
    space_batch,
    sparse_to_dense,
    stack_repeat,
    structure,
    tensor,
    upsampling,
    vision,
    vision_rcnn,
)
from xrelay.dialects.relay.types import rank_of, tensor_element_type, tuple_elements


class OpPatternKind(IntEnum):
    """TVM's `OpPatternKind`: how an op's output elements depend on its inputs (values as TVM's)."""

    ELEMWISE = 0
    """Each output element reads the input element at the same index."""
    BROADCAST = 1
    """Like ElemWise, with inputs broadcast along some axes."""
    INJECTIVE = 2
    """Each output element reads one input element (reshape, transpose, concatenate, ...)."""
    COMM_REDUCE = 3
    """A commutative reduction over some axes."""
    OUT_ELEMWISE_FUSABLE = 4
    """A complex op (conv2d, dense, pool) whose output can take elementwise ops after it."""
    TUPLE = 7
    """A tuple node."""
    OPAQUE = 8
    """Never fused."""


K = OpPatternKind

OP_PATTERNS: dict[type[Operation], OpPatternKind] = {
    # structure
    structure.ConstantOp: K.OPAQUE,  # ElemWise for simple scalars: see op_pattern
    structure.TupleOp: K.TUPLE,
    structure.TupleGetItemOp: K.INJECTIVE,  # Opaque over a tuple with non-tensor fields
    structure.YieldOp: K.OPAQUE,
    structure.IfOp: K.OPAQUE,
    structure.CompilerBeginOp: K.OPAQUE,
    structure.CompilerEndOp: K.OPAQUE,
    structure.CompositeOp: K.OPAQUE,
    # broadcasting binary ops
    elementwise.AddOp: K.BROADCAST,
    elementwise.SubtractOp: K.BROADCAST,
    elementwise.MultiplyOp: K.BROADCAST,
    elementwise.DivideOp: K.BROADCAST,
    elementwise.PowerOp: K.BROADCAST,
    elementwise.MaximumOp: K.BROADCAST,
    elementwise.MinimumOp: K.BROADCAST,
    elementwise.EqualOp: K.BROADCAST,
    elementwise.NotEqualOp: K.BROADCAST,
    elementwise.LessOp: K.BROADCAST,
    elementwise.LessEqualOp: K.BROADCAST,
    elementwise.GreaterOp: K.BROADCAST,
    elementwise.GreaterEqualOp: K.BROADCAST,
    # elementwise unary ops
    elementwise.NegativeOp: K.ELEMWISE,
    elementwise.AbsOp: K.ELEMWISE,
    elementwise.ExpOp: K.ELEMWISE,
    elementwise.LogOp: K.ELEMWISE,
    elementwise.SqrtOp: K.ELEMWISE,
    elementwise.RsqrtOp: K.ELEMWISE,
    elementwise.TanhOp: K.ELEMWISE,
    elementwise.SigmoidOp: K.ELEMWISE,
    elementwise.ErfOp: K.ELEMWISE,
    elementwise.FloorOp: K.ELEMWISE,
    elementwise.CeilOp: K.ELEMWISE,
    elementwise.ClipOp: K.ELEMWISE,
    elementwise.CastOp: K.ELEMWISE,
    **{op: K.ELEMWISE for op in elementwise_math.UNARY_OPS},
    **{op: K.BROADCAST for op in elementwise_math.BINARY_OPS},
    elementwise_math.WhereOp: K.BROADCAST,
    # nn
    nn.Conv2DOp: K.OUT_ELEMWISE_FUSABLE,
    nn.BiasAddOp: K.BROADCAST,
    nn.ReluOp: K.ELEMWISE,
    nn.LeakyReluOp: K.ELEMWISE,
    nn.DenseOp: K.OUT_ELEMWISE_FUSABLE,
    nn.BatchNormOp: K.OUT_ELEMWISE_FUSABLE,
    nn.DropoutOp: K.OPAQUE,
    nn.SoftmaxOp: K.OUT_ELEMWISE_FUSABLE,
    nn.LogSoftmaxOp: K.OUT_ELEMWISE_FUSABLE,
    nn.BatchFlattenOp: K.INJECTIVE,
    nn.PadOp: K.INJECTIVE,
    nn_pool.MaxPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    nn_pool.AvgPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    nn_pool.GlobalAvgPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    nn_pool.GlobalMaxPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    # tensor
    tensor.ReshapeOp: K.INJECTIVE,
    tensor.TransposeOp: K.INJECTIVE,
    tensor.SqueezeOp: K.INJECTIVE,
    tensor.ExpandDimsOp: K.INJECTIVE,
    tensor.ConcatenateOp: K.INJECTIVE,
    tensor.SplitOp: K.INJECTIVE,
    tensor.LayoutTransformOp: K.INJECTIVE,
    tensor.StridedSliceOp: K.INJECTIVE,
    tensor.TakeOp: K.INJECTIVE,
    # reductions and matmul
    reduce.SumOp: K.COMM_REDUCE,
    reduce.MeanOp: K.COMM_REDUCE,
    reduce.MaxOp: K.COMM_REDUCE,
    reduce.MinOp: K.COMM_REDUCE,
    reduce.ProdOp: K.COMM_REDUCE,
    reduce.ArgmaxOp: K.COMM_REDUCE,
    reduce.ArgminOp: K.COMM_REDUCE,
    reduce.MatmulOp: K.OUT_ELEMWISE_FUSABLE,
    # creation
    creation.ZerosOp: K.ELEMWISE,
    creation.OnesOp: K.ELEMWISE,
    creation.FullOp: K.ELEMWISE,
    creation.FullLikeOp: K.ELEMWISE,
    creation.ZerosLikeOp: K.ELEMWISE,
    creation.OnesLikeOp: K.ELEMWISE,
    # sorting (TVM registers them opaque)
    algorithm.TopKOp: K.OPAQUE,
    algorithm.ArgsortOp: K.OPAQUE,
    algorithm.SortOp: K.OPAQUE,
    einsum.EinsumOp: K.INJECTIVE,  # TVM registers einsum injective
    vision.AllClassNonMaxSuppressionOp: K.OPAQUE,
    # data movement, indexing, scans and shape queries (added for the ONNX frontend)
    movement.BroadcastToOp: K.BROADCAST,
    movement.TileOp: K.INJECTIVE,
    movement.ReverseOp: K.INJECTIVE,
    movement.TriluOp: K.ELEMWISE,
    movement.DepthToSpaceOp: K.INJECTIVE,
    movement.SpaceToDepthOp: K.INJECTIVE,
    indexing.GatherOp: K.INJECTIVE,
    indexing.GatherNDOp: K.INJECTIVE,
    indexing.ScatterElementsOp: K.OPAQUE,
    indexing.ScatterNDOp: K.OPAQUE,
    indexing.OneHotOp: K.OUT_ELEMWISE_FUSABLE,
    scan.CumsumOp: K.OPAQUE,
    scan.CumprodOp: K.OPAQUE,
    scan.ArangeOp: K.OPAQUE,
    scan.ShapeOfOp: K.OPAQUE,
    scan.NdarraySizeOp: K.OPAQUE,
    # normalization
    nn_norm.LRNOp: K.OPAQUE,
    nn_extra.BatchMatmulOp: K.OUT_ELEMWISE_FUSABLE,
    nn_norm.LayerNormOp: K.OPAQUE,
    nn_norm.InstanceNormOp: K.OPAQUE,
    nn_norm.GroupNormOp: K.OPAQUE,
    nn_extra.PReluOp: K.BROADCAST,
    nn_norm.L2NormalizeOp: K.OUT_ELEMWISE_FUSABLE,
    nn_extra.AdaptiveAvgPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    nn_extra.AdaptiveMaxPool2DOp: K.OUT_ELEMWISE_FUSABLE,
    # convolutions of other ranks and transposed convolutions
    **{op: K.OUT_ELEMWISE_FUSABLE for op in nn_conv.OPS},
    **{op: K.OUT_ELEMWISE_FUSABLE for op in nn_pool.OPS_ND},
    image.Resize2DOp: K.INJECTIVE,
    image_sample.GridSampleOp: K.INJECTIVE,
    upsampling.UpSamplingOp: K.INJECTIVE,
    slice_like.SliceLikeOp: K.INJECTIVE,
    reverse_reshape.ReverseReshapeOp: K.INJECTIVE,
    deformable_conv.DeformableConv2DOp: K.OUT_ELEMWISE_FUSABLE,
    stack_repeat.StackOp: K.INJECTIVE,
    stack_repeat.RepeatOp: K.BROADCAST,
    fast_math.FastExpOp: K.ELEMWISE,
    fast_math.FastTanhOp: K.ELEMWISE,
    fast_math.FastErfOp: K.ELEMWISE,
    fast_math.FastSoftmaxOp: K.OUT_ELEMWISE_FUSABLE,
    like_ops.ReshapeLikeOp: K.INJECTIVE,
    like_ops.CastLikeOp: K.ELEMWISE,
    like_ops.BroadcastToLikeOp: K.BROADCAST,
    like_ops.CollapseSumLikeOp: K.COMM_REDUCE,
    like_ops.CollapseSumToOp: K.COMM_REDUCE,
    space_batch.SpaceToBatchNDOp: K.INJECTIVE,
    space_batch.BatchToSpaceNDOp: K.INJECTIVE,
    nn_conv_blocked.Conv2DNCHWcOp: K.OUT_ELEMWISE_FUSABLE,
    # the dynamic ops (TVM's kinds for dyn.*) and sparse_to_dense
    dyn.DynReshapeOp: K.INJECTIVE,
    dyn.DynSqueezeOp: K.INJECTIVE,
    dyn.DynTileOp: K.INJECTIVE,
    dyn.DynBroadcastToOp: K.BROADCAST,
    dyn.DynZerosOp: K.ELEMWISE,
    dyn.DynOnesOp: K.ELEMWISE,
    dyn.DynFullOp: K.ELEMWISE,
    dyn.DynPadOp: K.INJECTIVE,
    sparse_to_dense.SparseToDenseOp: K.OPAQUE,
    # TVM registers roi_align and roi_pool out-elementwise-fusable (vision/_rcnn.py)
    vision_rcnn.ROIAlignOp: K.OUT_ELEMWISE_FUSABLE,
    vision_rcnn.ROIPoolOp: K.OUT_ELEMWISE_FUSABLE,
    dyn.DynTopKOp: K.OPAQUE,
    # resize of the other ranks (image.resize1d/3d: Injective, as resize2d)
    image.Resize1DOp: K.INJECTIVE,
    image.Resize3DOp: K.INJECTIVE,
    # the fusion barrier (TVM: Opaque; FuseOps then removes it)
    annotation.StopFusionOp: K.OPAQUE,
}
"""The pattern kind of each relay op class (TVM's `TOpPattern`)."""

NON_COMPUTATIONAL: frozenset[type[Operation]] = frozenset(
    {structure.CompilerBeginOp, structure.CompilerEndOp}
)
"""Relay ops TVM marks `TNonComputational` among those FuseOps sees: never put in a function."""

_SIMPLE_CONSTANT_TYPES: tuple[Attribute, ...] = (
    IntegerType(1),
    IntegerType(32),
    IntegerType(64),
    f32,
    f64,
)


def is_simple_scalar_constant(op: Operation) -> bool:
    """A rank-0 `relay.constant` of `i1`, `i32`, `i64`, `f32` or `f64` (TVM's `is_simple_const`)."""
    if not isinstance(op, structure.ConstantOp):
        return False
    ty = op.result.type
    return rank_of(ty) == 0 and tensor_element_type(ty) in _SIMPLE_CONSTANT_TYPES


def has_non_tensor_field(ty: Attribute) -> bool:
    """Whether a tuple type has a field that is not a tensor (TVM does not fuse through it)."""
    return any(not isinstance(field, TensorType) for field in tuple_elements(ty))


def op_pattern(op: Operation) -> OpPatternKind:
    """The pattern kind of one op: the table's, refined for constants and tuple projections.

    Ops missing from the table (other dialects, `func.call`) are Opaque.
    """
    if isinstance(op, structure.ConstantOp):
        return K.ELEMWISE if is_simple_scalar_constant(op) else K.OPAQUE
    if isinstance(op, structure.TupleGetItemOp) and has_non_tensor_field(op.tuple.type):
        return K.OPAQUE
    return OP_PATTERNS.get(type(op), K.OPAQUE)
