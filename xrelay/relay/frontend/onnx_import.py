"""`from_onnx`: an ONNX graph walked in node order into a relay `main` (TVM's `from_onnx`).

Each ONNX value is recorded as a relay expression or, when it is known at
import (a constant, a static shape, an integer initializer, or a node whose
inputs are all known), as a numpy array: a node whose inputs are all known is
converted as usual and its result computed by the reference interpreter, so
`Shape -> Gather -> Concat -> Reshape` ends in a static `relay.reshape`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import helper, numpy_helper

from xrelay.dialects.builder.core import var
from xrelay.dialects.builder.expr import Constant, Expr, Function, Tuple, Var, free_vars
from xrelay.dialects.ir_module import IRModule
from xrelay.dialects.relay.base import RelayTypeError
from xrelay.dialects.relay.types import ANY, is_tuple
from xrelay.relay.frontend.onnx_checks import (
    default_opset,
    load_model,
    op_problems,
    type_problems,
)
from xrelay.relay.frontend.onnx_dtypes import onnx_type_name, relay_dtype
from xrelay.relay.frontend.onnx_errors import NeedsKnownValue, OnnxImportError, node_label
from xrelay.relay.frontend.onnx_names import Namer
from xrelay.relay.frontend.onnx_ops import MODULES
from xrelay.relay.frontend.onnx_registry import (
    Array,
    Node,
    Value,
    as_expr,
    dtype_of_value,
    fold,
    format_shape,
    lookup,
    shape_of_value,
)
from xrelay.relay.frontend.onnx_scope import NO_INPUTS, Scope, outer_names, subgraphs

ShapeSpec = Sequence[int | str | None]


def from_onnx(
    model: onnx.ModelProto | str | Path,
    shape: Mapping[str, ShapeSpec] | None = None,
    dtype: str | Mapping[str, str] = "float32",
    opset: int | None = None,
    freeze_params: bool = False,
    *,
    known_inputs: Mapping[str, Array] | None = None,
) -> tuple[IRModule, dict[str, Array]]:
    """Import an ONNX model as a relay module and its params (TVM's `relay.frontend.from_onnx`).

    `shape` overrides input shapes (a `None`, `?`, negative or symbolic dim is
    dynamic); `dtype` is the dtype of inputs whose type the model leaves
    undefined; `opset` overrides the default-domain opset. Graph inputs that
    are not initializers become `main`'s parameters first, in order, then the
    initializers `main` uses; the params dict maps the latter's name hints to
    their values (`xrelay.build(mod, params=params)` binds them). With
    `freeze_params=True` initializers are constants. `known_inputs` binds graph
    inputs to values known at import (they are then no parameters; the ONNX
    backend uses it for inputs that must be constants, such as Reshape's
    shape). Problems raise one `OnnxImportError` listing them all.
    """
    assert MODULES  # imported: the registry is full
    proto, filename = load_model(model)
    try:
        importer = _Importer(proto, shape or {}, dtype, opset, freeze_params, known_inputs)
        return importer.run()
    except OnnxImportError as error:
        if filename != "<onnx>":
            raise OnnxImportError(error.messages, filename) from None
        raise


class _Importer:
    def __init__(
        self,
        model: onnx.ModelProto,
        shapes: Mapping[str, ShapeSpec],
        dtype: str | Mapping[str, str],
        opset: int | None,
        freeze_params: bool,
        known_inputs: Mapping[str, Array] | None = None,
    ):
        self.model = model
        self.known_inputs = dict(known_inputs or {})
        self.graph = model.graph
        self.shapes = shapes
        self.dtype = dtype
        self.opset = default_opset(model, opset)
        self.freeze = freeze_params
        self.namer = Namer()
        self.scope = Scope()
        """The values of the graph being converted (a subgraph's scope while in one)."""
        self.init_data: dict[int, Array] = {}
        """id(Var) -> data, for initializers kept as parameters."""

    def run(self) -> tuple[IRModule, dict[str, Array]]:
        problems = type_problems(self.model) + op_problems(self.graph.node, self.opset)
        unknown = set(self.shapes) - {i.name for i in self.graph.input}
        problems += [f"shape given for '{n}', which is not a graph input" for n in sorted(unknown)]
        if problems:
            raise OnnxImportError(problems)
        inputs = self.make_inputs()
        initializers = self.make_initializers()
        for node in self.graph.node:
            self.convert(node)
        outputs = [self.output(o.name) for o in self.graph.output]
        self.check_declared_shapes()
        body: Expr = outputs[0] if len(outputs) == 1 else Tuple(outputs)
        used = {id(v) for v in free_vars(body)}
        params = [v for v in initializers if id(v) in used]
        mod = IRModule.from_expr(Function([*inputs, *params], body))
        return mod, {v.name_hint: self.init_data[id(v)] for v in params if v.name_hint}

    # ------------------------------------------------------------ values

    def make_inputs(self) -> list[Var]:
        init_names = {i.name for i in self.graph.initializer}
        out: list[Var] = []
        for info in self.graph.input:
            if info.name in init_names:
                continue  # old opsets list initializers as inputs too
            if info.name in self.known_inputs:
                self.scope.define(info.name, np.asarray(self.known_inputs[info.name]))
                continue
            tensor = info.type.tensor_type
            dims: list[int | None]
            if info.name in self.shapes:
                dims = [_dim(d) for d in self.shapes[info.name]]
            else:
                dims = [
                    d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else None
                    for d in tensor.shape.dim
                ]
            if tensor.elem_type:
                dtype = relay_dtype(tensor.elem_type) or ""
            else:
                dtype = self.dtype if isinstance(self.dtype, str) else self.dtype[info.name]
            v = self.make_var(info.name, dims, dtype)
            self.scope.define(info.name, v, frozenset([info.name]))
            out.append(v)
        return out

    def make_var(self, name: str, dims: Sequence[int | None], dtype: str) -> Var:
        try:
            return var(self.namer.hint(name), shape=dims, dtype=dtype)
        except ValueError as error:
            raise OnnxImportError(f"value '{name}': {error}") from None

    def make_initializers(self) -> list[Var]:
        out: list[Var] = []
        for init in self.graph.initializer:
            data = _to_array(init)
            if self.freeze:
                self.scope.define(init.name, data)
                continue
            v = self.make_var(init.name, data.shape, dtype_of_value(data))
            self.init_data[id(v)] = data
            self.scope.define(init.name, v)
            out.append(v)
        return out

    def output(self, name: str) -> Expr:
        if name not in self.scope:
            raise OnnxImportError(f"graph output '{name}' is not produced by any node")
        expr = as_expr(self.scope[name])
        if expr.name_hint is None and not isinstance(expr, Var):
            expr.name_hint = self.namer.hint(name)
        return expr

    # ------------------------------------------------------------- nodes

    def known(self, value: Value | None) -> Array | None:
        if value is None or isinstance(value, np.ndarray):
            return value
        if isinstance(value, Constant):
            return value.data
        data = self.init_data.get(id(value))
        if data is not None and data.dtype.kind in "iub":
            return data  # integer initializers are shapes and indices: known at import
        return None

    def convert(self, node: onnx.NodeProto) -> None:
        inputs: list[Value | None] = []
        for name in node.input:
            if not name:
                inputs.append(None)
            elif name not in self.scope:
                raise OnnxImportError(
                    f"{node_label(node.name, node.op_type)}: input '{name}' is not defined "
                    "before this node"
                )
            else:
                inputs.append(self.scope[name])
        attrs = {a.name: _attr_value(a) for a in node.attribute}
        read = [n for n in node.input if n]
        for graph in subgraphs(node):
            read += sorted(outer_names(graph))
        depends = self.scope.depends_on(read)
        ctx = _ImportNode(self, node, inputs, attrs, depends)
        fn = lookup(node.op_type, self.opset)
        assert fn is not None  # op_problems checked every node
        try:
            result = fn(ctx)
        except NeedsKnownValue as error:
            if error.graph_inputs:
                raise
            needed = self.scope.depends_on([error.value_name])
            raise NeedsKnownValue(error.messages[0], error.value_name, needed) from None
        except (RelayTypeError, ValueError) as error:
            raise ctx.error(f"relay rejects the converted op: {error}") from None
        results = [result] if isinstance(result, Expr | np.ndarray) else list(result)
        given = [i for i in inputs if i is not None]
        # a node with subgraphs reads outer values besides its inputs: its subgraphs' nodes fold
        foldable = all(self.known(i) is not None for i in given) and not any(subgraphs(node))
        for name, value in zip(node.output, results, strict=False):
            if not name or value is None:
                continue
            if foldable and isinstance(value, Expr) and not isinstance(value, Var):
                value = fold(value)
            if isinstance(value, Expr) and value.name_hint is None and not isinstance(value, Var):
                value.name_hint = self.namer.hint(name)
            self.scope.define(name, value, depends)

    def run_graph(
        self, graph: onnx.GraphProto, inputs: Sequence[Value], depends: frozenset[str]
    ) -> list[Value]:
        """Convert subgraph `graph` with its inputs bound to `inputs`: its outputs.

        The subgraph sees the values of the graphs around it by name; its own
        names shadow theirs and vanish after it.
        """
        if len(graph.input) != len(inputs):
            raise OnnxImportError(
                f"subgraph '{graph.name}' takes {len(graph.input)} inputs, given {len(inputs)}"
            )
        outer = self.scope
        self.scope = Scope(outer)
        try:
            for info, value in zip(graph.input, inputs, strict=True):
                self.scope.define(info.name, value, depends)
            for init in graph.initializer:
                self.scope.define(init.name, _to_array(init))
            for node in graph.node:
                self.convert(node)
            missing = [o.name for o in graph.output if o.name not in self.scope]
            if missing:
                raise OnnxImportError(
                    f"subgraph '{graph.name}' output '{missing[0]}' is not produced by any node"
                )
            return [self.scope[o.name] for o in graph.output]
        finally:
            self.scope = outer

    # ----------------------------------------------------- shape checks

    def check_declared_shapes(self) -> None:
        producers = {o: n for n in self.graph.node for o in n.output}
        problems: list[str] = []
        for info in [*self.graph.output, *self.graph.value_info]:
            if info.name not in self.scope or info.type.WhichOneof("value") != "tensor_type":
                continue
            value = self.scope[info.name]
            if isinstance(value, Expr) and is_tuple(value.checked_type):
                continue
            tensor = info.type.tensor_type
            if not tensor.HasField("shape"):
                continue
            declared = [d.dim_value if d.HasField("dim_value") else ANY for d in tensor.shape.dim]
            actual = list(shape_of_value(value))
            node = producers.get(info.name)
            where = f"{node_label(node.name, node.op_type)}: " if node is not None else ""
            if len(declared) != len(actual) or any(
                a not in (d, ANY) and d != ANY for a, d in zip(actual, declared, strict=False)
            ):
                problems.append(
                    f"{where}output '{info.name}' has shape {format_shape(actual)} but the "
                    f"model declares {format_shape(declared)}"
                )
            dtype = relay_dtype(tensor.elem_type) if tensor.elem_type else None
            if dtype is not None and dtype != dtype_of_value(value):
                problems.append(
                    f"{where}output '{info.name}' has element type {dtype_of_value(value)} but "
                    f"the model declares {onnx_type_name(tensor.elem_type)}"
                )
        if problems:
            raise OnnxImportError(problems)


class _ImportNode(Node):
    """A `Node` whose known inputs include the importer's integer initializers."""

    def __init__(
        self,
        importer: _Importer,
        node: onnx.NodeProto,
        inputs: list[Value | None],
        attrs: dict[str, Any],
        depends: frozenset[str] = NO_INPUTS,
    ):
        super().__init__(
            node.op_type,
            node.name,
            importer.opset,
            inputs,
            list(node.input),
            attrs,
            len(node.output),
        )
        self.importer = importer
        self.depends = depends
        """The main graph's inputs this node's values are computed from."""

    def run_graph(self, graph: onnx.GraphProto, inputs: Sequence[Value]) -> list[Value]:
        return self.importer.run_graph(graph, inputs, self.depends)

    def known(self, index: int) -> Array | None:
        value = self.inputs[index] if index < len(self.inputs) else None
        data = self.importer.known(value)
        if data is None and isinstance(value, Var):
            return self.importer.init_data.get(id(value))  # a float initializer a converter needs
        return data


def _dim(d: int | str | None) -> int | None:
    return d if isinstance(d, int) and d >= 0 else None


def _to_array(tensor: onnx.TensorProto) -> Array:
    array = numpy_helper.to_array(tensor)
    return np.array(array, order="C")


def _attr_value(attr: onnx.AttributeProto) -> Any:
    if attr.type == onnx.AttributeProto.TENSOR:
        return _to_array(attr.t)
    if attr.type == onnx.AttributeProto.TENSORS:
        return [_to_array(t) for t in attr.tensors]
    return helper.get_attribute_value(attr)
