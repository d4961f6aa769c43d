"""`relay.nn.conv2d` in blocked layouts, and `relay.nn.contrib_conv2d_NCHWc`.

As TVM's `Conv2DRel`, a conv2d whose data or kernel layout is not one of the
plain ones (NCHW/NHWC, OIHW/HWIO/OHWI/HWOI) is checked in NCHW / OIHW: the
operand shapes are converted there (`layout_blocked.py`), the plain relation
runs, and the output shape is converted to the data layout. `NCHW4c` data is
`[N, C/4, H, W, 4]`, an `OIHW4i4o` kernel `[O/4, I/4, KH, KW, 4, 4]`; the output
channels must split as the data layout's C does.

`relay.nn.contrib_conv2d_NCHWc` is what TVM's ConvertLayout (and AlterOpLayout)
make of a conv2d asked for an `NCHW{k}c` layout: the same computation and type
relation, under its own name (TVM's `nn.contrib_conv2d_NCHWc`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, StringAttr, TensorType, i64
from xdsl.ir import Attribute, TypeAttribute
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xrelay.dialects.relay.base import (
    Props,
    RelayOp,
    RelayTypeError,
    expect_tensor,
    get_str,
    int_list_attr,
)
from xrelay.dialects.relay.layout_blocked import (
    canonical_types,
    element_type_of_tensor,
    from_canonical,
)
from xrelay.dialects.relay.types import shape_of, tensor_type

Infer = Callable[[Sequence[Attribute], Props], Sequence[Attribute]]


def blocked_conv2d_types(
    infer: Infer, operand_types: Sequence[Attribute], props: Props
) -> Sequence[Attribute]:
    """The result type of a conv2d in any data / kernel layout, by `infer` in NCHW / OIHW."""
    expect_tensor(operand_types, 0, "data")
    expect_tensor(operand_types, 1, "weight")
    data_layout, kernel_layout = get_str(props, "data_layout"), get_str(props, "kernel_layout")
    canonical = canonical_types(
        operand_types[:2],
        [(data_layout, "NCHW", "data"), (kernel_layout, "OIHW", "weight")],
    )
    plain = dict(props)
    plain["data_layout"], plain["kernel_layout"] = StringAttr("NCHW"), StringAttr("OIHW")
    try:
        (result,) = infer(canonical, plain)
    except RelayTypeError as err:
        raise RelayTypeError(
            f"{err} (checked in NCHW / OIHW for data_layout '{data_layout}', "
            f"kernel_layout '{kernel_layout}')"
        ) from None
    out = from_canonical(shape_of(result), "NCHW", data_layout, "output")
    return [tensor_type(out, element_type_of_tensor(result))]


@irdl_op_definition
class Conv2DNCHWcOp(RelayOp):
    """`relay.nn.contrib_conv2d_NCHWc`: conv2d on `NCHW{k}c` data (TVM's op of that name).

    The properties and type relation are conv2d's (data and kernel in any layout
    of their primal axes, `nn_conv_blocked.py`); the output is in `data_layout`.
    """

    name = "relay.nn.contrib_conv2d_NCHWc"

    data = operand_def(TensorType)
    weight = operand_def(TensorType)
    result = result_def(TensorType)
    strides = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    padding = prop_def(DenseArrayBase, int_list_attr([0, 0, 0, 0]))
    dilation = prop_def(DenseArrayBase, int_list_attr([1, 1]))
    groups = prop_def(IntegerAttr, IntegerAttr(1, i64))
    channels = opt_prop_def(IntegerAttr)
    kernel_size = opt_prop_def(DenseArrayBase)
    data_layout = prop_def(StringAttr, StringAttr("NCHW8c"))
    kernel_layout = prop_def(StringAttr, StringAttr("OIHW"))
    out_dtype = opt_prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        from xrelay.dialects.relay.nn import Conv2DOp  # nn imports this module

        return blocked_conv2d_types(Conv2DOp.infer_result_types, operand_types, props)


OPS = (Conv2DNCHWcOp,)
