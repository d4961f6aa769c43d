"""Scans and shape queries added for the ONNX frontend: `cumsum`, `cumprod`, `arange`,
`shape_of`, `ndarray_size`.

See https://tvm.apache.org/docs/reference/api/python/relay/index.html (tvm.relay).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType, f64, i1, i32
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
    check_dtype,
    expect_tensor,
    get_float,
    get_opt_int,
    normalize_axis,
    operand_element_type,
)
from xrelay.dialects.relay.tensor import TensorOpBase, known_product
from xrelay.dialects.relay.types import ANY, dtype_of, tensor_type

# --------------------------------------------------------------------------- #
# cumsum, cumprod
# --------------------------------------------------------------------------- #


class _ScanOp(TensorOpBase):
    """Base of `relay.cumsum` / `relay.cumprod`: a running sum or product along `axis`.

    Without `axis` the data is flattened first. `dtype` (default: data's) is the type of
    the result, the data converted to it first as `cast` converts. `exclusive` starts
    from the identity and leaves the last element out.
    """

    axis = opt_prop_def(IntegerAttr)
    dtype = opt_prop_def(TypeAttribute)
    exclusive = prop_def(IntegerAttr, IntegerAttr(0, i1))

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        dtype = check_dtype(props.get("dtype") or operand_element_type(operand_types, 0))
        if dtype_of(dtype) == "bool":
            raise RelayTypeError("cannot accumulate in bool: give an integer or float dtype")
        axis = get_opt_int(props, "axis")
        if axis is None:
            size = known_product(data)
            return [tensor_type((ANY if size is None else size,), dtype)]
        normalize_axis(axis, len(data))
        return [tensor_type(data, dtype)]


@irdl_op_definition
class CumsumOp(_ScanOp):
    """`relay.cumsum`: the running sum along `axis` (floats summed in float64, rounded once per
    output; integers wrap).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.cumsum
    """

    name = "relay.cumsum"


@irdl_op_definition
class CumprodOp(_ScanOp):
    """`relay.cumprod`: the running product along `axis` (as `cumsum`).

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.cumprod
    """

    name = "relay.cumprod"


# --------------------------------------------------------------------------- #
# arange
# --------------------------------------------------------------------------- #


def arange_length(start: float, stop: float, step: float) -> int:
    """The number of elements of `arange(start, stop, step)`: ceil((stop - start) / step)."""
    if step == 0 or not all(map(math.isfinite, (start, stop, step))):
        raise RelayTypeError(f"arange needs finite bounds and a non-zero step, got {step}")
    return max(0, math.ceil((stop - start) / step))


@irdl_op_definition
class ArangeOp(RelayOp):
    """`relay.arange`: `start + i * step` for `0 <= i < ceil((stop - start) / step)`.

    TVM takes `start`, `stop`, `step` as scalar expressions; here they are static (f64)
    properties: a frontend folds ONNX's Range of constants into this op or a constant.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.arange
    """

    name = "relay.arange"

    result = result_def(TensorType)
    start = prop_def(FloatAttr, FloatAttr(0.0, f64))
    stop = prop_def(FloatAttr)
    step = prop_def(FloatAttr, FloatAttr(1.0, f64))
    dtype = prop_def(TypeAttribute)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        dtype = check_dtype(props["dtype"])
        length = arange_length(
            get_float(props, "start"), get_float(props, "stop"), get_float(props, "step")
        )
        return [tensor_type((length,), dtype)]


# --------------------------------------------------------------------------- #
# shape_of, ndarray_size
# --------------------------------------------------------------------------- #


def _index_dtype(props: Props) -> Attribute:
    """A number type: TVM's relations take any dtype (`shape_of(x, "float32")`); not `i1`."""
    dtype = check_dtype(props["dtype"])
    if dtype == i1:
        raise RelayTypeError(f"dtype must be a number type, got {dtype}")
    return dtype


@irdl_op_definition
class ShapeOfOp(RelayOp):
    """`relay.shape_of`: the shape of `data` as a 1-D integer tensor of `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.shape_of
    """

    name = "relay.shape_of"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    dtype = prop_def(TypeAttribute, i32)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        data = expect_tensor(operand_types, 0, "data")
        return [tensor_type((len(data),), _index_dtype(props))]


@irdl_op_definition
class NdarraySizeOp(RelayOp):
    """`relay.ndarray_size`: the number of elements of `data`, a scalar of `dtype`.

    See https://tvm.apache.org/docs/reference/api/python/relay/index.html#tvm.relay.ndarray_size
    """

    name = "relay.ndarray_size"

    data = operand_def(TensorType)
    result = result_def(TensorType)
    dtype = prop_def(TypeAttribute, i32)
    traits = traits_def(Pure())

    @classmethod
    def infer_result_types(
        cls, operand_types: Sequence[Attribute], props: Props
    ) -> Sequence[Attribute]:
        expect_tensor(operand_types, 0, "data")
        return [tensor_type((), _index_dtype(props))]


OPS = (CumsumOp, CumprodOp, ArangeOp, ShapeOfOp, NdarraySizeOp)
