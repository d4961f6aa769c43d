"""Reference semantics of the tensor-manipulation, reduction and matmul ops.

Expected values are hand-computed or built with naive Python loops over
indices, never with the numpy call the reference interpreter itself uses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.interpreter import EvaluationError

import xrelay
from xrelay import IRModule, relay

Build = Callable[..., relay.Expr]


def run(build: Build, *inputs: np.ndarray, shapes: Sequence[Sequence[int | None]] = ()) -> Any:
    """Evaluate `build(*vars)`; `shapes` may declare dynamic (None) dims for the vars."""
    params = [
        relay.var(f"p{k}", shape=shapes[k] if shapes else a.shape, dtype=a.dtype.name)
        for k, a in enumerate(inputs)
    ]
    mod = IRModule.from_expr(relay.Function(params, build(*params)))
    return xrelay.evaluate(mod, *inputs)


def type_of(build: Build, *shapes: Sequence[int | None], dtype: str = "float32") -> str:
    params = [relay.var(f"p{k}", shape=s, dtype=dtype) for k, s in enumerate(shapes)]
    return str(build(*params).checked_type)


def arange(*shape: int, dtype: str = "float32") -> np.ndarray:
    return np.arange(math.prod(shape)).astype(dtype).reshape(shape)


def indices(shape: Sequence[int]) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(d) for d in shape)))


# --------------------------------------------------------------------------- #
# reshape
# --------------------------------------------------------------------------- #

# The examples of TVM's reshape documentation.
RESHAPE_CASES = [
    ((2, 3, 4), (4, 0, 2), (4, 3, 2)),
    ((2, 3, 4), (2, 0, 0), (2, 3, 4)),
    ((2, 3, 4), (6, 1, -1), (6, 1, 4)),
    ((2, 3, 4), (3, -1, 8), (3, 1, 8)),
    ((2, 3, 4), (-1,), (24,)),
    ((2, 3, 4), (-2,), (2, 3, 4)),
    ((2, 3, 4), (2, -2), (2, 3, 4)),
    ((2, 3, 4), (-2, 1, 1), (2, 3, 4, 1, 1)),
    ((2, 3, 4), (-3, 4), (6, 4)),
    ((2, 3, 4, 5), (-3, -3), (6, 20)),
    ((2, 3, 4), (0, -3), (2, 12)),
    ((2, 3, 4), (-3, -2), (6, 4)),
    ((2, 3, 4), (-4, 1, 2, -2), (1, 2, 3, 4)),
    ((2, 3, 4), (2, -4, -1, 3, -2), (2, 1, 3, 4)),
]


@pytest.mark.parametrize(("shape", "newshape", "expected"), RESHAPE_CASES)
def test_reshape_special_values(
    shape: tuple[int, ...], newshape: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    x = arange(*shape)
    out = run(lambda d: relay.reshape(d, newshape), x)
    assert out.shape == expected
    assert out.ravel().tolist() == list(range(math.prod(shape)))


def test_reshape_allowzero_and_int_newshape() -> None:
    empty = np.zeros((0, 3), "float32")
    assert run(lambda d: relay.reshape(d, (3, 0), allowzero=True), empty).shape == (3, 0)
    assert run(lambda d: relay.reshape(d, 6), arange(2, 3)).tolist() == [0, 1, 2, 3, 4, 5]


def test_reshape_dynamic() -> None:
    assert type_of(lambda d: relay.reshape(d, (0, -1)), (None, 3, 4)) == "tensor<?x12xf32>"
    assert type_of(lambda d: relay.reshape(d, (-1, 4)), (None, 3, 4)) == "tensor<?x4xf32>"
    assert type_of(lambda d: relay.reshape(d, (-1,)), (2, relay.Any())) == "tensor<?xf32>"
    out = run(lambda d: relay.reshape(d, (0, -1)), arange(5, 3, 4), shapes=[(None, 3, 4)])
    assert out.shape == (5, 12)
    assert out[4].tolist() == list(range(48, 60))


# --------------------------------------------------------------------------- #
# transpose, squeeze, expand_dims
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("axes", "perm"), [((0, 2, 1), (0, 2, 1)), ((-1, 0, -2), (2, 0, 1)), (None, (2, 1, 0))]
)
def test_transpose(axes: tuple[int, ...] | None, perm: tuple[int, ...]) -> None:
    x = arange(2, 3, 4)
    out = run(lambda d: relay.transpose(d, axes), x)
    assert out.shape == tuple(x.shape[p] for p in perm)
    for index in indices(out.shape):
        source = [0, 0, 0]
        for k, p in enumerate(perm):
            source[p] = index[k]
        assert out[index] == x[tuple(source)]


def test_squeeze_and_expand_dims() -> None:
    x = arange(1, 3, 1, 2)
    assert run(lambda d: relay.squeeze(d), x).tolist() == [[0, 1], [2, 3], [4, 5]]
    assert run(lambda d: relay.squeeze(d, axis=[-2]), x).shape == (1, 3, 2)
    assert run(lambda d: relay.squeeze(d, axis=0), x).shape == (3, 1, 2)
    y = arange(2, 3)
    assert run(lambda d: relay.expand_dims(d, 1), y).tolist() == [[[0, 1, 2]], [[3, 4, 5]]]
    assert run(lambda d: relay.expand_dims(d, -1, num_newaxis=2), y).shape == (2, 3, 1, 1)
    assert run(lambda d: relay.expand_dims(d, 0, num_newaxis=0), y).shape == (2, 3)
    # without an axis only static 1-dims go; a dynamic dim stays
    assert type_of(relay.squeeze, (1, None, 1)) == "tensor<?xf32>"


# --------------------------------------------------------------------------- #
# concatenate, split
# --------------------------------------------------------------------------- #


def naive_concat(arrays: Sequence[np.ndarray], axis: int) -> list[Any]:
    """Concatenate nested lists by walking the axis by hand."""

    def rec(parts: list[Any], depth: int) -> list[Any]:
        if depth == axis:
            return [row for part in parts for row in part]
        return [rec([p[i] for p in parts], depth + 1) for i in range(len(parts[0]))]

    return rec([a.tolist() for a in arrays], 0)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_concatenate(axis: int) -> None:
    a, b = arange(2, 3, 4), arange(2, 3, 4) + 100
    c = arange(2, 3, 4) + 200
    out = run(lambda x, y, z: relay.concatenate([x, y, z], axis), a, b, c)
    assert out.tolist() == naive_concat([a, b, c], axis % 3)


def test_concatenate_accepts_tuples() -> None:
    a, b = arange(2, 2), arange(1, 2) + 10
    expected = [[0, 1], [2, 3], [10, 11]]
    assert run(lambda x, y: relay.concatenate((x, y), 0), a, b).tolist() == expected
    assert run(lambda x, y: relay.concatenate(relay.Tuple([x, y]), 0), a, b).tolist() == expected
    # any tuple-typed expression works: split and concatenate are inverses
    x = arange(6, 2)
    out = run(lambda d: relay.concatenate(relay.split(d, [1, 4]), axis=0), x)
    assert out.tolist() == x.tolist()


def test_concatenate_dynamic() -> None:
    build = lambda x, y: relay.concatenate([x, y], 0)  # noqa: E731
    assert type_of(build, (None, 3), (2, 3)) == "tensor<?x3xf32>"
    assert type_of(lambda x, y: relay.concatenate([x, y], 1), (None, 3), (2, 4)) == (
        "tensor<2x7xf32>"
    )


def test_split_sections() -> None:
    x = arange(6, 2)
    parts = run(lambda d: relay.split(d, 3).astuple(), x)
    assert [p.tolist() for p in parts] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]], [[8, 9], [10, 11]]]


def test_split_indices_negative_axis() -> None:
    x = arange(2, 5)
    parts = run(lambda d: relay.split(d, (1, 3), axis=-1), x)
    expected = [[[r[c] for c in cols] for r in x.tolist()] for cols in ([0], [1, 2], [3, 4])]
    assert [p.tolist() for p in parts] == expected
    second = run(lambda d: relay.split(d, (1, 3), axis=-1)[1], x)
    assert second.tolist() == expected[1]


def test_split_dynamic() -> None:
    out_type = type_of(lambda d: relay.split(d, [1]), (None, 4))
    assert out_type == "tuple<tensor<1x4xf32>, tensor<?x4xf32>>"
    parts = run(lambda d: relay.split(d, 2), arange(4, 1), shapes=[(None, 1)])
    assert [p.tolist() for p in parts] == [[[0], [1]], [[2], [3]]]


# --------------------------------------------------------------------------- #
# layout_transform
# --------------------------------------------------------------------------- #


def test_layout_transform_permutations() -> None:
    x = arange(1, 3, 2, 4)
    out = run(lambda d: relay.layout_transform(d, "NCHW", "NHWC"), x)
    assert out.shape == (1, 2, 4, 3)
    for n, c, h, w in indices(x.shape):
        assert out[n, h, w, c] == x[n, c, h, w]
    k = arange(4, 3, 2, 2)
    out = run(lambda d: relay.layout_transform(d, "OIHW", "HWIO"), k)
    for o, i, h, w in indices(k.shape):
        assert out[h, w, i, o] == k[o, i, h, w]
    back = run(
        lambda d: relay.layout_transform(relay.layout_transform(d, "NCHW", "NHWC"), "NHWC", "NCHW"),
        x,
    )
    assert back.tolist() == x.tolist()


def test_layout_transform_blocked() -> None:
    x = arange(2, 8, 2, 3)
    out = run(lambda d: relay.layout_transform(d, "NCHW", "NCHW4c"), x)
    assert out.shape == (2, 2, 2, 3, 4)
    for n, cb, h, w, c in indices(out.shape):
        assert out[n, cb, h, w, c] == x[n, cb * 4 + c, h, w]
    # NCHW4c -> NCHW2c re-blocks; -> NHWC unblocks and permutes
    rebuilt = run(
        lambda d: relay.layout_transform(
            relay.layout_transform(relay.layout_transform(d, "NCHW", "NCHW4c"), "NCHW4c", "NCHW2c"),
            "NCHW2c",
            "NHWC",
        ),
        x,
    )
    for n, c, h, w in indices(x.shape):
        assert rebuilt[n, h, w, c] == x[n, c, h, w]
    k = arange(8, 4, 1, 1)
    out = run(lambda d: relay.layout_transform(d, "OIHW", "OIHW2i4o"), k)
    assert out.shape == (2, 2, 1, 1, 2, 4)
    for ob, ib, h, w, i, o in indices(out.shape):
        assert out[ob, ib, h, w, i, o] == k[ob * 4 + o, ib * 2 + i, h, w]


def test_layout_transform_dynamic_batch() -> None:
    assert type_of(lambda d: relay.layout_transform(d, "NCHW", "NCHW4c"), (None, 8, 2, 2)) == (
        "tensor<?x2x2x2x4xf32>"
    )


# --------------------------------------------------------------------------- #
# strided_slice, take
# --------------------------------------------------------------------------- #


def test_strided_slice_tvm_example() -> None:
    x = np.array([[1, 4, 7, 10], [2, 5, 8, 11], [3, 6, 9, 12]], "float32")
    out = run(lambda d: relay.strided_slice(d, [0, 1], [2, 4], [1, 1]), x)
    assert out.tolist() == [[4, 7, 10], [5, 8, 11]]


def test_strided_slice_variants() -> None:
    x = arange(4, 6)
    # negative stride from the last element, end below the start
    out = run(lambda d: relay.strided_slice(d, [0, -1], [4, -7], [2, -2]), x)
    assert out.tolist() == [[5, 3, 1], [17, 15, 13]]
    # explicit axes; end past the dim is clamped
    out = run(lambda d: relay.strided_slice(d, [1], [100], axes=[1]), x)
    assert out.tolist() == [[c for c in range(r * 6 + 1, r * 6 + 6)] for r in range(4)]
    # size mode: -1 means "to the end"
    out = run(lambda d: relay.strided_slice(d, [1, 2], [-1, 3], slice_mode="size"), x)
    assert out.tolist() == [[r * 6 + c for c in (2, 3, 4)] for r in (1, 2, 3)]
    # begin only for the first axis: the rest is whole
    assert run(lambda d: relay.strided_slice(d, [3], [4]), x).tolist() == [list(range(18, 24))]


def test_strided_slice_dynamic() -> None:
    build = lambda d: relay.strided_slice(d, [0, 2], [1, 4])  # noqa: E731
    assert type_of(build, (None, 6)) == "tensor<?x2xf32>"
    assert run(build, arange(3, 6), shapes=[(None, 6)]).tolist() == [[2, 3]]


def test_take() -> None:
    x = arange(3, 4)
    i = np.array([[0, 2], [3, 1]], "int32")
    assert run(lambda d, k: relay.take(d, k), x, i).tolist() == [[0, 2], [3, 1]]
    out = run(lambda d, k: relay.take(d, k, axis=1), x, i)
    assert out.tolist() == [
        [[r * 4 + c for c in row] for row in ([0, 2], [3, 1])] for r in range(3)
    ]
    # clip clamps, wrap wraps (negative included), both along the flattened data
    far = np.array([-2, 5, 13], "int64")
    assert run(lambda d, k: relay.take(d, k), x, far).tolist() == [0, 5, 11]
    assert run(lambda d, k: relay.take(d, k, mode="wrap"), x, far).tolist() == [10, 5, 1]
    assert run(lambda d, k: relay.take(d, k, axis=0, mode="fast"), x, far[:1]).tolist() == [
        [4, 5, 6, 7]
    ]


def test_take_batch_dims() -> None:
    x = arange(2, 4)
    i = np.array([[3, 0], [1, 1]], "int32")
    out = run(lambda d, k: relay.take(d, k, axis=1, batch_dims=1), x, i)
    assert out.tolist() == [[3, 0], [5, 5]]


# --------------------------------------------------------------------------- #
# creation ops
# --------------------------------------------------------------------------- #


def test_creation_ops() -> None:
    x = np.array([[1, 2, 3]], "int32")
    zeros = run(lambda d: relay.add(d, relay.zeros((1, 3), "int32")), x)
    assert zeros.tolist() == [[1, 2, 3]]
    ones = xrelay.evaluate(IRModule.from_expr(relay.Function([], relay.ones((2,), "float16"))))
    assert ones.dtype == np.float16
    assert ones.tolist() == [1.0, 1.0]
    scalar = xrelay.evaluate(IRModule.from_expr(relay.Function([], relay.zeros((), "int8"))))
    assert scalar.shape == ()
    assert scalar.dtype == np.int8
    full = xrelay.evaluate(IRModule.from_expr(relay.Function([], relay.full(2.5, (2, 2)))))
    assert full.tolist() == [[2.5, 2.5], [2.5, 2.5]]
    full_int = xrelay.evaluate(
        IRModule.from_expr(relay.Function([], relay.full(relay.const(7), (3,), "int8")))
    )
    assert full_int.dtype == np.int8
    assert full_int.tolist() == [7, 7, 7]
    assert run(lambda d: relay.full_like(d, 9.0), x).tolist() == [[9, 9, 9]]
    assert run(relay.zeros_like, x).tolist() == [[0, 0, 0]]
    assert run(relay.ones_like, x).tolist() == [[1, 1, 1]]
    assert run(relay.ones_like, x).dtype == np.int32


# --------------------------------------------------------------------------- #
# reductions
# --------------------------------------------------------------------------- #


def naive_reduce(
    x: np.ndarray, axes: Sequence[int], keepdims: bool, combine: Callable[[list[float]], float]
) -> np.ndarray:
    """Reduce by grouping every element under its output index."""
    groups: dict[tuple[int, ...], list[float]] = {}
    for index in indices(x.shape):
        key = tuple(0 if k in axes else v for k, v in enumerate(index) if keepdims or k not in axes)
        groups.setdefault(key, []).append(float(x[index]))
    shape = tuple(1 if k in axes else d for k, d in enumerate(x.shape) if keepdims or k not in axes)
    out = np.zeros(shape)
    for key, values in groups.items():
        out[key] = combine(values)
    return out


REDUCTIONS: list[tuple[Build, Callable[[list[float]], float]]] = [
    (relay.sum, math.fsum),
    (relay.mean, lambda v: math.fsum(v) / len(v)),
    (relay.max, lambda v: max(v)),
    (relay.min, lambda v: min(v)),
    (relay.prod, math.prod),
]


@pytest.mark.parametrize(("build", "combine"), REDUCTIONS)
@pytest.mark.parametrize(
    ("axis", "exclude", "reduced"),
    [
        (None, False, (0, 1, 2)),
        ([1], False, (1,)),
        ([-1, 0], False, (0, 2)),
        (2, False, (2,)),
        ([1], True, (0, 2)),
        ([], False, (0, 1, 2)),
    ],
)
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(
    build: Build,
    combine: Callable[[list[float]], float],
    axis: int | list[int] | None,
    exclude: bool,
    reduced: tuple[int, ...],
    keepdims: bool,
) -> None:
    x = (np.arange(24).reshape(2, 3, 4) % 7 + 0.5).astype("float32")
    out = run(lambda d: build(d, axis=axis, keepdims=keepdims, exclude=exclude), x)
    expected = naive_reduce(x, reduced, keepdims, combine)
    assert out.dtype == np.float32
    assert out.shape == expected.shape
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_integer_reductions_follow_tvm() -> None:
    # the integer mean truncates towards zero (TVM divides the sum): -3/2 -> -1
    x = np.array([[-3, 0], [5, 2]], "int32")
    assert run(lambda d: relay.mean(d, axis=1), x).tolist() == [-1, 3]
    # the sum stays in the data's dtype and wraps around
    y = np.array([100, 100], "int8")
    out = run(lambda d: relay.sum(d), y)
    assert out.dtype == np.int8
    assert int(out) == -56


def test_reduce_dynamic_batch() -> None:
    build = lambda d: relay.sum(d, axis=[1, 2], keepdims=True)  # noqa: E731
    assert type_of(build, (None, 3, 4)) == "tensor<?x1x1xf32>"
    for batch in (1, 3):
        x = arange(batch, 3, 4)
        out = run(build, x, shapes=[(None, 3, 4)])
        assert out.shape == (batch, 1, 1)
        assert out.ravel().tolist() == [sum(range(12 * b, 12 * b + 12)) for b in range(batch)]


def test_argmax_argmin() -> None:
    x = np.array([[[1, 9], [9, 0]], [[2, 2], [0, 2]]], "float32")
    # over several axes the index counts through them in row-major order
    assert run(lambda d: relay.argmax(d, axis=[1, 2]), x).tolist() == [1, 0]
    out = run(lambda d: relay.argmax(d, axis=[1, 2], select_last_index=True), x)
    assert out.tolist() == [2, 3]
    assert out.dtype == np.int32
    assert run(lambda d: relay.argmin(d, axis=[-1], keepdims=True), x).tolist() == [
        [[0], [1]],
        [[0], [0]],
    ]
    assert int(run(relay.argmax, x)) == 1
    assert run(lambda d: relay.argmin(d, axis=[0], exclude=True), x).tolist() == [3, 2]


# --------------------------------------------------------------------------- #
# matmul
# --------------------------------------------------------------------------- #


def naive_matmul(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [
        [sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))]
        for i in range(len(a))
    ]


def test_matmul_2d_and_transposed() -> None:
    a, b = arange(3, 4), arange(4, 5) - 7
    assert run(relay.matmul, a, b).tolist() == naive_matmul(a.tolist(), b.tolist())
    at, bt = np.ascontiguousarray(a.T), np.ascontiguousarray(b.T)
    out = run(lambda x, y: relay.matmul(x, y, transpose_a=True, transpose_b=True), at, bt)
    assert out.tolist() == naive_matmul(a.tolist(), b.tolist())


def test_matmul_broadcast_batch() -> None:
    a = arange(2, 1, 3, 4)
    b = arange(5, 4, 2) % 5
    out = run(relay.matmul, a, b)
    assert out.shape == (2, 5, 3, 2)
    for i, j in itertools.product(range(2), range(5)):
        assert out[i, j].tolist() == naive_matmul(a[i, 0].tolist(), b[j].tolist())


def test_matmul_out_dtype_and_dynamic() -> None:
    a = np.full((3, 4), 100, "int8")
    b = np.full((4, 2), 100, "int8")
    out = run(lambda x, y: relay.matmul(x, y, out_dtype="int32"), a, b, shapes=[(None, 4), (4, 2)])
    assert out.dtype == np.int32
    assert out.tolist() == [[40000, 40000]] * 3
    assert type_of(relay.matmul, (None, 4), (4, None)) == "tensor<?x?xf32>"


# --------------------------------------------------------------------------- #
# builder type errors and the text round trip
# --------------------------------------------------------------------------- #


@pytest.mark.parametrize(
    ("build", "shapes", "message"),
    [
        (
            lambda d: relay.reshape(d, (5, 5)),
            [(2, 3, 4)],
            r"'relay.reshape' input shape \(2, 3, 4\) and reshaped shape \(5, 5\) are not "
            r"compatible; operand types: \(tensor<2x3x4xf32>\)",
        ),
        (
            lambda d: relay.transpose(d, (0, 0, 1)),
            [(2, 3, 4)],
            r"axis 0 is repeated in \[0, 0, 1\]",
        ),
        (lambda d: relay.squeeze(d, axis=[1]), [(2, 3)], "cannot squeeze axis 1 of size 3"),
        (lambda d: relay.expand_dims(d, 3), [(2, 3)], r"axis 3 is out of range \[-3, 2\]"),
        (
            lambda a, b: relay.concatenate([a, b], 1),
            [(2, 3), (3, 3)],
            r"operand #1 shape \(3, 3\) does not match \(2, 3\) of operand #0 outside axis 1",
        ),
        (lambda d: relay.split(d, 4, axis=1), [(2, 6)], "not divisible into 4 sections"),
        (
            lambda d: relay.layout_transform(d, "NCHW", "NCHW16c"),
            [(1, 8, 2, 2)],
            "axis 'C' of size 8 is not divisible by factor 16",
        ),
        (lambda d: relay.sum(d, axis=[2]), [(2, 3)], "axis 2 is out of range for rank 2"),
        (lambda a, b: relay.matmul(a, b), [(2, 3), (4, 5)], "contraction dims differ"),
        (lambda d: relay.strided_slice(d, [2], [1]), [(4,)], "begin 2 and end 1 are invalid"),
        (lambda d: relay.zeros((2, -3), "float32"), [(1,)], r"shape must be non-negative"),
    ],
)
def test_builder_type_errors(build: Build, shapes: list[tuple[int, ...]], message: str) -> None:
    params = [relay.var(f"p{k}", shape=s) for k, s in enumerate(shapes)]
    with pytest.raises(relay.RelayTypeError, match=message):
        build(*params)


@pytest.mark.parametrize(
    ("build", "shape", "data_shape", "message"),
    [
        (
            lambda d: relay.reshape(d, (0, 5)),
            (None, 10),
            (2, 10),
            r"'relay.reshape' op failed: input shape \(2, 10\) and reshaped shape \(2, 5\)",
        ),
        (
            lambda d: relay.squeeze(d, axis=[0]),
            (None, 2),
            (3, 2),
            r"'relay.squeeze' op failed: cannot squeeze axis 0 of size 3",
        ),
        (
            lambda d: relay.split(d, 2),
            (None,),
            (5,),
            r"'relay.split' op failed: input dim 5 on axis 0 is not divisible into 2 sections",
        ),
        (
            lambda d: relay.layout_transform(d, "NC", "NC4c"),
            (1, None),
            (1, 6),
            r"'relay.layout_transform' op failed: axis 'C' of size 6 is not divisible by factor 4",
        ),
    ],
)
def test_dynamic_shape_errors_at_run_time(
    build: Build, shape: tuple[int | None, ...], data_shape: tuple[int, ...], message: str
) -> None:
    x = relay.var("x", shape=shape)
    mod = IRModule.from_expr(relay.Function([x], build(x)))
    with pytest.raises(EvaluationError, match=message):
        xrelay.evaluate(mod, np.zeros(data_shape, "float32"))


def test_builder_rejects_non_tuple_concatenate() -> None:
    with pytest.raises(TypeError, match="expected a list or tuple"):
        relay.concatenate(relay.var("x", shape=(2,)), 0)


def test_text_round_trip() -> None:
    x = relay.var("x", shape=(None, 8, 4, 4))
    y = relay.layout_transform(x, "NCHW", "NCHW4c")
    parts = relay.split(relay.reshape(y, (0, -1)), 2, axis=1)
    z = relay.concatenate([parts[1], parts[0]], axis=-1)
    w = relay.matmul(z, relay.ones((128, 3), "float32"))
    body = relay.Tuple([relay.argmax(w, axis=1), relay.mean(w, axis=[0], exclude=True)])
    mod = IRModule.from_expr(relay.Function([x], body))
    text = str(mod)
    assert "tuple<tensor<?xi32>, tensor<?xf32>>" in text
    again = xrelay.parse(text)
    assert str(again) == text
    data = arange(2, 8, 4, 4)
    first, second = xrelay.evaluate(mod, data)
    again_first, again_second = xrelay.evaluate(again, data)
    assert first.tolist() == again_first.tolist()
    assert second.tolist() == again_second.tolist()
