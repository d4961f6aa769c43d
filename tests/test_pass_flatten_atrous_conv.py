"""FlattenAtrousConv: TensorFlow's atrous convolution (space_to_batch_nd -> conv2d ->
batch_to_space_nd) becomes one dilated conv2d computing the same values (the reference
interpreter before and after), with TVM's padding on TVM's patterns and the right padding
for other paddings and crops; what does not fit stays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import xrelay
from xrelay import IRModule, relay
from xrelay.relay import transform

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(11)


def atrous(
    block: int, pads: list[int], crops: list[int], shape: tuple[int, ...] = (1, 5, 5, 4)
) -> tuple[relay.Function, Array]:
    w = RNG.standard_normal((3, 3, 4, 1)).astype(np.float32)
    data = relay.var("data", shape=shape)
    s2b = relay.nn.space_to_batch_nd(data, [block, block], [pads, pads])
    conv = relay.nn.conv2d(
        s2b,
        relay.const(w),
        groups=4,
        channels=4,
        kernel_size=(3, 3),
        data_layout="NHWC",
        kernel_layout="HWOI",
    )
    out = relay.nn.batch_to_space_nd(conv, [block, block], [crops, crops])
    return relay.Function([data], out), RNG.standard_normal(shape).astype(np.float32)


def flattened(f: relay.Function, x: Array) -> tuple[str, Array, Array]:
    mod = IRModule.from_expr(f)
    want = np.asarray(xrelay.evaluate(mod, x))
    out = transform.FlattenAtrousConv()(mod)
    return str(out), want, np.asarray(xrelay.evaluate(out, x))


@pytest.mark.parametrize(
    ("block", "pads", "crops", "padding"),
    [
        (2, [2, 3], [0, 1], [2, 2, 2, 2]),  # TVM's test_fac_block_shape_2
        (4, [4, 7], [0, 3], [4, 4, 4, 4]),  # TVM's test_fac_block_shape_4
        (2, [3, 0], [1, 0], [2, 2, 0, 0]),  # not TVM's SAME padding: still exact here
    ],
)
def test_one_dilated_conv_with_the_same_values(
    block: int, pads: list[int], crops: list[int], padding: list[int]
) -> None:
    f, x = atrous(block, pads, crops)
    text, want, got = flattened(f, x)
    assert "space_to_batch" not in text, text
    assert "batch_to_space" not in text, text
    assert f"dilation = [{block}, {block}]" in text, text
    assert f"padding = {padding}" in text, text
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_crops_beyond_the_paddings_stay() -> None:
    f, x = atrous(2, [0, 1], [1, 0], shape=(1, 5, 5, 4))
    text, want, got = flattened(f, x)
    assert "space_to_batch" in text, text
    assert "batch_to_space" in text, text
    np.testing.assert_array_equal(got, want)
