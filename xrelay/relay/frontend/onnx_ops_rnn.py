"""Converters for ONNX's recurrent layers RNN, GRU and LSTM, unrolled at import.

The sequence length must be static and at most `MAX_STEPS`. Each direction's
input projections are one `nn.dense` over the whole sequence per gate; each
step then adds `nn.dense(H, R_gate)` and the gate's activation. Reverse
directions walk the steps backwards and store each step's output at its own
time position, as ONNX's Y does. `sequence_lens` must be known at import and
equal the full length for every batch entry (shorter sequences are refused).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from xrelay.dialects.builder import elementwise as E
from xrelay.dialects.builder import nn as NN
from xrelay.dialects.builder import tensor as T
from xrelay.dialects.builder.core import const
from xrelay.dialects.builder.expr import Expr
from xrelay.relay.frontend.onnx_registry import (
    Node,
    Result,
    Value,
    converter,
    dtype_of_value,
)

MAX_STEPS = 1024
"""The longest sequence unrolled at import (each step adds a few ops per gate)."""

Activation = Callable[[Expr], Expr]


def _scalar(value: float, like: Expr) -> Expr:
    return const(np.asarray(value), dtype_of_value(like))


def _activation(node: Node, name: str, alpha: float | None, beta: float | None) -> Activation:
    """The named ONNX RNN activation; `alpha`/`beta` None take the op's default."""
    key = name.lower()

    def a(default: float) -> float:
        return default if alpha is None else alpha

    def b(default: float) -> float:
        return default if beta is None else beta

    def affine(x: Expr) -> Expr:
        return E.add(E.multiply(_scalar(a(1.0), x), x), _scalar(b(0.0), x))

    def scaled_tanh(x: Expr) -> Expr:
        return E.multiply(_scalar(a(1.0), x), E.tanh(E.multiply(_scalar(b(1.0), x), x)))

    def hard_sigmoid(x: Expr) -> Expr:
        return E.clip(E.add(E.multiply(_scalar(a(0.2), x), x), _scalar(b(0.5), x)), 0.0, 1.0)

    def thresholded_relu(x: Expr) -> Expr:
        return E.where(E.greater(x, _scalar(a(1.0), x)), x, _scalar(0, x))

    def elu(x: Expr) -> Expr:
        neg = E.multiply(_scalar(a(1.0), x), E.subtract(E.exp(x), _scalar(1, x)))
        return E.where(E.less(x, _scalar(0, x)), neg, x)

    def softsign(x: Expr) -> Expr:
        return E.divide(x, E.add(_scalar(1, x), E.abs(x)))

    def softplus(x: Expr) -> Expr:
        return E.log(E.add(E.exp(x), _scalar(1, x)))

    table: dict[str, Activation] = {
        "sigmoid": E.sigmoid,
        "tanh": E.tanh,
        "relu": NN.relu,
        "leakyrelu": lambda x: NN.leaky_relu(x, a(0.01)),
        "affine": affine,
        "scaledtanh": scaled_tanh,
        "hardsigmoid": hard_sigmoid,
        "thresholdedrelu": thresholded_relu,
        "elu": elu,
        "softsign": softsign,
        "softplus": softplus,
    }
    fn = table.get(key)
    if fn is None:
        raise node.error(f"unknown activation '{name}'")
    return fn


_USES_ALPHA = ("leakyrelu", "affine", "scaledtanh", "hardsigmoid", "thresholdedrelu", "elu")
_USES_BETA = ("affine", "scaledtanh", "hardsigmoid")


def _floats(node: Node, name: str) -> list[float]:
    raw: Sequence[Any] = node.attr(name) or ()
    return [float(v) for v in raw]


def _activations(node: Node, defaults: Sequence[str], directions: int) -> list[list[Activation]]:
    """Per direction, the activations (f, g, h...); alphas/betas consumed in order of use."""
    given = node.attr("activations")
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in given] if given else []
    per = len(defaults)
    if not names:
        names = list(defaults) * directions
    elif len(names) == per and directions == 2:
        names = names * 2
    node.refuse(
        len(names) != per * directions,
        f"{len(names)} activations given; needs {per} per direction ({per * directions})",
    )
    alphas, betas = _floats(node, "activation_alpha"), _floats(node, "activation_beta")
    out: list[Activation] = []
    for name in names:
        alpha = alphas.pop(0) if name.lower() in _USES_ALPHA and alphas else None
        beta = betas.pop(0) if name.lower() in _USES_BETA and betas else None
        out.append(_activation(node, name, alpha, beta))
    return [out[d * per : (d + 1) * per] for d in range(directions)]


def _rows(value: Value, direction: int, begin: int, end: int) -> Expr:
    """value[direction, begin:end] (numpy when known at import)."""
    if isinstance(value, np.ndarray):
        return const(value[direction, begin:end], value.dtype.name)
    sliced = T.strided_slice(value, [direction, begin], [direction + 1, end], axes=[0, 1])
    return T.squeeze(sliced, [0])


