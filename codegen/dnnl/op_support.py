"""Which single relay ops the `dnnl` backend takes (`target.dnnl` predicates).

Seed 004's list, registered with its `_register_external_op_helper` idiom:
batch_norm, conv2d, dense, relu, add, subtract, multiply. The seed's predicates
answer True unconditionally; oneDNN works on float32 here, so ours also
require float32 operands and results.
"""

from __future__ import annotations

from xrelay.passes.byoc_registry import ExprView, register_op_attr

SUPPORTED_OPS = (
    "nn.batch_norm",
    "nn.conv2d",
    "nn.dense",
    "nn.relu",
    "add",
    "subtract",
    "multiply",
)


def _float32(expr: ExprView) -> bool:
    types = [a.checked_type for a in expr.args]
    types.extend(expr.checked_type.fields or (expr.checked_type,))
    return all(t.dtype == "float32" for t in types)


def _register_external_op_helper(op_name: str, supported: bool = True) -> None:
    @register_op_attr(op_name, "target.dnnl")
    def _func_wrapper(expr: ExprView) -> bool:
        return supported and _float32(expr)


for _op in SUPPORTED_OPS:
    _register_external_op_helper(_op)
