"""Issue 16's model families for `inference.py`, built with the xrelay builder from numpy weights.

Each family has its weights (`FAMILY_WEIGHTS`, seeded, He-scaled so activations stay
near 1 from layer to layer) and a relay builder (`family_relay(name, p, dtype)`): at
`float32` it is what the xrelay runners build, at `float64` (weights and input widened)
the interpreter runs it as the float64 forward pass every runner is checked against.
`inference_families_onnx.py` writes the same graphs for onnxruntime.

- `mobilenet`: MobileNetV2-style inverted residuals at 1x16x112x112 (`MOBILENET_BLOCKS`):
  1x1 expand (x6), ReLU6 (`clip(0, 6)`), 3x3 depthwise of stride 1 or 2, ReLU6, 1x1
  project, the residual add where the shapes allow;
- `resnet`: three ResNet-50 bottlenecks at 1x256x56x56 (1x1 256->64, 3x3 64->64, 1x1
  64->256, each with bias; relu between, the residual add, relu);
- `vgg`: VGG-style at 1x3x112x112: conv3x3 3->64, 64->64, max pool 2x2, 128, 128, max
  pool (bias and relu after every conv);
- `transformer`: an encoder block on a 128x256 sequence: 4-head self-attention, residual,
  layer norm, FFN 1024 with GELU in its erf form, residual, layer norm (post-norm);
- `mlp`: 784 -> 512 -> 512 -> 10 at batch 64, bias and relu between.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from xrelay import IRModule, relay

Array = np.ndarray[Any, Any]
Weights = dict[str, Array]

MOBILENET_BLOCKS = ((16, 1, True), (24, 2, False), (24, 1, True), (32, 2, False))
"""(output channels, depthwise stride, residual) of each inverted residual; expansion 6."""
RESNET_BLOCKS, RESNET_WIDE, RESNET_NARROW = 3, 256, 64
VGG_STAGES = ((64, 64), (128, 128))
"""Output channels of the 3x3 convs of each stage; a 2x2 max pool ends each stage."""
SEQ, HIDDEN, HEADS, FFN = 128, 256, 4, 1024
MLP_BATCH, MLP_LAYERS = 64, (784, 512, 512, 10)

FAMILY_SHAPES: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "mobilenet": ((1, 16, 112, 112), (1, 32, 28, 28)),
    "resnet": ((1, RESNET_WIDE, 56, 56), (1, RESNET_WIDE, 56, 56)),
    "vgg": ((1, 3, 112, 112), (1, 128, 28, 28)),
    "transformer": ((SEQ, HIDDEN), (SEQ, HIDDEN)),
    "mlp": ((MLP_BATCH, MLP_LAYERS[0]), (MLP_BATCH, MLP_LAYERS[-1])),
}
"""Input and output shape of each family."""


class _Draw:
    """Seeded weights by name: conv/dense kernels He-scaled, biases small."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.p: Weights = {}

    def kernel(self, name: str, *shape: int, gain: float = 2.0) -> None:
        fan_in = math.prod(shape[1:])
        w = self.rng.standard_normal(shape) * math.sqrt(gain / fan_in)
        self.p[name] = w.astype(np.float32)
        self.p[f"{name}.b"] = (self.rng.standard_normal(shape[0]) * 0.1).astype(np.float32)

    def norm(self, name: str, size: int) -> None:
        self.p[f"{name}.g"] = (1 + self.rng.standard_normal(size) * 0.1).astype(np.float32)
        self.p[f"{name}.b"] = (self.rng.standard_normal(size) * 0.1).astype(np.float32)


def mobilenet_weights() -> Weights:
    """The mobilenet family's weights by name."""
    draw, cin = _Draw(10), FAMILY_SHAPES["mobilenet"][0][1]
    for b, (cout, _, _) in enumerate(MOBILENET_BLOCKS):
        mid = cin * 6
        draw.kernel(f"b{b}.expand", mid, cin, 1, 1)
        draw.kernel(f"b{b}.dw", mid, 1, 3, 3)
        draw.kernel(f"b{b}.project", cout, mid, 1, 1, gain=1.0)
        cin = cout
    return draw.p


def resnet_weights() -> Weights:
    """The resnet family's weights by name."""
    draw = _Draw(11)
    for b in range(RESNET_BLOCKS):
        draw.kernel(f"b{b}.reduce", RESNET_NARROW, RESNET_WIDE, 1, 1)
        draw.kernel(f"b{b}.conv", RESNET_NARROW, RESNET_NARROW, 3, 3)
        draw.kernel(f"b{b}.expand", RESNET_WIDE, RESNET_NARROW, 1, 1, gain=0.5)
    return draw.p


def vgg_weights() -> Weights:
    """The vgg family's weights by name."""
    draw, cin = _Draw(12), 3
    for s, stage in enumerate(VGG_STAGES):
        for i, cout in enumerate(stage):
            draw.kernel(f"s{s}.c{i}", cout, cin, 3, 3)
            cin = cout
    return draw.p


def transformer_weights() -> Weights:
    """The transformer family's weights by name."""
    draw = _Draw(13)
    for name in ("q", "k", "v", "o"):
        draw.kernel(name, HIDDEN, HIDDEN, gain=1.0)
    draw.kernel("ffn1", FFN, HIDDEN)
    draw.kernel("ffn2", HIDDEN, FFN, gain=1.0)
    draw.norm("ln1", HIDDEN)
    draw.norm("ln2", HIDDEN)
    return draw.p


