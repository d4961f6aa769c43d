"""Structural relay ops: constants, tuples, `if`, BYOC annotations and composite regions.

Functions are `func.func` and calls `func.call` (builtin xDSL `func` dialect);
these ops cover the rest of Relay's expression language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self, cast

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    TupleType,
    i64,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException
from xrelay.dialects.dense_literal import print_dense
from xrelay.dialects.relay.base import Props, RelayOp, RelayTypeError, get_int
from xrelay.dialects.relay.types import (
    is_bool,
    is_supported_element_type,
    tensor_element_type,
    tuple_type,
    types_compatible,
)


@irdl_op_definition
class ConstantOp(RelayOp):
    """`relay.constant`: a dense tensor constant (TVM `relay.const`).

    Large values print as a hex blob (`dense<"0x...">`); build and read them
    through numpy with `dense_from_numpy` / `dense_to_numpy`. Text round trips
    exactly: NaN and ±Inf print as bit patterns (`0x7FC00000`), see `dense_literal`.
    """

    name = "relay.constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        # `Operation.__init__` directly: the op has one fixed result and one property, so
        # IRDL's generic argument lists (half the cost of building one, and the passes
        # build thousands) would only count what is already known.
        Operation.__init__(self, result_types=(value.type,), properties={"value": value})

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        value = props["value"]
        assert isinstance(value, DenseIntOrFPElementsAttr)
        value_type = cast(Attribute, cast(DenseIntOrFPElementsAttr[Any], value).type)
        element = tensor_element_type(value_type)
        if not is_supported_element_type(element):
            raise RelayTypeError(f"unsupported element type {element}")
        return [value_type]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute", pos, parser.pos)
        op = cls(cast(DenseIntOrFPElementsAttr[Any], value))
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" ")
        print_dense(printer, self.value)


@irdl_op_definition
class TupleOp(RelayOp):
    """`relay.tuple`: build a tuple value from its fields."""

    name = "relay.tuple"

    fields = var_operand_def()
    result = result_def(TupleType)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return [tuple_type(operand_types)]


@irdl_op_definition
class TupleGetItemOp(RelayOp):
    """`relay.tuple_get_item`: field `index` of a tuple value."""

    name = "relay.tuple_get_item"

    tuple = operand_def(TupleType)
    index = prop_def(IntegerAttr.constr(type=i64))
    result = result_def()
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        tuple_t = operand_types[0]
        if not isinstance(tuple_t, TupleType):
            raise RelayTypeError(f"expected a tuple operand, got {tuple_t}")
        index = get_int(props, "index")
        fields = tuple_t.types.data
        if not 0 <= index < len(fields):
            raise RelayTypeError(f"index {index} is out of range for a tuple of {len(fields)}")
        return [fields[index]]


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`relay.yield`: the value a `relay.if` branch or a composite body produces."""

    name = "relay.yield"

    values = var_operand_def()
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IfOp, CompositeOp), Pure()))
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue):
        super().__init__(operands=[values])


def _check_yield(region: Region, expected: Sequence[Attribute], what: str) -> None:
    terminator = region.block.last_op
    if not isinstance(terminator, YieldOp):
        raise VerifyException(f"{what} must end with relay.yield")
    got = [v.type for v in terminator.values]
    if len(got) != len(expected) or not all(
        types_compatible(g, e) for g, e in zip(got, expected, strict=True)
    ):
        shown = ", ".join(str(t) for t in got)
        want = ", ".join(str(t) for t in expected)
        raise VerifyException(f"{what} yields ({shown}) but the op returns ({want})")


