"""The pass registry: every pass that `xrelay-opt -p`, `get_pass` and `required` can name.

A pass has one identity in two spellings: its TVM name (`PassInfo.name`,
PascalCase: `FoldConstant`) and its command-line flag, the kebab-case twin
(`fold-constant`, what xDSL calls the pass's `name`). Either names the pass
wherever a name is taken (`get_pass`, `required`, `disabled_pass`, ...).

Passes register lazily: the registry holds a factory returning the xDSL
`ModulePass` class, so listing or resolving names imports no pass module. A
pass file registers itself with `register_pass(flag, factory, description,
name=...)`; Python passes written with `transform.module_pass` register
through `xrelay.transform.register_pass`, which builds the class for them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.passes import ModulePass

PassFactory = Callable[[], type[ModulePass]]
"""A zero-argument callable returning a pass class (imported on first call)."""


_WORD = re.compile(
    r"[A-Z]+[0-9]*(?=[A-Z][a-z])"  # an acronym before a word: the `IR` of `IRDiff`
    r"|[A-Z]?[a-z]+(?:[0-9]+[A-Z]*(?![a-z]))?"  # a word, with a `2D` tail: `Conv2D`
    r"|[A-Z]+[0-9]*|[0-9]+"
)


def kebab_case(name: str) -> str:
    """The flag spelling of a pass name: `FoldConstant` -> `fold-constant`, `PrintIR` -> `print-ir`.

    Runs of capitals are acronyms (`CSE` -> `cse`, `ToANormalForm` ->
    `to-a-normal-form`, `Conv2D` -> `conv2d`); anything else separates words.
    """
    words = _WORD.findall(name)
    return "-".join(word.lower() for word in words)


def pascal_case(flag: str) -> str:
    """The default TVM-style name of a flag: `fold-constant` -> `FoldConstant`."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[-_\s]+", flag) if part)


@dataclass(frozen=True)
class RegisteredPass:
    """One registry entry: the flag, the TVM name, the lazy class factory, a description."""

    flag: str
    name: str
    factory: PassFactory
    description: str


_REGISTRY: dict[str, RegisteredPass] = {}
_BY_NAME: dict[str, str] = {}


def register_pass(
    flag: str, factory: PassFactory, description: str = "", *, name: str | None = None
) -> None:
    """Register a pass class under its flag and TVM name, with a one-line description.

    `name` defaults to the PascalCase of the flag; the flag must be the
    kebab-case of the name (one identity, two spellings). The factory must
    return a class whose `name` is `flag` (a test checks every registered
    pass). Registering a flag or name twice is an error: two passes must not
    silently shadow each other.
    """
    tvm_name = name if name is not None else pascal_case(flag)
    if kebab_case(tvm_name) != flag:
        raise ValueError(
            f"pass flag '{flag}' is not the kebab-case of its name '{tvm_name}' "
            f"(expected '{kebab_case(tvm_name)}')"
        )
    if flag in _REGISTRY:
        raise ValueError(f"pass '{flag}' is already registered")
    if tvm_name in _BY_NAME:
        raise ValueError(f"pass name '{tvm_name}' is already registered")
    _REGISTRY[flag] = RegisteredPass(flag, tvm_name, factory, description)
    _BY_NAME[tvm_name] = flag


def unregister_pass(name: str) -> None:
    """Remove a pass by flag or name (plugins and tests); KeyError if it is not registered."""
    entry = lookup_pass(name)
    if entry is None:
        raise KeyError(f"pass '{name}' is not registered")
    del _REGISTRY[entry.flag]
    del _BY_NAME[entry.name]


def lookup_pass(name: str) -> RegisteredPass | None:
    """The entry named by a flag (`fold-constant`) or a TVM name (`FoldConstant`), if any."""
    entry = _REGISTRY.get(name)
    if entry is not None:
        return entry
    flag = _BY_NAME.get(name)
    if flag is not None:
        return _REGISTRY[flag]
    from xrelay.plugins import discover

    return lookup_pass(name) if discover() else None  # an installed plugin may define it


def registered_passes() -> list[RegisteredPass]:
    """Every registry entry, sorted by flag (installed plugins loaded first)."""
    from xrelay.plugins import discover

    discover()
    return [_REGISTRY[flag] for flag in sorted(_REGISTRY)]


def get_all_passes() -> dict[str, PassFactory]:
    """Every registered pass, by flag, as lazy factories (a fresh dict; changing it is safe)."""
    return {flag: entry.factory for flag, entry in _REGISTRY.items()}


def describe_pass(name: str) -> str:
    """The one-line description of a registered pass (by flag or name).

    Falls back to the first line of the pass class's docstring when none was
    given at registration; raises KeyError for an unknown pass.
    """
    entry = lookup_pass(name)
    if entry is None:
        raise KeyError(name)
    if entry.description:
        return entry.description
    doc = (entry.factory().__doc__ or "").strip()
    return doc.splitlines()[0].strip() if doc else ""


