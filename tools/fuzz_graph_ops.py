"""Random well-typed relay graphs for `fuzz_graph`: one generator per relay op.

`GraphMaker(rng, name).make(op)` builds a small graph around op `op` (after
zero to two random other ops, so the op sees computed values too) with the
Python builder, and makes its inputs. Every input is drawn by `Values`: small
normal floats with, in some graphs, edge cases mixed in (NaN, +-Inf, -0.0,
huge, subnormal), integers with their type's extremes and zero, and sometimes
a zero-size batch. `GENERATORS` maps every relay op name to its generator;
`IMPLIED` names the ops the builder cannot write directly and where they come
from instead (tests assert that the two cover the dialect).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute
from xrelay.dialects.interpreter import numpy_dtype
from xrelay.dialects.relay.types import BFLOAT16, is_float_dtype, tensor_element_type
from xrelay.tools.fuzz_graph_blocked import conv2d_nchwc
from xrelay.tools.fuzz_graph_like_ops import LIKE_GENERATORS, SPACE_BATCH_GENERATORS
from xrelay.tools.fuzz_graph_movement import MOVEMENT_GENERATORS
from xrelay.tools.fuzz_graph_ops_dyn import DYN_GENERATORS
from xrelay.tools.fuzz_graph_ops_misc import MISC_GENERATORS
from xrelay.tools.fuzz_graph_ops_nn import NN_GENERATORS
from xrelay.tools.fuzz_graph_ops_rcnn import RCNN_GENERATORS

from xrelay import relay

Expr = relay.Expr
Shape = tuple[int, ...]
Array = np.ndarray[Any, Any]

HALF_DTYPES = ("float16", "bfloat16")
"""Float types computed in float32 and rounded once per op (docs/semantics.md)."""
OTHER_INTS = ("int8", "uint8", "uint16", "uint32", "uint64")
"""Integer types beside int32 and int64 that graphs draw too."""
BITWISE = ("int32", "int64", "bool", "uint8", "uint32")
"""The types bitwise ops draw."""

HUGE = 1.0e30
"""Edge values from here up can overflow float32 inside a sum (docs/semantics.md)."""
FLOAT_EDGES = (np.nan, np.inf, -np.inf, -0.0, 3.0e38, -3.0e38, 1.0e-40, 1.0e30, 65504.0)


class Values:
    """Seeded input values; `edge` is the share of elements replaced by edge cases."""

    def __init__(self, rng: random.Random, edge: float):
        self.rng = rng
        self.np_rng = np.random.default_rng(rng.getrandbits(32))
        self.edge = edge
        self.huge = False
        """Whether a value of magnitude HUGE or more was drawn: sums may then overflow."""

    def array(self, shape: Shape, dtype: str, finite: bool = False) -> Array:
        rng = self.np_rng
        if dtype == "bool":
            return rng.random(shape) < 0.5
        np_dtype = BFLOAT16 if dtype == "bfloat16" else np.dtype(dtype)
        if np_dtype.kind in "iu":
            info = np.iinfo(np_dtype)
            values = rng.integers(max(-10, int(info.min)), 10, shape).astype(np_dtype)
            edges = np.array([0, 1, info.max, info.min, info.max - 1], np_dtype)
        else:  # via float32: f16 and bf16 round (3e38 becomes inf in f16)
            values = rng.standard_normal(shape).astype(np.float32).astype(np_dtype)
            with np.errstate(over="ignore"):
                edges = np.array(FLOAT_EDGES, np.float32).astype(np_dtype)
            if finite:  # moderate: no product of two of them leaves the float32 range
                wide = edges.astype(np.float32)
                edges = edges[np.isfinite(wide) & (np.abs(wide) < 1.0e4)]
        if self.edge and values.size:
            mask = rng.random(shape) < self.edge
            values[mask] = rng.choice(edges, int(mask.sum()))
            if is_float_dtype(values.dtype):
                with np.errstate(invalid="ignore"):
                    wide = values[mask].astype(np.float32)
                    self.huge = self.huge or bool((np.abs(wide) >= HUGE).any())
        return values


def shape_of(expr: Expr) -> Shape:
    """The static shape of a tensor-typed expression."""
    ty = expr.checked_type
    assert isinstance(ty, TensorType), ty
    return tuple(int(d) for d in ty.get_shape())


def dtype_of(expr: Expr) -> str:
    """The numpy dtype name of a tensor-typed expression."""
    ty = expr.checked_type
    assert isinstance(ty, TensorType)
    return str(np.dtype(numpy_dtype(tensor_element_type(cast(Attribute, ty)))))


class GraphMaker:
    """Builds one graph: its inputs (`params`, `inputs`) and its outputs (`outputs`)."""

    def __init__(self, rng: random.Random, name: str):
        self.rng = rng
        self.name = name
        self.values = Values(rng, rng.choice((0.0, 0.0, 0.05, 0.2)))
        self.params: list[relay.Var] = []
        self.inputs: list[Array] = []
        self.depth = 0
        self.batch = 0 if rng.random() < 0.05 else rng.choice((1, 1, 2))

    # -------------------------------------------------------------- values

    def var(self, shape: Shape, dtype: str = "float32") -> Expr:
        v = relay.var(f"{self.name}p{len(self.params)}", shape=shape, dtype=dtype)
        self.params.append(v)
        self.inputs.append(self.values.array(shape, dtype))
        return v

    def const(self, shape: Shape, dtype: str = "float32", finite: bool = False) -> Expr:
        return relay.const(self.values.array(shape, dtype, finite), dtype)

    def dim(self, low: int = 1, high: int = 5) -> int:
        return self.rng.randint(low, high)

    def float_dtype(self) -> str:
        """float32 mostly; f16 and bf16 in a share of graphs."""
        return self.rng.choice(("float32",) * 6 + HALF_DTYPES)

    def any_dtype(self) -> str:
        return self.rng.choice(("float32",) * 6 + HALF_DTYPES + ("int32", "int64") + OTHER_INTS)

    def tensor(self, rank: int | None = None, dtype: str = "float32") -> Expr:
        """An input of `rank` dims (random if None); sometimes passed through a unary op first."""
        rank = self.rng.randint(1, 4) if rank is None else rank
        shape = tuple(self.batch if i == 0 else self.dim() for i in range(rank))
        value = self.var(shape, dtype)
        if dtype == "float32" and self.rng.random() < 0.3:
            value = self.rng.choice((relay.tanh, relay.nn.relu, relay.negative))(value)
            self.depth += 1
        return value

    def nchw(self, dtype: str = "float32", low: int = 1) -> Expr:
        shape = (self.batch, self.dim(1, 4), self.dim(low, 7), self.dim(low, 7))
        return self.var(shape, dtype)

    def make(self, op: str) -> list[Expr]:
        """The outputs of a graph around `op`."""
        out = GENERATORS[op](self)
        self.depth += 1
        if self.rng.random() < 0.3 and dtype_of(out) == "float32":
            out = relay.add(out, self.const(shape_of(out)[-1:] or ()))
            self.depth += 1
        return [out]


Generator = Callable[[GraphMaker], Expr]


def _unary(fn: Callable[[Expr], Expr], ints: bool = False) -> Generator:
    def make(g: GraphMaker) -> Expr:
        return fn(g.tensor(dtype=g.any_dtype() if ints else g.float_dtype()))

    return make


def _broadcast_shape(g: GraphMaker, shape: Shape) -> Shape:
    """The same shape, some of its dims 1, or a scalar."""
    roll = g.rng.random()
    if roll < 0.4:
        return shape
    if roll < 0.8:
        return tuple(1 if g.rng.random() < 0.5 else d for d in shape)
    return ()


def _binary(fn: Callable[[Expr, Expr], Expr], dtypes: tuple[str, ...] = ()) -> Generator:
    """`fn(a, b)` with broadcasting, of one of `dtypes` (default: `any_dtype`)."""

    def make(g: GraphMaker) -> Expr:
        dtype = g.rng.choice(dtypes) if dtypes else g.any_dtype()
        a = g.tensor(dtype=dtype)
        other = _broadcast_shape(g, shape_of(a))
        b = g.var(other, dtype) if g.rng.random() < 0.7 else g.const(other, dtype)
        return fn(a, b) if g.rng.random() < 0.8 else fn(b, a)

    return make


def _unary_of(fn: Callable[[Expr], Expr], dtypes: tuple[str, ...]) -> Generator:
    def make(g: GraphMaker) -> Expr:
        return fn(g.tensor(dtype=g.rng.choice(dtypes)))

    return make


def _where(g: GraphMaker) -> Expr:
    dtype = g.rng.choice(("float32", "float32", "int32", "int64", "bool", "uint16", "bfloat16"))
    x = g.tensor(dtype=dtype)
    shape = shape_of(x)
    condition = g.var(_broadcast_shape(g, shape), "bool")
    if g.rng.random() < 0.5:  # a computed condition
        condition = relay.logical_not(condition)
    y = g.var(_broadcast_shape(g, shape), dtype)
    return relay.where(condition, x, y) if g.rng.random() < 0.7 else relay.where(condition, y, x)


def _conv2d(g: GraphMaker) -> Expr:
    x = g.nchw(low=3)
    _, c, h, w = shape_of(x)
    groups = g.rng.choice([d for d in (1, 2, c) if c % d == 0])
    out = groups * g.rng.randint(1, 3)
    kh, kw = g.rng.randint(1, min(3, h)), g.rng.randint(1, min(3, w))
    layouts: dict[str, Any] = {}
    wshape = (out, c // groups, kh, kw)
    if g.rng.random() < 0.3:  # NHWC data, HWIO or OHWI weights (the host's NHWC kernels)
        kernel = g.rng.choice(("HWIO", "OHWI"))
        x = relay.layout_transform(x, "NCHW", "NHWC")
        wshape = (kh, kw, c // groups, out) if kernel == "HWIO" else (out, kh, kw, c // groups)
        layouts = {"data_layout": "NHWC", "kernel_layout": kernel}
    weight = g.const(wshape)  # a constant: accel's padding rule applies
    return relay.nn.conv2d(
        x,
        weight,
        strides=(g.rng.randint(1, 2), g.rng.randint(1, 2)),
        padding=g.rng.choice(((0, 0), (1, 1), (0, 1, 1, 0))),
        groups=groups,
        channels=out,
        kernel_size=(kh, kw),
        **layouts,
    )


def _bias_add(g: GraphMaker) -> Expr:
    x = g.tensor(rank=g.rng.randint(2, 4))
    axis = g.rng.randrange(len(shape_of(x)))
    return relay.nn.bias_add(x, g.const((shape_of(x)[axis],)), axis=axis)


def _dense(g: GraphMaker) -> Expr:
    x = g.tensor(rank=2)
    units = g.dim()
    weight = g.const((units, shape_of(x)[1]), finite=True)  # moderate, as conv2d's
    return relay.nn.dense(x, weight, units=units)


def _batch_norm(g: GraphMaker) -> Expr:
    x = g.tensor(rank=g.rng.choice((2, 4)))
    c = shape_of(x)[1]
    # Moderate parameters: with a huge gamma, `gamma / sqrt(var)` overflows float32 where
    # the interpreter's float64 does not (an overflow inside a sum, docs/semantics.md).
    var = relay.const(np.abs(g.values.array((c,), "float32", finite=True)) + 0.5)
    parts = [g.const((c,), finite=True) for _ in range(3)]
    return relay.nn.batch_norm(x, parts[0], parts[1], parts[2], var)[0]


def _pool(kind: str) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.nchw(low=2)
        _, _, h, w = shape_of(x)
        size = (g.rng.randint(1, min(3, h)), g.rng.randint(1, min(3, w)))
        padding = (g.rng.randint(0, size[0] - 1), g.rng.randint(0, size[1] - 1))
        strides = (g.rng.randint(1, 2), g.rng.randint(1, 2))
        ceil = g.rng.random() < 0.3
        if kind == "max":
            return relay.nn.max_pool2d(x, size, strides, padding=padding, ceil_mode=ceil)
        include = g.rng.random() < 0.5
        return relay.nn.avg_pool2d(
            x, size, strides, padding=padding, ceil_mode=ceil, count_include_pad=include
        )

    return make


def _axis(g: GraphMaker, x: Expr) -> int:
    rank = len(shape_of(x))
    return g.rng.randint(-rank, rank - 1)


def _reduce(fn: Callable[..., Expr], ints: bool = True) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(dtype=g.any_dtype() if ints else g.float_dtype())
        rank = len(shape_of(x))
        axis: Any = None
        if g.rng.random() < 0.7:
            axis = sorted(g.rng.sample(range(rank), g.rng.randint(1, rank)))
        return fn(x, axis=axis, keepdims=g.rng.random() < 0.5, exclude=g.rng.random() < 0.2)

    return make


def _arg_reduce(fn: Callable[..., Expr]) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(dtype=g.any_dtype())
        axis = None if g.rng.random() < 0.2 else [_axis(g, x)]
        return fn(x, axis=axis, keepdims=g.rng.random() < 0.5)

    return make


def _matmul(g: GraphMaker) -> Expr:
    m, k, n = g.dim(), g.dim(), g.dim()
    ta, tb = g.rng.random() < 0.3, g.rng.random() < 0.3
    a = g.var((k, m) if ta else (m, k))
    b = g.var((n, k) if tb else (k, n))
    return relay.matmul(a, b, transpose_a=ta, transpose_b=tb)


def _reshape(g: GraphMaker) -> Expr:
    x = g.tensor()
    shape = shape_of(x)
    choice = g.rng.choice(((-1,), (*shape[:1], -1), tuple(reversed(shape)), (0, -1)))
    if 0 in shape:  # -1 cannot be inferred and 0 means "copy this dim"
        choice = shape
    return relay.reshape(x, choice)


def _transpose(g: GraphMaker) -> Expr:
    x = g.tensor()
    axes = list(range(len(shape_of(x))))
    g.rng.shuffle(axes)
    return relay.transpose(x, axes)


def _squeeze(g: GraphMaker) -> Expr:
    x = relay.expand_dims(g.tensor(), axis=g.rng.randint(0, 1))
    ones = [i for i, d in enumerate(shape_of(x)) if d == 1]
    return relay.squeeze(x, axis=None if g.rng.random() < 0.3 else [g.rng.choice(ones)])


def _expand_dims(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    rank = len(shape_of(x))
    return relay.expand_dims(x, g.rng.randint(-rank - 1, rank), g.rng.randint(1, 2))


def _concatenate(g: GraphMaker) -> Expr:
    x = g.tensor()
    shape = shape_of(x)
    axis = g.rng.randrange(len(shape))
    other = tuple(g.dim(0, 3) if i == axis else d for i, d in enumerate(shape))
    return relay.concatenate([x, g.var(other)], axis=axis)


def _split(g: GraphMaker) -> Expr:
    x = g.tensor()
    shape = shape_of(x)
    axis = g.rng.randrange(len(shape))
    parts = g.rng.choice([d for d in range(1, 4) if shape[axis] % d == 0])
    if g.rng.random() < 0.5 or shape[axis] < 2:
        pieces = relay.split(x, parts, axis=axis)
        index = g.rng.randrange(parts)
    else:
        pieces = relay.split(x, [shape[axis] // 2], axis=axis)
        index = g.rng.randrange(2)
    return pieces[index]


def _layout_transform(g: GraphMaker) -> Expr:
    x = g.nchw()
    return relay.layout_transform(x, "NCHW", "NHWC")


def _strided_slice(g: GraphMaker) -> Expr:
    x = g.tensor()
    shape = shape_of(x)
    begin = [g.rng.randrange(d) if d else 0 for d in shape]
    end = [g.rng.randint(b + 1, d + 2) if d else 0 for b, d in zip(begin, shape, strict=True)]
    begin = [b - d if d and g.rng.random() < 0.3 else b for b, d in zip(begin, shape, strict=True)]
    strides = [g.rng.choice((1, 1, 2, 3)) for _ in shape]
    return relay.strided_slice(x, begin, end, strides)


def _take(g: GraphMaker) -> Expr:
    x = g.tensor()
    axis = g.rng.randrange(len(shape_of(x)))
    count = shape_of(x)[axis]
    mode = g.rng.choice(("clip", "wrap", "fast"))
    high = count if mode == "fast" else count + 3
    if mode == "fast" and count == 0:
        mode = "clip"
    low = 0 if mode == "fast" else -3
    indices = relay.const(
        np.array([g.rng.randint(low, max(high - 1, low)) for _ in range(3)], "int32")
    )
    return relay.take(x, indices, axis=axis, mode=mode)


def _fill(kind: str) -> Generator:
    def make(g: GraphMaker) -> Expr:
        shape = tuple(g.dim(0, 3) for _ in range(g.rng.randint(0, 3)))
        dtype = g.any_dtype()
        if kind == "zeros":
            return relay.zeros(shape, dtype)
        if kind == "ones":
            return relay.ones(shape, dtype)
        fill = g.var((), dtype) if g.rng.random() < 0.5 else g.const((), dtype)
        return relay.full(fill, shape, dtype)

    return make


def _like(kind: str) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor(dtype=g.any_dtype())
        if kind == "zeros":
            return relay.zeros_like(x)
        if kind == "ones":
            return relay.ones_like(x)
        return relay.full_like(x, g.const((), dtype_of(x)))

    return make


def _cast(g: GraphMaker) -> Expr:
    x = g.tensor(dtype=g.any_dtype())
    targets = ("float32", "int32", "int64", "bool", *HALF_DTYPES, *OTHER_INTS, "float64")
    return relay.cast(x, g.rng.choice(targets))


def _clip(g: GraphMaker) -> Expr:
    low = g.rng.choice((-1.0, 0.0, -np.inf))
    return relay.clip(g.tensor(), low, g.rng.choice((1.0, 6.0, np.inf)))


def _softmax(fn: Callable[..., Expr]) -> Generator:
    def make(g: GraphMaker) -> Expr:
        x = g.tensor()
        return fn(x, axis=_axis(g, x))

    return make


def _pad(g: GraphMaker) -> Expr:
    x = g.tensor()
    mode = g.rng.choice(("constant", "constant", "edge", "reflect", "wrap"))
    if mode != "constant" and 0 in shape_of(x):
        mode = "constant"

    def top(d: int) -> int:  # reflect: narrower than the dim; wrap: may exceed it
        return {"reflect": min(2, d - 1), "wrap": 2 * d + 1}.get(mode, 2)

    widths = [(g.rng.randint(0, top(d)), g.rng.randint(0, top(d))) for d in shape_of(x)]
    return relay.nn.pad(x, widths, g.rng.choice((0.0, 1.5, -np.inf)), mode)


def _tuple(g: GraphMaker) -> Expr:
    a, b = g.tensor(), g.tensor()
    return relay.Tuple([relay.exp(a), b])[g.rng.randrange(2)]


def _if(g: GraphMaker) -> Expr:
    x = g.tensor()
    cond = relay.less(relay.sum(x), relay.const(np.float32(0.0)))
    return relay.If(cond, relay.negative(x), relay.tanh(x))


def _constant(g: GraphMaker) -> Expr:
    x = g.tensor()
    return relay.multiply(x, g.const(shape_of(x)))


def _leaky_relu(g: GraphMaker) -> Expr:
    return relay.nn.leaky_relu(g.tensor(), g.rng.choice((0.01, 0.2, -1.0)))


def _dropout(g: GraphMaker) -> Expr:
    return relay.nn.dropout(g.tensor(), g.rng.choice((0.0, 0.5)))


def _global_pool(fn: Callable[[Expr], Expr]) -> Generator:
    def make(g: GraphMaker) -> Expr:
        return fn(g.nchw())

    return make


def _conv_nd(rank: int, transpose: bool) -> Generator:
    """conv1d/conv3d or a transposed convolution of `rank` spatial dims: random groups,
    strides, dilation, padding (and output_padding), a constant weight."""
    convs = {1: relay.nn.conv1d, 3: relay.nn.conv3d}
    transposes = {
        1: relay.nn.conv1d_transpose,
        2: relay.nn.conv2d_transpose,
        3: relay.nn.conv3d_transpose,
    }

    def make(g: GraphMaker) -> Expr:
        high = 5 if rank == 3 else 7
        x = g.var((g.batch, g.dim(1, 4), *(g.dim(3, high) for _ in range(rank))))
        c, sizes = shape_of(x)[1], shape_of(x)[2:]
        groups = g.rng.choice([d for d in (1, 2, c) if c % d == 0])
        per_group = g.rng.randint(1, 3)
        kernel = tuple(g.rng.randint(1, min(3, s)) for s in sizes)
        strides = tuple(g.rng.randint(1, 2) for _ in sizes)
        dilation = tuple(g.rng.choice((1, 1, 2)) if transpose else 1 for _ in sizes)
        padding = tuple(g.rng.randint(0, k - 1) for _ in range(2) for k in kernel)
        if transpose:
            weight = g.const((c, per_group, *kernel))
            extra = tuple(g.rng.randint(0, st - 1) for st in strides)
            return transposes[rank](
                x, weight, strides, padding, dilation, groups, output_padding=extra
            )
        weight = g.const((groups * per_group, c // groups, *kernel))
        return convs[rank](x, weight, strides, padding, groups=groups, channels=groups * per_group)

    return make


def _pool_nd(kind: str, rank: int) -> Generator:
    """max/avg pools of 1 or 3 spatial dims: padding, strides, dilation, ceil_mode and
    count_include_pad at random, float or integer data."""
    fn = getattr(relay.nn, f"{kind}_pool{rank}d")

    def make(g: GraphMaker) -> Expr:
        high = 5 if rank == 3 else 8
        dtype = g.rng.choice(("float32", "float32", "int32"))
        x = g.var((g.batch, g.dim(1, 3), *(g.dim(2, high) for _ in range(rank))), dtype)
        sizes = shape_of(x)[2:]
        pool = tuple(g.rng.randint(1, min(3, s)) for s in sizes)
        padding = tuple(g.rng.randint(0, k - 1) for _ in range(2) for k in pool)
        strides = tuple(g.rng.randint(1, 2) for _ in sizes)
        dilation = tuple(
            g.rng.choice((1, 2)) if s >= 2 * k - 1 else 1 for s, k in zip(sizes, pool, strict=True)
        )
        ceil = g.rng.random() < 0.3
        if kind == "max":
            return fn(x, pool, strides, dilation, padding, ceil_mode=ceil)
        include = g.rng.random() < 0.5
        return fn(x, pool, strides, dilation, padding, ceil_mode=ceil, count_include_pad=include)

    return make


RESIZE_BUILDERS = {1: relay.image.resize1d, 2: relay.image.resize2d, 3: relay.image.resize3d}
RESIZE_LAYOUTS = {1: ("NCW", "NWC"), 2: ("NCHW", "NHWC"), 3: ("NCDHW", "NDHWC")}


def _resize(rank: int) -> Generator:
    """image.resize1d/2d/3d: every method, coordinate mode and rounding, up or down, with
    ONNX-style scales sometimes, channels first or last, float or int32 data."""

    def make(g: GraphMaker) -> Expr:
        dtype = g.rng.choice(("float32", "float32", "int32"))
        first, last = RESIZE_LAYOUTS[rank]
        layout = g.rng.choice((first, first, last))
        top = 6 if rank < 3 else 4
        spatial = tuple(g.dim(1, top) for _ in range(rank))
        c = g.dim(1, 3)
        x = g.var((g.batch, c, *spatial) if layout == first else (g.batch, *spatial, c), dtype)
        size = tuple(g.dim(1, top + 3) for _ in range(rank))
        scales = None
        if g.rng.random() < 0.3:
            scales = tuple(
                float(np.float32(o / i * g.rng.choice((1.0, 1.1, 0.9))))
                for o, i in zip(size, spatial, strict=True)
            )
        method = g.rng.choice(("nearest_neighbor", "linear", "cubic"))
        modes = ("half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel")
        modes += ("tf_half_pixel_for_nn", "tf_crop_and_resize", "half_pixel_symmetric")
        return RESIZE_BUILDERS[rank](
            x,
            size,
            roi=tuple(round(g.rng.uniform(-0.2, 1.2), 2) for _ in range(2 * rank)),
            layout=layout,
            method=method,
            coordinate_transformation_mode=g.rng.choice(modes),
            rounding_method=g.rng.choice(
                ("", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil")
            ),
            cubic_alpha=g.rng.choice((-0.5, -0.75)),
            cubic_exclude=g.rng.randint(0, 1),
            extrapolation_value=g.rng.choice((0.0, 10.0, -1.5)),
            scales=scales,
            antialias=method != "nearest_neighbor" and g.rng.random() < 0.3,
        )

    return make


def _stop_fusion(g: GraphMaker) -> Expr:
    """annotation.stop_fusion between a tensor and a consumer FuseOps would else fuse it into,
    any dtype."""
    x = g.tensor(dtype=g.any_dtype())
    return relay.maximum(relay.annotation.stop_fusion(x), x)


def _grid_sample(g: GraphMaker) -> Expr:
    """image.grid_sample: every method and padding mode, 2-D or 3-D, grids reaching outside."""
    rank = g.rng.choice((2, 2, 3))
    dtype = g.float_dtype()
    c = g.dim(1, 3)
    data = g.var((g.batch, c, *(g.dim(1, 5) for _ in range(rank))), dtype)
    grid = g.var((g.batch, rank, *(g.dim(1, 4) for _ in range(rank))), dtype)
    return relay.image.grid_sample(
        data,
        relay.multiply(grid, relay.const(g.rng.choice((0.5, 1.0, 1.5)), dtype)),
        method=g.rng.choice(("bilinear", "nearest", "bicubic")),
        layout="NCHW" if rank == 2 else "NCDHW",
        padding_mode=g.rng.choice(("zeros", "border", "reflection")),
        align_corners=g.rng.random() < 0.5,
    )


def _upsampling(g: GraphMaker) -> Expr:
    """nn.upsampling: every method, aligned or not, integer and fractional scales (up or
    down, extents rounding half to even), NCHW or NHWC, float or int data."""
    dtype = g.rng.choice(("float32", "float32", "float64", "int32", "uint8"))
    layout = g.rng.choice(("NCHW", "NHWC"))
    h, w, c = g.dim(1, 6), g.dim(1, 6), g.dim(1, 3)
    x = g.var((g.batch, c, h, w) if layout == "NCHW" else (g.batch, h, w, c), dtype)
    scales = (0.5, 1.0, 1.5, 2.0, 2.5, 3.0)
    return relay.nn.upsampling(
        x,
        g.rng.choice(scales),
        g.rng.choice(scales),
        layout,
        g.rng.choice(("nearest_neighbor", "bilinear", "bicubic")),
        g.rng.random() < 0.5,
    )


def _slice_like(g: GraphMaker) -> Expr:
    """slice_like: every common axis (shape_like of lower, equal or higher rank) or chosen
    axes (negative ones too), any dtype, shape_like of another dtype."""
    x = g.tensor(dtype=g.any_dtype())
    shape = shape_of(x)
    like = [g.rng.randint(0, d) if d else 0 for d in shape]
    like = like[: g.rng.randint(1, len(like))] if g.rng.random() < 0.3 else like
    if g.rng.random() < 0.2:
        like.append(g.dim())
    axes = None
    if g.rng.random() < 0.5:
        axes = [
            a - len(shape) if g.rng.random() < 0.3 else a for a in range(min(len(like), len(shape)))
        ]
        axes = g.rng.sample(axes, g.rng.randint(1, len(axes)))
    return relay.slice_like(x, g.var(tuple(like), g.rng.choice(("float32", "int32"))), axes)


def _stack(g: GraphMaker) -> Expr:
    """stack: one to three tensors of one shape (the first repeated sometimes), any axis in
    [-(rank + 1), rank], any dtype."""
    dtype = g.any_dtype()
    x = g.tensor(dtype=dtype)
    shape = shape_of(x)
    others = [
        x if g.rng.random() < 0.3 else g.var(shape, dtype) for _ in range(g.rng.randint(0, 2))
    ]
    return relay.stack([x, *others], g.rng.randint(-len(shape) - 1, len(shape)))


def _repeat(g: GraphMaker) -> Expr:
    """repeat: 1 to 3 repeats along any axis (negative ones too), any dtype."""
    x = g.tensor(dtype=g.any_dtype())
    rank = len(shape_of(x))
    return relay.repeat(x, g.rng.randint(1, 3), g.rng.randint(-rank, rank - 1))


def _reverse_reshape(g: GraphMaker) -> Expr:
    """contrib_reverse_reshape: special values matched from the right (-1 with 0, -3, -2, a
    -4 split of the last dim, identity 0s), any dtype, zero-size batches included."""
    x = g.tensor(dtype=g.any_dtype())
    shape = shape_of(x)
    choices: list[list[int]] = [[-1], [0] * len(shape)]
    if len(shape) >= 2:
        choices += [[-1, 0], [-2, -3]]
    last = list(shape)[-1]
    factors = [f for f in range(2, last + 1) if last % f == 0]
    if factors:
        choices.append([-2, -1, g.rng.choice(factors), -4])
    return relay.reverse_reshape(x, g.rng.choice(choices))


def _deformable_conv2d(g: GraphMaker) -> Expr:
    """nn.deformable_conv2d: NCHW/OIHW or NHWC/HWIO, deformable groups and groups, strides,
    dilation, padding, offsets (random input values, edge values included) reaching outside."""
    dtype = g.float_dtype()
    dgroups, groups = g.rng.choice((1, 1, 2)), g.rng.choice((1, 1, 2))
    c = dgroups * groups * g.rng.randint(1, 2)
    o = groups * g.rng.randint(1, 3)
    kh, kw = g.dim(1, 3), g.dim(1, 3)
    strides = (g.rng.randint(1, 2), g.rng.randint(1, 2))
    dilation = (g.rng.randint(1, 2), g.rng.randint(1, 2))
    padding = (g.rng.randint(0, 2), g.rng.randint(0, 2))
    windows = [d * (k - 1) + 1 for d, k in zip(dilation, (kh, kw), strict=True)]
    h, w = (win + g.dim(0, 3) for win in windows)
    oh, ow = (
        (size + 2 * pad - win) // stride + 1
        for size, pad, win, stride in zip((h, w), padding, windows, strides, strict=True)
    )
    taps = 2 * kh * kw * dgroups
    nchw = g.rng.random() < 0.6
    layout, kernel_layout = ("NCHW", "OIHW") if nchw else ("NHWC", "HWIO")
    data = g.var((g.batch, c, h, w) if nchw else (g.batch, h, w, c), dtype)
    offset = g.var((g.batch, taps, oh, ow) if nchw else (g.batch, oh, ow, taps), dtype)
    scaled = relay.multiply(offset, relay.const(g.rng.choice((0.5, 1.5, 3.0)), dtype))
    i = c // groups
    weight = g.var((o, i, kh, kw) if nchw else (kh, kw, i, o), dtype)
    return relay.nn.deformable_conv2d(
        data,
        scaled,
        weight,
        strides,
        padding,
        dilation,
        dgroups,
        groups,
        data_layout=layout,
        kernel_layout=kernel_layout,
    )


GENERATORS: dict[str, Generator] = {
    "relay.add": _binary(relay.add),
    "relay.subtract": _binary(relay.subtract),
    "relay.multiply": _binary(relay.multiply),
    "relay.divide": _binary(relay.divide),
    "relay.power": _binary(relay.power),
    "relay.maximum": _binary(relay.maximum),
    "relay.minimum": _binary(relay.minimum),
    "relay.equal": _binary(relay.equal),
    "relay.not_equal": _binary(relay.not_equal),
    "relay.less": _binary(relay.less),
    "relay.less_equal": _binary(relay.less_equal),
    "relay.greater": _binary(relay.greater),
    "relay.greater_equal": _binary(relay.greater_equal),
    "relay.negative": _unary(relay.negative, ints=True),
    "relay.abs": _unary(relay.abs, ints=True),
    "relay.exp": _unary(relay.exp),
    "relay.log": _unary(relay.log),
    "relay.sqrt": _unary(relay.sqrt),
    "relay.rsqrt": _unary(relay.rsqrt),
    "relay.tanh": _unary(relay.tanh),
    "relay.sigmoid": _unary(relay.sigmoid),
    "relay.erf": _unary(relay.erf),
    "relay.floor": _unary(relay.floor),
    "relay.ceil": _unary(relay.ceil),
    "relay.clip": _clip,
    **{
        f"relay.{name}": _unary(getattr(relay, name))
        for name in (
            *("sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh"),
            *("asinh", "acosh", "atanh", "trunc", "round", "isnan", "isinf", "isfinite"),
        )
    },
    "relay.sign": _unary(relay.sign, ints=True),
    "relay.logical_not": _unary_of(relay.logical_not, ("bool",)),
    "relay.bitwise_not": _unary_of(relay.bitwise_not, BITWISE),
    "relay.mod": _binary(relay.mod),
    "relay.floor_mod": _binary(relay.floor_mod),
    "relay.floor_divide": _binary(relay.floor_divide),
    "relay.trunc_divide": _binary(relay.trunc_divide),
    "relay.bitwise_and": _binary(relay.bitwise_and, BITWISE),
    "relay.bitwise_or": _binary(relay.bitwise_or, BITWISE),
    "relay.bitwise_xor": _binary(relay.bitwise_xor, BITWISE),
    "relay.logical_and": _binary(relay.logical_and, ("bool",)),
    "relay.logical_or": _binary(relay.logical_or, ("bool",)),
    "relay.logical_xor": _binary(relay.logical_xor, ("bool",)),
    "relay.left_shift": _binary(relay.left_shift, ("int32", "int64", "uint8", "uint64")),
    "relay.right_shift": _binary(relay.right_shift, ("int32", "int64", "uint16", "uint32")),
    "relay.where": _where,
    "relay.cast": _cast,
    "relay.nn.conv2d": _conv2d,
    "relay.nn.bias_add": _bias_add,
    "relay.nn.relu": _unary(relay.nn.relu, ints=True),
    "relay.nn.leaky_relu": _leaky_relu,
    "relay.nn.dense": _dense,
    "relay.nn.batch_norm": _batch_norm,
    "relay.nn.dropout": _dropout,
    "relay.nn.softmax": _softmax(relay.nn.softmax),
    "relay.nn.log_softmax": _softmax(relay.nn.log_softmax),
    "relay.nn.batch_flatten": lambda g: relay.nn.batch_flatten(g.tensor(g.rng.randint(2, 4))),
    "relay.nn.pad": _pad,
    "relay.nn.max_pool2d": _pool("max"),
    "relay.nn.avg_pool2d": _pool("avg"),
    "relay.nn.global_avg_pool2d": _global_pool(relay.nn.global_avg_pool2d),
    "relay.nn.global_max_pool2d": _global_pool(relay.nn.global_max_pool2d),
    "relay.sum": _reduce(relay.sum),
    "relay.mean": _reduce(relay.mean, ints=False),
    "relay.max": _reduce(relay.max),
    "relay.min": _reduce(relay.min),
    "relay.prod": _reduce(relay.prod),
    "relay.argmax": _arg_reduce(relay.argmax),
    "relay.argmin": _arg_reduce(relay.argmin),
    "relay.matmul": _matmul,
    "relay.reshape": _reshape,
    "relay.transpose": _transpose,
    "relay.squeeze": _squeeze,
    "relay.expand_dims": _expand_dims,
    "relay.concatenate": _concatenate,
    "relay.split": _split,
    "relay.layout_transform": _layout_transform,
    "relay.strided_slice": _strided_slice,
    "relay.take": _take,
    "relay.zeros": _fill("zeros"),
    "relay.ones": _fill("ones"),
    "relay.full": _fill("full"),
    "relay.full_like": _like("full"),
    "relay.zeros_like": _like("zeros"),
    "relay.ones_like": _like("ones"),
    "relay.constant": _constant,
    "relay.tuple": _tuple,
    "relay.tuple_get_item": _tuple,
    "relay.if": _if,
    **MISC_GENERATORS,
    **MOVEMENT_GENERATORS,
    **NN_GENERATORS,
    "relay.nn.conv1d": _conv_nd(1, False),
    "relay.nn.conv3d": _conv_nd(3, False),
    "relay.nn.conv1d_transpose": _conv_nd(1, True),
    "relay.nn.conv2d_transpose": _conv_nd(2, True),
    "relay.nn.conv3d_transpose": _conv_nd(3, True),
    "relay.nn.max_pool1d": _pool_nd("max", 1),
    "relay.nn.avg_pool1d": _pool_nd("avg", 1),
    "relay.nn.max_pool3d": _pool_nd("max", 3),
    "relay.nn.avg_pool3d": _pool_nd("avg", 3),
    "relay.image.resize2d": _resize(2),
    "relay.image.grid_sample": _grid_sample,
    "relay.nn.upsampling": _upsampling,
    "relay.slice_like": _slice_like,
    "relay.contrib_reverse_reshape": _reverse_reshape,
    "relay.nn.deformable_conv2d": _deformable_conv2d,
    "relay.nn.contrib_conv2d_NCHWc": conv2d_nchwc,
    "relay.stack": _stack,
    "relay.repeat": _repeat,
    "relay.fast_exp": _unary(relay.fast_exp),
    "relay.fast_tanh": _unary(relay.fast_tanh),
    "relay.fast_erf": _unary(relay.fast_erf),
    "relay.nn.fast_softmax": _softmax(relay.nn.fast_softmax),
    **LIKE_GENERATORS,
    **SPACE_BATCH_GENERATORS,
    **DYN_GENERATORS,
    **RCNN_GENERATORS,
    "relay.image.resize1d": _resize(1),
    "relay.image.resize3d": _resize(3),
    "relay.annotation.stop_fusion": _stop_fusion,
}
"""A graph generator for every relay op the builder writes, by op name."""

IMPLIED: dict[str, str] = {
    "relay.yield": "relay.if (its branches end in relay.yield)",
    "relay.compiler_begin": "the accel and dnnl builds (annotate-target)",
    "relay.compiler_end": "the accel and dnnl builds (annotate-target)",
    "relay.composite": "the accel and dnnl builds (merge-composite)",
}
"""Relay ops no generator writes, and what makes them in every fuzzed build instead."""
