"""Which elementwise chains the host emitter fuses into their producer's epilogue (`epilogue.py`).

In one block, a producer op that `EPILOGUE_PRODUCERS` accepts takes the longest
chain of ops after it that an `Epilogue` expresses, each intermediate's only
user being the next op of the chain (a value used twice or returned ends it):

1. a bias: `nn.bias_add` on the channel axis, or `add` (either operand order)
   of a value broadcast along the channel axis only (`(C,)` for dense/matmul's
   last dim, `(C, 1, 1)` or `(1, C, 1, 1)` for NCHW), leaving the shape as is;
2. a residual: `add` (either order) of a value of the result's own shape;
3. one activation: `nn.relu`, `clip`, `sigmoid`, `tanh`, or GELU in erf form
   as importers write it, `x * 0.5 * (1 + erf(x / sqrt 2))` in its usual op
   orders, or `x * (erf(x / sqrt 2) * 0.5 + 0.5)` as SimplifyExpr may leave it
   (the scalar constants within 1e-6, in the function or passed by every call);
   `x` is then read by two ops of the GELU, both inside the chain.

Each step is optional, in that order. The channel axis is the producer's `C` of
its `out_layout` (else `data_layout`) property, else its last axis.

Storage. The memory plan placed every op of the chain on its own; the fused
producer writes the chain's last value directly, at the producer's place in the
block, so that value's buffer `L` is written earlier than planned. A chain is
taken only when that is safe: the bias and residual are computed before the
producer (so the producer can read them); `L` shares no arena byte with what the
producer or the epilogue reads (the GEMM accumulates over `k` blocks in `L`: a
residual in place would be read after being overwritten); and no op between the
producer and the chain's last op reads or writes `L`'s bytes. When the whole
chain fails, a shorter prefix (bias and residual, then bias) is tried. The
producer's result and the chain's intermediates are then given `L` as storage
(nothing else reads them), so `fusion.py`'s clobber checks see the producer
writing `L`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xrelay.codegen.c.call_sites import constant_passed
from xrelay.codegen.c.epilogue import EPILOGUE_PRODUCERS, Activation, Epilogue
from xrelay.codegen.c.kernel_api import Unsupported, leaf_types, numel, static_shape
from xrelay.codegen.c.refs import ARENA, Ref, leaves
from xrelay.dialects.relay.base import get_float, get_int, normalize_axis
from xrelay.dialects.relay.structure import ConstantOp, TupleGetItemOp, TupleOp

if TYPE_CHECKING:
    from xrelay.codegen.c.function import FunctionEmitter

SIMPLE_ACTIVATIONS: Mapping[str, Activation] = {
    "relay.nn.relu": "relu",
    "relay.clip": "clip",
    "relay.sigmoid": "sigmoid",
    "relay.tanh": "tanh",
}
"""Single-op activations -> the epilogue's name."""


@dataclass
class Chain:
    """A producer and the ops fused into its epilogue."""

    producer: Operation
    members: list[Operation] = field(default_factory=list[Operation])
    """The fused ops (they print nothing)."""
    result: SSAValue | None = None
    """The chain's last value: the producer now writes its buffer."""
    bias: SSAValue | None = None
    residual: SSAValue | None = None
    activation: Activation | None = None
    clip: tuple[float, float] | None = None

    def epilogue(self, bias: str | None, residual: str | None) -> Epilogue:
        """The `Epilogue` with the C pointer names of the bias and residual."""
        return Epilogue(bias, residual, self.activation, self.clip)


def _shape(value: SSAValue) -> tuple[int, ...] | None:
    try:
        types = leaf_types(value.type)
        return static_shape(types[0]) if len(types) == 1 else None
    except Unsupported:
        return None


def channel_axis(op: Operation, rank: int) -> int:
    """The producer's channel axis: `C` of its layout property, else its last axis."""
    for name in ("out_layout", "data_layout"):
        layout = op.properties.get(name)
        if isinstance(layout, StringAttr) and len(layout.data) == rank and "C" in layout.data:
            return layout.data.index("C")
    return rank - 1


def _channel_broadcast(shape: Sequence[int], out: Sequence[int], axis: int) -> bool:
    """Whether a value of `shape` broadcast to `out` holds one value per channel `axis`."""
    offset = len(out) - len(shape)
    if offset < 0:
        return False
    for i, dim in enumerate(shape):
        if dim != (out[axis] if offset + i == axis else 1):
            return False
    return offset <= axis or out[axis] == 1


