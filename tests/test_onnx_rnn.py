"""ONNX RNN, GRU and LSTM unrolled at import, against ONNX's formulas in naive numpy loops.

ONNX's ReferenceEvaluator runs one direction with the default activations
only, so the loops below (written from the operator spec) are the oracle for
bidirectional layers, activations with alpha/beta, clip and peepholes; the
simple forward cases are also compared with the ReferenceEvaluator.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from onnx import helper
from testlib.onnx_reference import check_node, node_model

import xrelay
from xrelay.relay.frontend import OnnxImportError, from_onnx

Array = np.ndarray[Any, Any]
RNG = np.random.default_rng(15)

ACTS: dict[str, Callable[[Array, float | None, float | None], Array]] = {
    "Sigmoid": lambda x, a, b: 1 / (1 + np.exp(-x)),
    "Tanh": lambda x, a, b: np.tanh(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "LeakyRelu": lambda x, a, b: np.where(x < 0, (0.01 if a is None else a) * x, x),
    "ScaledTanh": lambda x, a, b: (
        (1.0 if a is None else a) * np.tanh((1.0 if b is None else b) * x)
    ),
    "HardSigmoid": lambda x, a, b: np.clip(
        (0.2 if a is None else a) * x + (0.5 if b is None else b), 0, 1
    ),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
}


def _rand(*shape: int) -> Array:
    return RNG.uniform(-1, 1, shape).astype(np.float32)


def _naive(
    op: str,
    x: Array,
    w: Array,
    r: Array,
    b: Array,
    h0: Array,
    c0: Array | None,
    p: Array | None,
    acts: list[list[tuple[str, float | None, float | None]]],
    clip: float | None,
    before_reset: bool,
    directions: str,
) -> list[Array]:
    """Y (seq, dirs, batch, hidden), Y_h and (LSTM) Y_c, step by step, scalar gate by gate."""
    seq, batch, _ = x.shape
    dirs, hidden = w.shape[0], r.shape[2]
    gates = w.shape[1] // hidden
    y = np.zeros((seq, dirs, batch, hidden), np.float64)
    y_h = np.zeros((dirs, batch, hidden), np.float64)
    y_c = np.zeros((dirs, batch, hidden), np.float64)
    for d in range(dirs):
        fns = [lambda v, n=n, a=a, bb=bb: ACTS[n](v, a, bb) for n, a, bb in acts[d]]
        cut = (lambda v: v) if clip is None else (lambda v: np.clip(v, -clip, clip))
        wg = [w[d, g * hidden : (g + 1) * hidden] for g in range(gates)]
        rg = [r[d, g * hidden : (g + 1) * hidden] for g in range(gates)]
        wb = [b[d, g * hidden : (g + 1) * hidden] for g in range(gates)]
        rb = [b[d, (gates + g) * hidden : (gates + g + 1) * hidden] for g in range(gates)]
        h = h0[d].astype(np.float64)
        c = None if c0 is None else c0[d].astype(np.float64)
        backwards = d == 1 or directions == "reverse"
        for t in reversed(range(seq)) if backwards else range(seq):
            xt = x[t]
            if op == "RNN":
                h = fns[0](cut(xt @ wg[0].T + h @ rg[0].T + wb[0] + rb[0]))
            elif op == "GRU":
                z = fns[0](cut(xt @ wg[0].T + h @ rg[0].T + wb[0] + rb[0]))
                rr = fns[0](cut(xt @ wg[1].T + h @ rg[1].T + wb[1] + rb[1]))
                if before_reset:
                    hh = fns[1](cut(xt @ wg[2].T + rr * (h @ rg[2].T + rb[2]) + wb[2]))
                else:
                    hh = fns[1](cut(xt @ wg[2].T + (rr * h) @ rg[2].T + rb[2] + wb[2]))
                h = (1 - z) * hh + z * h
            else:
                assert c is not None
                pi, po, pf = (
                    (0, 0, 0)
                    if p is None
                    else (p[d, :hidden], p[d, hidden : 2 * hidden], p[d, 2 * hidden :])
                )
                i = fns[0](cut(xt @ wg[0].T + h @ rg[0].T + pi * c + wb[0] + rb[0]))
                f = fns[0](cut(xt @ wg[2].T + h @ rg[2].T + pf * c + wb[2] + rb[2]))
                cc = fns[1](cut(xt @ wg[3].T + h @ rg[3].T + wb[3] + rb[3]))
                c = f * c + i * cc
                o = fns[0](cut(xt @ wg[1].T + h @ rg[1].T + po * c + wb[1] + rb[1]))
                h = o * fns[2](c)
            y[t, d] = h
        y_h[d] = h
        if c is not None:
            y_c[d] = c
    out = [y, y_h] + ([y_c] if op == "LSTM" else [])
    return [o.astype(np.float32) for o in out]


GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}
DEFAULTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"], "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def _case(
    op: str,
    direction: str = "forward",
    layout: int = 0,
    acts: list[tuple[str, float | None, float | None]] | None = None,
    clip: float | None = None,
    before_reset: bool = False,
    peepholes: bool = False,
    target: str | None = None,
) -> None:
    seq, batch, inp, hidden = 4, 2, 3, 5
    dirs = 2 if direction == "bidirectional" else 1
    gates = GATES[op]
    x = _rand(seq, batch, inp)
    w, r = _rand(dirs, gates * hidden, inp), _rand(dirs, gates * hidden, hidden)
    b = _rand(dirs, 2 * gates * hidden)
    h0, c0 = _rand(dirs, batch, hidden), _rand(dirs, batch, hidden)
    p = _rand(dirs, 3 * hidden) if peepholes else None
    per_dir = acts or [(n, None, None) for n in DEFAULTS[op]]
    want = _naive(
        op,
        x,
        w,
        r,
        b,
        h0,
        c0 if op == "LSTM" else None,
        p,
        [per_dir] * dirs,
        clip,
        before_reset,
        direction,
    )
    inputs: dict[str, Array] = {"X": x, "W": w, "R": r, "B": b}
    names = ["X", "W", "R", "B", "", "initial_h"]
    inputs["initial_h"] = h0
    if op == "LSTM":
        inputs["initial_c"] = c0
        names.append("initial_c")
        if p is not None:
            inputs["P"] = p
            names.append("P")
    if layout == 1:
        inputs["X"] = x.transpose(1, 0, 2).copy()
        inputs["initial_h"] = h0.transpose(1, 0, 2).copy()
        if op == "LSTM":
            inputs["initial_c"] = c0.transpose(1, 0, 2).copy()
        want = [want[0].transpose(2, 0, 1, 3)] + [s.transpose(1, 0, 2) for s in want[1:]]
    attrs: dict[str, Any] = {"hidden_size": hidden, "direction": direction, "layout": layout}
    if acts is not None:
        attrs["activations"] = [n for n, _, _ in acts] * dirs
        alphas = [a for n, a, _ in acts if a is not None] * dirs
        betas = [bb for n, _, bb in acts if bb is not None] * dirs
        if alphas:
            attrs["activation_alpha"] = alphas
        if betas:
            attrs["activation_beta"] = betas
    if clip is not None:
        attrs["clip"] = clip
    if op == "GRU":
        attrs["linear_before_reset"] = int(before_reset)
    outputs = ["Y", "Y_h"] + (["Y_c"] if op == "LSTM" else [])
    node = helper.make_node(op, names, outputs, **attrs)
    mod, params = from_onnx(node_model(node, inputs, opset=22))
    assert params == {}
    args = list(inputs.values())
    got = xrelay.evaluate(mod, *args) if target is None else xrelay.build(mod, target=target)(*args)
    assert len(got) == len(want)
    for g, w_ in zip(got, want, strict=True):
        assert g.shape == w_.shape
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, w_, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_directions(op: str, direction: str) -> None:
    _case(op, direction)


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
def test_layout_1_and_clip(op: str) -> None:
    _case(op, "bidirectional", layout=1, clip=0.5)


def test_activations_with_alpha_beta() -> None:
    _case("RNN", acts=[("ScaledTanh", 0.7, 1.3)])
    _case("GRU", "bidirectional", acts=[("HardSigmoid", 0.3, 0.4), ("LeakyRelu", 0.2, None)])
    _case("LSTM", acts=[("Sigmoid", None, None), ("Softsign", None, None), ("Relu", None, None)])


def test_gru_linear_before_reset_and_lstm_peepholes() -> None:
    _case("GRU", "reverse", before_reset=True)
    _case("LSTM", "bidirectional", peepholes=True)


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
def test_on_c(op: str) -> None:
    _case(op, "bidirectional", target="c", before_reset=op == "GRU", peepholes=op == "LSTM")


@pytest.mark.parametrize("op", ["RNN", "GRU", "LSTM"])
def test_matches_onnx_reference_forward(op: str) -> None:
    hidden, gates = 4, GATES[op]
    inputs = {
        "X": _rand(3, 2, 3),
        "W": _rand(1, gates * hidden, 3),
        "R": _rand(1, gates * hidden, hidden),
        "B": _rand(1, 2 * gates * hidden),
    }
    node = helper.make_node(op, list(inputs), ["Y", "Y_h"], hidden_size=hidden)
    check_node(node, inputs, opset=22, rtol=1e-5, atol=1e-5)


def _refusal(op: str, seq: int, lens: list[int] | None, message: str) -> None:
    hidden = 2
    inputs = {
        "X": _rand(seq, len(lens or [1]), 1),
        "W": _rand(1, GATES[op] * hidden, 1),
        "R": _rand(1, GATES[op] * hidden, hidden),
    }
    names = ["X", "W", "R"]
    if lens is not None:
        inputs["B"] = _rand(1, 2 * GATES[op] * hidden)
        inputs["L"] = np.array(lens, np.int32)
        names += ["B", "L"]
    node = helper.make_node(op, names, ["Y"], hidden_size=hidden, name="rec")
    model = node_model(node, {k: v for k, v in inputs.items() if k != "L"}, opset=22)
    if lens is not None:
        model.graph.initializer.append(helper.make_tensor("L", 6, [len(lens)], lens))
    with pytest.raises(OnnxImportError, match=rf"node 'rec' \({op}\): {message}"):
        from_onnx(model)


def test_refuses_short_sequence_lens_and_long_sequences() -> None:
    _refusal("GRU", 3, [3, 2], r"sequence_lens \[3, 2\] shorter than")
    _refusal("LSTM", 1025, None, r"sequence length 1025 > 1024 \(unrolled at import\)")


def test_full_sequence_lens_are_accepted() -> None:
    hidden = 2
    inputs = {"X": _rand(3, 2, 1), "W": _rand(1, hidden, 1), "R": _rand(1, hidden, hidden)}
    node = helper.make_node("RNN", ["X", "W", "R", "", "L"], ["Y"], hidden_size=hidden)
    model = node_model(node, inputs, opset=22)
    model.graph.initializer.append(helper.make_tensor("L", 6, [2], [3, 3]))
    mod, _ = from_onnx(model)
    (y,) = [xrelay.evaluate(mod, *inputs.values())]
    want = _naive(
        "RNN",
        inputs["X"],
        inputs["W"],
        inputs["R"],
        np.zeros((1, 2 * hidden), np.float32),
        np.zeros((1, 2, hidden), np.float32),
        None,
        None,
        [[("Tanh", None, None)]],
        None,
        False,
        "forward",
    )
    np.testing.assert_allclose(y, want[0], rtol=1e-5, atol=1e-6)
