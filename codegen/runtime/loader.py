"""Load a model library (the C ABI of `xrelay_runtime.h`) with ctypes and run it on numpy arrays.

`Library(path)` checks the file before handing it to the dynamic loader
(`elf.check_shared_object`: a corrupt or truncated file is an error rather than
a crash of the process), checks `xrelay_abi_version`, and reads the inputs' and
outputs' names, dtypes and shapes. Before anything of the model runs it asks the
library's baseline-compiled `xrelay_missing_isa()` whether this CPU has every
instruction set feature the library was compiled for (`codegen/c/isa.py`):
`UnsupportedCPUError` (`library needs avx512f, this CPU lacks it`) if not.
Calling it checks the arrays against them, copies inputs that are not
C-contiguous and aligned or are in the other byte order (a big-endian `>f4`
array for a `float32` input), allocates the outputs and runs the model. One
model instance (its arena) is created on the first call and destroyed by
`close()` or when the `Library` is garbage collected; calls are serialized by a
lock, since an instance runs one call at a time. A library built with the build
option `profile` also reports the time of each kernel (`profile()`,
`reset_profile()`; `profile.py`).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import tempfile
import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from xrelay.codegen.runtime import ABI_VERSION
from xrelay.codegen.runtime.elf import check_shared_object
from xrelay.codegen.runtime.profile import ProfileEntry, has_profile, read_profile, reset_profile
from xrelay.dialects.relay.types import BFLOAT16

DTYPES: tuple[np.dtype[Any], ...] = (
    *(
        np.dtype(name)
        for name in (
            "float32",
            "float64",
            "int8",
            "int16",
            "int32",
            "int64",
            "uint8",
            "bool",
            "float16",
            "uint16",
            "uint32",
            "uint64",
        )
    ),
    BFLOAT16,
)
"""numpy dtype of each `xrelay_dtype` value, by value."""

_SYMBOLS = (
    "xrelay_abi_version",
    "xrelay_num_inputs",
    "xrelay_num_outputs",
    "xrelay_input_info",
    "xrelay_output_info",
    "xrelay_model_create",
    "xrelay_model_run",
    "xrelay_model_destroy",
    "xrelay_last_error",
)


_ISA_SYMBOLS = ("xrelay_required_isa", "xrelay_missing_isa")
"""Symbols of ABI version 2 on: looked up once the version is known."""


class UnsupportedCPUError(RuntimeError):
    """The library was compiled for instruction set features this CPU lacks."""


class _CTensorInfo(ctypes.Structure):
    _fields_ = (
        ("name", ctypes.c_char_p),
        ("dtype", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
    )


@dataclass(frozen=True)
class TensorInfo:
    """One input or output of a model: name, numpy dtype and shape."""

    name: str
    dtype: np.dtype[Any]
    shape: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.name}: {self.dtype}{list(self.shape)}"


class Library:
    """A loaded model library: `lib(x, ...)` runs it on numpy arrays and returns numpy arrays."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path).absolute()
        """The file loaded."""
        check_shared_object(self.path)
        try:
            self._dll = ctypes.CDLL(str(self.path))
        except OSError as error:
            raise OSError(f"cannot load model library {self.path}: {error}") from error
        self._bind()
        version = self._dll.xrelay_abi_version()
        if version != ABI_VERSION:
            raise RuntimeError(
                f"model library {self.path} has C ABI version {version}; "
                f"this xrelay runtime loads version {ABI_VERSION}"
            )
        self.required_isa: tuple[str, ...] = self._check_isa()
        """The instruction set features the library was compiled to use (`avx2`, ...)."""
        self.inputs: tuple[TensorInfo, ...] = self._infos("input")
        """The inputs, in call order."""
        self.outputs: tuple[TensorInfo, ...] = self._infos("output")
        """The outputs, in the order they are returned."""
        self._lock = threading.Lock()
        self._model: int | None = None
        self._closed = False
        self._finalizer: Callable[[], object] | None = None

    def _bind(self) -> None:
        """Declare the ABI's signatures; `RuntimeError` naming a missing symbol."""
        missing = [s for s in _SYMBOLS if not hasattr(self._dll, s)]
        if missing:
            raise RuntimeError(
                f"{self.path} is not an xrelay model library: it lacks {', '.join(missing)}"
            )
        dll = self._dll
        info_p = ctypes.POINTER(_CTensorInfo)
        for symbol, restype, argtypes in (
            ("xrelay_abi_version", ctypes.c_int32, ()),
            ("xrelay_num_inputs", ctypes.c_int32, ()),
            ("xrelay_num_outputs", ctypes.c_int32, ()),
            ("xrelay_input_info", info_p, (ctypes.c_int32,)),
            ("xrelay_output_info", info_p, (ctypes.c_int32,)),
            ("xrelay_model_create", ctypes.c_void_p, ()),
            (
                "xrelay_model_run",
                ctypes.c_int32,
                (ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p)),
            ),
            ("xrelay_model_destroy", None, (ctypes.c_void_p,)),
            ("xrelay_last_error", ctypes.c_char_p, ()),
        ):
            function = getattr(dll, symbol)
            function.restype = restype
            function.argtypes = argtypes

    def _check_isa(self) -> tuple[str, ...]:
        """The features the library needs; `UnsupportedCPUError` if this CPU lacks one."""
        missing = [s for s in _ISA_SYMBOLS if not hasattr(self._dll, s)]
        if missing:
            raise RuntimeError(
                f"{self.path} is not an xrelay model library: it lacks {', '.join(missing)}"
            )
        for symbol in _ISA_SYMBOLS:
            function = getattr(self._dll, symbol)
            function.restype = ctypes.c_char_p
            function.argtypes = ()
        required: bytes | None = self._dll.xrelay_required_isa()
        features = tuple(f for f in (required or b"").decode(errors="replace").split(",") if f)
        lacking: bytes | None = self._dll.xrelay_missing_isa()
        if lacking:
            feature = lacking.decode(errors="replace")
            raise UnsupportedCPUError(
                f"model library {self.path} needs {feature}, this CPU lacks it "
                f"(it was compiled for {','.join(features)})"
            )
        return features

    def _infos(self, kind: str) -> tuple[TensorInfo, ...]:
        """Read the input or output records; `RuntimeError` if they are inconsistent."""
        count: int = getattr(self._dll, f"xrelay_num_{kind}s")()
        query = getattr(self._dll, f"xrelay_{kind}_info")
        infos: list[TensorInfo] = []
        for index in range(count):
            pointer = query(index)
            if not pointer:
                raise RuntimeError(f"{self.path}: xrelay_{kind}_info({index}) is NULL")
            info: _CTensorInfo = pointer.contents
            name_bytes: bytes | None = info.name
            dtype, ndim = int(info.dtype), int(info.ndim)
            if not 0 <= dtype < len(DTYPES) or ndim < 0 or name_bytes is None:
                raise RuntimeError(
                    f"{self.path}: {kind} {index} has a bad record "
                    f"(dtype {dtype}, ndim {ndim}, name {name_bytes!r})"
                )
            shape = tuple(int(info.shape[d]) for d in range(ndim))
            if any(d < 0 for d in shape):
                raise RuntimeError(f"{self.path}: {kind} {index} has a negative dimension {shape}")
            infos.append(TensorInfo(name_bytes.decode(errors="replace"), DTYPES[dtype], shape))
        if query(count) or query(-1):
            raise RuntimeError(f"{self.path}: xrelay_{kind}_info is not NULL out of range")
        return tuple(infos)

    def __call__(self, *arrays: Any, **named: Any) -> NDArray[Any] | tuple[NDArray[Any], ...]:
        """Run the model: inputs by position, then by name; one output array, or a tuple."""
        values = self._bind_inputs(arrays, named)
        buffers = [
            self._checked(info, value) for info, value in zip(self.inputs, values, strict=True)
        ]
        results = [np.empty(info.shape, info.dtype) for info in self.outputs]
        inputs = (ctypes.c_void_p * max(len(buffers), 1))(*(b.ctypes.data for b in buffers))
        outputs = (ctypes.c_void_p * max(len(results), 1))(*(r.ctypes.data for r in results))
        with self._lock:
            model = self._instance()
            status: int = self._dll.xrelay_model_run(model, inputs, outputs)
            if status != 0:
                raise RuntimeError(self._last_error(f"xrelay_model_run returned {status}"))
        return results[0] if len(results) == 1 else tuple(results)

    def _bind_inputs(self, arrays: Sequence[Any], named: dict[str, Any]) -> list[Any]:
        """The value of each input, in order; `ValueError` for a wrong count or name."""
        expected = len(self.inputs)
        if len(arrays) > expected:
            raise ValueError(
                f"{self.path.name} takes {expected} inputs ({self._signature()}), got {len(arrays)}"
            )
        values: dict[str, Any] = {
            info.name: value for info, value in zip(self.inputs[: len(arrays)], arrays, strict=True)
        }
        names = {info.name for info in self.inputs}
        for key, value in named.items():
            if key not in names:
                raise ValueError(f"{self.path.name} has no input {key!r} ({self._signature()})")
            if key in values:
                raise ValueError(f"input {key!r} given both by position and by name")
            values[key] = value
        missing = [info.name for info in self.inputs if info.name not in values]
        if missing:
            raise ValueError(
                f"{self.path.name} takes {expected} inputs ({self._signature()}), "
                f"missing {', '.join(map(repr, missing))}"
            )
        return [values[info.name] for info in self.inputs]

    @staticmethod
    def _checked(info: TensorInfo, value: Any) -> NDArray[Any]:
        """`value` as a C-contiguous aligned array of `info`'s dtype and shape, or `ValueError`."""
        array: NDArray[Any] = np.asarray(value)
        if array.dtype != info.dtype and array.dtype.newbyteorder("=") == info.dtype:
            array = array.astype(info.dtype)  # the other byte order: same values, native order
        if array.dtype != info.dtype:
            expected, got = str(info.dtype), str(array.dtype)
            if expected == got:  # names alike: say what differs (e.g. a structured dtype)
                expected, got = info.dtype.str, array.dtype.str
            raise ValueError(
                f"input {info.name!r} expects dtype {expected}, got {got} "
                f"(shape {list(array.shape)})"
            )
        if array.shape != info.shape:
            raise ValueError(
                f"input {info.name!r} expects shape {list(info.shape)}, got {list(array.shape)}"
            )
        return np.require(array, requirements=["C_CONTIGUOUS", "ALIGNED"])

    def _instance(self) -> int:
        """The model instance, created on first use (the caller holds the lock)."""
        if self._closed:
            raise RuntimeError(f"model library {self.path} is closed")
        if self._model is None:
            model: int | None = self._dll.xrelay_model_create()
            if not model:
                raise RuntimeError(self._last_error("xrelay_model_create returned NULL"))
            self._model = model
            self._finalizer = weakref.finalize(
                self, _destroy, self._dll.xrelay_model_destroy, model
            )
        return self._model

    def _last_error(self, fallback: str) -> str:
        message: bytes | None = self._dll.xrelay_last_error()
        text = message.decode(errors="replace") if message else ""
        return text or f"{fallback} without an error message ({self.path})"

    def _signature(self) -> str:
        return ", ".join(map(str, self.inputs))

    def close(self) -> None:
        """Destroy the model instance; the library cannot run afterwards."""
        with self._lock:
            self._closed = True
            if self._finalizer is not None:
                self._finalizer()
            self._model = None

    @property
    def profiling(self) -> bool:
        """Whether the library was built with the build option `profile` (kernel timers)."""
        return has_profile(self._dll)

    def profile(self) -> list[ProfileEntry]:
        """Calls and total seconds of every timed kernel since load or `reset_profile()`
        (entry 0 is the whole run; `profile.py`); `RuntimeError` if the library was built
        without `profile`."""
        with self._lock:
            return read_profile(self._profiled())

    def reset_profile(self) -> None:
        """Zero the kernel timers (`RuntimeError` without `profile`, as `profile()`)."""
        with self._lock:
            reset_profile(self._profiled())

    def _profiled(self) -> Any:
        if not self.profiling:
            raise RuntimeError(
                f"model library {self.path} was built without profiling: build it with "
                "options={'profile': True} (xrelay-run --profile) to time its kernels"
            )
        return self._dll

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def export_library(self, path: str | os.PathLike[str]) -> Path:
        """Copy the shared library to `path` (written atomically); `load(path)` loads it."""
        target = Path(path).absolute()
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        os.close(handle)
        try:
            shutil.copyfile(self.path, temporary)
            os.chmod(temporary, 0o755)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
        return target

    def __repr__(self) -> str:
        outputs = ", ".join(map(str, self.outputs))
        return f"<xrelay.runtime.Library {self.path} ({self._signature()}) -> ({outputs})>"


def _destroy(destroy: Callable[[int], None], model: int) -> None:
    destroy(model)


def load(path: str | os.PathLike[str]) -> Library:
    """Load a model library exported with `Library.export_library` (in any process)."""
    return Library(path)
