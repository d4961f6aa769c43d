"""TVM's `expr.astext()`: an expression in Relay's text style, for reading and grepping.

`%0 = reshape(%x, newshape=[8, 3]) /* ty=tensor<8x3xf32> */;` per call, shared
subexpressions once, the last value on the last line; properties as `name=value`
(TVM's attribute names), types in xrelay's spelling. It is for people (and tests that
look for `newshape=`), not a format xrelay parses: the IR text is `IRModule.astext()`.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, TypeAttribute
from xrelay.dialects.builder.expr import (
    Call,
    Constant,
    Expr,
    Function,
    If,
    Tuple,
    TupleGetItem,
    Var,
    attr_to_python,
)
from xrelay.dialects.relay.base import int_array_values
from xrelay.dialects.relay.types import dtype_of


def attribute_text(attr: Attribute) -> str:
    """A property's value as TVM prints it: `[8, 3]`, `"NCHW"`, `float32`, `1`, `0.5`."""
    ints = int_array_values(attr)
    if ints is not None:
        return "[" + ", ".join(str(v) for v in ints) + "]"
    if isinstance(attr, StringAttr):
        return f'"{attr.data}"'
    number = attr_to_python(attr)
    if isinstance(number, int | float):
        return repr(number)
    if isinstance(attr, TypeAttribute):
        try:
            return f'"{dtype_of(attr)}"'
        except (KeyError, ValueError, TypeError):
            return str(attr)
    return str(attr)


class _Printer:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[int, str] = {}
        self.constants = 0

    def value(self, expr: Expr) -> str:
        known = self.names.get(id(expr))
        if known is not None:
            return known
        text = self._text(expr)
        self.names[id(expr)] = text
        return text

    def _bind(self, rhs: str, expr: Expr) -> str:
        name = f"%{len(self.lines)}"
        span = f" span={expr.span}" if expr.span is not None else ""
        self.lines.append(f"  {name} = {rhs} /* ty={expr.checked_type}{span} */;")
        return name

    def _text(self, expr: Expr) -> str:
        if isinstance(expr, Var):
            return f"%{expr.name_hint}"
        if isinstance(expr, Constant):
            data = expr.data
            if data.ndim == 0:
                return repr(data.item()) if data.dtype != np.bool_ else str(bool(data))
            self.constants += 1
            return f"meta[relay.Constant][{self.constants - 1}]"
        if isinstance(expr, TupleGetItem):
            return f"{self.value(expr.tuple_value)}.{expr.index}"
        if isinstance(expr, Tuple):
            return self._bind("(" + ", ".join(self.value(f) for f in expr.fields) + ")", expr)
        if isinstance(expr, Call):
            args = [self.value(a) for a in expr.args]
            args += [f"{k}={attribute_text(v)}" for k, v in expr.props.items()]
            return self._bind(f"{expr.op.name}({', '.join(args)})", expr)
        if isinstance(expr, If):
            cond = self.value(expr.cond)
            then, other = self.value(expr.true_branch), self.value(expr.false_branch)
            return self._bind(f"if ({cond}) {{ {then} }} else {{ {other} }}", expr)
        if isinstance(expr, Function):
            params = ", ".join(f"%{p.name_hint}: {p.checked_type}" for p in expr.params)
            inner = _Printer()
            body = inner.value(expr.body)
            text = "\n".join([f"fn ({params}) {{", *inner.lines, f"  {body}", "}"])
            return text
        args = ", ".join(self.value(c) for c in expr.children())
        return self._bind(f"{type(expr).__name__}({args})", expr)


def astext(expr: Expr) -> str:
    """The expression in Relay's text style (module docstring)."""
    printer = _Printer()
    last = printer.value(expr)
    if isinstance(expr, Function) and not printer.lines:
        return last
    return "\n".join([*printer.lines, last])
