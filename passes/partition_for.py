"""`partition-for` (`xrelay.byoc.partition_for`): TVM's canonical BYOC sequence as one pipeline.

TVM's `partition_for_<target>` functions all run (tvm-semantics.md C.0):

1. bind parameters by name (`params=`; Python only),
2. InferType,
3. MergeComposite with the target's pattern table (when it has one),
4. AnnotateTarget(target),
5. MergeCompilerRegions,
6. PartitionGraph.

`-p partition-for{target=accel}` runs steps 2-6 as a named pipeline, each pass
gated and instrumented as in any Sequential under the current PassContext;
`target=accel,dnnl` offloads to several targets (tables applied in that
order, the first target whose predicate accepts an op wins). `merge-regions=false`
skips step 5 (as TVM's ACL flow does), `mod-name` and `bind-constants` are
PartitionGraph's options.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType
from xdsl.rewriter import InsertPoint, Rewriter
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_from_numpy, numpy_dtype, shape_of, tensor_element_type
from xrelay.passes import lookup_pass
from xrelay.passes.adapters import XdslPipelinePass
from xrelay.passes.byoc_registry import check_target, has_pattern_table


def _make(flag: str, **options: Any) -> Any:
    entry = lookup_pass(flag)
    assert entry is not None, f"'{flag}' is not registered"
    return entry.factory()(**options)


@dataclass(frozen=True)
class PartitionForPass(XdslPipelinePass):
    """Partition a module for BYOC targets: composites, annotation, merging, partitioning."""

    name = "partition-for"
    tvm_name: ClassVar[str] = "PartitionFor"

    target: tuple[str, ...] = ()
    """The targets to offload to, first choice first (e.g. `accel` or `accel,dnnl`)."""

    merge_regions: bool = True
    """Run MergeCompilerRegions (TVM's ACL flow does not)."""

    mod_name: str = "default"
    """PartitionGraph's module name: functions are named `tvmgen_<mod_name>_...`."""

    bind_constants: bool = True
    """PartitionGraph binds constant arguments into the partitioned functions."""

    def __post_init__(self) -> None:
        if not self.target:
            raise ValueError("partition-for needs a target, e.g. partition-for{target=accel}")
        for target in self.target:
            check_target(target)

    def passes(self) -> list[Any]:
        pipeline: list[Any] = [_make("infer-type")]
        for target in self.target:
            if has_pattern_table(target):
                pipeline.append(_make("merge-composite", pattern_table=target))
        pipeline.append(_make("annotate-target", targets=self.target))
        if self.merge_regions:
            pipeline.append(_make("merge-compiler-regions"))
        pipeline.append(
            _make("partition-graph", mod_name=self.mod_name, bind_constants=self.bind_constants)
        )
        return pipeline


def bind_params_by_name(
    mod: IRModule, params: Mapping[str, npt.ArrayLike], function: str = "main"
) -> IRModule:
    """Replace `function`'s parameters named in `params` by constants, in place (TVM's helper).

    A name that is no parameter, a shape or dtype that does not match, is a
    `ValueError` naming the parameter.
    """
    if not params:
        return mod
    funcs = {f.sym_name.data: f for f in mod.module.ops if isinstance(f, func.FuncOp)}
    if function not in funcs:
        raise ValueError(f"module has no function '{function}'")
    fn = funcs[function]
    block = fn.body.block
    by_name = {arg.name_hint: arg for arg in block.args if arg.name_hint}
    unknown = sorted(set(params) - set(by_name))
    if unknown:
        raise ValueError(
            f"params {unknown} are not parameters of '{function}' "
            f"(its parameters: {sorted(by_name)})"
        )
    for name, value in params.items():
        arg = by_name[name]
        dtype = numpy_dtype(tensor_element_type(arg.type))
        array = np.asarray(value)
        shape = tuple(shape_of(arg.type))
        if array.shape != shape or array.dtype != dtype:
            raise ValueError(
                f"param '{name}': expected {dtype.name}{list(shape)}, "
                f"got {array.dtype.name}{list(array.shape)}"
            )
        constant = ConstantOp(dense_from_numpy(array))
        constant.results[0].name_hint = name
        Rewriter.insert_op(constant, InsertPoint.at_start(block))
        arg.replace_all_uses_with(constant.results[0])
        block.erase_arg(arg)
    inputs = [arg.type for arg in block.args]
    fn.function_type = FunctionType.from_lists(inputs, list(fn.function_type.outputs.data))
    return mod


def partition_for(
    mod: IRModule,
    target: str | Sequence[str],
    params: Mapping[str, npt.ArrayLike] | None = None,
    mod_name: str = "default",
    bind_constants: bool = True,
) -> IRModule:
    """Partition `mod` for `target` (or several), TVM's `partition_for_<target>` sequence.

    Runs under the current PassContext (its opt_level, disabled passes and
    instruments apply to each pass); `params` are bound into `main` first.
    Returns the partitioned module (the input module is changed in place).
    """
    targets = (target,) if isinstance(target, str) else tuple(target)
    if params:
        bind_params_by_name(mod, params)
    pipeline = PartitionForPass(target=targets, mod_name=mod_name, bind_constants=bind_constants)
    return pipeline.build().run_in_place(mod)
