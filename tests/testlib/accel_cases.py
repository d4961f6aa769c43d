"""One-op accel functions, emitted, built, run and compared with the interpreter.

`Partitions` collects cases: one `Compiler = "accel"` function per case (a
single kernel op with its attributes, on seeded random inputs) and a host
`main` that calls them all. `check` plans the module, prints it with
`CEmitter` (`emit`), builds it (`build`: with the targets' flags or the
host's only), runs it as a runtime `Library` and compares every output with
`xrelay.evaluate` within `RTOL`/`ATOL`. Shared by `test_codegen_accel.py` and
`test_codegen_accel_winograd.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, IntegerAttr, ModuleOp, StringAttr, TensorType, f32
from xdsl.ir import Attribute, Block, Region
from xrelay.codegen.build import compile_library
from xrelay.codegen.c import CEmitter, CSources
from xrelay.dialects.builder import attrs
from xrelay.dialects.relay.base import RelayOp
from xrelay.passes.plan_memory import PlanMemory

import xrelay
from xrelay import IRModule
from xrelay.runtime import Library

Array = np.ndarray[Any, Any]
RTOL, ATOL = 1e-4, 1e-4


def props(**values: Any) -> dict[str, Attribute]:
    """Python attribute values as kernel op properties (bool, int, str, float, int lists)."""
    out: dict[str, Attribute] = {}
    for key, value in values.items():
        if isinstance(value, bool):
            out[key] = attrs.bool_(value)
        elif isinstance(value, int):
            out[key] = attrs.int_(value)
        elif isinstance(value, str):
            out[key] = attrs.str_(value)
        elif isinstance(value, float):
            out[key] = attrs.float_(value)
        else:
            out[key] = attrs.ints(value)
    return out


class Partitions:
    """Accel functions of one op each, and a host `main` that calls every one."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = np.random.default_rng(seed)
        self.functions: list[func.FuncOp] = []
        self.values: list[Array] = []
        self.labels: list[str] = []
        self.errors: dict[str, float] = {}
        """The largest absolute difference of each case's output, after `check`."""

    def add(
        self,
        label: str,
        op: type[RelayOp],
        shapes: Sequence[Sequence[int]],
        positive: Sequence[int] = (),
        **attributes: Any,
    ) -> None:
        """One case: `op` on fresh inputs of `shapes` (`positive`: indices of inputs > 0)."""
        types = [TensorType(f32, shape) for shape in shapes]
        block = Block(arg_types=types)
        kernel = op.make(block.args, props(**attributes))
        block.add_ops([kernel, func.ReturnOp(kernel.results[0])])
        name = f"tvmgen_default_accel_main_{len(self.functions)}"
        signature = FunctionType.from_lists(types, [kernel.results[0].type])
        function = func.FuncOp(name, signature, Region(block))
        function.attributes["Compiler"] = StringAttr("accel")
        function.attributes["Primitive"] = IntegerAttr(1, 32)
        self.functions.append(function)
        self.labels.append(label)
        for index, shape in enumerate(shapes):
            low = 0.5 if index in positive else -2.0
            self.values.append(self.rng.uniform(low, 2.0, shape).astype("float32"))

    def module(self) -> IRModule:
        """The functions and `main`, printed and parsed back (so errors have locations)."""
        inputs = [a.type for f in self.functions for a in f.body.block.args]
        block = Block(arg_types=inputs)
        results: list[Any] = []
        position = 0
        for f in self.functions:
            count = len(f.body.block.args)
            args = block.args[position : position + count]
            position += count
            call = func.CallOp(f.sym_name.data, args, f.function_type.outputs.data)
            block.add_op(call)
            results.append(call.results[0])
        block.add_op(func.ReturnOp(*results))
        signature = FunctionType.from_lists(inputs, [r.type for r in results])
        main = func.FuncOp("main", signature, Region(block))
        functions = [f.clone() for f in self.functions]
        return xrelay.parse(str(ModuleOp([*functions, main])))

    def check(
        self,
        cache: Path,
        target_flags: bool = True,
        num_threads: int | None = None,
        unit_flags: Sequence[str] | None = None,
    ) -> CSources:
        """Build, run and compare every case; the sources. `target_flags`: accel.c with
        the build's `-march=native` and accel's flags (`-O3 -fopenmp`) and link flags, else
        the host's only (4-lane vectors, no threads). `num_threads`: the build option. `unit_flags`: these
        flags for accel's units instead of the target's (with its link flags)."""
        mod = self.module()
        sources = emit(mod, num_threads=num_threads)
        lib = Library(build(sources, cache, target_flags, unit_flags))
        got = lib(*self.values)
        want = xrelay.evaluate(mod, *self.values)
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        problems: list[str] = []
        for label, g, w in zip(self.labels, got, want, strict=True):
            w = np.asarray(w)
            if g.shape != w.shape or g.dtype != np.float32:
                problems.append(f"{label}: got {g.dtype}{list(g.shape)}, want {list(w.shape)}")
                continue
            self.errors[label] = float(np.max(np.abs(g - w), initial=0.0))
            if not np.allclose(g, w, rtol=RTOL, atol=ATOL):
                problems.append(f"{label}: max abs difference {self.errors[label]}")
        assert not problems, "\n".join(problems)
        return sources


def emit(
    mod: IRModule, emitter: type[CEmitter] = CEmitter, num_threads: int | None = None
) -> CSources:
    """The C of a planned copy of `mod` (`num_threads`: the build option)."""
    return emitter(PlanMemory()(mod.clone()).module, num_threads=num_threads).emit()


def build(
    sources: CSources,
    cache: Path,
    target_flags: bool = True,
    unit_flags: Sequence[str] | None = None,
) -> Path:
    """The library of `sources`, with the targets' compile and link flags (`target_flags`;
    `unit_flags`: these compile flags for every unit the targets give flags to instead)."""
    if not target_flags:
        return compile_library(sources.files, cache_dir=cache)
    units = sources.unit_cflags
    if unit_flags is not None:
        units = {unit: list(unit_flags) for unit in units}
    return compile_library(
        sources.files,
        unit_cflags=units,
        extra_ldflags=sources.ldflags,
        cache_dir=cache,
    )


def text(sources: CSources, name: str) -> str:
    """The text of source file `name`."""
    content = sources.files[name]
    assert isinstance(content, str)
    return content


def accel_code(sources: CSources) -> str:
    """accel's C: every accel unit (a large partition is split in several) and the generated
    units that hold its kernels' loop nests (routines: `codegen/accel/parallel.py`)."""
    names = ("accel", "kernels_generated")
    return "".join(
        t for n, t in sources.files.items() if n.startswith(names) and isinstance(t, str)
    )
