"""`xrelay.byoc`: Bring Your Own Codegen, TVM's partitioning flow (seed 004).

Everything a backend or a user needs in one place:

- what a target takes: `register_op_attr`, `register_op_list`, `temp_op_attr`,
  `register_pattern_table`, `get_pattern_table`, `register_partition_hook`;
- the pattern language (`wildcard`, `is_op`, ... as `xrelay.relay.dataflow_pattern`);
- the passes: `MergeComposite`, `AnnotateTarget`, `MergeCompilerRegions`,
  `PartitionGraph` (also in `xrelay.transform`);
- `partition_for(mod, target, params=None)`: the canonical sequence, and
  `bind_params_by_name`.

The built-in targets `accel` and `dnnl` register themselves from
`xrelay.codegen.accel` / `xrelay.codegen.dnnl` through these same hooks.
"""

from __future__ import annotations

from xrelay.passes.annotate_target import AnnotateTarget
from xrelay.passes.byoc_registry import (
    AttrsView,
    ByocError,
    ExprView,
    PredicateError,
    TypeView,
    get_pattern_table,
    has_pattern_table,
    register_op_attr,
    register_op_list,
    register_partition_hook,
    register_pattern_table,
    registered_targets,
    saved_registry,
    temp_op_attr,
    unregister_op_attr,
    unregister_partition_hook,
    unregister_pattern_table,
)
from xrelay.passes.dataflow_pattern import (
    DFPattern,
    has_attr,
    has_dtype,
    has_shape,
    has_type,
    is_constant,
    is_expr,
    is_op,
    is_tuple,
    is_tuple_get_item,
    is_var,
    wildcard,
)
from xrelay.passes.merge_compiler_regions import MergeCompilerRegions
from xrelay.passes.merge_composite import MergeComposite
from xrelay.passes.partition_for import bind_params_by_name, partition_for
from xrelay.passes.partition_graph import PartitionGraph

__all__ = [
    "AnnotateTarget",
    "AttrsView",
    "ByocError",
    "DFPattern",
    "ExprView",
    "MergeCompilerRegions",
    "MergeComposite",
    "PartitionGraph",
    "PredicateError",
    "TypeView",
    "bind_params_by_name",
    "get_pattern_table",
    "has_attr",
    "has_dtype",
    "has_pattern_table",
    "has_shape",
    "has_type",
    "is_constant",
    "is_expr",
    "is_op",
    "is_tuple",
    "is_tuple_get_item",
    "is_var",
    "partition_for",
    "register_op_attr",
    "register_op_list",
    "register_partition_hook",
    "register_pattern_table",
    "registered_targets",
    "saved_registry",
    "temp_op_attr",
    "unregister_op_attr",
    "unregister_partition_hook",
    "unregister_pattern_table",
    "wildcard",
]
