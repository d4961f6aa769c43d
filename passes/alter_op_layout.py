"""`alter-op-layout` (TVM's `AlterOpLayout`): replace ops through per-op hooks.

A hook is registered for an op name, as TVM's `FTVMAlterOpLayout` op
attribute is; a backend (`codegen/<target>/`) registers its hooks when it is
imported, and a test installs one for a `with` block::

    from xrelay import relay
    from xrelay.passes.alter_op_layout import register_alter_op_layout, temp_alter_op_layout

    @register_alter_op_layout("nn.conv2d")
    def alter_conv2d(op, inputs):
        data, weight = inputs
        return relay.Call(type(op), [data, relay.multiply(weight, relay.const(2.0))], op.properties)

    with temp_alter_op_layout("nn.conv2d", alter_conv2d):   # TVM's TempOpAttr
        mod = AlterOpLayout()(mod)

The hook is `fn(op, inputs) -> relay.Expr | None`:

- `op` is the matched op, to be read, not changed: its properties
  (`op.properties`, TVM's `attrs`), operand types (`op.operands[i].type`, TVM's
  `tinfos`) and result type (`op.results[0].type`, TVM's `out_type`);
- `inputs` has one `relay.Var` per operand, typed as that operand (TVM's
  `inputs`): the hook builds the replacement over them with the `xrelay.relay`
  builder (`relay.Call(type(op), args, props)` rebuilds the op itself with other
  arguments or properties), and may return one of them;
- it returns the replacement expression, which must have exactly the op's
  result type, or None to keep the op.

The pass walks every op of each optimizable function (a function pass,
`relay.if` branches included, composite bodies not), in program order, and
calls the hook of each op that has one, once: the ops a hook creates are not
altered again. The replacement's ops are inserted where the op was, with the
inputs bound to the op's operands, and the op's uses read its value. A
replacement of another type is an error naming the op and the hook (the
module is left as it was, as after any failing pass).

A hook that changes layouts returns `layout_transform`s around its op, e.g.
`lt(conv(lt(x, NCHW, NCHW4c), ...), NCHW4c, NCHW)`; when a transform a
replacement brings reads a transform the other way (made by another
replacement, or already in the graph: `lt(lt(y, NCHW4c, NCHW), NCHW, NCHW4c)`),
the pair cancels and the transforms left unused are erased, so a chain of
altered convs keeps its values in the new layout between them.

With no hook registered (xrelay registers none itself) the pass changes
nothing, so the seed's `Sequential([InferType, FoldConstant,
EliminateCommonSubexpr, AlterOpLayout])` at opt_level 3 ends with the graph
EliminateCommonSubexpr left.

Where it differs from TVM: TVM's hooks take `(attrs, inputs, tinfos, out_type)`
and may return an op in another layout, after which TVM's layout inference
(`FInferCorrectLayout`) inserts transforms and propagates layouts through the
ops around it; here the hook returns a graph of the op's own type, transforms
included, and only transform pairs around replacements cancel (layouts do not
propagate through the ops between two altered ops, as ConvertLayout's do).
Registration follows TVM's
`register_alter_op_layout(op_name, alter_layout=None, level=10)`: a hook with a
higher level replaces one with a lower level, a lower one is ignored, and the
same level twice is an error. Op names are TVM's (`nn.conv2d`); the dialect's
`relay.nn.conv2d` works too, and a name that is no relay op is an error.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar, TypeVar, cast

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.ir import Block, Operation, SSAValue
from xrelay.dialects.builder.expr import Expr, Function, Var
from xrelay.dialects.diagnostics import DiagnosticError, op_error
from xrelay.dialects.relay import RELAY
from xrelay.dialects.relay.base import get_str
from xrelay.dialects.relay.structure import CompositeOp
from xrelay.dialects.relay.tensor import LayoutTransformOp
from xrelay.passes.adapters import XdslFunctionPass, XdslPass
from xrelay.passes.pass_manager import Pass

AlterOpLayoutHook = Callable[[Operation, list[Expr]], Expr | None]
"""`fn(op, inputs) -> replacement expression | None` (see the module docstring)."""

H = TypeVar("H", bound=AlterOpLayoutHook)


@dataclass(frozen=True)
class RegisteredHook:
    """A hook and its priority level."""

    hook: AlterOpLayoutHook
    level: int


_HOOKS: dict[str, RegisteredHook] = {}
"""Hooks by the dialect's op name (`relay.nn.conv2d`)."""


def relay_op_name(op_name: str) -> str:
    """The dialect's name of a relay op given as TVM names it: `nn.conv2d` -> `relay.nn.conv2d`.

    ValueError if no relay op has that name.
    """
    full = op_name if op_name.startswith("relay.") else f"relay.{op_name}"
    if full not in {op.name for op in RELAY.operations}:
        raise ValueError(f"'{op_name}' is not a relay op (expected a name such as 'nn.conv2d')")
    return full


def register_alter_op_layout(
    op_name: str, alter_layout: AlterOpLayoutHook | None = None, level: int = 10
) -> Callable[[H], H]:
    """Register `alter_layout` as the hook of `op_name` (TVM's `register_alter_op_layout`).

    Used as a decorator (`@register_alter_op_layout("nn.conv2d")`) or called
    with the hook. An existing hook of a lower level is replaced, one of a
    higher level kept; the same level twice is a ValueError.
    """
    name = relay_op_name(op_name)

    def register(hook: H) -> H:
        _set_hook(name, op_name, hook, level)
        return hook

    if alter_layout is not None:
        _set_hook(name, op_name, alter_layout, level)
    return register


