"""Seeded random relay graphs for differential tests of passes (`random_graph(seed)`).

Every graph is built with the Python builder, so it is well typed by
construction: each op's parameters are picked from the shapes at hand to be
valid (no build-and-retry). Graphs are small (inputs of batch 1 with at most
8 channels and 8x8 pixels, conv2d with at most 8 channels in and out, no
tensor over 1024 elements) so the reference interpreter runs them in a
millisecond or two, and numerically tame: inputs
are standard normal, weights are scaled by 1/sqrt(fan-in), `exp` only follows
`tanh`/`sigmoid`, and `log`/`sqrt`/`rsqrt`/`divide` only see values made
positive first (`abs(x) + 1`, `x * x + 1`).

The op mix gives each standard pass work to do:

- conv2d (kernels 1-3, strides, dilation, 2- or 4-value padding, groups,
  depthwise), dense, bias_add, batch_norm (constant parameters, positive
  variance; `[0]`), dropout, max/avg/global pools, elementwise unary and
  broadcasting binary ops, reshape (with 0/-1), transpose, batch_flatten,
  expand_dims, squeeze, concatenate, split, explicit tuples;
- constant-only subgraphs (FoldConstant), duplicated subexpressions and
  duplicated constants (EliminateCommonSubexpr), values nothing reads
  (DeadCodeElimination), consecutive reshapes and identities such as `x * 1`,
  `x + 0`, an identity transpose or `expand_dims` then `squeeze` (SimplifyExpr),
  positive per-channel scales around relu and conv2d (FoldScaleAxis);
- sometimes helper functions called from `main` with `func.call` (some marked
  `Inline = 1`, some called twice) and a function with `Compiler = "accel"`.

Reproduce a failure: `python -c 'from testlib.graphs import random_graph; print(random_graph(SEED))'`
from `tests/`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType

from xrelay import IRModule, relay

Shape = tuple[int, ...]
Expr = relay.Expr

MAX_NUMEL = 1024
"""No tensor of a generated graph has more elements than this."""

MAX_CHANNELS = 8
"""Convolutions take and produce at most this many channels."""

_UNARY: dict[str, Callable[[Expr], Expr]] = {
    "relu": relay.nn.relu,
    "tanh": relay.tanh,
    "sigmoid": relay.sigmoid,
    "abs": relay.abs,
    "negative": relay.negative,
}
_BINARY: dict[str, Callable[[Expr, Expr], Expr]] = {
    "add": relay.add,
    "subtract": relay.subtract,
    "multiply": relay.multiply,
    "maximum": relay.maximum,
    "minimum": relay.minimum,
}

# The most ops (constants excluded) a family adds in one step; a step is only
# taken when it fits in what is left of the budget.
_COST = {
    "unary": 2,
    "safe_math": 3,
    "binary": 4,
    "conv2d": 3,
    "dense": 2,
    "pool": 1,
    "reshape": 1,
    "reshape_chain": 3,
    "transpose": 1,
    "batch_flatten": 1,
    "expand_dims": 2,
    "squeeze": 1,
    "batch_norm": 2,
    "bias_add": 1,
    "dropout": 2,
    "concatenate": 3,
    "split": 5,
    "tuple": 5,
    "duplicate": 4,
    "identity": 2,
    "dead": 3,
    "call": 6,
    "channel_scale": 3,
}

# Relative weights of the families, by rank of the value a step extends.
_WEIGHTS_4D = {
    "conv2d": 10,
    "pool": 4,
    "batch_norm": 2,
    "bias_add": 1,
    "batch_flatten": 1,
    "squeeze": 0.5,
    "expand_dims": 1,
    "channel_scale": 2,
}
_WEIGHTS_2D = {"dense": 5, "batch_norm": 1, "bias_add": 1, "squeeze": 0.5, "expand_dims": 1}
_WEIGHTS_3D = {"batch_norm": 1, "bias_add": 1, "squeeze": 0.5, "expand_dims": 1, "batch_flatten": 1}
_WEIGHTS_1D = {"expand_dims": 2}
_WEIGHTS_ANY = {
    "unary": 4,
    "safe_math": 1,
    "binary": 4,
    "reshape": 1.5,
    "reshape_chain": 1,
    "transpose": 1,
    "dropout": 1,
    "concatenate": 1,
    "split": 1,
    "tuple": 0.7,
    "duplicate": 1.5,
    "identity": 1.5,
    "dead": 1.5,
    "call": 1.5,
}


def shape_of(expr: Expr) -> Shape:
    """The static shape of a tensor-typed expression."""
    ty = expr.checked_type
    assert isinstance(ty, TensorType), ty
    return tuple(int(d) for d in ty.get_shape())


def _numel(shape: Shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


def _broadcasts_to(small: Shape, big: Shape) -> bool:
    """`small` broadcasts against `big` without changing `big`'s shape."""
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big), strict=False))


