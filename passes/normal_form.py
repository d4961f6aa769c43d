"""What TVM's normal-form passes mean for xrelay's IR, and the check they share.

TVM's Relay is a tree of expressions in which sharing, naming and scoping are
choices, so it has passes that pick one: `ToANormalForm` (every intermediate
value let-bound), `ToGraphNormalForm` (no lets: a dataflow graph),
`ToBasicBlockNormalForm` (ANF only where a scope needs it), `LambdaLift`
(local functions become global ones). xrelay's IR is MLIR's SSA form, which
already has every one of these properties:

- each op's result is a named SSA value defined once (A-normal form), and a
  value used twice is the same value (graph normal form);
- a value defined in a block is visible in the regions of the ops after it
  (a `relay.if` branch reads its enclosing block's values), which is what
  basic block normal form asks of lets;
- there are no local functions: a function expression built in Python (a
  `relay.Function` callee) becomes a `func.func` of the module when it
  becomes IR, so it is already lifted.

The passes are kept under TVM's names so pipelines that name them run; each
one verifies the module (what holds by construction is checked, not
assumed) and changes nothing.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects.diagnostics import DiagnosticError, op_error


def check_module_functions(module: ModuleOp, pass_name: str) -> None:
    """Every top-level function has its body's values defined before their uses (the
    verifier's dominance check), and no function is nested inside another."""
    module.verify()
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.parent_op() is not module:
            message = f"{pass_name}: a function nested in an op is not supported"
            raise DiagnosticError([op_error(op, message)])
