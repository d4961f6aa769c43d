"""onnx_backend: ONNX's own BackendTest runs node cases against xrelay."""

from __future__ import annotations

import unittest

import numpy as np
import onnx.backend.test
import pytest
from onnx import TensorProto, helper

from xrelay.relay.frontend import onnx_backend

CASES = [
    "test_add_bcast",
    "test_relu",
    "test_reshape_negative_dim",  # the shape is a graph input: bound at run
    "test_slice_neg_steps",
    "test_conv_with_strides_and_asymmetric_padding",
    "test_maxpool_2d_pads",
    "test_gemm_all_attributes",
    "test_reduce_sum_keepdims_random",
]


def _run_backend_test(target: str | None) -> unittest.TestResult:
    backend = onnx_backend(target)
    suite = onnx.backend.test.BackendTest(backend, __name__)
    for case in CASES:
        suite.include(f"^{case}_cpu$")
    tests = unittest.TestSuite()
    for case in suite.test_cases.values():
        tests.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(case))
    result = unittest.TestResult()
    tests.run(result)
    # the cases no include pattern matches are reported as skipped
    assert {reason for _, reason in result.skipped} == {"no matched include pattern"}
    assert result.testsRun - len(result.skipped) == len(CASES)
    return result


@pytest.mark.parametrize("target", [None, "c"])
def test_backend_passes_node_cases(target: str | None) -> None:
    result = _run_backend_test(target)
    problems = [f"{t}: {e.splitlines()[-1]}" for t, e in result.errors + result.failures]
    assert problems == []


def test_backend_runs_positional_inputs_and_outputs_in_order() -> None:
    graph = helper.make_graph(
        [helper.make_node("Sub", ["a", "b"], ["d"]), helper.make_node("Add", ["a", "b"], ["s"])],
        "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in "ab"],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in "sd"],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    backend = onnx_backend("accel,c")
    assert backend.supports_device("CPU")
    a, b = np.array([1.0, 2.0], np.float32), np.array([0.5, 4.0], np.float32)
    s, d = backend.prepare(model).run([a, b])
    np.testing.assert_array_equal(s, a + b)
    np.testing.assert_array_equal(d, a - b)
