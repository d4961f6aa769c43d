"""ONNX If, Loop and Scan (subgraphs converted inline, loops unrolled), against ONNX's reference.

Also the importer's scopes (a subgraph reads outer values by name, its own
names shadow them) and the ONNX backend binding the graph inputs a needed
value is computed from.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx, onnx_backend
from xrelay.relay.frontend.onnx_errors import NeedsKnownValue

Array = np.ndarray[Any, Any]
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def _info(name: str, elem: int = F, shape: list[int] | None = None) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, elem, shape)


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[str],
    inits: dict[str, Array] | None = None,
    opset: int = 17,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "g",
        inputs,
        [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outputs],
        [numpy_helper.from_array(v, n) for n, v in (inits or {}).items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _check(model: onnx.ModelProto, inputs: dict[str, Array], target: str | None = None) -> str:
    """Run on xrelay and on ONNX's reference, compare every output; the module's text."""
    want = ReferenceEvaluator(model).run(None, inputs)
    mod, params = from_onnx(model)
    args = [*inputs.values(), *params.values()]
    got: Any = (
        xrelay.evaluate(mod, *args) if target is None else xrelay.build(mod, target=target)(*args)
    )
    outs = list(got) if isinstance(got, tuple | list) else [got]
    assert len(outs) == len(want)
    for g, w in zip(outs, want, strict=True):
        w = np.asarray(w)
        assert g.shape == w.shape
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
    return str(mod)


def _branch(name: str, nodes: list[onnx.NodeProto], outputs: list[str]) -> onnx.GraphProto:
    return helper.make_graph(
        nodes,
        name,
        [],
        [helper.make_tensor_value_info(o, TensorProto.UNDEFINED, None) for o in outputs],
    )


def _if_model(cond_init: bool | None) -> tuple[onnx.ModelProto, dict[str, Array]]:
    """If whose branches read the outer `x` (then: x + 1, x * 2; else: x - 1, x * 3)."""
    then_g = _branch(
        "then",
        [
            helper.make_node("Add", ["x", "one"], ["t0"]),
            helper.make_node("Mul", ["x", "two"], ["t1"]),
        ],
        ["t0", "t1"],
    )
    else_g = _branch(
        "else",
        [
            helper.make_node("Sub", ["x", "one"], ["e0"]),
            helper.make_node("Mul", ["x", "three"], ["e1"]),
        ],
        ["e0", "e1"],
    )
    node = helper.make_node("If", ["c"], ["a", "b"], then_branch=then_g, else_branch=else_g)
    consts = {k: np.array(v, np.float32) for k, v in (("one", 1), ("two", 2), ("three", 3))}
    inputs = [_info("x", F, [3])]
    if cond_init is None:
        inputs.append(_info("c", B, []))
    else:
        consts["c"] = np.array(cond_init)
    return _model([node], inputs, ["a", "b"], consts), consts


@pytest.mark.parametrize("cond", [True, False])
def test_if_known_condition_converts_the_taken_branch_only(cond: bool) -> None:
    model, _ = _if_model(cond)
    x = np.array([1, 2, 3], np.float32)
    mod, params = from_onnx(model, freeze_params=True)
    assert "relay.if" not in str(mod)
    a, b = xrelay.evaluate(mod, x, *params.values())
    np.testing.assert_array_equal(a, x + 1 if cond else x - 1)
    np.testing.assert_array_equal(b, x * 2 if cond else x * 3)


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize("cond", [True, False])
def test_if_unknown_condition_is_a_relay_if(cond: bool, target: str | None) -> None:
    model, _ = _if_model(None)
    text = _check(model, {"x": np.array([1, 2, 3], np.float32), "c": np.array(cond)}, target)
    assert "relay.if" in text


def test_if_unknown_condition_with_unequal_branch_types_is_refused() -> None:
    then_g = _branch("then", [helper.make_node("Identity", ["x"], ["t"])], ["t"])
    else_g = _branch("else", [helper.make_node("Concat", ["x", "x"], ["e"], axis=0)], ["e"])
    node = helper.make_node("If", ["c"], ["y"], name="br", then_branch=then_g, else_branch=else_g)
    model = _model([node], [_info("x", F, [2]), _info("c", B, [])], ["y"])
    with pytest.raises(
        OnnxImportError,
        match=r"node 'br' \(If\): output #0 is float32\[2\] in then_branch but float32\[4\]",
    ):
        from_onnx(model)


def _loop_body(with_early_exit: bool) -> onnx.GraphProto:
    """acc += x * i (x read from the outer scope); scan out: acc; cond: i < 2 or true."""
    nodes = [
        helper.make_node("Cast", ["i"], ["fi"], to=F),
        helper.make_node("Mul", ["x", "fi"], ["xi"]),
        helper.make_node("Add", ["acc_in", "xi"], ["acc_out"]),
        helper.make_node("Identity", ["acc_out"], ["scan"]),
    ]
    if with_early_exit:
        nodes.append(helper.make_node("Less", ["i", "two"], ["cond_out"]))
    else:
        nodes.append(helper.make_node("Identity", ["cond_in"], ["cond_out"]))
    return helper.make_graph(
        nodes,
        "body",
        [_info("i", I64, []), _info("cond_in", B, []), _info("acc_in", F, [2])],
        [_info("cond_out", B, []), _info("acc_out", F, [2]), _info("scan", F, [2])],
        [numpy_helper.from_array(np.array(2, np.int64), "two")],
    )


@pytest.mark.parametrize("target", [None, "c"])
@pytest.mark.parametrize("early_exit", [False, True])
def test_loop_unrolled_with_carried_and_scan_outputs(early_exit: bool, target: str | None) -> None:
    node = helper.make_node(
        "Loop", ["M", "cond", "acc0"], ["acc", "scans"], body=_loop_body(early_exit)
    )
    inits = {"M": np.array(5, np.int64), "cond": np.array(True)}
    model = _model([node], [_info("x", F, [2]), _info("acc0", F, [2])], ["acc", "scans"], inits)
    inputs = {"x": np.array([1, -2], np.float32), "acc0": np.array([0.5, 0.25], np.float32)}
    _check(model, inputs, target)


def test_loop_trip_count_from_a_graph_input_names_it_for_the_backend() -> None:
    node = helper.make_node("Loop", ["M", "", "acc0"], ["acc", "scans"], body=_loop_body(False))
    model = _model(
        [node], [_info("x", F, [2]), _info("acc0", F, [2]), _info("M", I64, [])], ["acc"]
    )
    with pytest.raises(NeedsKnownValue) as error:
        from_onnx(model)
    assert error.value.graph_inputs == ("M",)


@pytest.mark.parametrize("target", [None, "c"])
def test_scan_axes_and_directions(target: str | None) -> None:
    body = helper.make_graph(
        [
            helper.make_node("Add", ["s_in", "a"], ["s_out"]),
            helper.make_node("Mul", ["s_out", "b"], ["o1"]),
            helper.make_node("Sub", ["a", "w"], ["o2"]),
        ],
        "body",
        [_info("s_in", F, [3]), _info("a", F, [3]), _info("b", F, [3])],
        [_info("s_out", F, [3]), _info("o1", F, [3]), _info("o2", F, [3])],
    )
    node = helper.make_node(
        "Scan",
        ["s0", "xa", "xb"],
        ["s", "y1", "y2"],
        body=body,
        num_scan_inputs=2,
        scan_input_axes=[0, 1],
        scan_input_directions=[0, 1],
        scan_output_axes=[1, -2],
        scan_output_directions=[1, 0],
    )
    model = _model(
        [node],
        [_info("s0", F, [3]), _info("xa", F, [4, 3]), _info("xb", F, [3, 4]), _info("w", F, [3])],
        ["s", "y1", "y2"],
    )
    rng = np.random.default_rng(0)
    s0, xa, xb, w = (
        rng.standard_normal(shape).astype(np.float32) for shape in ((3,), (4, 3), (3, 4), (3,))
    )
    mod, _ = from_onnx(model)
    args = (s0, xa, xb, w)
    got = xrelay.evaluate(mod, *args) if target is None else xrelay.build(mod, target=target)(*args)
    # ONNX's ReferenceEvaluator runs only direction 0: the spec's loop, by hand
    state, y1, y2 = s0, [], []
    for t in range(4):
        state = state + xa[t]
        y1.append(state * xb[:, 3 - t])  # xb scanned over axis 1, backwards
        y2.append(xa[t] - w)
    want = [state, np.stack(y1[::-1], 1), np.stack(y2, 0)]  # y1 reversed, on axis 1
    for g, w_ in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w_, rtol=1e-6)


def test_subgraph_names_shadow_outer_ones_and_vanish_after() -> None:
    # the branch defines its own `t` (x * 2); the outer `t` (x + 10) is unchanged after the If
    branch = _branch(
        "b",
        [helper.make_node("Mul", ["x", "two"], ["t"]), helper.make_node("Add", ["t", "t"], ["r"])],
        ["r"],
    )
    nodes = [
        helper.make_node("Add", ["x", "ten"], ["t"]),
        helper.make_node("If", ["c"], ["r"], then_branch=branch, else_branch=branch),
        helper.make_node("Add", ["r", "t"], ["y"]),
    ]
    inits = {"ten": np.array(10, np.float32), "two": np.array(2, np.float32)}
    model = _model(nodes, [_info("x", F, [2]), _info("c", B, [])], ["y"], inits)
    _check(model, {"x": np.array([1, 2], np.float32), "c": np.array(False)})


def test_unsupported_ops_inside_subgraphs_are_listed_with_the_others() -> None:
    branch = _branch("b", [helper.make_node("Unique", ["x"], ["u"], name="inner")], ["u"])
    nodes = [
        helper.make_node("StringNormalizer", ["x"], ["s"], name="outer"),
        helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch, name="if"),
        helper.make_node("OptionalHasElement", ["s"], ["h"], name="opt"),
    ]
    model = _model(nodes, [_info("x", F, [2]), _info("c", B, [])], ["y", "h"])
    with pytest.raises(OnnxImportError) as error:
        from_onnx(model)
    assert str(error.value).splitlines() == [
        "<onnx>: error: unsupported op OptionalHasElement at opset 17 (1 node: 'opt')",
        "<onnx>: error: unsupported op StringNormalizer at opset 17 (1 node: 'outer')",
        "<onnx>: error: unsupported op Unique at opset 17 (2 nodes: 'inner', 'inner')",
    ]


@pytest.mark.parametrize("target", [None, "c"])
def test_backend_binds_the_inputs_a_needed_value_is_computed_from(target: str | None) -> None:
    # Range's limit is n + k, computed from two graph inputs: both are bound at run
    nodes = [
        helper.make_node("Add", ["n", "k"], ["limit"]),
        helper.make_node("Range", ["zero", "limit", "one"], ["r"]),
        helper.make_node("Cast", ["r"], ["rf"], to=F),
        helper.make_node("Mul", ["rf", "s"], ["y"]),
    ]
    inits = {"zero": np.array(0, np.int64), "one": np.array(1, np.int64)}
    model = _model(
        nodes, [_info("n", I64, []), _info("k", I64, []), _info("s", F, [])], ["y"], inits
    )
    model.graph.output[0].CopyFrom(_info("y", F, ["N"]))
    with pytest.raises(NeedsKnownValue) as error:
        from_onnx(model)
    assert error.value.graph_inputs == ("k", "n")
    rep = onnx_backend(target).prepare(model)
    for n, k in ((2, 1), (4, 0)):
        (y,) = rep.run([np.array(n, np.int64), np.array(k, np.int64), np.array(0.5, np.float32)])
        np.testing.assert_array_equal(y, np.arange(n + k, dtype=np.float32) * 0.5)