def mlp_weights() -> Weights:
    """The mlp family's weights by name."""
    draw = _Draw(14)
    for i in range(len(MLP_LAYERS) - 1):
        draw.kernel(f"fc{i}", MLP_LAYERS[i + 1], MLP_LAYERS[i])
    return draw.p


FAMILY_WEIGHTS: dict[str, Callable[[], Weights]] = {
    "mobilenet": mobilenet_weights,
    "resnet": resnet_weights,
    "vgg": vgg_weights,
    "transformer": transformer_weights,
    "mlp": mlp_weights,
}


class _Graph:
    """Relay builders over the weights `p` in `dtype` (float32, or float64 for the reference)."""

    def __init__(self, p: Weights, dtype: str) -> None:
        self.p, self.dtype = p, dtype

    def const(self, value: Array | float) -> relay.Expr:
        return relay.const(np.asarray(value), dtype=self.dtype)

    def conv(self, x: relay.Expr, name: str, stride: int = 1, groups: int = 1) -> relay.Expr:
        w = self.p[name]
        pad = w.shape[2] // 2
        y = relay.nn.conv2d(
            x, self.const(w), strides=(stride, stride), padding=(pad, pad), groups=groups
        )
        return relay.nn.bias_add(y, self.const(self.p[f"{name}.b"]))

    def dense(self, x: relay.Expr, name: str) -> relay.Expr:
        y = relay.nn.dense(x, self.const(self.p[name]))
        return relay.nn.bias_add(y, self.const(self.p[f"{name}.b"]), axis=-1)

    def relu6(self, x: relay.Expr) -> relay.Expr:
        return relay.clip(x, 0.0, 6.0)

    def layer_norm(self, x: relay.Expr, name: str) -> relay.Expr:
        gamma, beta = self.const(self.p[f"{name}.g"]), self.const(self.p[f"{name}.b"])
        return relay.nn.layer_norm(x, gamma, beta)


def _mobilenet(g: _Graph, x: relay.Expr) -> relay.Expr:
    y = x
    for b, (_, stride, residual) in enumerate(MOBILENET_BLOCKS):
        mid = g.p[f"b{b}.dw"].shape[0]
        h = g.relu6(g.conv(y, f"b{b}.expand"))
        h = g.relu6(g.conv(h, f"b{b}.dw", stride=stride, groups=mid))
        h = g.conv(h, f"b{b}.project")
        y = relay.add(h, y) if residual else h
    return y


def _resnet(g: _Graph, x: relay.Expr) -> relay.Expr:
    y = x
    for b in range(RESNET_BLOCKS):
        h = relay.nn.relu(g.conv(y, f"b{b}.reduce"))
        h = relay.nn.relu(g.conv(h, f"b{b}.conv"))
        y = relay.nn.relu(relay.add(g.conv(h, f"b{b}.expand"), y))
    return y


def _vgg(g: _Graph, x: relay.Expr) -> relay.Expr:
    y = x
    for s, stage in enumerate(VGG_STAGES):
        for i in range(len(stage)):
            y = relay.nn.relu(g.conv(y, f"s{s}.c{i}"))
        y = relay.nn.max_pool2d(y, pool_size=(2, 2), strides=(2, 2))
    return y


def _transformer(g: _Graph, x: relay.Expr) -> relay.Expr:
    head = HIDDEN // HEADS

    def split(y: relay.Expr) -> relay.Expr:  # (seq, hidden) -> (heads, seq, head)
        return relay.transpose(relay.reshape(y, (SEQ, HEADS, head)), (1, 0, 2))

    q, k, v = (split(g.dense(x, name)) for name in ("q", "k", "v"))
    scores = relay.multiply(relay.nn.batch_matmul(q, k), g.const(head**-0.5))
    attention = relay.nn.softmax(scores)
    context = relay.nn.batch_matmul(attention, v, transpose_b=False)
    context = relay.reshape(relay.transpose(context, (1, 0, 2)), (SEQ, HIDDEN))
    y = g.layer_norm(relay.add(g.dense(context, "o"), x), "ln1")
    inner = g.dense(y, "ffn1")
    erf = relay.erf(relay.multiply(inner, g.const(2**-0.5)))
    gelu = relay.multiply(relay.multiply(inner, g.const(0.5)), relay.add(erf, g.const(1.0)))
    return g.layer_norm(relay.add(g.dense(gelu, "ffn2"), y), "ln2")


def _mlp(g: _Graph, x: relay.Expr) -> relay.Expr:
    y = x
    layers = len(MLP_LAYERS) - 1
    for i in range(layers):
        y = g.dense(y, f"fc{i}")
        y = relay.nn.relu(y) if i < layers - 1 else y
    return y


_BODIES: dict[str, Callable[[_Graph, relay.Expr], relay.Expr]] = {
    "mobilenet": _mobilenet,
    "resnet": _resnet,
    "vgg": _vgg,
    "transformer": _transformer,
    "mlp": _mlp,
}


def family_relay(name: str, p: Weights, dtype: str = "float32") -> IRModule:
    """Family `name` over the weights `p` as a relay module of one input `x`, in `dtype`."""
    x = relay.var("x", shape=FAMILY_SHAPES[name][0], dtype=dtype)
    return IRModule.from_expr(relay.Function([x], _BODIES[name](_Graph(p, dtype), x)))