def register_lazy(
    flag: str, module: str, class_name: str, description: str = "", *, name: str | None = None
) -> None:
    """Register `xrelay.passes.<module>.<class_name>` under `flag`, importing it on first use.

    The one-line form xrelay's own pass files are registered with, below.
    """

    def factory() -> type[ModulePass]:
        loaded = importlib.import_module(f"{__name__}.{module}")
        cls: type[ModulePass] = getattr(loaded, class_name)
        return cls

    register_pass(flag, factory, description, name=name)


def _canonicalize() -> type[ModulePass]:
    from xdsl.transforms.canonicalize import CanonicalizePass

    return CanonicalizePass


def _cse() -> type[ModulePass]:
    from xdsl.transforms.common_subexpression_elimination import (
        CommonSubexpressionElimination,
    )

    return CommonSubexpressionElimination


def _dce() -> type[ModulePass]:
    from xdsl.transforms.dead_code_elimination import DeadCodeElimination

    return DeadCodeElimination


register_pass(
    "canonicalize",
    _canonicalize,
    "Apply folders and canonicalization patterns, dropping unused pure ops (xDSL)",
)
register_pass("cse", _cse, "Merge identical pure ops computing the same value (xDSL)", name="CSE")
register_pass("dce", _dce, "Remove pure ops whose results are unused (xDSL)", name="DCE")
register_lazy(
    "print-ir",
    "print_ir",
    "PrintIRPass",
    "Print the module to stderr (TVM's PrintIR)",
    name="PrintIR",
)

