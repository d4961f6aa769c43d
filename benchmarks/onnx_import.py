"""How long the ONNX light models take to import, verify and print (issue 15's targets).

For each `light` model shipped in the onnx package (`onnx/backend/test/data/light/`):
its node count, and the seconds to load the file (`onnx.load`), import it
(`relay.frontend.from_onnx`, initializers as params), verify the module, and print
it with large constants as `dense_resource` blobs and with them elided
(`--elide-constants-if-larger 100`), then parse the printed text back. The
issue's targets: ResNet-50 imports in at most 5 s, DenseNet-121 in at most 10 s.

The light models make their weights with `ConstantOfShape` nodes (the importer
turns them into `relay.full`), so their text is small. `--weights` gives each
model real weights instead, as an exported model has them: every weight
`ConstantOfShape` becomes a random initializer of its shape (ResNet-50: 102 MB),
which the text then holds as `dense_resource` blobs (initializers bound as
constants, as `xrelay-translate` does by default).
Run: `python benchmarks/onnx_import.py [--models resnet50 densenet121] [--weights]
[--repeat 3]` (each time is the best of `--repeat` runs).
"""

from __future__ import annotations

import argparse
import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import onnx
from onnx import numpy_helper
from xrelay.dialects.dense_literal import ExactPrinter
from xrelay.dialects.diagnostics import check_module
from xrelay.dialects.parser import parse_module

from xrelay import IRModule, byoc
from xrelay.relay.frontend import OnnxImportError, from_onnx
from xrelay.relay.frontend.onnx_light import LIGHT_MODELS, light_model_path

T = TypeVar("T")

MODELS = list(LIGHT_MODELS)
TARGETS = {"resnet50": 5.0, "densenet121": 10.0}
"""Import seconds the issue allows."""


def best(repeat: int, step: Callable[[], T]) -> tuple[float, T]:
    """The shortest of `repeat` timed calls of `step`, and the last result."""
    start = time.perf_counter()
    result = step()
    times = [time.perf_counter() - start]
    for _ in range(repeat - 1):
        start = time.perf_counter()
        result = step()
        times.append(time.perf_counter() - start)
    return min(times), result


def text(mod: IRModule, resources: int | None, elide: int | None) -> str:
    """The module printed with these large-constant options."""
    stream = io.StringIO()
    ExactPrinter(stream=stream, resources_if_larger=resources, elide_if_larger=elide).print_op(
        mod.module
    )
    return stream.getvalue()


def _load(path: Path) -> onnx.ModelProto:
    model = onnx.ModelProto()
    model.ParseFromString(path.read_bytes())
    return model


def with_weights(model: onnx.ModelProto) -> onnx.ModelProto:
    """`model` with each ConstantOfShape of an initializer's shape made a random initializer."""
    result = onnx.ModelProto()
    result.CopyFrom(model)
    graph = result.graph
    shapes = {
        i.name: numpy_helper.to_array(i) for i in graph.initializer if i.data_type == 7
    }  # int64
    rng = np.random.default_rng(0)
    kept: list[onnx.NodeProto] = []
    for node in graph.node:
        if node.op_type != "ConstantOfShape" or node.input[0] not in shapes:
            kept.append(node)
            continue
        shape = [int(d) for d in shapes[node.input[0]]]
        values = (rng.standard_normal(shape) * 0.05).astype(np.float32)
        graph.initializer.append(numpy_helper.from_array(values, node.output[0]))
    del graph.node[:]
    graph.node.extend(kept)
    return result


def row(name: str, repeat: int, weights: bool) -> str:
    """One table row for the light model `name`."""
    path = light_model_path(name)
    load, model = best(repeat, lambda: _load(path))
    if weights:
        model = with_weights(model)
    try:
        imported, (mod, params) = best(repeat, lambda: from_onnx(model))
    except OnnxImportError as error:
        cells = [name, str(len(model.graph.node)), f"{load:.2f}"]
        return "| " + " | ".join(cells) + f" | not imported: {'; '.join(error.messages)} |"
    byoc.bind_params_by_name(mod, params)
    verify, _ = best(repeat, lambda: check_module(mod.module))
    printed, resource_text = best(repeat, lambda: text(mod, 100, None))
    elided, _ = best(repeat, lambda: text(mod, None, 100))
    parse, _ = best(repeat, lambda: parse_module(resource_text))
    limit = TARGETS.get(name)
    verdict = "" if limit is None else (f"≤ {limit:g} s: " + ("yes" if imported <= limit else "NO"))
    cells = [name, str(len(model.graph.node)), f"{load:.2f}", f"{imported:.2f}"]
    cells += [f"{verify:.2f}", f"{printed:.2f}", f"{elided:.2f}", f"{parse:.2f}"]
    cells += [f"{len(resource_text) / 1e6:.2f}", verdict]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    """Print the table for the models asked for."""
    parser = argparse.ArgumentParser(description="Time importing the ONNX light models.")
    parser.add_argument("--models", nargs="+", default=MODELS, choices=MODELS)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument(
        "--weights", action="store_true", help="real (random) weights instead of ConstantOfShape"
    )
    args = parser.parse_args()
    print(
        "| model | nodes | load s | import s | verify s | print s (dense_resource) "
        "| print s (elided) | parse s | text MB | target |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for name in args.models:
        print(row(name, args.repeat, args.weights), flush=True)


if __name__ == "__main__":
    main()