def _step(x: Expr, t: int) -> Expr:
    """x[t] of a (seq, batch, n) tensor."""
    return T.squeeze(T.strided_slice(x, [t], [t + 1], axes=[0]), [0])


@dataclass
class _Layer:
    """What every recurrent layer shares: the unrolled shape and inputs, in layout 0."""

    node: Node
    gates: int
    x: Expr
    """(seq, batch, input)."""
    seq: int
    batch: int
    hidden: int
    directions: int
    clip: float | None
    layout: int

    def initial(self, index: int) -> list[Expr]:
        """Per direction, initial_h / initial_c (input `index`) or zeros: (batch, hidden)."""
        dtype = dtype_of_value(self.x)
        if not self.node.has(index):
            zeros = const(np.zeros((self.batch, self.hidden)), dtype)
            return [zeros] * self.directions
        value = self.node.expr(index)
        if self.layout == 1:
            value = T.transpose(value, [1, 0, 2])
        return [
            T.squeeze(T.strided_slice(value, [d], [d + 1], axes=[0]), [0])
            for d in range(self.directions)
        ]

    def projections(self, direction: int) -> list[Expr]:
        """Per gate, X @ W_gate^T + Wb_gate over the whole sequence: (seq, batch, hidden)."""
        h, flat = self.hidden, T.reshape(self.x, [self.seq * self.batch, -1])
        out: list[Expr] = []
        for g in range(self.gates):
            proj: Expr = NN.dense(flat, _rows(self.node.value(1), direction, g * h, (g + 1) * h))
            if self.node.has(3):
                proj = E.add(proj, _rows(self.node.value(3), direction, g * h, (g + 1) * h))
            out.append(T.reshape(proj, [self.seq, self.batch, h]))
        return out

    def recurrent(self, direction: int) -> list[tuple[Expr, Expr | None]]:
        """Per gate, (R_gate, Rb_gate or None)."""
        h, n = self.hidden, self.gates * self.hidden
        out: list[tuple[Expr, Expr | None]] = []
        for g in range(self.gates):
            weight = _rows(self.node.value(2), direction, g * h, (g + 1) * h)
            bias = (
                _rows(self.node.value(3), direction, n + g * h, n + (g + 1) * h)
                if self.node.has(3)
                else None
            )
            out.append((weight, bias))
        return out

    def clipped(self, x: Expr) -> Expr:
        return x if self.clip is None else E.clip(x, -self.clip, self.clip)

    def order(self, direction: int) -> range:
        """The steps of `direction` in time order: bidirectional's second one and reverse run
        backwards."""
        backwards = direction == 1 or self.node.str_attr("direction", "forward") == "reverse"
        return range(self.seq - 1, -1, -1) if backwards else range(self.seq)

    def outputs(self, ys: list[list[Expr]], finals: list[list[Expr]]) -> list[Expr]:
        """Y (seq, dirs, batch, hidden) and each final state (dirs, batch, hidden), in layout."""
        per_dir = [_stack(steps, 0) for steps in ys]
        y = _stack(per_dir, 1)
        states = [_stack(f, 0) for f in finals]
        if self.layout == 1:
            y = T.transpose(y, [2, 0, 1, 3])
            states = [T.transpose(s, [1, 0, 2]) for s in states]
        return [y, *states]


def _stack(items: list[Expr], axis: int) -> Expr:
    expanded = [T.expand_dims(i, axis) for i in items]
    return expanded[0] if len(expanded) == 1 else T.concatenate(expanded, axis)


