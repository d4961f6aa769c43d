"""One dnnl op being printed (`Primitive`): its init function and its block in the run function.

A printer (`primitives.py`) describes the op's buffers and creates primitive
`k`, then names each operand and result with `buffer` / `weights` / `result`.
Each becomes a memory object `m` of the function's `xd_state`: over the bytes
the plan placed it in (arena or constant: its handle is set once, at init) or
a caller's buffer (a parameter or an output of the function: `xd_set` points
it there at every run). The run block then executes the primitive on these
memory objects (`xd_exec`); a conv2d or dense with a sum post-op first copies
its sum operand into its result, where oneDNN adds it, unless `plan-memory`
placed the result over the sum operand (`xrelay.reuse_operand`): then the sum
is in place and nothing is copied. A relu (op or post-op) is finished after
the primitive so that NaN stays NaN (`Primitive.after`), and so is a clip post-op (oneDNN's
clip maps NaN to a bound). Windowed pools make no primitive: they run the host's shared
NHWC kernel (`shared_pools.py`), which keeps relay's NaN itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import StringAttr, f32
from xdsl.ir import Operation, SSAValue
from xrelay.codegen.c.function import leaf_bytes
from xrelay.codegen.c.kernel_api import leaf_types, static_shape
from xrelay.codegen.c.refs import ARENA, CONST, Ref
from xrelay.codegen.c.scalars import scalar_of
from xrelay.codegen.c.writer import CWriter
from xrelay.codegen.dnnl.shared_pools import defers_relu
from xrelay.dialects.dnnl import clip_bounds
from xrelay.dialects.relay.base import get_bool, get_float

ELTWISE_ALGORITHMS = {
    "relu": "dnnl_eltwise_relu",
    "tanh": "dnnl_eltwise_tanh",
    "sigmoid": "dnnl_eltwise_logistic",
    "gelu_erf": "dnnl_eltwise_gelu_erf",
    "gelu_erf_x2": "dnnl_eltwise_gelu_erf",
}
"""oneDNN's algorithm of each eltwise (op or post-op)."""

ELTWISE_SCALES = {"gelu_erf_x2": 2}
"""The factor of an eltwise post-op's result, where it is not 1 (exact: a power of two)."""


def f32_literal(value: float) -> str:
    """`value` as a C float literal, rounded to float32 as relay rounds clip's bounds."""
    scalar = scalar_of(f32)
    assert scalar is not None
    return scalar.literal(value)


if TYPE_CHECKING:
    from xrelay.codegen.dnnl.emitter import DnnlFunctionEmitter


def fuses_relu(op: Operation) -> bool:
    """Whether `op` has a relu post-op that xrelay applies after the primitive (not one a
    max pool reading the result applies, `defers_relu`): its primitive is made a second
    time with oneDNN's relu, run instead when the run's inputs are all finite."""
    eltwise = op.properties.get("eltwise")
    return isinstance(eltwise, StringAttr) and eltwise.data == "relu" and not defers_relu(op)


