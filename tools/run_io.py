"""`xrelay-run`'s files: `--input NAME=FILE.npy`, `--params FILE.npz`, `--output`/`--save`.

Every mistake in a file or an argument is a `RunError` whose message names
the flag and the file, printed by the driver as one `xrelay-run: error: ...`
line. Arrays stored in the other byte order (a big-endian `>f4` `.npy` on a
little-endian machine) are converted to the native one when read: the values
are what the file holds, in the dtype the model takes. numpy keeps bfloat16
arrays as 2-byte void (`|V2`) in `.npy`/`.npz` files; such an array read for a
bf16 parameter is bf16 again (`stored_bfloat16`).

Outputs are named as they are printed: `output<k>` for the k-th result of the
function, `output<k>.<i>` for field i of a tuple result (nested tuples add
further `.<j>`).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import BFloat16Type, TensorType, TupleType
from xdsl.ir import Attribute
from xrelay.dialects.interpreter import Value
from xrelay.dialects.relay.types import BFLOAT16
from xrelay.passes.transaction import write_atomically

Array = np.ndarray[Any, Any]


class RunError(Exception):
    """A mistake on the command line or in a file: one `xrelay-run: error: ...` line, exit 1."""


def _load(flag: str, path: str) -> Any:
    """`np.load(path)` without pickles; `RunError` naming `flag` and `path` if it cannot be read."""
    try:
        return np.load(path, allow_pickle=False)
    except OSError as error:
        reason = error.strerror or str(error)
        raise RunError(f"{flag}: cannot read {path}: {reason}") from None
    except (ValueError, EOFError, zipfile.BadZipFile) as error:
        raise RunError(f"{flag}: {path} is not a numpy .npy/.npz file ({error})") from None


def native(array: Array) -> Array:
    """`array` in the machine's byte order (converted if stored in the other one)."""
    if array.dtype.isnative:
        return array
    return array.astype(array.dtype.newbyteorder("="))


def stored_bfloat16(array: Array, type_: Attribute) -> Array:
    """`array` as bf16 if a bf16 parameter (`type_`) takes it and the file kept it as 2-byte
    void (`|V2`: numpy saves `ml_dtypes.bfloat16` so, and reads it back so); else as it is."""
    if array.dtype.kind != "V" or array.dtype.itemsize != 2 or not isinstance(type_, TensorType):
        return array
    element = cast(TensorType[Attribute], type_).get_element_type()
    return array.view(BFLOAT16) if isinstance(element, BFloat16Type) else array


def read_inputs(items: Sequence[str]) -> dict[str, Array]:
    """The arrays of `--input NAME=FILE.npy` arguments, by name."""
    given: dict[str, Array] = {}
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise RunError(f"--input expects NAME=FILE.npy, got {item!r}")
        if name in given:
            raise RunError(f"--input {name!r} is given twice")
        loaded = _load(f"--input {name}", path)
        if not isinstance(loaded, np.ndarray):
            loaded.close()
            raise RunError(f"--input {name}: {path} is an .npz archive; give one array as .npy")
        given[name] = native(cast(Array, loaded))
    return given


def read_params(path: str | None) -> dict[str, Array]:
    """The arrays of `--params FILE.npz`, by key (empty without the flag)."""
    if path is None:
        return {}
    loaded = _load("--params", path)
    if isinstance(loaded, np.ndarray):
        raise RunError(f"--params: {path} holds one array; give an .npz archive keyed by name")
    with loaded:
        return {key: native(cast(Array, np.asarray(loaded[key]))) for key in loaded.files}


def leaf_count(type_: Attribute) -> int:
    """How many arrays a value of `type_` is made of (tuples flattened)."""
    if isinstance(type_, TupleType):
        return sum(leaf_count(field) for field in type_.types.data)
    return 1


def leaves(value: Value) -> list[Value]:
    """The arrays of a value, tuples flattened in field order."""
    if isinstance(value, tuple | list):
        return [leaf for item in cast(Sequence[Value], value) for leaf in leaves(item)]
    return [value]


def unflatten(types: Sequence[Attribute], flat: Sequence[Value]) -> list[Value]:
    """Values of `types` from their arrays in order (the inverse of `leaves` over `types`)."""
    position = 0

    def take(type_: Attribute) -> Value:
        nonlocal position
        if isinstance(type_, TupleType):
            return tuple(take(field) for field in type_.types.data)
        position += 1
        return flat[position - 1]

    values = [take(type_) for type_ in types]
    if position != len(flat):
        raise ValueError(f"{len(flat)} arrays for {position} outputs")
    return values


def named_outputs(results: Sequence[Value]) -> dict[str, Array]:
    """The arrays of a function's results under their printed names (`output0`, `output1.0`)."""
    named: dict[str, Array] = {}

    def add(name: str, value: Value) -> None:
        if isinstance(value, tuple | list):
            for index, item in enumerate(cast(Sequence[Value], value)):
                add(f"{name}.{index}", item)
        else:
            named[name] = np.asarray(value)

    for index, value in enumerate(results):
        add(f"output{index}", value)
    return named


def check_output_path(path: str | None, count: int) -> None:
    """`--output` must be an `.npz` file unless the function has exactly one output array."""
    if path is not None and not path.endswith(".npz") and count != 1:
        raise RunError(
            f"--output {path}: the function has {count} output arrays; "
            "name an .npz file to write them all (keys output0, output1, ...)"
        )


def write_outputs(path: str, named: dict[str, Array]) -> None:
    """`path.npz`: every output by name; any other name: the one output as `.npy` data.
    Written atomically: a failed write leaves an existing file as it was."""
    data = io.BytesIO()
    if path.endswith(".npz"):
        np.savez(data, **named)  # pyright: ignore[reportArgumentType]
    else:
        check_output_path(path, len(named))
        np.save(data, next(iter(named.values())))
    try:
        write_atomically(path, data.getvalue())
    except OSError as error:
        raise RunError(f"cannot write {path}: {error.strerror or error}") from None


def summary(name: str, array: Array) -> str:
    """One line: name, dtype, shape and (for numbers) min, max and mean."""
    text = f"{name}: {array.dtype.name}{list(array.shape)}"
    if array.dtype == BFLOAT16:  # numpy does not count it as a number; float32 holds it
        array = array.astype(np.float32)
    if array.size and np.issubdtype(array.dtype, np.number):
        text += f" min={array.min():.6g} max={array.max():.6g} mean={array.mean():.6g}"
    return text