@irdl_op_definition
class IfOp(IRDLOperation):
    """`relay.if`: evaluate one of two regions on a scalar boolean condition.

    Branches may use values from the enclosing function (Relay scoping)::

        %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
          relay.yield %a : tensor<2xf32>
        } else {
          relay.yield %b : tensor<2xf32>
        }
    """

    name = "relay.if"

    cond = operand_def(TensorType)
    result = result_def()
    then_region = region_def("single_block")
    else_region = region_def("single_block")
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(
        self, cond: SSAValue, result_type: Attribute, then_region: Region, else_region: Region
    ):
        super().__init__(
            operands=[cond], result_types=[result_type], regions=[then_region, else_region]
        )

    def verify_(self) -> None:
        cond_t = self.cond.type
        assert isinstance(cond_t, TensorType)
        if cond_t.get_num_dims() != 0 or not is_bool(tensor_element_type(self.cond.type)):
            raise VerifyException(f"condition must be a scalar boolean tensor<i1>, got {cond_t}")
        _check_yield(self.then_region, [self.result.type], "then branch")
        _check_yield(self.else_region, [self.result.type], "else branch")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        cond_t = parser.parse_type()
        parser.parse_punctuation("->")
        result_t = parser.parse_type()
        attributes = parser.parse_optional_attr_dict_with_keyword()
        then_region = parser.parse_region()
        parser.parse_keyword("else")
        else_region = parser.parse_region()
        op = cls(parser.resolve_operand(cond, cond_t), result_t, then_region, else_region)
        if attributes is not None:
            op.attributes.update(attributes.data)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.result.type)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(self.then_region)
        printer.print_string(" else ")
        printer.print_region(self.else_region)


class _AnnotationOp(RelayOp):
    """Base of BYOC annotations: identity on the value, tagged with a compiler.

    They carry no `Pure` trait on purpose: each annotation marks one edge of a
    region, so CSE must not merge two of them and DCE must not drop them.
    """

    data = operand_def()
    result = result_def()
    compiler = prop_def(StringAttr)

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        return [operand_types[0]]


@irdl_op_definition
class CompilerBeginOp(_AnnotationOp):
    """`relay.compiler_begin`: a value enters a region offloaded to `compiler`."""

    name = "relay.compiler_begin"


@irdl_op_definition
class CompilerEndOp(_AnnotationOp):
    """`relay.compiler_end`: a value leaves a region offloaded to `compiler`."""

    name = "relay.compiler_end"


@irdl_op_definition
class CompositeOp(IRDLOperation):
    """`relay.composite`: a matched subgraph kept whole (TVM's `Composite` function).

    The body is isolated: its block arguments are the composite's inputs::

        %0 = relay.composite "accel.conv2d_relu" (%x, %w)
               {PartitionedFromPattern = "nn.conv2d_nn.relu_"}
               : (tensor<...>, tensor<...>) -> tensor<...> {
        ^bb0(%i: tensor<...>, %k: tensor<...>):
          ...
          relay.yield %r : tensor<...>
        }
    """

    name = "relay.composite"

    composite = prop_def(StringAttr)
    inputs = var_operand_def()
    result = result_def()
    body = region_def("single_block")
    traits = traits_def(IsolatedFromAbove(), RecursiveMemoryEffect())

    def __init__(
        self, composite: str, inputs: Sequence[SSAValue], result_type: Attribute, body: Region
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_type],
            properties={"composite": StringAttr(composite)},
            regions=[body],
        )

    def verify_(self) -> None:
        block = self.body.block
        if tuple(block.arg_types) != tuple(self.inputs.types):
            raise VerifyException(
                "body arguments ("
                + ", ".join(str(t) for t in block.arg_types)
                + ") do not match the inputs ("
                + ", ".join(str(t) for t in self.inputs.types)
                + ")"
            )
        _check_yield(self.body, [self.result.type], "body")

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        name = parser.parse_str_literal("composite name")
        unresolved: list[UnresolvedOperand] = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        pos = parser.pos
        fn_type = parser.parse_function_type()
        if len(fn_type.inputs) != len(unresolved) or len(fn_type.outputs) != 1:
            parser.raise_error(
                f"expected a type for each of {len(unresolved)} inputs and one result",
                pos,
                parser.pos,
            )
        inputs = [
            parser.resolve_operand(u, t)
            for u, t in zip(unresolved, fn_type.inputs.data, strict=True)
        ]
        body = parser.parse_region()
        op = cls(name, inputs, fn_type.outputs.data[0], body)
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(self.composite.data)
        printer.print_string(" (")
        printer.print_list(self.inputs, printer.print_operand)
        printer.print_string(")")
        if self.attributes:
            printer.print_string(" ")
            printer.print_attr_dict(self.attributes)
        printer.print_string(" : (")
        printer.print_list(self.inputs.types, printer.print_attribute)
        printer.print_string(") -> ")
        printer.print_attribute(self.result.type)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=True)


OPS = (
    ConstantOp,
    TupleOp,
    TupleGetItemOp,
    YieldOp,
    IfOp,
    CompilerBeginOp,
    CompilerEndOp,
    CompositeOp,
)
