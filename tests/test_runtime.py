"""The Python runtime: `xrelay.runtime.Library` / `load` run model libraries on numpy arrays.

The libraries are the hand-written models of tests/c (the C ABI of
xrelay_runtime.h), built once per module with `compile_library`.
"""

from __future__ import annotations

import ctypes
import gc
import json
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from xrelay.codegen.build import compile_library

import xrelay
from xrelay.runtime import Library, TensorInfo, load

C_DIR = Path(__file__).resolve().parent / "c"
W = np.array([0.5, -1.0, 2.0, -3.0], "float32")
RNG = np.random.default_rng(6)


def fixture_sources(*names: str) -> dict[str, str]:
    return {name: (C_DIR / name).read_text() for name in names}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every fixture library, built once (with the environment's compiler, no extra $CFLAGS)."""
    cache = tmp_path_factory.mktemp("runtime-cache")
    relu_add = fixture_sources("relu_add.h", "relu_add_kernel.c", "relu_add_model.c")
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("CFLAGS", raising=False)
        patch.delenv("LDFLAGS", raising=False)
        return {
            "relu_add": compile_library(relu_add, name="relu_add", cache_dir=cache),
            "abi99": compile_library(
                relu_add, extra_cflags=["-DXRELAY_TEST_ABI=99"], cache_dir=cache
            ),
            "two_outputs": compile_library(fixture_sources("two_outputs.c"), cache_dir=cache),
            "sqrt": compile_library(fixture_sources("checked_sqrt.c"), cache_dir=cache),
            "sqrt_no_create": compile_library(
                fixture_sources("checked_sqrt.c"),
                extra_cflags=["-DXRELAY_TEST_FAIL_CREATE"],
                cache_dir=cache,
            ),
            "foreign": compile_library(
                {"f.c": "int foreign(void);\nint foreign(void) { return 7; }\n"}, cache_dir=cache
            ),
            "undefined": compile_library(
                {"u.c": "int gone(void);\nint u(void);\nint u(void) { return gone(); }\n"},
                name="undefined",
                cache_dir=cache,
            ),
        }


@pytest.fixture(scope="module")
def relu_add(built: dict[str, Path]) -> Library:
    return Library(built["relu_add"])


@pytest.fixture(scope="module")
def two_outputs(built: dict[str, Path]) -> Library:
    return Library(built["two_outputs"])


def reference_relu_add(x: np.ndarray) -> np.ndarray:
    return np.maximum(x + W, np.float32(0))


# --- running --------------------------------------------------------------------------------


def test_inputs_and_outputs_are_read_from_the_library(
    relu_add: Library, two_outputs: Library
) -> None:
    assert relu_add.inputs == (TensorInfo("x", np.dtype("float32"), (2, 3, 4)),)
    assert relu_add.outputs == (TensorInfo("y", np.dtype("float32"), (2, 3, 4)),)
    assert [str(i) for i in two_outputs.inputs] == ["a: float32[2, 3]", "scale: int32[]"]
    assert [str(o) for o in two_outputs.outputs] == ["scaled: float32[2, 3]", "row_max: float64[2]"]
    assert "(a: float32[2, 3], scale: int32[])" in repr(two_outputs)


def test_relu_add_matches_numpy(relu_add: Library) -> None:
    for _ in range(3):
        x = RNG.standard_normal((2, 3, 4)).astype("float32")
        y = relu_add(x)
        assert isinstance(y, np.ndarray)
        np.testing.assert_array_equal(y, reference_relu_add(x))
        np.testing.assert_array_equal(relu_add(x=x), y)  # by name
    assert relu_add(x) is not relu_add(x)  # fresh output arrays


def test_two_outputs_come_back_as_a_tuple(two_outputs: Library) -> None:
    a = RNG.standard_normal((2, 3)).astype("float32")
    for scale in (np.int32(3), np.array(-2, "int32")):
        scaled, row_max = two_outputs(a, scale)
        t = a * np.float32(scale)
        np.testing.assert_array_equal(scaled, t + 1)
        assert row_max.dtype == np.float64
        np.testing.assert_array_equal(row_max, t.max(axis=1))
    result = two_outputs(a, scale=np.int32(1))  # positional, then by name
    assert isinstance(result, tuple)
    assert len(result) == 2


def test_non_contiguous_and_misaligned_inputs_are_copied(relu_add: Library) -> None:
    base = RNG.standard_normal((4, 3, 8)).astype("float32")
    transposed = RNG.standard_normal((4, 3, 2)).astype("float32").transpose(2, 1, 0)
    fortran = np.asfortranarray(RNG.standard_normal((2, 3, 4)).astype("float32"))
    raw = bytearray(2 * 3 * 4 * 4 + 1)
    misaligned = np.frombuffer(raw, "float32", count=24, offset=1).reshape(2, 3, 4)
    for x in (base[::2, :, 1::2], transposed, fortran, misaligned):
        assert not (x.flags.c_contiguous and x.flags.aligned)
        before = x.copy()
        np.testing.assert_array_equal(relu_add(x), reference_relu_add(x))
        np.testing.assert_array_equal(x, before)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, r"relu_add-\w+\.so takes 1 inputs \(x: float32\[2, 3, 4\]\), missing 'x'"),
        ((1, 2), {}, r"takes 1 inputs \(x: float32\[2, 3, 4\]\), got 2"),
        ((), {"z": 1}, r"has no input 'z' \(x: float32\[2, 3, 4\]\)"),
    ],
)
def test_wrong_input_count_or_name(
    relu_add: Library, args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        relu_add(*args, **kwargs)


def test_input_given_twice(relu_add: Library) -> None:
    x = np.zeros((2, 3, 4), "float32")
    with pytest.raises(ValueError, match="input 'x' given both by position and by name"):
        relu_add(x, x=x)


def test_wrong_input_shape(relu_add: Library, two_outputs: Library) -> None:
    with pytest.raises(ValueError, match=r"input 'x' expects shape \[2, 3, 4\], got \[2, 4, 3\]"):
        relu_add(np.zeros((2, 4, 3), "float32"))
    with pytest.raises(ValueError, match=r"input 'scale' expects shape \[\], got \[1\]"):
        two_outputs(np.zeros((2, 3), "float32"), np.zeros(1, "int32"))


def test_wrong_input_dtype(relu_add: Library, two_outputs: Library) -> None:
    with pytest.raises(ValueError, match=r"input 'x' expects dtype float32, got float64"):
        relu_add(np.zeros((2, 3, 4)))
    with pytest.raises(ValueError, match=r"input 'scale' expects dtype int32, got int64"):
        two_outputs(np.zeros((2, 3), "float32"), np.int64(2))
    # The other byte order of the right dtype is converted (test_input_names_and_byte_order.py).
    with pytest.raises(ValueError, match=r"input 'x' expects dtype float32, got >f8"):
        relu_add(np.zeros((2, 3, 4), ">f8"))


def test_concurrent_calls_share_one_instance_safely(relu_add: Library) -> None:
    inputs = [RNG.standard_normal((2, 3, 4)).astype("float32") for _ in range(64)]
    with ThreadPoolExecutor(4) as pool:
        outputs = list(pool.map(relu_add, inputs))
    for x, y in zip(inputs, outputs, strict=True):
        np.testing.assert_array_equal(y, reference_relu_add(x))


# --- errors from the library ----------------------------------------------------------------


def test_run_failure_raises_the_last_error(built: dict[str, Path]) -> None:
    lib = Library(built["sqrt"])
    x = np.array([4.0, 1.0, -1.5, 9.0, 0.0], "float32")
    with pytest.raises(RuntimeError, match=r"^checked_sqrt: x\[2\] = -1\.5 is negative$"):
        lib(x)
    np.testing.assert_array_equal(lib(np.abs(x)), np.sqrt(np.abs(x)))  # the instance still runs


def test_create_failure_raises_the_last_error(built: dict[str, Path]) -> None:
    lib = Library(built["sqrt_no_create"])  # loading does not create an instance
    for _ in range(2):
        with pytest.raises(RuntimeError, match=r"^checked_sqrt: cannot allocate a 1 TiB arena$"):
            lib(np.ones(5, "float32"))


def test_one_instance_created_lazily_and_destroyed_on_close_or_collection(
    built: dict[str, Path],
) -> None:
    live = ctypes.CDLL(str(built["relu_add"])).relu_add_live_models
    live.restype = ctypes.c_int64
    gc.collect()
    start = live()
    x = np.ones((2, 3, 4), "float32")
    with Library(built["relu_add"]) as first:
        assert live() == start
        first(x)
        first(x)
        assert live() == start + 1
        second = Library(built["relu_add"])
        second(x)
        assert live() == start + 2
    assert live() == start + 1  # the with block closed the first
    with pytest.raises(RuntimeError, match="is closed"):
        first(x)
    first.close()  # closing twice is harmless
    del second
    gc.collect()
    assert live() == start


# --- export, load, bad files ----------------------------------------------------------------


def test_export_and_load_in_a_fresh_process(relu_add: Library, tmp_path: Path) -> None:
    exported = relu_add.export_library(tmp_path / "model.so")
    assert exported == tmp_path / "model.so"
    assert exported.read_bytes() == relu_add.path.read_bytes()
    x = RNG.standard_normal((2, 3, 4)).astype("float32")
    np.save(tmp_path / "x.npy", x)
    script = textwrap.dedent(
        """
        import sys, json, numpy as np, xrelay
        lib = xrelay.runtime.load(sys.argv[1])
        y = lib(np.load(sys.argv[2]))
        print(json.dumps({"inputs": [str(i) for i in lib.inputs], "y": y.tolist()}))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(exported), str(tmp_path / "x.npy")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["inputs"] == ["x: float32[2, 3, 4]"]
    np.testing.assert_array_equal(np.array(answer["y"], "float32"), reference_relu_add(x))
    # In this process too; and xrelay.runtime is the public face of the loader.
    np.testing.assert_array_equal(xrelay.runtime.load(exported)(x), reference_relu_add(x))
    assert load is xrelay.runtime.load


def test_refused_libraries(built: dict[str, Path], tmp_path: Path) -> None:
    with pytest.raises(
        RuntimeError,
        match=r"f\S*\.so is not an xrelay model library: it lacks xrelay_abi_version, ",
    ):
        load(built["foreign"])
    with pytest.raises(
        RuntimeError,
        match=r"model library \S+ has C ABI version 99; this xrelay runtime loads version 2",
    ):
        load(built["abi99"])
    with pytest.raises(
        OSError, match=r"cannot load model library \S+undefined-\w+\.so: .*undefined symbol: gone"
    ):
        load(built["undefined"])
    with pytest.raises(OSError, match=f"cannot read model library {tmp_path / 'absent.so'}"):
        load(tmp_path / "absent.so")


def corrupt_files(library: Path, folder: Path) -> dict[str, Path]:
    data = library.read_bytes()
    other_machine = bytearray(data)
    other_machine[18:20] = (183).to_bytes(2, "little")  # EM_AARCH64 (we run x86-64, or patch it)
    if data[18:20] == other_machine[18:20]:
        other_machine[18:20] = (62).to_bytes(2, "little")  # EM_X86_64
    variants = {
        "empty": b"",
        "text": b"not a library at all\n" * 10,
        "elf-magic-garbage": b"\x7fELF" + bytes(range(256)) * 4,
        "header-only": data[:64],
        "truncated-half": data[: len(data) // 2],
        "truncated-end": data[:-100],
        "other-machine": bytes(other_machine),
    }
    paths = {}
    for name, content in variants.items():
        paths[name] = folder / f"{name}.so"
        paths[name].write_bytes(content)
    return paths


def test_corrupt_files_give_clear_errors_in_a_separate_process(
    built: dict[str, Path], tmp_path: Path
) -> None:
    """Each corrupt file is refused with an OSError naming it; the process never crashes."""
    files = corrupt_files(built["relu_add"], tmp_path)
    script = textwrap.dedent(
        """
        import json, sys
        from xrelay.runtime import load
        results = {}
        for name, path in json.loads(sys.argv[1]).items():
            try:
                load(path)
                results[name] = "loaded"
            except (OSError, RuntimeError) as error:
                results[name] = f"{type(error).__name__}: {error}"
        print(json.dumps(results))
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script, json.dumps({k: str(v) for k, v in files.items()})],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    errors = json.loads(result.stdout)
    expected = {
        "empty": "not an ELF file",
        "text": "not an ELF file",
        "elf-magic-garbage": "unknown ELF class or byte order",
        "header-only": "truncated or corrupt program headers",
        "truncated-half": "truncated: a segment ends at byte",
        "truncated-end": "truncated: the section headers lie past the end of the file",
        "other-machine": "built for another machine",
    }
    for name, detail in expected.items():
        assert errors[name].startswith(
            f"OSError: {files[name]} is not a valid model library: {detail}"
        ), errors[name]
    # The same errors in this process.
    for path in files.values():
        with pytest.raises(OSError, match=str(path)):
            load(path)