def _set_hook(name: str, op_name: str, hook: AlterOpLayoutHook, level: int) -> None:
    existing = _HOOKS.get(name)
    if existing is not None and existing.level == level:
        raise ValueError(
            f"an alter_op_layout hook is already registered for '{op_name}' at level {level}"
        )
    if existing is None or existing.level < level:
        _HOOKS[name] = RegisteredHook(hook, level)


def unregister_alter_op_layout(op_name: str) -> None:
    """Remove the hook of `op_name`, if any (TVM's `reset_attr`)."""
    _HOOKS.pop(relay_op_name(op_name), None)


def get_alter_op_layout(op_name: str) -> AlterOpLayoutHook | None:
    """The hook registered for `op_name`, or None."""
    registered = _HOOKS.get(relay_op_name(op_name))
    return registered.hook if registered is not None else None


@contextmanager
def temp_alter_op_layout(op_name: str, hook: AlterOpLayoutHook) -> Generator[None]:
    """Install `hook` for `op_name` inside a `with` block, then restore what was there.

    TVM's `TempOpAttr(op_name, "FTVMAlterOpLayout", hook)`; whatever was
    registered is shadowed regardless of levels.
    """
    name = relay_op_name(op_name)
    saved = _HOOKS.get(name)
    _HOOKS[name] = RegisteredHook(hook, 0)
    try:
        yield
    finally:
        if saved is None:
            _HOOKS.pop(name, None)
        else:
            _HOOKS[name] = saved


def _hook_name(hook: AlterOpLayoutHook) -> str:
    return getattr(hook, "__qualname__", None) or repr(hook)


def _hooked_ops(block: Block) -> Iterator[Operation]:
    """The ops of `block` and its nested blocks that have a hook, composite bodies aside."""
    for op in block.ops:
        if op.name in _HOOKS:
            yield op
        if isinstance(op, CompositeOp):
            continue
        for region in op.regions:
            for inner in region.blocks:
                yield from _hooked_ops(inner)


def _is_inverse(outer: LayoutTransformOp, inner: LayoutTransformOp) -> bool:
    props, inner_props = outer.properties, inner.properties
    return get_str(props, "src_layout") == get_str(inner_props, "dst_layout") and get_str(
        props, "dst_layout"
    ) == get_str(inner_props, "src_layout")


class _Alterer:
    """Applies the hooks in one function and cancels transform pairs between replacements."""

    def __init__(self) -> None:
        self.transforms: list[LayoutTransformOp] = []
        """The layout_transforms the replacements brought, in program order."""

    def alter(self, op: Operation) -> None:
        registered = _HOOKS[op.name]
        hook = registered.hook
        inputs = [Var(f"input{index}", value.type) for index, value in enumerate(op.operands)]
        arguments: list[Expr] = list(inputs)
        result = cast(object, hook(op, arguments))  # checked: hooks are user code
        if result is None:
            return
        if not isinstance(result, Expr):
            raise TypeError(
                f"alter_op_layout hook '{_hook_name(hook)}' for '{op.name}' returned "
                f"{type(result).__name__}, expected a relay expression or None"
            )
        expected = op.results[0].type
        if len(op.results) != 1 or result.checked_type != expected:
            message = (
                f"alter_op_layout hook '{_hook_name(hook)}' returned {result.checked_type}, "
                f"expected the op's type {expected}"
            )
            raise DiagnosticError([op_error(op, message)])
        try:
            emitted = Function(inputs, result).to_func_op("altered")
        except ValueError as error:
            raise ValueError(
                f"alter_op_layout hook '{_hook_name(hook)}' for '{op.name}': {error}"
            ) from None
        self.splice(op, emitted.body.block)

    def splice(self, op: Operation, body: Block) -> None:
        """Replace `op` by the ops of `body` (its arguments standing for `op`'s operands)."""
        block = op.parent
        assert block is not None
        for argument, operand in zip(body.args, op.operands, strict=True):
            name = operand.name_hint
            argument.replace_all_uses_with(operand)
            operand.name_hint = name  # not the hook's input name
        terminator = body.last_op
        assert terminator is not None
        value: SSAValue = terminator.operands[0]
        for new in list(body.ops)[:-1]:
            body.detach_op(new)
            block.insert_op_before(new, op)
            if isinstance(new, LayoutTransformOp):
                self.transforms.append(new)
        body.erase_op(terminator)  # it reads `value`: no use may stay outside the function
        op.results[0].replace_all_uses_with(value)
        block.erase_op(op)

    def cancel_pairs(self) -> None:
        """`lt(lt(y, A, B), B, A)` -> `y` where the outer transform came from a replacement."""
        made = set(self.transforms)
        undone: list[LayoutTransformOp] = []
        for outer in self.transforms:
            inner = outer.data.owner
            if isinstance(inner, LayoutTransformOp) and _is_inverse(outer, inner):
                outer.result.replace_all_uses_with(inner.data)
                if inner not in made:
                    undone.append(inner)
        for transform in [*reversed(self.transforms), *undone]:
            block = transform.parent
            if block is not None and not transform.result.uses:
                block.erase_op(transform)


@dataclass(frozen=True)
class AlterOpLayoutPass(XdslFunctionPass):
    """Replace ops by what their registered alter_op_layout hooks return."""

    name = "alter-op-layout"
    tvm_name: ClassVar[str] = "AlterOpLayout"
    opt_level: ClassVar[int] = 3

    def apply_to_function(self, ctx: Context, function: func.FuncOp) -> None:
        if not _HOOKS or not function.body.blocks:
            return
        alterer = _Alterer()
        for op in list(_hooked_ops(function.body.block)):
            alterer.alter(op)
        alterer.cancel_pairs()


def AlterOpLayout() -> Pass:
    """TVM's `relay.transform.AlterOpLayout()`."""
    return XdslPass(AlterOpLayoutPass())
