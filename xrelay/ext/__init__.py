"""`xrelay.ext`: the public API for extending xrelay from outside its tree.

A package that adds a dialect, relay-level semantics, a BYOC target with its
own lowering and C code generator, or test tooling imports from here (and
from `xrelay.transform` for passes, `xrelay.byoc` for pattern tables and op
predicates, `xrelay.ir`, `xrelay.relay` and `xdsl`), never from xrelay's
internal modules.

**Stability promise.** Every name in `__all__` (and every op class in
`xrelay.ext.ops`) keeps its signature and meaning within a major version of
xrelay; additions are allowed. Everything reachable only through other
modules (`xrelay.dialects.*`, `xrelay.passes.*`, `xrelay.codegen.*`, ...) is
internal and may change in any release.

What is here, by task:

- **A dialect.** `register_dialect` (make an xDSL `Dialect` known to every
  context xrelay parses with); `RelayOp` (the base of ops with relay's custom
  syntax and an inference-based verifier: override `infer_result_types`),
  `Props`, `RelayTypeError` and the inference helpers `expect_tensor`,
  `expect_rank`, `get_int`, `get_ints`, `get_float`, `get_bool`, `get_str`,
  `tensor_type`, `shape_of`, `tensor_element_type`, `pad_2d` (TVM's
  `get_pad_tuple2d`: 1, 2 or 4 ints to top, left, bottom, right); `dense_to_numpy` /
  `dense_from_numpy` for constants.
- **Semantics.** `reference(*op_classes)`: registers a numpy function
  `fn(evaluator, op, args) -> value` (`evaluator` an `Evaluator`) as what
  the ops compute; the interpreter (`xrelay.evaluate`, `xrelay-run` without
  `--target`) and the numerics checks use it.
- **Diagnostics.** `op_error(op, message)` builds a located diagnostic;
  raise `DiagnosticError(diagnostic)` from a pass to report it.
- **Lowering.** A target's lowering is a list of xDSL `RewritePattern`s
  (MLIR's `populate...Patterns` style) applied by `lower_partitions(module,
  target)` to every function partitioned for it. `LowerOp(op_class, build,
  predicate)` ("relay op -> kernel op") and `LowerComposite(name, build)`
  ("composite -> kernel op") are the two common patterns; `build` returns the
  new op(s) (`Built`) or raises `Rejected(reason)` (or calls `reject`) to decline;
  `body_op` reads a composite's body, `outside` maps one of its values to
  the composite's input (or a copy of a body constant), `accepted_by(target)` and
  `check_predicate` ask the target's op predicates. `register_lowering_patterns(
  target, patterns, benefit)` adds patterns (a list, or a `Populate` function
  filling one) to any target's lowering, ours too; higher benefits are tried
  first (`DEFAULT_BENEFIT` is ours; `unregister_lowering_patterns`,
  `lowering_patterns`). Also `tvm_op_name`, `op_supported` (whether the
  target's op predicate accepts an op), `ops` (every relay op class by class
  name), and xDSL's pattern rewriter (`xdsl.pattern_rewriter`).
- **Code generation.** `CodegenTarget` and `register_codegen` (a target
  `xrelay.build` can build for), `get_codegen`, `CEmitter` (the module's C
  emitter a function emitter is created with), `FunctionEmitter` (prints one
  function: pass it your `target`, your `kernels` table), `Kernel` (what a
  kernel printer `fn(k: Kernel) -> None` sees), `KernelFn`, `CWriter`,
  `Unsupported` (an op this target cannot print: a located error),
  `numel`.
- **Output formats.** `register_output_format(name, factory)`: a new
  `xrelay-opt -t <name>`, an xDSL `Target` class.
- **Plugins.** `load_plugin` (import a module or file once, under its own
  name), `load_installed_plugins` (the entry points of the `xrelay.plugins`
  group, once per process; xrelay calls it itself on a registry miss),
  `PluginError`.
- **Testing.** `xrelay.ext.lit.configure`: the lit setup of a plugin's
  FileCheck suite, called from its `lit.cfg.py` (imported on its own: it
  needs `lit`).
"""

from __future__ import annotations

from xrelay.codegen.c.emitter import CEmitter
from xrelay.codegen.c.function import FunctionEmitter
from xrelay.codegen.c.kernel_api import Kernel, KernelFn, Unsupported, numel
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.targets import CodegenTarget, get_codegen, register_codegen
from xrelay.dialects.diagnostics import Diagnostic, DiagnosticError, op_error
from xrelay.dialects.interpreter import Evaluator, reference
from xrelay.dialects.parser import register_dialect
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_rank,
    expect_tensor,
    get_bool,
    get_float,
    get_int,
    get_ints,
    get_str,
)
from xrelay.dialects.relay.nn import pad_2d
from xrelay.dialects.relay.types import (
    dense_from_numpy,
    dense_to_numpy,
    shape_of,
    tensor_element_type,
    tensor_type,
)
from xrelay.ext import ops
from xrelay.passes.byoc_registry import op_supported, tvm_op_name
from xrelay.passes.lowering import (
    DEFAULT_BENEFIT,
    Built,
    LowerComposite,
    LowerOp,
    Populate,
    Rejected,
    accepted_by,
    body_op,
    check_predicate,
    lower_partitions,
    lowering_patterns,
    outside,
    register_lowering_patterns,
    reject,
    unregister_lowering_patterns,
)
from xrelay.plugins import PluginError, load_installed_plugins, load_plugin
from xrelay.tools.output_formats import register_output_format

__all__ = [
    "DEFAULT_BENEFIT",
    "Built",
    "CEmitter",
    "CWriter",
    "CodegenTarget",
    "Diagnostic",
    "DiagnosticError",
    "Evaluator",
    "FunctionEmitter",
    "Kernel",
    "KernelFn",
    "LowerComposite",
    "LowerOp",
    "PluginError",
    "Populate",
    "Props",
    "Rejected",
    "RelayOp",
    "RelayTypeError",
    "Unsupported",
    "accepted_by",
    "body_op",
    "check_predicate",
    "dense_from_numpy",
    "dense_to_numpy",
    "expect_rank",
    "expect_tensor",
    "get_bool",
    "get_codegen",
    "get_float",
    "get_int",
    "get_ints",
    "get_str",
    "load_installed_plugins",
    "load_plugin",
    "lower_partitions",
    "lowering_patterns",
    "numel",
    "op_error",
    "op_supported",
    "ops",
    "outside",
    "pad_2d",
    "reference",
    "register_codegen",
    "register_dialect",
    "register_lowering_patterns",
    "register_output_format",
    "reject",
    "shape_of",
    "tensor_element_type",
    "tensor_type",
    "tvm_op_name",
    "unregister_lowering_patterns",
]
