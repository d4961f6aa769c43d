"""`xrelay.transform`: TVM's `tvm.transform` / `relay.transform` (the pass manager and its passes).

Port TVM code by changing imports: `from xrelay import transform` and
`from xrelay.instrument import ...`.
"""

from __future__ import annotations

from xrelay.passes import kebab_case, registered_passes, unregister_pass
from xrelay.passes.accel_fuse_residual import AccelFuseResidual
from xrelay.passes.adapters import (
    PassAdapter,
    XdslFunctionPass,
    XdslPass,
    XdslPipelinePass,
    get_pass,
    register_pass,
    resolve_required,
    to_pass,
)
from xrelay.passes.alter_op_layout import (
    AlterOpLayout,
    register_alter_op_layout,
    temp_alter_op_layout,
    unregister_alter_op_layout,
)
from xrelay.passes.annotate_spans import AnnotateSpans
from xrelay.passes.annotate_target import AnnotateTarget
from xrelay.passes.backward_fold_scale_axis import BackwardFoldScaleAxis
from xrelay.passes.canonicalize_cast import CanonicalizeCast
from xrelay.passes.canonicalize_ops import CanonicalizeOps
from xrelay.passes.combine_parallel_batch_matmul import CombineParallelBatchMatmul
from xrelay.passes.combine_parallel_conv2d import CombineParallelConv2D
from xrelay.passes.combine_parallel_dense import CombineParallelDense
from xrelay.passes.convert_layout import ConvertLayout
from xrelay.passes.convert_relay_to_accel import ConvertRelayToAccel
from xrelay.passes.dead_code_elimination import DeadCodeElimination
from xrelay.passes.decorators import function_pass, module_pass
from xrelay.passes.defuse_ops import DefuseOps
from xrelay.passes.div_to_mul import DivToMul
from xrelay.passes.dynamic_to_static import DynamicToStatic
from xrelay.passes.eliminate_common_subexpr import EliminateCommonSubexpr
from xrelay.passes.fast_math import FastMath
from xrelay.passes.flatten_atrous_conv import FlattenAtrousConv
from xrelay.passes.fold_constant import FoldConstant
from xrelay.passes.fold_explicit_padding import FoldExplicitPadding
from xrelay.passes.fold_scale_axis import FoldScaleAxis
from xrelay.passes.forward_fold_scale_axis import ForwardFoldScaleAxis
from xrelay.passes.fuse_ops import FuseOps
from xrelay.passes.infer_type import InferType
from xrelay.passes.inline import Inline
from xrelay.passes.instrument import (
    PassInstrument,
    PassPrintingInstrument,
    PassTimingInstrument,
    PrintAfterAll,
    PrintBeforeAll,
    pass_instrument,
)
from xrelay.passes.lambda_lift import LambdaLift
from xrelay.passes.layout_config import LayoutConfig
from xrelay.passes.merge_compiler_regions import MergeCompilerRegions
from xrelay.passes.merge_composite import MergeComposite
from xrelay.passes.partial_evaluate import PartialEvaluate
from xrelay.passes.partition_graph import PartitionGraph
from xrelay.passes.pass_config import register_pass_config_option
from xrelay.passes.pass_context import PassContext, PassInfo
from xrelay.passes.pass_manager import (
    FunctionPass,
    ModulePass,
    Pass,
    PassDependencyError,
    PassDiagnosticError,
    PassError,
    Sequential,
    is_optimizable,
)
from xrelay.passes.simplify_expr import SimplifyExpr
from xrelay.passes.simplify_inference import SimplifyInference
from xrelay.passes.statistics import Statistic
from xrelay.passes.to_a_normal_form import ToANormalForm
from xrelay.passes.to_basic_block_normal_form import ToBasicBlockNormalForm


def PrintIR(header: str = "", show_meta_data: bool = False) -> Pass:
    """A pass that prints the module to stderr (`PrintIR(<header>):` first) and returns it as is."""
    from xrelay.passes.print_ir import PrintIRPass

    del show_meta_data  # constants always print in full
    return XdslPass(PrintIRPass(header=header))


__all__ = [
    "AccelFuseResidual",
    "AlterOpLayout",
    "AnnotateSpans",
    "AnnotateTarget",
    "BackwardFoldScaleAxis",
    "CanonicalizeCast",
    "CanonicalizeOps",
    "CombineParallelBatchMatmul",
    "CombineParallelConv2D",
    "CombineParallelDense",
    "ConvertLayout",
    "ConvertRelayToAccel",
    "DeadCodeElimination",
    "DefuseOps",
    "DivToMul",
    "DynamicToStatic",
    "EliminateCommonSubexpr",
    "FastMath",
    "FlattenAtrousConv",
    "FoldConstant",
    "FoldExplicitPadding",
    "FoldScaleAxis",
    "ForwardFoldScaleAxis",
    "FunctionPass",
    "FuseOps",
    "InferType",
    "Inline",
    "LambdaLift",
    "LayoutConfig",
    "MergeCompilerRegions",
    "MergeComposite",
    "ModulePass",
    "PartialEvaluate",
    "PartitionGraph",
    "Pass",
    "PassAdapter",
    "PassContext",
    "PassDependencyError",
    "PassDiagnosticError",
    "PassError",
    "PassInfo",
    "PassInstrument",
    "PassPrintingInstrument",
    "PassTimingInstrument",
    "PrintAfterAll",
    "PrintBeforeAll",
    "PrintIR",
    "Sequential",
    "SimplifyExpr",
    "SimplifyInference",
    "Statistic",
    "ToANormalForm",
    "ToBasicBlockNormalForm",
    "XdslFunctionPass",
    "XdslPass",
    "XdslPipelinePass",
    "function_pass",
    "get_pass",
    "is_optimizable",
    "kebab_case",
    "module_pass",
    "pass_instrument",
    "register_alter_op_layout",
    "register_pass",
    "register_pass_config_option",
    "registered_passes",
    "resolve_required",
    "temp_alter_op_layout",
    "to_pass",
    "unregister_alter_op_layout",
    "unregister_pass",
]
