"""The host `"c"` target on CNN families against onnxruntime, 1 thread (issue 16's convs).

Every model is an ONNX model (the same bytes for both runtimes): MobileNetV2-style
blocks (`mobilenet_block.py`), two ResNet-50 bottlenecks at 56x56 (64/256 channels,
batch norm folded into the conv biases), a VGG-style stack at 112x112 (64/128
channels), tinyres at 224 (`inference_models.py`), and ONNX's light ResNet-50,
DenseNet-121, Inception v1, SqueezeNet and ShuffleNet. xrelay imports it
(`from_onnx`), builds it for `--targets` (default `c`) with `num_threads=1` in
an empty cache and checks its output against onnxruntime's (1e-4 of the
output's magnitude); then the runners are timed interleaved, `--rounds` rounds
of one call each: median and minimum (on a shared machine the minimum is the steadier
ratio). `--profile` adds, per model, the share of `c`'s time
in `nn.conv2d` kernels (a `profile=True` build, `Library.profile()`).

    python benchmarks/conv_host.py [--models mobilenet,resnet_bottleneck] [--rounds 15]
        [--targets c accel,c] [--profile]
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import xrelay
from xrelay.relay.frontend import from_onnx

sys.path.insert(0, str(Path(__file__).resolve().parent))

Array = np.ndarray[Any, Any]


def _onnx() -> Any:
    return importlib.import_module("onnx")


class Graph:
    """A small ONNX graph builder: convs (with bias), relu, add, max pool."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self.count = 0

    def name(self, stem: str) -> str:
        self.count += 1
        return f"{stem}{self.count}"

    def node(self, op: str, ins: list[str], **attrs: Any) -> str:
        out = self.name(op.lower())
        self.nodes.append(_onnx().helper.make_node(op, ins, [out], **attrs))
        return out

    def const(self, value: Array) -> str:
        name = self.name("w")
        self.inits.append(_onnx().numpy_helper.from_array(value.astype(np.float32), name))
        return name

    def conv(self, x: str, cin: int, cout: int, k: int, stride: int = 1, relu: bool = True) -> str:
        w = self.rng.standard_normal((cout, cin, k, k)) * np.sqrt(2.0 / (cin * k * k))
        b = self.rng.standard_normal(cout) * 0.1
        pad = k // 2
        y = self.node("Conv", [x, self.const(w), self.const(b)], strides=[stride, stride],
                      pads=[pad] * 4)  # fmt: skip
        return self.node("Relu", [y]) if relu else y

    def model(self, x: str, shape: list[int], y: str) -> bytes:
        onnx = _onnx()
        helper, f32 = onnx.helper, onnx.TensorProto.FLOAT
        graph = helper.make_graph(
            self.nodes, "g", [helper.make_tensor_value_info(x, f32, shape)],
            [helper.make_tensor_value_info(y, f32, None)], self.inits,
        )  # fmt: skip
        proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        proto.ir_version = 8
        return bytes(proto.SerializeToString())


def resnet_bottleneck() -> tuple[bytes, list[int]]:
    """Two ResNet-50 bottlenecks of stage 1 (256 -> 64 -> 64 -> 256, residual) at 56x56."""
    g = Graph(1)
    x = "x"
    for _ in range(2):
        h = g.conv(x, 256, 64, 1)
        h = g.conv(h, 64, 64, 3)
        h = g.conv(h, 64, 256, 1, relu=False)
        x = g.node("Relu", [g.node("Add", [h, x])])
    return g.model("x", [1, 256, 56, 56], x), [1, 256, 56, 56]


def vgg() -> tuple[bytes, list[int]]:
    """VGG-style: two 3x3 convs of 64 channels at 112x112, a 2x2 max pool, two of 128."""
    g = Graph(2)
    h = g.conv(g.conv("x", 3, 64, 3), 64, 64, 3)
    h = g.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h = g.conv(g.conv(h, 64, 128, 3), 128, 128, 3)
    return g.model("x", [1, 3, 112, 112], h), [1, 3, 112, 112]


def mobilenet() -> tuple[bytes, list[int]]:
    """MobileNetV2-style blocks at 112x112 (`mobilenet_block.py`)."""
    import mobilenet_block

    model = mobilenet_block.onnx_model(mobilenet_block.weights())
    return model, [1, mobilenet_block.CIN, mobilenet_block.SIZE, mobilenet_block.SIZE]


