"""The C target's check for recursion: a call graph with a cycle has no static arena.

`xrelay.build` plans every intermediate at a fixed offset of one arena
(`plan-memory`), so a function cannot be active twice: self-recursion
(`func.call @main` inside `@main`) and mutual recursion are rejected before
any pass runs, with a located error at the call that closes the cycle.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.walk import walk_ops


def check_no_recursion(module: ModuleOp) -> None:
    """Raise a located DiagnosticError at a call that closes a cycle of calls, if any.

    Iterative depth-first search over the functions' calls: O(ops), any depth.
    """
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}
    calls = {
        name: [call for call in walk_ops(op) if isinstance(call, func.CallOp)]
        for name, op in functions.items()
    }
    done: set[str] = set()
    for start in functions:
        if start in done:
            continue
        path = [start]
        on_path = {start}
        pending = [iter(calls[start])]
        while pending:
            call = next(pending[-1], None)
            if call is None:
                pending.pop()
                done.add(path[-1])
                on_path.discard(path.pop())
                continue
            callee = call.callee.root_reference.data
            if callee in on_path:
                cycle = [*path[path.index(callee) :], callee]
                message = f"recursive call to @{callee}: the C target does not support recursion"
                if len(cycle) > 2:
                    message += f" (calls {' -> '.join(f'@{n}' for n in cycle)})"
                raise DiagnosticError([op_error(call, message)])
            if callee in done or callee not in functions:
                continue
            path.append(callee)
            on_path.add(callee)
            pending.append(iter(calls[callee]))
