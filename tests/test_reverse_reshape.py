"""relay.contrib_reverse_reshape (`relay.reverse_reshape`): TVM's special values matched from
the right, against hand-worked shapes; the values are the row-major reshape; a `?` dim;
errors; target c against the interpreter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xrelay.dialects.relay.base import RelayTypeError

import xrelay
from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]


def run(x: Array, newshape: Any) -> Array:
    v = relay.var("x", shape=x.shape, dtype=str(x.dtype))
    mod = IRModule.from_expr(relay.Function([v], relay.reverse_reshape(v, newshape)))
    return np.asarray(xrelay.evaluate(mod, x))


@pytest.mark.parametrize(
    ("shape", "newshape", "want"),
    [
        # Right to left: the last newshape value meets the last input dim.
        ((2, 3, 4), (4, 0, 2), (4, 3, 2)),  # 0 copies the 3 (second from the right)
        ((2, 3, 4), (2, 0, 0), (2, 3, 4)),
        ((2, 3, 4), (0, -1), (3, 8)),  # 0 copies the 3, -1 the rest (4 * 2)
        ((2, 3, 4), (-1, 0), (6, 4)),  # reshape would give (8, 3)
        ((2, 3, 4), (0, -3), (2, 12)),  # -3 merges the last two dims
        ((10, 5, 4), (-1, 0), (50, 4)),
        ((2, 3, 4), (-2, 0), (2, 3, 4)),  # -2 copies what is left, on the left
        ((2, 3, 6), (0, 0, 3, 2, -4), (2, 3, 3, 2)),  # -4 splits the last dim: 2 then 3
        ((2, 3, 4), 24, (24,)),
    ],
)
def test_shapes_and_values(shape: tuple[int, ...], newshape: Any, want: tuple[int, ...]) -> None:
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    got = run(x, newshape)
    assert got.shape == want
    np.testing.assert_array_equal(got.reshape(-1), x.reshape(-1))  # row-major order kept


def test_hand_values() -> None:
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    got = run(x, (-1, 0))
    np.testing.assert_array_equal(got[1], [4, 5, 6, 7])
    np.testing.assert_array_equal(got[:, 3], [3, 7, 11, 15, 19, 23])


def test_dynamic_dim() -> None:
    v = relay.var("x", shape=(relay.Any(), 3, 4))
    mod = IRModule.from_expr(relay.Function([v], relay.reverse_reshape(v, (-1, 0))))
    assert "tensor<?x4xf32>" in str(mod)
    got = np.asarray(xrelay.evaluate(mod, np.ones((5, 3, 4), np.float32)))
    assert got.shape == (15, 4)


@pytest.mark.parametrize(
    ("newshape", "message"),
    [
        ((-2, 20), r"are not compatible \(reverse_reshape reads newshape \[-2, 20\] right to"),
        ((-1, -1), "at most one -1"),
        ((-4, 2, 2), "-4 in newshape .* must be followed by two values"),
        ((-5,), "unsupported special value -5"),
    ],
)
def test_invalid(newshape: tuple[int, ...], message: str) -> None:
    with pytest.raises(RelayTypeError, match=message):
        relay.reverse_reshape(relay.var("x", shape=(2, 3, 4)), newshape)


def test_c_target_matches_the_interpreter(cache: Path) -> None:
    rng = np.random.default_rng(18)
    cases = [((2, 3, 4), (-1, 0), "float32"), ((2, 3, 6), (0, 0, 3, 2, -4), "int8")]
    cases += [((4, 5), (0, -1), "float16"), ((2, 3, 4), (0, -3), "float64")]
    params: list[relay.Var] = []
    values: list[Array] = []
    outputs: list[relay.Expr] = []
    for index, (shape, newshape, dtype) in enumerate(cases):
        x = (rng.standard_normal(shape) * 20).astype(dtype)
        v = relay.var(f"x{index}", shape=shape, dtype=dtype)
        params.append(v)
        values.append(x)
        once = relay.reverse_reshape(relay.add(v, v), newshape)
        outputs += [once, relay.negative(once)]
    mod = IRModule.from_expr(relay.Function(params, relay.Tuple(outputs)))
    lib = xrelay.build(mod, options={"cache_dir": cache})
    got, want = lib(*values), xrelay.evaluate(mod, *values)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), index
        np.testing.assert_array_equal(g, w, err_msg=f"case {index}")