def _only_user(value: SSAValue, block: Block) -> Operation | None:
    """The single-result op of `block` that is the value's only use, else None."""
    uses = list(value.uses)
    if len(uses) != 1:
        return None
    user = uses[0].operation
    return user if user.parent is block and len(user.results) == 1 else None


def _other(op: Operation, value: SSAValue) -> SSAValue | None:
    """The other operand of a binary op that reads `value` exactly once."""
    if len(op.operands) != 2 or list(op.operands).count(value) != 1:
        return None
    return op.operands[1] if op.operands[0] is value else op.operands[0]


class _Matcher:
    """Finds chains in one block of one function."""

    def __init__(self, host: FunctionEmitter, block: Block) -> None:
        self.host = host
        self.block = block
        self.ops = list(block.ops)
        self.position = {op: index for index, op in enumerate(self.ops)}

    def scalar(self, value: SSAValue) -> float | None:
        """The value of a scalar float constant (one element): a `relay.constant`, or a
        parameter every call passes the same such constant for (`call_sites.py`)."""
        shape = _shape(value)
        constant = constant_passed(self.host.function, value)
        if shape is None or numel(shape) != 1 or constant is None:
            return None
        found = self.host.owner.constants.splat(constant)
        return float(found) if isinstance(found, float) else None

    def is_scalar(self, value: SSAValue | None, want: float) -> bool:
        found = None if value is None else self.scalar(value)
        return found is not None and math.isclose(found, want, rel_tol=1e-6)

    def scaled(self, op: Operation | None, x: SSAValue, factor: float) -> bool:
        """Whether `op` is `x * factor` (either order) or `x / (1 / factor)`."""
        if op is None:
            return False
        if op.name == "relay.multiply":
            return self.is_scalar(_other(op, x), factor)
        return (
            op.name == "relay.divide"
            and op.operands[0] is x
            and op.operands[1] is not x
            and self.is_scalar(op.operands[1], 1 / factor)
        )

    def gelu(self, x: SSAValue) -> list[Operation] | None:
        """The ops of `x * 0.5 * (1 + erf(x / sqrt 2))` over `x`, the last one computing it."""
        users = [use.operation for use in x.uses]
        if len(users) != 2 or any(u.parent is not self.block or len(u.results) != 1 for u in users):
            return None
        for arg, other in (users, users[::-1]):
            if not self.scaled(arg, x, 2**-0.5):
                continue
            erf = _only_user(arg.results[0], self.block)
            if erf is None or erf.name != "relay.erf":
                continue
            step = _only_user(erf.results[0], self.block)
            if step is None:
                continue
            if step.name == "relay.add" and self.is_scalar(_other(step, erf.results[0]), 1.0):
                tail = self._gelu_tail(x, other, step.results[0])
                if tail is not None:
                    return [arg, erf, step, *tail]
            elif self.scaled(step, erf.results[0], 0.5):  # x * (erf * 0.5 + 0.5)
                plus = _only_user(step.results[0], self.block)
                if plus is None or plus.name != "relay.add":
                    continue
                if not self.is_scalar(_other(plus, step.results[0]), 0.5):
                    continue
                last = plus.results[0]
                if _only_user(last, self.block) is other and self.product(other, x, last):
                    return [arg, erf, step, plus, other]
        return None

    def _gelu_tail(
        self, x: SSAValue, other: Operation, one_plus: SSAValue
    ) -> list[Operation] | None:
        """The ops multiplying `x`, `0.5` and `1 + erf(...)` (`other` reads `x`)."""
        final = _only_user(one_plus, self.block)
        if final is None:
            return None
        if self.scaled(other, x, 0.5):  # (x * 0.5) * (1 + erf)
            half = other.results[0]
            ok = _only_user(half, self.block) is final and self.product(final, half, one_plus)
            return [other, final] if ok else None
        if other is final and self.product(final, x, one_plus):  # (x * (1 + erf)) * 0.5
            last = _only_user(final.results[0], self.block)
            if last is not None and self.scaled(last, final.results[0], 0.5):
                return [final, last]
            return None
        if self.scaled(final, one_plus, 0.5):  # x * ((1 + erf) * 0.5)
            half = final.results[0]
            if _only_user(half, self.block) is other and self.product(other, x, half):
                return [final, other]
        return None

    @staticmethod
    def product(op: Operation, left: SSAValue, right: SSAValue) -> bool:
        """Whether `op` multiplies `left` by `right` (either order)."""
        return op.name == "relay.multiply" and _other(op, left) is right

    def stages(self, producer: Operation) -> list[Chain]:
        """The candidate chains after `producer`, longest first (each a prefix of the next)."""
        (x,) = producer.results
        out = _shape(x)
        if out is None or not out:
            return []
        axis = channel_axis(producer, len(out))
        found: list[Chain] = []
        chain = Chain(producer)
        value = x
        user = _only_user(value, self.block)
        if user is not None and _shape(user.results[0]) == out:
            other = _other(user, value)
            bias_shape = None if other is None else _shape(other)
            if user.name == "relay.nn.bias_add" and user.operands[0] is value:
                if normalize_axis(get_int(user.properties, "axis"), len(out)) == axis:
                    chain.bias = user.operands[1]
            elif (
                user.name == "relay.add"
                and other is not None
                and bias_shape is not None
                and bias_shape != out
                and _channel_broadcast(bias_shape, out, axis)
            ):
                chain.bias = other
            if chain.bias is not None:
                chain.members.append(user)
                value = user.results[0]
                found.append(_copy(chain, value))
        user = _only_user(value, self.block)
        if user is not None and user.name == "relay.add" and _shape(user.results[0]) == out:
            other = _other(user, value)
            if other is not None and _shape(other) == out:
                chain.residual = other
                chain.members.append(user)
                value = user.results[0]
                found.append(_copy(chain, value))
        user = _only_user(value, self.block)
        if user is not None and user.name in SIMPLE_ACTIVATIONS:
            chain.activation = SIMPLE_ACTIVATIONS[user.name]
            if chain.activation == "clip":
                low = get_float(user.properties, "a_min")
                high = get_float(user.properties, "a_max")
                chain.clip = (_float32(low), _float32(high))
            chain.members.append(user)
            found.append(_copy(chain, user.results[0]))
        else:
            gelu = self.gelu(value)
            if gelu is not None:
                chain.activation = "gelu_erf"
                chain.members.extend(gelu)
                found.append(_copy(chain, gelu[-1].results[0]))
        return found[::-1]

    def defined_before(self, value: SSAValue | None, producer: Operation) -> bool:
        if value is None:
            return True
        owner = value.owner
        if not isinstance(owner, Operation) or isinstance(owner, ConstantOp):
            return True  # a block argument, or constant data
        if owner.parent is not self.block:
            return True  # an enclosing block's value: computed before this block runs
        return self.position[owner] < self.position[producer]

    def safe(self, chain: Chain) -> bool:
        """Whether the producer may write the chain's result at its own place (module doc)."""
        producer = chain.producer
        assert chain.result is not None
        if not all(self.defined_before(v, producer) for v in (chain.bias, chain.residual)):
            return False
        target = self.host.tree(chain.result)
        if not isinstance(target, Ref):
            return False
        if target.kind != ARENA:
            return True  # outputs, parameters and constants are disjoint storage
        reads = [*producer.operands, *(v for v in (chain.bias, chain.residual) if v is not None)]
        if any(target.overlaps(r) for v in reads for r in leaves(self.host.tree(v))):
            return False
        members = set(chain.members)
        last = max(self.position[op] for op in chain.members)
        for op in self.ops[self.position[producer] + 1 : last]:
            if op in members or isinstance(op, ConstantOp | TupleOp | TupleGetItemOp):
                continue
            for inner in op.walk():
                for value in (*inner.operands, *inner.results):
                    tree = self.host.trees.get(value)
                    if tree is not None and any(target.overlaps(r) for r in leaves(tree)):
                        return False
        return True


def _copy(chain: Chain, result: SSAValue) -> Chain:
    return Chain(
        chain.producer,
        list(chain.members),
        result,
        chain.bias,
        chain.residual,
        chain.activation,
        chain.clip,
    )


def _float32(value: float) -> float:
    """numpy's float32 rounding of a clip bound (overflow to infinity)."""
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def find_chains(block: Block, host: FunctionEmitter) -> dict[Operation, Chain]:
    """The chains fused in `block`, by producer; their values' storage set to the result's."""
    matcher = _Matcher(host, block)
    chains: dict[Operation, Chain] = {}
    taken: set[Operation] = set()
    for op in matcher.ops:
        accepts = EPILOGUE_PRODUCERS.get(op.name)
        if accepts is None or op in taken or len(op.results) != 1 or not accepts(op):
            continue
        for chain in matcher.stages(op):
            if not taken.intersection(chain.members) and matcher.safe(chain):
                assert chain.result is not None
                target = host.tree(chain.result)
                for value in (op.results[0], *(m.results[0] for m in chain.members)):
                    host.trees[value] = target
                chains[op] = chain
                taken.update(chain.members)
                break
    return chains