# xrelay's passes, one file each (passes/<flag with underscores>.py), in the order added.
register_lazy(
    "eliminate-common-subexpr",
    "eliminate_common_subexpr",
    "EliminateCommonSubexprPass",
    "Merge pure ops with the same name, attributes and operands (TVM's EliminateCommonSubexpr)",
)
register_lazy(
    "canonicalize-ops",
    "canonicalize_ops",
    "CanonicalizeOpsPass",
    "Expand nn.bias_add into expand_dims and a broadcasting add (TVM's CanonicalizeOps)",
)
register_lazy(
    "simplify-inference",
    "simplify_inference",
    "SimplifyInferencePass",
    "Rewrite batch_norm and dropout into their inference form (TVM's SimplifyInference)",
)
register_lazy(
    "simplify-expr",
    "simplify_expr",
    "SimplifyExprPass",
    "Collapse reshape chains and remove identity ops (TVM's SimplifyExpr)",
)
register_lazy("infer-type", "infer_type", "InferTypePass", "Re-derive types from the parameters")
register_lazy("inline", "inline", "InlinePass", "Inline functions marked Inline (InlineGlobals)")
register_lazy(
    "fold-constant",
    "fold_constant",
    "FoldConstantPass",
    "Fold ops whose operands are all constants",
)
register_lazy(
    "dead-code-elimination",
    "dead_code_elimination",
    "DeadCodeEliminationPass",
    "Remove unused pure ops and unused private functions",
)
register_lazy(
    "convert-layout",
    "convert_layout",
    "ConvertLayoutPass",
    "Run convs and pools in desired layouts, transforming at the boundaries (TVM's ConvertLayout)",
)
register_lazy(
    "backward-fold-scale-axis",
    "backward_fold_scale_axis",
    "BackwardFoldScaleAxisPass",
    "Fold a per-channel multiply after conv2d/dense into the weights",
)
register_lazy(
    "forward-fold-scale-axis",
    "forward_fold_scale_axis",
    "ForwardFoldScaleAxisPass",
    "Fold a per-channel multiply before conv2d/dense into the weights",
)
register_lazy(
    "fold-scale-axis",
    "fold_scale_axis",
    "FoldScaleAxisPass",
    "Backward and forward scale folding, then FoldConstant (a pipeline)",
)
register_lazy(
    "alter-op-layout",
    "alter_op_layout",
    "AlterOpLayoutPass",
    "Replace ops by what their registered alter_op_layout hooks return (TVM's AlterOpLayout)",
)
register_lazy("fuse-ops", "fuse_ops", "FuseOpsPass", "Group relay ops into Primitive functions")
register_lazy(
    "optimize", "optimize", "OptimizePass", "The passes relay.build applies, then FuseOps"
)
register_lazy(
    "merge-composite",
    "merge_composite",
    "MergeCompositePass",
    "Wrap the matches of a pattern table in relay.composite ops",
)
register_lazy(
    "partition-for",
    "partition_for",
    "PartitionForPass",
    "BYOC: composites, AnnotateTarget, MergeCompilerRegions, PartitionGraph for targets",
)
register_lazy(
    "annotate-target",
    "annotate_target",
    "AnnotateTargetPass",
    "Annotate ops with the first target whose predicate accepts them (TVM's AnnotateTarget)",
)
register_lazy(
    "merge-compiler-regions",
    "merge_compiler_regions",
    "MergeCompilerRegionsPass",
    "Merge producer/consumer annotated regions of one target without making cycles",
)
register_lazy(
    "partition-graph",
    "partition_graph",
    "PartitionGraphPass",
    "Lift each annotated region into a function with Compiler, called where it was",
)
register_lazy(
    "convert-relay-to-accel",
    "convert_relay_to_accel",
    "ConvertRelayToAccelPass",
    "Lower the functions partitioned for accel (Compiler = accel) into accel kernel ops",
)
register_lazy(
    "plan-memory",
    "plan_memory",
    "PlanMemoryPass",
    "Plan a static arena for intermediates (liveness, best-fit offsets) as xrelay.buffers",
)
register_lazy(
    "convert-relay-to-dnnl",
    "convert_relay_to_dnnl",
    "ConvertRelayToDnnlPass",
    "Lower the functions partitioned for dnnl (Compiler = dnnl) into oneDNN primitive ops",
)
register_lazy(
    "accel-fuse-residual",
    "accel_fuse_residual",
    "AccelFuseResidualPass",
    "Fold accel.add(conv2d, r) into the convolution's epilogue as its residual operand",
)
register_lazy(
    "accel-winograd",
    "accel_winograd",
    "AccelWinogradPass",
    "Rewrite 3x3 stride-1 accel convolutions with constant weights to Winograd F(2x2,3x3)",
)
register_lazy(
    "accel-fuse-pool",
    "accel_fuse_pool",
    "AccelFusePoolPass",
    "Fold a 2x2 stride-2 max pool into the accel Winograd convolution feeding it",
)
register_lazy(
    "build-pipeline",
    "build_pipeline",
    "BuildPipelinePass",
    "What xrelay.build runs before emitting C: partition, optimize, lower, plan (one list)",
)
register_lazy(
    "split-concat-conv",
    "split_concat_conv",
    "SplitConcatConvPass",
    "A conv2d over a channel concatenation as a sum of conv2ds over its pieces (no copy)",
)
register_lazy(
    "fold-channel-shuffle",
    "fold_channel_shuffle",
    "FoldChannelShufflePass",
    "Fold a channel shuffle into the groups=1 conv2d after it, or move it past a strided "
    "depthwise conv2d",
)
register_lazy(
    "combine-parallel-conv2d",
    "combine_parallel_conv2d",
    "CombineParallelConv2DPass",
    "Combine parallel conv2ds reading the same data into one conv2d and slices",
    name="CombineParallelConv2D",
)
register_lazy(
    "combine-parallel-batch-matmul",
    "combine_parallel_batch_matmul",
    "CombineParallelBatchMatmulPass",
    "Combine parallel batch_matmuls reading the same x into one batch_matmul and slices",
)
register_lazy(
    "combine-parallel-dense",
    "combine_parallel_dense",
    "CombineParallelDensePass",
    "Combine parallel denses reading the same data into a batch_matmul (or one dense)",
)
register_lazy(
    "div-to-mul",
    "div_to_mul",
    "DivToMulPass",
    "Rewrite division by a nonzero float constant into multiplication by its reciprocal",
)
register_lazy(
    "fast-math",
    "fast_math",
    "FastMathPass",
    "Replace exp, tanh, erf and softmax by their fast variants (TVM's FastMath)",
)
register_lazy(
    "defuse-ops",
    "defuse_ops",
    "DefuseOpsPass",
    "Inline the calls of private (fused or lifted) functions back: the inverse of FuseOps",
)
register_lazy(
    "annotate-spans",
    "annotate_spans",
    "AnnotateSpansPass",
    "Locate every op at its line in the printed module (GeneratedSource)",
)
# TVM's normal-form passes: checks of what SSA already is (see passes/normal_form.py).
register_lazy(
    "to-a-normal-form",
    "to_a_normal_form",
    "ToANormalFormPass",
    "Check the module is in A-normal form (SSA values are: nothing changes; TVM's ToANormalForm)",
)
register_lazy(
    "to-basic-block-normal-form",
    "to_basic_block_normal_form",
    "ToBasicBlockNormalFormPass",
    "Check values are scoped as basic block normal form asks (SSA scoping: nothing changes)",
)
register_lazy(
    "lambda-lift",
    "lambda_lift",
    "LambdaLiftPass",
    "Check no local function is left to lift (function values become module functions)",
)
register_lazy(
    "canonicalize-cast",
    "canonicalize_cast",
    "CanonicalizeCastPass",
    "Copy an upcast read by several elementwise ops, one per reader (TVM's CanonicalizeCast)",
)
register_lazy(
    "partial-evaluate",
    "partial_evaluate",
    "PartialEvaluatePass",
    "Inline calls of known functions, then fold what depends only on constants",
)
register_lazy(
    "flatten-atrous-conv",
    "flatten_atrous_conv",
    "FlattenAtrousConvPass",
    "space_to_batch_nd -> conv2d -> batch_to_space_nd as one dilated conv2d (TVM's "
    "FlattenAtrousConv)",
)
register_lazy(
    "dynamic-to-static",
    "dynamic_to_static",
    "DynamicToStaticPass",
    "Replace relay.dyn ops whose shape folds to a constant by their static ops (TVM's "
    "DynamicToStatic)",
)
register_lazy(
    "fold-explicit-padding",
    "fold_explicit_padding",
    "FoldExplicitPaddingPass",
    "Fold a constant nn.pad into the padding of the conv or pool reading it (TVM's "
    "FoldExplicitPadding)",
)