class _Module:
    """The functions of the module being built, besides `main`."""

    def __init__(self) -> None:
        self.ops: list[func.FuncOp] = []
        self.callees: list[tuple[relay.GlobalVar, tuple[Shape, ...]]] = []
        self.has_accel = False


class _Graph:
    """One function's expression DAG, grown step by step from a pool of values."""

    def __init__(
        self, rng: np.random.Generator, budget: int, module: _Module | None, dead: bool = True
    ):
        self.rng = rng
        self.budget = budget
        self.module = module
        """Where helper functions go; None inside a helper (no nested calls)."""
        self.allow_dead = dead
        self.count = 0
        self.seen: set[int] = set()
        self.pool: list[Expr] = []
        self.consumed: set[int] = set()
        self.dead: list[Expr] = []

    # ------------------------------------------------------------ randomness

    def pick(self, items: Sequence[Any]) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def const(self, shape: Shape, low: float = -1.0, high: float = 1.0) -> relay.Constant:
        return relay.const(self.rng.uniform(low, high, shape).astype("float32"))

    def weights(self, shape: Shape, fan_in: int) -> relay.Constant:
        scale = np.sqrt(1.0 / max(fan_in, 1))
        return relay.const((self.rng.standard_normal(shape) * scale).astype("float32"))

    # ------------------------------------------------------------ accounting

    def account(self, *roots: Expr) -> None:
        """Count the ops not seen before that `roots` depend on."""
        stack = [r for r in roots if id(r) not in self.seen]
        while stack:
            node = stack.pop()
            if id(node) in self.seen:
                continue
            self.seen.add(id(node))
            if isinstance(node, relay.Call | relay.GlobalCall):
                self.count += 1
            stack.extend(c for c in node.children() if id(c) not in self.seen)

    def partner(self, shape: Shape, exact: bool = False) -> Expr | None:
        """A pool value that broadcasts to `shape` (or has it, with `exact`), unread ones first."""
        fits = [
            v
            for v in self.pool
            if (shape_of(v) == shape if exact else _broadcasts_to(shape_of(v), shape))
        ]
        fresh = [v for v in fits if id(v) not in self.consumed]
        chosen = self.pick(fresh or fits) if fits else None
        if chosen is not None:
            self.consumed.add(id(chosen))
        return chosen

    # ------------------------------------------------------------ growing

    def grow(self) -> None:
        """Take steps until the budget is spent."""
        while self.step():
            pass

    def affordable(self, shape: Shape, left: int) -> dict[str, float]:
        weights = self.family_weights(shape)
        return {n: w for n, w in weights.items() if w > 0 and _COST[n] <= left}

    def step(self) -> bool:
        """Extend the newest value (the spine), or branch off an older one and join the spine."""
        spine = self.pool[-1]
        branch = len(self.pool) > 1 and self.chance(0.3)
        x = self.pick(self.pool[:-1]) if branch else spine
        left = self.budget - self.count
        weights = self.affordable(shape_of(x), left - int(branch))  # joining costs one op
        if not weights and branch:
            branch, x = False, spine
            weights = self.affordable(shape_of(x), left)
        if not weights:
            return False
        names = sorted(weights)
        p = np.array([weights[n] for n in names], dtype=np.float64)
        family = names[int(self.rng.choice(len(names), p=p / p.sum()))]
        self.consumed.add(id(x))
        out = getattr(self, f"f_{family}")(x)
        if out is None:
            pass
        elif not branch:
            self.pool.append(out)
        elif _broadcasts_to(shape_of(out), shape_of(spine)):
            join = _BINARY[self.pick(sorted(_BINARY))]
            self.consumed |= {id(out), id(spine)}
            self.pool += [out, join(spine, out)]
        else:
            self.pool.insert(len(self.pool) - 1, out)  # a leftover unless a later step reads it
        self.account(*self.pool[-2:], *self.dead)
        return True

    def family_weights(self, shape: Shape) -> dict[str, float]:
        weights = dict(_WEIGHTS_ANY)
        weights.update({1: _WEIGHTS_1D, 2: _WEIGHTS_2D, 3: _WEIGHTS_3D}.get(len(shape), {}))
        if len(shape) == 4:
            weights.update(_WEIGHTS_4D)
            if shape[1] > MAX_CHANNELS:
                weights["conv2d"] = 0
        if 1 not in shape or len(shape) < 2:
            weights["squeeze"] = 0
        if self.module is None:
            weights["call"] = 0
        if not self.allow_dead:
            weights["dead"] = 0
        return weights

    # ------------------------------------------------------------ families

    def f_unary(self, x: Expr) -> Expr:
        if self.chance(0.2):
            squash = relay.tanh if self.chance(0.5) else relay.sigmoid
            return relay.exp(squash(x))
        if self.chance(0.1):
            return relay.clip(x, -1.0, 1.0)
        return _UNARY[self.pick(sorted(_UNARY))](x)

    def f_safe_math(self, x: Expr) -> Expr:
        shape = shape_of(x)
        kind = self.pick(["log", "sqrt", "rsqrt", "divide", "divide_const"])
        if kind == "log":
            return relay.log(relay.add(relay.abs(x), relay.const(1.0)))
        if kind == "sqrt":
            return relay.sqrt(relay.add(relay.multiply(x, x), relay.const(1.0)))
        if kind == "rsqrt":
            return relay.rsqrt(relay.add(relay.abs(x), relay.const(1.0)))
        if kind == "divide":
            y = self.partner(shape) or x
            return relay.divide(x, relay.add(relay.abs(y), relay.const(1.0)))
        return relay.divide(x, self.const(self.broadcast_shape(shape), 0.5, 2.0))

    def broadcast_shape(self, shape: Shape) -> Shape:
        """A shape that broadcasts to `shape`: scalar, a suffix, or some dims set to 1."""
        kind = self.pick(["scalar", "suffix", "ones", "full", "channel"])
        if kind == "scalar":
            return ()
        if kind == "suffix":
            return shape[int(self.rng.integers(len(shape) + 1)) :]
        if kind == "ones":
            return tuple(d if self.chance(0.5) else 1 for d in shape)
        if kind == "channel" and len(shape) >= 2:
            return (shape[1],) + (1,) * (len(shape) - 2)
        return shape

    def const_expr(self, shape: Shape) -> Expr:
        """A constant-only subgraph of `shape` (up to 2 ops) for FoldConstant."""
        kind = self.pick(["plain", "plain", "add", "mul_tanh", "reshape", "concat"])
        if kind == "add":
            return relay.add(self.const(shape), self.const(shape))
        if kind == "mul_tanh":
            return relay.multiply(self.const(shape), relay.tanh(self.const(shape)))
        if kind == "reshape" and shape:
            flat = self.const((_numel(shape),))
            return relay.reshape(flat, list(shape))
        if kind == "concat" and shape and shape[0] % 2 == 0:
            half = (shape[0] // 2, *shape[1:])
            return relay.concatenate([self.const(half), self.const(half)], 0)
        return self.const(shape)

    def f_binary(self, x: Expr) -> Expr:
        shape = shape_of(x)
        op = _BINARY[self.pick(sorted(_BINARY))]
        other = self.partner(shape) if self.chance(0.5) else None
        if other is None:
            other = self.const_expr(self.broadcast_shape(shape))
        return op(x, other) if self.chance(0.7) else op(other, x)

    def conv_window(self, size: int, kernel: int) -> tuple[int, int, int]:
        """(padding before, padding after, dilation) that make `kernel` fit `size`."""
        before = int(self.rng.integers(kernel // 2 + 1))
        after = before if self.chance(0.7) else int(self.rng.integers(kernel // 2 + 1))
        if kernel == 2:
            after = 1 - before  # no more padding than the window: the size never grows
        dilation = 2 if kernel > 1 and self.chance(0.15) else 1
        if (kernel - 1) * dilation + 1 > size + before + after:
            dilation = 1
        if kernel > size + before + after:
            before = after = kernel // 2
        return before, after, dilation

    def conv_groups(self, channels: int) -> tuple[int, int]:
        """(groups, output channels): plain, depthwise, or grouped."""
        kind = self.pick(["plain", "plain", "depthwise", "grouped"])
        if kind == "depthwise" and channels > 1:
            multiplier = self.pick([m for m in (1, 2) if channels * m <= MAX_CHANNELS] or [1])
            return channels, channels * multiplier
        divisors = [g for g in range(2, min(channels, MAX_CHANNELS + 1)) if channels % g == 0]
        if kind == "grouped" and divisors:
            groups = self.pick(divisors)
            return groups, groups * int(self.rng.integers(1, MAX_CHANNELS // groups + 1))
        return 1, int(self.rng.integers(1, MAX_CHANNELS + 1))

    def f_conv2d(self, x: Expr) -> Expr:
        _, channels, height, width = shape_of(x)
        kh, kw = (self.pick([1, 3, 3, 2]), self.pick([1, 3, 3, 2]))
        if self.chance(0.6):
            kw = kh
        top, bottom, dh = self.conv_window(height, kh)
        left, right, dw = self.conv_window(width, kw)
        strides = (self.pick([1, 1, 2]), self.pick([1, 1, 2]))
        groups, out_channels = self.conv_groups(channels)
        shape = (out_channels, channels // groups, kh, kw)
        weight: Expr = self.weights(shape, shape[1] * kh * kw)
        if self.chance(0.25):
            weight = relay.multiply(weight, self.const((out_channels, 1, 1, 1), 0.5, 1.5))
        padding = (top, left) if (top, left) == (bottom, right) else (top, left, bottom, right)
        y = relay.nn.conv2d(
            x, weight, strides=strides, padding=padding, dilation=(dh, dw), groups=groups
        )
        if self.chance(0.5):
            y = relay.nn.bias_add(y, self.const((out_channels,)))
        return y

    def f_channel_scale(self, x: Expr) -> Expr:
        """A positive per-channel scale, a per-channel shift, a relu (work for FoldScaleAxis)."""
        channels = shape_of(x)[1]
        y = relay.multiply(x, self.const((channels, 1, 1), 0.5, 2.0))
        if self.chance(0.5):
            y = relay.add(y, self.const((channels, 1, 1)))
        return relay.nn.relu(y) if self.chance(0.7) else y

    def f_dense(self, x: Expr) -> Expr:
        most = max(1, min(MAX_CHANNELS, MAX_NUMEL // shape_of(x)[1]))
        units = int(self.rng.integers(1, most + 1))
        weight = self.weights((units, shape_of(x)[1]), shape_of(x)[1])
        y = relay.nn.dense(x, weight, units=units if self.chance(0.5) else None)
        if self.chance(0.5):
            y = relay.nn.bias_add(y, self.const((units,)))
        return y

    def f_pool(self, x: Expr) -> Expr:
        kind = self.pick(["max", "max", "avg", "avg", "global_avg", "global_max"])
        if kind == "global_avg":
            return relay.nn.global_avg_pool2d(x)
        if kind == "global_max":
            return relay.nn.global_max_pool2d(x)
        _, _, height, width = shape_of(x)
        size = self.pick([1, 2, 2, 3, 3])
        top, bottom, _ = self.conv_window(height, size)
        left, right, _ = self.conv_window(width, size)
        strides = self.pick([1, 2, size])
        # A window must hold an element of the input: padding < size (conv_window's rule)
        # and, with ceil_mode, no padding after and strides <= size.
        ceil = bottom == 0 and right == 0 and 1 < strides <= size and self.chance(0.3)
        padding = (top, left, bottom, right)
        if kind == "max":
            return relay.nn.max_pool2d(x, size, strides, padding=padding, ceil_mode=ceil)
        include = self.chance(0.5)
        return relay.nn.avg_pool2d(
            x, size, strides, padding=padding, ceil_mode=ceil, count_include_pad=include
        )

    def factor_shape(self, numel: int, rank: int) -> Shape:
        """A random shape of `rank` with `numel` elements (batch 1 for rank 4)."""
        dims = [1] * rank
        factors: list[int] = []
        n, p = numel, 2
        while n > 1:
            while n % p == 0:
                factors.append(p)
                n //= p
            p += 1
        first = 1 if rank == 4 else 0
        for factor in factors:
            dims[int(self.rng.integers(first, rank))] *= factor
        return tuple(dims)

    def reshape_to(self, x: Expr, target: Shape) -> Expr:
        """`reshape(x, target)`, sometimes spelling a dim as -1 or 0 (copy)."""
        spec = list(target)
        source = shape_of(x)
        if spec and self.chance(0.3):
            spec[int(self.rng.integers(len(spec)))] = -1
        elif spec and self.chance(0.3) and source[0] == spec[0]:
            spec[0] = 0
        return relay.reshape(x, spec)

    def f_reshape(self, x: Expr) -> Expr:
        rank = self.pick([1, 2, 2, 3, 4, 4, 4])
        return self.reshape_to(x, self.factor_shape(_numel(shape_of(x)), rank))

    def f_reshape_chain(self, x: Expr) -> Expr:
        shape = shape_of(x)
        steps = int(self.rng.integers(2, 4))
        y = x
        for step in range(steps):
            last = step == steps - 1
            target = shape if last and self.chance(0.5) else None
            if target is None:
                target = self.factor_shape(_numel(shape), self.pick([1, 2, 3, 4]))
            y = self.reshape_to(y, target)
        return y

    def f_transpose(self, x: Expr) -> Expr:
        rank = len(shape_of(x))
        kind = self.pick(["random", "random", "identity", "reverse"])
        if kind == "identity" or rank < 2:
            return relay.transpose(x, list(range(rank)))
        if kind == "reverse":
            return relay.transpose(x)
        return relay.transpose(x, [int(a) for a in self.rng.permutation(rank)])

    def f_batch_flatten(self, x: Expr) -> Expr:
        return relay.nn.batch_flatten(x)

    def f_expand_dims(self, x: Expr) -> Expr:
        rank = len(shape_of(x))
        axis = int(self.rng.integers(-rank - 1, rank + 1))
        if rank == 4 or self.chance(0.4):
            # expand then squeeze the same axis: an identity pair
            position = axis if axis >= 0 else axis + rank + 1
            return relay.squeeze(relay.expand_dims(x, axis), [position])
        return relay.expand_dims(x, axis, num_newaxis=self.pick([1, 1, 2]) if rank <= 2 else 1)

    def f_squeeze(self, x: Expr) -> Expr:
        shape = shape_of(x)
        ones = [i for i, d in enumerate(shape) if d == 1]
        if self.chance(0.3) and len(ones) < len(shape):
            return relay.squeeze(x)
        return relay.squeeze(x, [self.pick(ones)])

    def f_batch_norm(self, x: Expr) -> Expr:
        shape = shape_of(x)
        axis = 1 if self.chance(0.8) else len(shape) - 1
        n = shape[axis]
        gamma, beta = self.const((n,), 0.5, 1.5), self.const((n,))
        mean, var = self.const((n,)), self.const((n,), 0.5, 2.0)
        return relay.nn.batch_norm(
            x,
            gamma,
            beta,
            mean,
            var,
            axis=axis if axis == 1 or self.chance(0.5) else -1,
            epsilon=self.pick([1e-5, 1e-3]),
            center=self.chance(0.8),
            scale=self.chance(0.8),
        )[0]

    def f_bias_add(self, x: Expr) -> Expr:
        shape = shape_of(x)
        axis = 1 if self.chance(0.8) else len(shape) - 1
        return relay.nn.bias_add(x, self.const((shape[axis],)), axis=axis)

    def f_dropout(self, x: Expr) -> Expr:
        return relay.nn.dropout(x, rate=self.pick([0.1, 0.5]))

    def f_concatenate(self, x: Expr) -> Expr:
        shape = shape_of(x)
        axis = int(self.rng.integers(len(shape)))
        if _numel(shape) * 2 > MAX_NUMEL or shape[axis] * 2 > 2 * MAX_CHANNELS:
            return relay.concatenate([x], axis)
        same = [
            v
            for v in self.pool
            if len(shape_of(v)) == len(shape)
            and all(
                a == b or i == axis for i, (a, b) in enumerate(zip(shape_of(v), shape, strict=True))
            )
            and _numel(shape) + _numel(shape_of(v)) <= MAX_NUMEL
            and shape[axis] + shape_of(v)[axis] <= 2 * MAX_CHANNELS
        ]
        other = self.pick(same) if same else x
        self.consumed.add(id(other))
        if other is x and self.chance(0.5):
            other = relay.nn.relu(x)
        fields = [x, other] if self.chance(0.5) else [other, x]
        return relay.concatenate(fields, axis - len(shape) if self.chance(0.3) else axis)

    def f_split(self, x: Expr) -> Expr:
        shape = shape_of(x)
        axes = [i for i, d in enumerate(shape) if d >= 2]
        if not axes:
            return relay.nn.relu(x)
        axis = self.pick(axes)
        size = shape[axis]
        if size % 2 == 0 and self.chance(0.5):
            parts: Expr = relay.split(x, 2, axis)
            equal = True
        else:
            parts = relay.split(x, [int(self.rng.integers(1, size))], axis)
            equal = False
        kind = self.pick(["first", "concat", "combine"])
        if kind == "concat":
            return relay.concatenate(parts, axis)  # split then concatenate: x again
        if kind == "combine" and equal:
            return relay.add(parts[0], relay.tanh(parts[1]))
        return parts[int(self.rng.integers(2))]

    def f_tuple(self, x: Expr) -> Expr:
        other = self.partner(shape_of(x), exact=True) or relay.sigmoid(x)
        pair = relay.Tuple([x, other])
        if self.chance(0.3):
            return relay.add(pair[0], pair[1])
        return pair[int(self.rng.integers(2))]

    def f_duplicate(self, x: Expr) -> Expr:
        """The same op twice on the same operands, combined (work for CSE)."""
        kind = self.pick(["unary", "unary", "bias", "const"])
        if kind == "unary":
            fn = _UNARY[self.pick(sorted(_UNARY))]
            a, b = fn(x), fn(x)
        elif kind == "bias" and len(shape_of(x)) >= 2:
            data = self.rng.uniform(-1, 1, (shape_of(x)[1],)).astype("float32")
            a = relay.nn.bias_add(x, relay.const(data))
            b = relay.nn.bias_add(x, relay.const(data.copy()))
        else:
            value = float(self.rng.uniform(0.5, 2.0))
            a = relay.multiply(x, relay.const(np.float32(value)))
            b = relay.multiply(x, relay.const(np.float32(value)))
        return relay.add(a, b) if self.chance(0.6) else relay.subtract(a, relay.tanh(b))

    def f_identity(self, x: Expr) -> Expr:
        """Ops that compute their input (work for SimplifyExpr)."""
        shape = shape_of(x)
        kind = self.pick(["mul1", "add0", "sub0", "ones", "transpose", "reshape", "double"])
        if kind == "mul1":
            return relay.multiply(x, relay.const(np.float32(1.0)))
        if kind == "add0":
            return relay.add(relay.const(np.float32(0.0)), x)
        if kind == "sub0":
            return relay.subtract(x, relay.const(np.zeros(self.broadcast_shape(shape), "float32")))
        if kind == "ones":
            return relay.multiply(x, relay.const(np.ones(self.broadcast_shape(shape), "float32")))
        if kind == "transpose":
            return relay.transpose(x, list(range(len(shape))))
        if kind == "reshape":
            return relay.reshape(x, list(shape))
        return relay.add(relay.multiply(x, relay.const(np.float32(1.0))), relay.const(0.0))

    def f_dead(self, x: Expr) -> None:
        """Values nothing reads (work for DCE): an op chain on `x`, or a constant subgraph."""
        if self.chance(0.3):
            self.dead.append(self.const_expr(shape_of(x)))
            return
        y = _UNARY[self.pick(sorted(_UNARY))](x)
        if self.chance(0.5):
            y = relay.add(y, self.const(shape_of(x)))
        self.dead.append(y)

    def f_call(self, x: Expr) -> Expr:
        assert self.module is not None
        shape = shape_of(x)
        known = [g for g, shapes in self.module.callees if shapes == (shape,)]
        if known and self.chance(0.6):
            return self.pick(known)(x)
        if len(self.module.ops) >= 3:
            return relay.nn.relu(x)
        callee, size = make_function(self.rng, self.module, [shape])
        self.count += size
        y = callee(x)
        kind = self.pick(["once", "once", "twice", "nested"])
        if kind == "twice":  # two call sites with the same operand
            return relay.add(y, callee(x))
        if kind == "nested" and shape_of(y) == shape:
            return callee(y)
        return y


def make_function(
    rng: np.random.Generator, module: _Module, shapes: list[Shape]
) -> tuple[relay.GlobalVar, int]:
    """A helper function on `shapes` (1-3 ops), added to `module`: its GlobalVar, its op count."""
    graph = _Graph(rng, int(rng.integers(1, 4)), None, dead=bool(rng.random() < 0.3))
    params = [relay.var(f"p{i}", shape=s) for i, s in enumerate(shapes)]
    graph.pool = list(params)
    graph.seen = {id(p) for p in params}
    graph.grow()
    attrs: dict[str, object] = {}
    kind = graph.pick(["plain", "inline", "inline", "accel"])
    if kind == "accel" and not module.has_accel:
        attrs["Compiler"] = "accel"
        module.has_accel = True
        name = f"accel_{len(module.ops)}"
    else:
        name = f"f{len(module.ops)}"
        if kind != "plain":
            attrs["Inline"] = 1
    op = emit_function(rng, name, params, graph.pool[-1], graph.dead, attrs)
    module.ops.append(op)
    gvar = relay.GlobalVar(name, op.function_type)
    module.callees.append((gvar, tuple(shapes)))
    return gvar, graph.count


def emit_function(
    rng: np.random.Generator,
    name: str,
    params: list[relay.Var],
    body: Expr,
    dead: list[Expr],
    attrs: dict[str, object],
) -> func.FuncOp:
    """`func.func @name` computing `body`, with the ops of `dead` left in it unused.

    The builder emits only what the result reads, so the dead values are built
    as extra results whose `func.return` operands are then dropped.
    """
    dead = [d for d in dead if not isinstance(d, relay.Var | relay.Constant)]
    if not dead:
        return relay.Function(params, body, attrs=attrs).to_func_op(name)
    fields = list(dead)
    index = int(rng.integers(len(fields) + 1))
    fields.insert(index, body)
    function = relay.Function(params, relay.Tuple(fields), attrs=attrs)
    function.multi_result = True
    op = function.to_func_op(name)
    ret = op.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    live = ret.operands[index]
    op.body.block.insert_op_before(func.ReturnOp(live), ret)
    op.body.block.erase_op(ret)
    op.function_type = FunctionType.from_lists(list(op.function_type.inputs.data), [live.type])
    return op


def _input_shapes(rng: np.random.Generator) -> list[Shape]:
    """1-3 input shapes: the first mostly NCHW, the others broadcasting against it."""
    kind = rng.choice(["nchw", "nchw", "nchw", "nchw", "matrix", "rank3"])
    if kind == "nchw":
        dims = rng.integers(1, 9, 3)
        first: Shape = (1, int(dims[0]), int(max(dims[1], 2)), int(max(dims[2], 2)))
    elif kind == "matrix":
        first = (int(rng.integers(1, 4)), int(rng.integers(1, 17)))
    else:
        first = tuple(int(d) for d in rng.integers(1, 7, 3))
    shapes = [first]
    for _ in range(int(rng.integers(0, 3))):
        cut = int(rng.integers(len(first) + 1))
        mask = rng.random(len(first)) < 0.5
        shape = tuple(
            1 if (m and rng.random() < 0.5) else d for d, m in zip(first, mask, strict=True)
        )
        shapes.append(shape[cut:] if rng.random() < 0.3 else shape)
    return [s if s else (1,) for s in shapes]


def random_graph(seed: int, max_ops: int = 30) -> IRModule:
    """A random well-typed module: `main` on 1-3 float32 inputs, at most `max_ops` ops.

    Deterministic for a seed. Ops are counted without constants, helper
    functions' bodies included; graphs have between about max_ops/2 and
    max_ops of them.
    """
    rng = np.random.default_rng(seed)
    module = _Module()
    shapes = _input_shapes(rng)
    params = [relay.var(f"x{i}", shape=s) for i, s in enumerate(shapes)]
    target = int(rng.integers(max(1, max_ops // 2), max_ops + 1))
    graph = _Graph(rng, max(target - 2, 1), module)  # two ops kept back for the result
    graph.pool = list(params)
    graph.seen = {id(p) for p in params}
    merged: Expr = params[0]
    for extra in params[1:]:
        if graph.count + 1 < graph.budget:
            merged = _BINARY[graph.pick(sorted(_BINARY))](merged, extra)
            graph.consumed |= {id(params[0]), id(extra), id(graph.pool[-1])}
            graph.pool.append(merged)
            graph.account(merged)
    graph.grow()
    final = graph.pool[-1]
    leftovers = [
        v
        for v in graph.pool
        if id(v) not in graph.consumed and v is not final and not isinstance(v, relay.Var)
    ]
    body: Expr = final
    joinable = [v for v in leftovers if _broadcasts_to(shape_of(v), shape_of(final))]
    if joinable and rng.random() < 0.5:
        joined = graph.pick(joinable)
        leftovers.remove(joined)
        body = final = relay.add(final, joined)
    if leftovers and rng.random() < 0.2:
        body = relay.Tuple([final, graph.pick(leftovers)])
    elif leftovers and graph.allow_dead and rng.random() < 0.5:
        graph.dead.append(graph.pick(leftovers))
    main = emit_function(rng, "main", params, body, graph.dead, {})
    return IRModule(module=ModuleOp([*module.ops, main]))