def _layer(node: Node, gates: int) -> _Layer:
    shape = node.static_shape(0, "X")
    node.refuse(len(shape) != 3, f"X has rank {len(shape)}; needs 3")
    layout = node.int_attr("layout", 0)
    node.refuse(layout not in (0, 1), f"layout {layout} is not 0 or 1")
    x = node.expr(0)
    if layout == 1:
        x = T.transpose(x, [1, 0, 2])
        batch, seq, _ = shape
    else:
        seq, batch, _ = shape
    direction = node.str_attr("direction", "forward")
    node.refuse(
        direction not in ("forward", "reverse", "bidirectional"),
        f"unknown direction '{direction}'",
    )
    directions = 2 if direction == "bidirectional" else 1
    w_shape = node.static_shape(1, "W")
    node.refuse(
        len(w_shape) != 3 or w_shape[0] != directions or w_shape[1] % gates != 0,
        f"W has shape {list(w_shape)}; needs ({directions}, {gates} * hidden_size, input_size)",
    )
    hidden = node.int_attr("hidden_size", w_shape[1] // gates)
    node.refuse(hidden * gates != w_shape[1], f"hidden_size {hidden} does not match W")
    node.refuse(seq < 1, "an empty sequence")
    node.refuse(seq > MAX_STEPS, f"sequence length {seq} > {MAX_STEPS} (unrolled at import)")
    if node.has(4):
        lens = node.ints(4, "sequence_lens")
        node.refuse(
            any(n != seq for n in lens),
            f"sequence_lens {lens} shorter than the sequence length {seq} are not supported",
        )
    clip = node.attr("clip")
    return _Layer(
        node,
        gates,
        x,
        seq,
        batch,
        hidden,
        directions,
        None if clip is None else float(clip),
        layout,
    )


def _recur(h: Expr, weight: Expr, bias: Expr | None) -> Expr:
    out: Expr = NN.dense(h, weight)
    return out if bias is None else E.add(out, bias)


@converter("RNN", 1)
def rnn_v1(node: Node) -> Result:
    """RNN: H_t = f(X_t W^T + H_{t-1} R^T + Wb + Rb)."""
    layer = _layer(node, 1)
    acts = _activations(node, ["Tanh"], layer.directions)
    ys: list[list[Expr]] = []
    finals: list[Expr] = []
    for d, h in enumerate(layer.initial(5)):
        (xw,) = layer.projections(d)
        ((r, rb),) = layer.recurrent(d)
        steps: dict[int, Expr] = {}
        for t in layer.order(d):
            h = acts[d][0](layer.clipped(E.add(_step(xw, t), _recur(h, r, rb))))
            steps[t] = h
        ys.append([steps[t] for t in range(layer.seq)])
        finals.append(h)
    return layer.outputs(ys, [finals])


@converter("GRU", 1)
def gru_v1(node: Node) -> Result:
    """GRU (gates z, r, h) with `linear_before_reset`."""
    layer = _layer(node, 3)
    acts = _activations(node, ["Sigmoid", "Tanh"], layer.directions)
    before_reset = node.int_attr("linear_before_reset", 0) != 0
    ys: list[list[Expr]] = []
    finals: list[Expr] = []
    for d, h in enumerate(layer.initial(5)):
        f, g = acts[d]
        xz, xr, xh = layer.projections(d)
        (rz, bz), (rr, br), (rh, bh) = layer.recurrent(d)
        steps: dict[int, Expr] = {}
        for t in layer.order(d):
            z = f(layer.clipped(E.add(_step(xz, t), _recur(h, rz, bz))))
            r = f(layer.clipped(E.add(_step(xr, t), _recur(h, rr, br))))
            if before_reset:
                hidden = E.multiply(r, _recur(h, rh, bh))
            else:
                hidden = _recur(E.multiply(r, h), rh, bh)
            candidate = g(layer.clipped(E.add(_step(xh, t), hidden)))
            one = _scalar(1, z)
            h = E.add(E.multiply(E.subtract(one, z), candidate), E.multiply(z, h))
            steps[t] = h
        ys.append([steps[t] for t in range(layer.seq)])
        finals.append(h)
    return layer.outputs(ys, [finals])


@converter("LSTM", 1)
def lstm_v1(node: Node) -> Result:
    """LSTM (gates i, o, f, c) with peepholes P (i, o, f); `input_forget` is refused."""
    layer = _layer(node, 4)
    node.refuse(node.int_attr("input_forget", 0) != 0, "input_forget=1 is not supported")
    acts = _activations(node, ["Sigmoid", "Tanh", "Tanh"], layer.directions)
    ys: list[list[Expr]] = []
    finals_h: list[Expr] = []
    finals_c: list[Expr] = []
    cells = layer.initial(6)
    for d, h in enumerate(layer.initial(5)):
        f, g, act_h = acts[d]
        c = cells[d]
        xi, xo, xf, xc = layer.projections(d)
        (ri, bi), (ro, bo), (rf, bf), (rc, bc) = layer.recurrent(d)
        hid = layer.hidden
        peep: list[Expr | None] = [None, None, None]
        if node.has(7):
            p = node.value(7)
            peep = [_rows(p, d, k * hid, (k + 1) * hid) for k in range(3)]
        steps: dict[int, Expr] = {}
        for t in layer.order(d):
            pre_i = E.add(_step(xi, t), _recur(h, ri, bi))
            pre_f = E.add(_step(xf, t), _recur(h, rf, bf))
            if peep[0] is not None and peep[2] is not None:
                pre_i = E.add(pre_i, E.multiply(peep[0], c))
                pre_f = E.add(pre_f, E.multiply(peep[2], c))
            i = f(layer.clipped(pre_i))
            forget = f(layer.clipped(pre_f))
            cand = g(layer.clipped(E.add(_step(xc, t), _recur(h, rc, bc))))
            c = E.add(E.multiply(forget, c), E.multiply(i, cand))
            pre_o = E.add(_step(xo, t), _recur(h, ro, bo))
            if peep[1] is not None:
                pre_o = E.add(pre_o, E.multiply(peep[1], c))
            o = f(layer.clipped(pre_o))
            h = E.multiply(o, act_h(c))
            steps[t] = h
        ys.append([steps[t] for t in range(layer.seq)])
        finals_h.append(h)
        finals_c.append(c)
    return layer.outputs(ys, [finals_h, finals_c])