class Primitive:
    """The C of primitive `index` of a function: `init` (its init function's body) and `run`."""

    def __init__(self, owner: DnnlFunctionEmitter, op: Operation, index: int, what: str) -> None:
        self.owner = owner
        self.op = op
        self.index = index
        self.what = what
        """A C string literal naming the op in errors, e.g. `"dnnl.conv2d #0 in @f"`."""
        self.init = CWriter(1)
        self.run = CWriter(0)
        self.args: list[tuple[str, int]] = []
        """(DNNL_ARG_..., memory index) of the primitive's execution."""

    # ------------------------------------------------------------ the op

    def shape(self, operand: int) -> tuple[int, ...]:
        """The static shape of operand #`operand`."""
        (tensor,) = leaf_types(self.op.operands[operand].type)
        return static_shape(tensor)

    def out_shape(self) -> tuple[int, ...]:
        """The static shape of the result."""
        (tensor,) = leaf_types(self.op.results[0].type)
        return static_shape(tensor)

    def has_bias(self) -> bool:
        """Whether the op has a bias operand (#2)."""
        return "has_bias" in self.op.properties and get_bool(self.op.properties, "has_bias")

    def has_sum(self) -> bool:
        """Whether the op adds its last operand (oneDNN's sum post-op)."""
        return "has_sum" in self.op.properties and get_bool(self.op.properties, "has_sum")

    # ------------------------------------------------------------ init

    def array(self, name: str, values: Sequence[int]) -> str:
        """A `static const dnnl_dims_t name = {...}` for a descriptor (oneDNN reads all
        `DNNL_MAX_NDIMS` entries' room); its name."""
        items = ", ".join(str(v) for v in values)
        self.init.line(f"static const dnnl_dims_t {name} = {{{items}}};")
        return name

    def desc(self, name: str, dims: Sequence[int], steps: Sequence[int] | None) -> str:
        """A memory descriptor of `dims` with element `steps` (None: oneDNN chooses); `&name`."""
        sizes = self.array(f"{name}_dims", dims)
        layout = "NULL" if steps is None else self.array(f"{name}_strides", steps)
        self.init.line(f"dnnl_memory_desc_t {name};")
        self.check(f"xd_md(&{name}, {len(dims)}, {sizes}, {layout})", f"describing {name}")
        return f"&{name}"

    def check(self, call: str, step: str) -> None:
        """`call` (a oneDNN status), failing the init with `step` named."""
        self.init.line(f'XD_TRY({call}, "{step}");')

    def post_ops(self) -> str:
        """The post-op arguments of `xd_primitive`: `sum, eltwise algorithm, its scale`."""
        eltwise = self.op.properties.get("eltwise")
        algorithm, scale = "dnnl_alg_kind_undef", 1
        if isinstance(eltwise, StringAttr) and eltwise.data == "relu":  # `after`, unless
            algorithm = "XD_RELU_POST_OP"  # -DXRELAY_DNNL_RELU_POST_OP
        elif isinstance(eltwise, StringAttr) and eltwise.data != "clip":  # clip: `after`
            algorithm = ELTWISE_ALGORITHMS[eltwise.data]
            scale = ELTWISE_SCALES.get(eltwise.data, 1)
        return f"{int(self.has_sum())}, {algorithm}, {scale}.0f"

    def after(self) -> list[str]:
        """The C run after the primitive where oneDNN's numerics differ from relay's
        (docs/semantics.md): oneDNN's relu and clip, as an op or a post-op, map NaN to 0 (a
        bound). A relu post-op is not given to oneDNN but applied here to the result (`v <= 0
        ? 0 : v`; `-DXRELAY_DNNL_RELU_POST_OP` gives it to oneDNN instead, NaN becoming 0), nor
        a clip (`xd_clip`);
        after `dnnl.relu` (oneDNN's eltwise) the source's NaN are copied back; after a softmax
        or log_softmax, a row holding a NaN is made
        NaN throughout; after a layer norm, a row whose values may overflow oneDNN's float
        statistics is computed again in double. The loops are `runtime_numerics.py`'s."""
        eltwise = self.op.properties.get("eltwise")
        value = self.op.results[0]
        count = leaf_bytes(value.type) // 4
        pointer = self.owner.pointer(self.owner.ref(value))
        dst = pointer if pointer.startswith("(float *)") else f"(float *){pointer}"
        if isinstance(eltwise, StringAttr) and eltwise.data == "relu":
            if defers_relu(self.op):  # the max pool reading the result applies it
                return []
            return [
                "#ifndef XRELAY_DNNL_RELU_POST_OP",
                f"xd_relu_after(s, {self.index}, {dst}, {count});",
                "#endif",
            ]
        if isinstance(eltwise, StringAttr) and eltwise.data == "clip":
            lo, hi = clip_bounds(self.op)
            return [f"xd_clip({dst}, {count}, {f32_literal(lo)}, {f32_literal(hi)});"]
        if self.op.name not in (
            "dnnl.relu",
            "dnnl.softmax",
            "dnnl.log_softmax",
            "dnnl.layer_norm",
        ):
            return []
        src = f"(const float *){self.owner.pointer(self.owner.ref(self.op.operands[0]))}"
        shape = static_shape(leaf_types(value.type)[0])
        n = shape[-1] if shape else 1
        if self.op.name in ("dnnl.softmax", "dnnl.log_softmax"):
            return [f"xd_softmax_nan({dst}, {count // n}, {n});"]
        if self.op.name == "dnnl.layer_norm":
            props = self.op.properties
            affine = [
                f"(const float *){self.owner.pointer(self.owner.ref(self.op.operands[i]))}"
                if get_bool(props, flag)
                else "NULL"
                for i, flag in ((1, "scale"), (2, "center"))
            ]
            epsilon = repr(get_float(props, "epsilon"))
            return [
                f"xd_layer_norm_wide({dst}, {src}, {', '.join(affine)}, {count // n}, {n}, "
                f"{epsilon});"
            ]
        return [f"xd_keep_nan({dst}, {src}, {count});"]  # dnnl.relu

    def create(self, desc: str) -> None:
        """Create the primitive from an operation descriptor, with the op's post-ops."""
        self.fallible(
            f"xd_primitive(s, {self.index}, {desc}, {self.post_ops()}, what, error, size)"
        )

    def create_reorder(self, src: str, dst: str) -> None:
        """Create the primitive as a reorder from `src` to `dst`."""
        self.fallible(f"xd_reorder(s, {self.index}, {src}, {dst}, what, error, size)")

    def fallible(self, call: str) -> None:
        """A helper call returning nonzero (its message written) on failure."""
        self.init.line(f"if ({call}) {{")
        self.init.line("  return 1;")
        self.init.line("}")

    # ------------------------------------------------------------ buffers

    def buffer(self, arg: str, query: str, index: int, value: SSAValue, desc: str = "NULL") -> None:
        """Operand `value` as argument `arg`: the primitive's `index`-th `query` buffer (or
        `desc`), over the value's storage."""
        self._memory(arg, query, index, self.owner.ref(value), leaf_bytes(value.type), desc)

    def result(self, arg: str, query: str, desc: str = "NULL") -> None:
        """The result as argument `arg` (after the sum operand is copied into it, if any)."""
        value = self.op.results[0]
        ref = self.owner.ref(value)
        if self.has_sum():
            dst = self.owner.pointer(ref)
            summand_ref = self.owner.ref(self.op.operands[-1])
            summand = self.owner.pointer(summand_ref)
            copy = f"memcpy({dst}, {summand}, {leaf_bytes(value.type)});"
            if dst == summand:  # the plan put the result over its sum operand
                self.run.line("/* sum in place */")
            elif ref.kind == ARENA and summand_ref.kind in (ARENA, CONST):
                self.run.line(copy)  # two planned buffers: never the same bytes
            else:
                with self.run.block(f"if ((const void *){dst} != (const void *){summand})"):
                    self.run.line(copy)
        self._memory(arg, query, 0, ref, leaf_bytes(value.type), desc)

    def weights(self, value: SSAValue, user: str) -> None:
        """The weights `value` (laid out as `user`) in the layout the primitive chose: reordered
        once at init if constant, else at every run before the primitive."""
        memory, buffer = self.owner.new_memory(), self.owner.new_buffer()
        ref = self.owner.ref(value)
        data = self.owner.pointer(ref) if ref.kind == CONST else "NULL"
        self.fallible(
            f"xd_weights(s, {memory}, {self.index}, {buffer}, {user}, {data}, what, error, size)"
        )
        self.args.append(("DNNL_ARG_WEIGHTS", memory))
        if ref.kind == CONST:
            return
        reorder, given = self.owner.new_primitive(), self.owner.new_memory()
        self.fallible(
            f"xd_weights_reorder(s, {reorder}, {given}, {self.index}, {user}, what, error, size)"
        )
        self.run.line(f"xd_set(s, {given}, {self.owner.pointer(ref)}, what);")
        with self.run.block():
            self.run.line(
                f"dnnl_exec_arg_t from_to[3] = {{{{DNNL_ARG_FROM, s->mems[{given}]}}, "
                f"{{DNNL_ARG_TO, s->mems[{memory}]}}, {{0, NULL}}}};"
            )
            self.run.line(f"xd_exec(s, {reorder}, from_to, 2, what);")

    def _memory(self, arg: str, query: str, index: int, ref: Ref, size: int, desc: str) -> None:
        memory = self.owner.new_memory()
        fixed = ref.kind in (ARENA, CONST)
        handle = self.owner.pointer(ref) if fixed else "NULL"
        self.fallible(
            f"xd_memory(s, {memory}, {self.index}, {query}, {index}, {desc}, {handle}, {size}, "
            "what, error, size)"
        )
        if not fixed:
            self.run.line(f"xd_set(s, {memory}, {self.owner.pointer(ref)}, what);")
        self.args.append((arg, memory))

    # ------------------------------------------------------------ text

    def run_block(self, w: CWriter) -> None:
        """The op's block in the run function: handles, copies, then the primitive."""
        with w.block():
            w.line(f"/* {self.op.name} */")
            w.line(f"static const char what[] = {self.what};")
            for line in self.run.lines:
                w.line(line)
            entries = ", ".join(f"{{{arg}, s->mems[{m}]}}" for arg, m in self.args)
            w.line(f"dnnl_exec_arg_t args[{len(self.args) + 1}] = {{{entries}, {{0, NULL}}}};")
            w.line(f"xd_exec(s, {self.index}, args, {len(self.args)}, what);")
            for line in self.after():
                w.line(line)

    def init_function(self, name: str) -> str:
        """`static int name(xd_state *s, unsigned char *arena, char *error, size_t size)`; for
        a relu post-op xrelay applies (`fuses_relu`), it ends making the primitive again with
        oneDNN's relu, which runs when the inputs are finite (`xd_fuse_relu`)."""
        head = f"static int {name}(xd_state *s, unsigned char *arena, char *error, size_t size) {{"
        body = [f"  static const char what[] = {self.what};", "  (void)arena;", *self.init.lines]
        if fuses_relu(self.op):
            fuse = f"  xd_fuse_relu(s, {self.index}, {int(self.has_sum())});"
            body += ["#ifndef XRELAY_DNNL_RELU_POST_OP", fuse, "#endif"]
        return "\n".join([head, *body, "  return 0;", "}", ""])
