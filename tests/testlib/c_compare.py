"""Build a module for target `c` and compare every output leaf with the interpreter's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

import xrelay
from xrelay import IRModule

Array = np.ndarray[Any, Any]


def leaves(value: Any) -> list[Array]:
    """The arrays of a value, tuples flattened."""
    if isinstance(value, tuple | list):
        return [leaf for item in value for leaf in leaves(item)]
    return [np.asarray(value)]


def check_c_against_interpreter(
    mod: IRModule, inputs: list[Array], cache: Path, rtol: float = 1e-5, atol: float = 1e-6
) -> list[Array]:
    """Run `mod` built for `c` and on the interpreter; assert equal leaves; return them."""
    lib = xrelay.build(mod, options={"cache_dir": cache, "optimize": False})
    got = leaves(lib(*inputs))
    want = leaves(xrelay.evaluate(mod, *inputs))
    assert len(got) == len(want)
    for position, (g, w) in enumerate(zip(got, want, strict=True)):
        assert (g.dtype, g.shape) == (w.dtype, w.shape), position
        if g.dtype.kind == "f":
            assert np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True), position
        else:
            assert np.array_equal(g, w), position
    return want
