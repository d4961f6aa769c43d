"""The dnnl function emitter: one function partitioned for `dnnl` and lowered, as oneDNN calls.

The host `CEmitter` hands every function with `Compiler = "dnnl"` of a build
for dnnl to `DnnlFunctionEmitter` (registered in `codegen/dnnl/__init__.py`),
once every op in it is a `dnnl.*` one or one of `ACCEPTS` (else a located
error). It is the host's `FunctionEmitter` (same calling convention, arena plan
and constants) for dnnl ops and the structure around
them (`relay.constant`, `relay.tuple`, `relay.tuple_get_item`,
`relay.reshape` (an alias), `func.return`: `ACCEPTS`); anything else is the
located error `'<op>' op cannot be emitted for target 'dnnl'` (`CEmitter` checks
that first, naming the pass that lowers it). Its text, in `dnnl.c`:

- the helpers (`runtime.HELPERS`, once per translation unit);
- one init function per op (`primitives.py`): descriptors, primitive, memory
  objects, weights reordered into the primitive's layout;
- the function's instance hooks (`CEmitter.add_instance_hook`):
  `xd_init_<f>` creates its `xd_state` (engine, stream, every primitive,
  the scratchpad) in its instance slot when the model instance is created,
  `xd_check_<f>` reports a failed run, `xd_destroy_<f>` frees it all;
- the function itself, called by the host at every run: each op points its
  memory objects at the caller's buffers and executes its primitive; a windowed pool
  instead calls the host's shared NHWC pool kernel (`shared_pools.py`).

Primitives are created with the build's `num_threads` (`CEmitter.num_threads`)
OpenMP threads when given, else with OpenMP's default at instance creation
(`OMP_NUM_THREADS`): oneDNN 2.x fixes the count per primitive.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects import func
from xdsl.ir import Operation, SSAValue
from xrelay.codegen.c.abi import InstanceHook
from xrelay.codegen.c.function import FunctionEmitter, leaf_bytes
from xrelay.codegen.c.kernel_api import Unsupported, leaf_types, scalar
from xrelay.codegen.c.names import c_string
from xrelay.codegen.c.refs import Ref, leaves
from xrelay.codegen.dnnl import ACCEPTS
from xrelay.codegen.dnnl.primitive import Primitive, fuses_relu
from xrelay.codegen.dnnl.primitives import PRINTERS
from xrelay.codegen.dnnl.runtime import HELPERS
from xrelay.codegen.dnnl.shared_pools import is_shared_pool, print_shared_pool
from xrelay.dialects import dnnl
from xrelay.dialects.relay.structure import ConstantOp
from xrelay.dialects.relay.types import dense_to_numpy

if TYPE_CHECKING:
    from xrelay.codegen.c.emitter import CEmitter

TARGET = "dnnl"


class DnnlFunctionEmitter(FunctionEmitter):
    """Prints one dnnl function: its primitives' init and its run (module docstring)."""

    def __init__(self, owner: CEmitter, function: func.FuncOp, symbol: str) -> None:
        super().__init__(owner, function, symbol, target=TARGET, kernels={}, rules={})
        self.slot = owner.instance_slot()
        self.hook = InstanceHook(f"xd_init_{symbol}", f"xd_destroy_{symbol}", f"xd_check_{symbol}")
        owner.add_instance_hook(self.hook)
        self._counts = {"primitive": 0, "memory": 0, "buffer": 0}
        self._inits: list[str] = []
        self._init_names: list[str] = []

    # ------------------------------------------------------------ for Primitive

    def ref(self, value: SSAValue) -> Ref:
        """The storage of a tensor value."""
        tree = self.tree(value)
        assert isinstance(tree, Ref)
        return tree

    def _new(self, kind: str) -> int:
        self._counts[kind] += 1
        return self._counts[kind] - 1

    def new_primitive(self) -> int:
        """The index of a new primitive of the function's state."""
        return self._new("primitive")

    def new_memory(self) -> int:
        """The index of a new memory object of the function's state."""
        return self._new("memory")

    def new_buffer(self) -> int:
        """The index of a new buffer the function's state owns."""
        return self._new("buffer")

    # ------------------------------------------------------------ printing

    def emit_op(self, op: Operation, inlined: set[Operation]) -> None:
        """Print a dnnl op (float32 operands and results) or a structural op; refuse the rest."""
        if isinstance(op, dnnl.DnnlOp):
            for value in (*op.operands, *op.results):
                for type_ in leaf_types(value.type):
                    if scalar(type_).ctype != "float":
                        raise Unsupported(f"cannot emit type '{type_}'")
            if print_shared_pool(self, op, self.w):
                return
            printer = PRINTERS.get(type(op))
            if printer is None:
                raise Unsupported("cannot be emitted")
            index = self.new_primitive()
            what = c_string(f"{op.name} #{index} in @{self.function.sym_name.data}")
            primitive = Primitive(self, op, index, what)
            printer(primitive)
            name = f"{self.symbol}_init_{index}"
            self._inits.append(primitive.init_function(name))
            self._init_names.append(name)
            primitive.run_block(self.w)
            return
        if op.name not in ACCEPTS:
            raise Unsupported("cannot be emitted")
        super().emit_op(op, inlined)

    def _finite_inputs(self) -> str:
        """The C condition under which a run's relu post-ops may be oneDNN's (`fuses_relu`):
        every input finite (`xd_finite`, a scan per run) and every constant (at build time;
        `0` if one is not). Then no value of the function is NaN (its ops make none from
        finite values short of overflow) and oneDNN's relu, which maps NaN to 0, is relay's."""
        for op in self.function.body.walk():
            if isinstance(op, ConstantOp) and not np.isfinite(dense_to_numpy(op.value)).all():
                return "0"
        checks: list[str] = []
        for arg in self.function.body.block.args:
            refs = leaves(self.tree(arg))
            for ref, tensor in zip(refs, leaf_types(arg.type), strict=True):
                count = leaf_bytes(tensor) // 4
                checks.append(f"xd_finite((const float *){self.pointer(ref)}, {count})")
        return " && ".join(checks) or "1"

    def emit(self) -> str:
        """The helpers, the init functions and hooks, then the function run by the host.

        A function without primitives (a partition of aliases only, e.g. one reshape)
        reads no state when it runs and creates an empty one."""
        primitives = any(
            isinstance(op, dnnl.DnnlOp) and not is_shared_pool(op)
            for op in self.function.body.walk()
        )
        if primitives:
            self.w.line(f"xd_state *s = *(xd_state **)(arena + {self.slot - self.base});")
            self._used.add("arena")
        if any(fuses_relu(op) for op in self.function.body.walk()):
            self.w.line("#ifndef XRELAY_DNNL_RELU_POST_OP")
            self.w.line(f"s->finite = {self._finite_inputs()};")
            self.w.line("#endif")
        run = super().emit()
        counts = self._counts
        slot = f"(xd_state **)(instance + {self.slot})"
        calls = [
            f"  if ({name}(*slot, arena, error, size)) {{\n    return 1;\n  }}"
            for name in self._init_names
        ]
        threads = self.owner.num_threads or 0
        create = f"{self.symbol}_create"
        hooks = [
            f"static int {create}(unsigned char *instance, char *error, size_t size) {{",
            f"  xd_state **slot = {slot};",
            *([f"  unsigned char *arena = instance + {self.base};"] if calls else []),
            f"  if (xd_new(slot, {counts['primitive']}, {counts['memory']}, "
            f"{counts['buffer']}, error, size)) {{",
            "    return 1;",
            "  }",
            *calls,
            "  return xd_scratchpad(*slot, error, size);",
            "}",
            "",
            f"XR_HIDDEN int {self.hook.init}(unsigned char *instance, char *error, size_t size) {{",
            f"  int saved = xd_threads_begin({threads});",
            f"  int failed = {create}(instance, error, size);",
            "  xd_threads_end(saved);",
            "  return failed;",
            "}",
            "",
            f"XR_HIDDEN void {self.hook.destroy}(unsigned char *instance) {{",
            f"  xd_state **slot = {slot};",
            "  xd_free(*slot);",
            "  *slot = NULL;",
            "}",
            "",
            f"XR_HIDDEN int {self.hook.check}(unsigned char *instance, char *error, "
            "size_t size) {",
            f"  return xd_check(*{slot}, error, size);",
            "}",
            "",
        ]
        return "\n".join([HELPERS, *self._inits, *hooks, run])
