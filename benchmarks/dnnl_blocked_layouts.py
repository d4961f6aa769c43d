"""oneDNN 2.6's f32 convolutions of one model on NHWC against its blocked layout (nChw16c):
would a dnnl function that kept its tensors blocked between convolutions be faster?

The dnnl target keeps every tensor in NHWC (`codegen/dnnl`), where oneDNN runs 1x1
convolutions with its brgconv kernels and the 3x3 ones directly, or with Winograd behind
reorders to and from its blocked layout. Keeping the tensors blocked would drop those
reorders, if the other convolutions are as fast on nChw16c. This script times each
convolution of `--model` (`light-<name>` of ONNX's light models; shapes by ONNX's shape
inference, the distinct ones, each with its count) as oneDNN's first fast implementation
(no `ref`, no `gemm`) with src and dst in NHWC, then in nChw16c: bias, no post-ops, zeros as
data, the best of 9 runs of 10 calls after 10 warm-up calls, in µs. Grouped convolutions and
channel counts that are not multiples of 16 are left out (they do not block). A C driver is
compiled here with `cc ... -ldnnl`. Run:
`OMP_NUM_THREADS=1 python benchmarks/dnnl_blocked_layouts.py --model light-resnet50`
(the thread count is OpenMP's).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from onednn_driver import compile_driver

DRIVER = r"""
/* argv: cin cout height width kernel stride pad */
int main(int argc, char **argv) {
  if (argc != 8) return 2;
  int cin = atoi(argv[1]), cout = atoi(argv[2]), h = atoi(argv[3]), w = atoi(argv[4]);
  int k = atoi(argv[5]), s = atoi(argv[6]), pad = atoi(argv[7]);
  int oh = (h + 2 * pad - k) / s + 1, ow = (w + 2 * pad - k) / s + 1;
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_dims_t src_dims = {1, cin, h, w}, weights_dims = {cout, cin, k, k};
  dnnl_dims_t bias_dims = {cout}, dst_dims = {1, cout, oh, ow};
  dnnl_dims_t strides = {s, s}, dilates = {0, 0}, pads = {pad, pad};
  const dnnl_format_tag_t tags[2] = {dnnl_nhwc, dnnl_nChw16c};
  /* 0: NHWC direct, 1: nChw16c direct, 2: nChw16c Winograd (3x3 stride 1: every kernel) */
  for (int layout = 0; layout < (k == 3 && s == 1 ? 3 : 2); ++layout) {
    const char *label = layout == 0 ? "nhwc" : layout == 1 ? "blocked" : "winograd";
    dnnl_memory_desc_t src, dst, weights, bias;
    CHECK(dnnl_memory_desc_init_by_tag(&src, 4, src_dims, dnnl_f32, tags[layout > 0]));
    CHECK(dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims, dnnl_f32, tags[layout > 0]));
    CHECK(dnnl_memory_desc_init_by_tag(&weights, 4, weights_dims, dnnl_f32, dnnl_format_tag_any));
    CHECK(dnnl_memory_desc_init_by_tag(&bias, 1, bias_dims, dnnl_f32, dnnl_x));
    dnnl_convolution_desc_t desc;
    CHECK(dnnl_dilated_convolution_forward_desc_init(
        &desc, dnnl_forward_inference,
        layout == 2 ? dnnl_convolution_winograd : dnnl_convolution_direct, &src, &weights,
        &bias, &dst, strides, dilates, pads, pads));
    dnnl_primitive_desc_t pds[MAX_IMPLS];
    int count = fast_impls(&desc, layout < 2 ? 1 : 0, pds); /* direct: oneDNN's first */
    for (int i = 0; i < count; ++i) {
      const dnnl_memory_desc_t *wmd =
          dnnl_primitive_desc_query_md(pds[i], dnnl_query_weights_md, 0);
      dnnl_primitive_t p;
      CHECK(dnnl_primitive_create(&p, pds[i]));
      dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, memory(&src)}, {DNNL_ARG_WEIGHTS, memory(wmd)},
                                 {DNNL_ARG_BIAS, memory(&bias)}, {DNNL_ARG_DST, memory(&dst)}};
      printf("%s %s %.1f\n", label, impl_name(pds[i]), best_us(p, 4, args));
      dnnl_primitive_destroy(p);
      dnnl_primitive_desc_destroy(pds[i]);
    }
    if (!count) printf("%s - 0\n", label);
  }
  return 0;
}
"""

Shape = tuple[int, int, int, int, int, int, int]
"""in channels, out channels, height, width, kernel side, stride, padding."""


def model_convolutions(name: str) -> Counter[Shape]:
    """The square-kernel, ungrouped convolutions of light model `name` whose channel counts
    are multiples of 16, with how often each occurs."""
    import onnx

    from xrelay.relay.frontend.onnx_light import light_model_path

    proto = onnx.ModelProto()
    proto.ParseFromString(light_model_path(name).read_bytes())
    model = onnx.shape_inference.infer_shapes(proto)
    dims: dict[str, list[int]] = {}
    for info in [*model.graph.value_info, *model.graph.input, *model.graph.output]:
        dims[info.name] = [d.dim_value for d in info.type.tensor_type.shape.dim]
    for init in model.graph.initializer:
        dims[init.name] = list(init.dims)
    found: Counter[Shape] = Counter()
    for node in model.graph.node:
        if node.op_type != "Conv":
            continue
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        src, weights = dims.get(node.input[0]), dims.get(node.input[1])
        if not src or not weights or len(src) != 4 or attrs.get("group", 1) != 1:
            continue
        cout, cin, kh, kw = weights
        strides = list(attrs.get("strides", [1, 1]))
        pads = list(attrs.get("pads", [0, 0, 0, 0]))
        if kh != kw or len(set(strides)) != 1 or len(set(pads)) != 1:
            continue
        if cin % 16 or cout % 16:
            continue
        found[(cin, cout, src[2], src[3], kh, strides[0], pads[0])] += 1
    return found


def main() -> None:
    """Compile the driver, run it on every convolution, print the table and the totals."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default="light-resnet50", help="light-<name>")
    args = parser.parse_args()
    shapes = model_convolutions(args.model.removeprefix("light-"))
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_driver(DRIVER, Path(tmp))
        print(
            "| conv (in -> out @ h x w, k, stride) | count | NHWC direct µs "
            "| nChw16c direct µs | nChw16c Winograd µs | best nChw16c / NHWC |"
        )
        print("| --- | --- | --- | --- | --- | --- |")
        totals = {"nhwc": 0.0, "blocked": 0.0}
        for shape, count in sorted(shapes.items()):
            lines = subprocess.run(
                [str(exe), *(str(v) for v in shape)], capture_output=True, text=True, check=True
            ).stdout.splitlines()
            times: dict[str, tuple[str, float]] = {}
            for line in lines:
                label, impl, text = line.split()
                us = float(text)
                if us and (label not in times or us < times[label][1]):
                    times[label] = (impl, us)
            cells = [
                f"{times[label][1]:.0f} ({times[label][0]})" if label in times else "-"
                for label in ("nhwc", "blocked", "winograd")
            ]
            nhwc = times["nhwc"][1] if "nhwc" in times else 0.0
            blocked = min((times[x][1] for x in ("blocked", "winograd") if x in times), default=0.0)
            totals["nhwc"] += count * nhwc
            totals["blocked"] += count * blocked
            cin, cout, h, w, k, stride, _ = shape
            ratio = f"{blocked / nhwc:.2f}" if nhwc and blocked else "-"
            print(
                f"| {cin} -> {cout} @ {h}x{w}, {k}x{k}, s{stride} | {count} | "
                f"{' | '.join(cells)} | {ratio} |"
            )
        print(
            f"\nthe model's convolutions above, each count times: NHWC direct "
            f"{totals['nhwc'] / 1e3:.2f} ms, best on nChw16c {totals['blocked'] / 1e3:.2f} ms"
        )


if __name__ == "__main__":
    main()