def tinyres() -> tuple[bytes, list[int]]:
    """tinyres at 224x224 (`inference_models.py`)."""
    import inference_models

    return inference_models.onnx_model("tinyres", 224, inference_models.tinyres_weights(224)), [
        1, 3, 224, 224,
    ]  # fmt: skip


def light(name: str) -> Callable[[], tuple[bytes, list[int]]]:
    """ONNX's light model `name`, as its file holds it."""

    def make() -> tuple[bytes, list[int]]:
        from xrelay.relay.frontend.onnx_light import light_model, light_model_path

        _, inputs, _ = light_model(name)
        return light_model_path(name).read_bytes(), list(inputs[0].shape)

    return make


MODELS: dict[str, Callable[[], tuple[bytes, list[int]]]] = {
    "mobilenet": mobilenet,
    "resnet_bottleneck": resnet_bottleneck,
    "vgg": vgg,
    "tinyres": tinyres,
    **{name: light(name) for name in
       ("resnet50", "densenet121", "inception_v1", "squeezenet", "shufflenet")},
}  # fmt: skip


def conv_share(mod: Any, params: Any, target: list[str], x: Array) -> str:
    """The share of a profile build's time in its functions holding a conv2d."""
    options = {"num_threads": 1, "cache_dir": tempfile.mkdtemp(), "profile": True}
    lib = xrelay.build(mod, target=target, params=params, options=options)
    for _ in range(3):
        lib(x)
    rows = lib.profile()
    total = rows[0].seconds or 1.0
    conv = sum(r.seconds for r in rows if r.parent == 0 and "conv2d" in r.name)
    return f"functions with a conv2d: {100 * conv / total:.0f}% of the time"


def time_model(name: str, targets: list[str], rounds: int, profile: bool) -> str:
    """One Markdown row: each target's median and ratio to onnxruntime's."""
    ort: Any = importlib.import_module("onnxruntime")
    model, shape = MODELS[name]()
    x = np.random.default_rng(0).uniform(-1, 1, shape).astype(np.float32)
    proto = _onnx().ModelProto()
    proto.ParseFromString(model)
    mod, params = from_onnx(proto)
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = 1, 1
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    feed = {session.get_inputs()[0].name: x}
    calls: dict[str, Callable[[], Any]] = {}
    for target in targets:
        built = {"num_threads": 1, "cache_dir": tempfile.mkdtemp()}
        lib = xrelay.build(mod, target=target.split(","), params=params, options=built)
        calls[target] = lambda lib=lib: lib(x)
    calls["onnxruntime"] = lambda: session.run(None, feed)[0]
    want = np.asarray(calls["onnxruntime"]())
    for target in targets:
        got = np.asarray(calls[target]())
        error = float(np.max(np.abs(got - want))) / max(1.0, float(np.max(np.abs(want))))
        assert error < 1e-4, (name, target, error)
    times: dict[str, list[float]] = {key: [] for key in calls}
    for _ in range(rounds):
        for key, call in calls.items():
            start = time.perf_counter()
            call()
            times[key].append(time.perf_counter() - start)
    base, floor = statistics.median(times["onnxruntime"]), min(times["onnxruntime"])
    cells: list[str] = []
    for target in targets:
        median, least = statistics.median(times[target]), min(times[target])
        cells.append(
            f"{median * 1e3:.2f} ms ({median / base:.2f}x), min {least * 1e3:.2f} ms "
            f"({least / floor:.2f}x)"
        )
    extra = f" ({conv_share(mod, params, ['c'], x)})" if profile else ""
    ort = f"{base * 1e3:.2f} ms, min {floor * 1e3:.2f} ms"
    return f"| {name}{extra} | {' | '.join(cells)} | {ort} |"


def main() -> None:
    """Print one Markdown row per model (see the module docstring)."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--targets", nargs="+", default=["c"])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    ort: Any = importlib.import_module("onnxruntime")
    print(f"| model | {' | '.join(args.targets)} | onnxruntime {ort.__version__} |")
    print(f"|---|{'---:|' * (len(args.targets) + 1)}")
    for name in args.models.split(","):
        print(time_model(name, args.targets, args.rounds, args.profile), flush=True)


if __name__ == "__main__":
    main()
