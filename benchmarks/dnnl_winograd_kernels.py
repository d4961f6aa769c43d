"""oneDNN 2.6's f32 convolution kernels for one 3x3 stride-1 convolution each: its Winograd
2x3 and 4x3 kernels (on oneDNN's blocked layouts, plus the reorders from and to NHWC that a
dnnl function around them pays, none for 16 channels) against its direct kernel on NHWC,
as the dnnl target runs them (`codegen/dnnl/conv.py`, `winograd_kernels`).

A C driver (compiled here with `cc ... -ldnnl`) walks oneDNN's implementation list for
each descriptor and times every fast one: bias, no post-ops, zeros as data, the best of 9
runs of 10 calls after 10 warm-up calls. The default shapes are the 3x3 stride-1
convolutions of `benchmarks/inference.py`'s models (`--shapes CIN,COUT,SIZE ...` for
others). Times in µs: `kernel+reorders`. Run:
`OMP_NUM_THREADS=1 python benchmarks/dnnl_winograd_kernels.py` (the thread count is
OpenMP's).
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from onednn_driver import compile_driver

DRIVER = r"""
static double reorder_us(const dnnl_memory_desc_t *from, const dnnl_memory_desc_t *to) {
  dnnl_primitive_desc_t pd;
  dnnl_primitive_t p;
  CHECK(dnnl_reorder_primitive_desc_create(&pd, from, engine, to, engine, NULL));
  CHECK(dnnl_primitive_create(&p, pd));
  dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, memory(from)}, {DNNL_ARG_TO, memory(to)}};
  double t = best_us(p, 2, args);
  dnnl_primitive_destroy(p);
  dnnl_primitive_desc_destroy(pd);
  return t;
}

int main(int argc, char **argv) {
  if (argc != 4) return 2;
  int cin = atoi(argv[1]), cout = atoi(argv[2]), size = atoi(argv[3]);
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_dims_t src_dims = {1, cin, size, size}, weights_dims = {cout, cin, 3, 3};
  dnnl_dims_t bias_dims = {cout}, dst_dims = {1, cout, size, size};
  dnnl_dims_t strides = {1, 1}, dilates = {0, 0}, pad = {1, 1};
  dnnl_memory_desc_t src_nhwc, dst_nhwc, weights, bias;
  CHECK(dnnl_memory_desc_init_by_tag(&src_nhwc, 4, src_dims, dnnl_f32, dnnl_nhwc));
  CHECK(dnnl_memory_desc_init_by_tag(&dst_nhwc, 4, dst_dims, dnnl_f32, dnnl_nhwc));
  CHECK(dnnl_memory_desc_init_by_tag(&weights, 4, weights_dims, dnnl_f32, dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&bias, 1, bias_dims, dnnl_f32, dnnl_x));
  for (int winograd = 0; winograd < 2; ++winograd) {
    dnnl_memory_desc_t src = src_nhwc, dst = dst_nhwc;
    if (winograd) {
      CHECK(dnnl_memory_desc_init_by_tag(&src, 4, src_dims, dnnl_f32, dnnl_format_tag_any));
      CHECK(dnnl_memory_desc_init_by_tag(&dst, 4, dst_dims, dnnl_f32, dnnl_format_tag_any));
    }
    dnnl_convolution_desc_t desc;
    CHECK(dnnl_dilated_convolution_forward_desc_init(
        &desc, dnnl_forward_inference,
        winograd ? dnnl_convolution_winograd : dnnl_convolution_direct, &src, &weights, &bias,
        &dst, strides, dilates, pad, pad));
    dnnl_primitive_desc_t pds[MAX_IMPLS];
    int count = fast_impls(&desc, winograd ? 0 : 1, pds); /* direct: oneDNN's first */
    if (!count) printf("%s -\n", winograd ? "winograd" : "direct");
    for (int i = 0; i < count; ++i) {
      dnnl_primitive_desc_t pd = pds[i];
      const dnnl_memory_desc_t *s = dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0);
      const dnnl_memory_desc_t *w = dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0);
      const dnnl_memory_desc_t *d = dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0);
      dnnl_primitive_t p;
      CHECK(dnnl_primitive_create(&p, pd));
      dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, memory(s)}, {DNNL_ARG_WEIGHTS, memory(w)},
                                 {DNNL_ARG_BIAS, memory(&bias)}, {DNNL_ARG_DST, memory(d)}};
      double t = best_us(p, 4, args);
      double moves = 0.0;
      /* 16 channels in nChw16c are NHWC's bytes: the dnnl target uses them as they are. */
      if (winograd && cin != 16 && !dnnl_memory_desc_equal(s, &src_nhwc)) {
        moves += reorder_us(&src_nhwc, s);
      }
      if (winograd && cout != 16 && !dnnl_memory_desc_equal(d, &dst_nhwc)) {
        moves += reorder_us(d, &dst_nhwc);
      }
      printf("%s %.0f+%.0f\n", impl_name(pd), t, moves);
      dnnl_primitive_destroy(p);
      dnnl_primitive_desc_destroy(pd);
    }
  }
  return 0;
}
"""

SHAPES = (
    # tinyres, resnet, vgg
    (16, 16, 224), (16, 32, 112), (64, 64, 56), (128, 128, 56), (64, 128, 56), (64, 64, 112),
    # light ResNet-50
    (128, 128, 28), (256, 256, 14), (512, 512, 7),
    # light DenseNet-121
    (128, 32, 56), (128, 32, 28), (128, 32, 14), (128, 32, 7),
    # light Inception v1
    (64, 192, 55), (96, 128, 27), (128, 192, 27), (96, 208, 13), (112, 224, 13),
    (128, 256, 13), (144, 288, 13), (160, 320, 13), (160, 320, 6), (192, 384, 6),
    # light SqueezeNet
    (16, 64, 55), (32, 128, 27), (48, 192, 13), (64, 256, 13),
)  # fmt: skip
"""The non-grouped 3x3 stride-1 convolutions (in channels, out channels, image side) with at
least 16 input channels in the speed benchmark's models."""


def kernel_name(impl: str) -> str:
    """The column of oneDNN implementation `impl`."""
    for name in ("wino_2x3", "wino_4x3"):
        if name in impl:
            return name
    return "direct"


def main() -> None:
    """Compile the driver, run it on every shape, print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shapes", nargs="+", help="CIN,COUT,SIZE each (default: SHAPES)")
    args = parser.parse_args()
    shapes = (
        [tuple(int(v) for v in text.split(",")) for text in args.shapes]
        if args.shapes
        else list(SHAPES)
    )
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_driver(DRIVER, Path(tmp))
        print("| in -> out @ size | MFLOP | direct | wino_2x3 | wino_4x3 | 4x3 / 2x3 |")
        print("| --- | --- | --- | --- | --- | --- |")
        for cin, cout, size in shapes:
            lines = subprocess.run(
                [str(exe), str(cin), str(cout), str(size)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines()
            cells: dict[str, str] = {}
            totals: dict[str, float] = {}
            for line in lines:
                impl, _, times = line.rpartition(" ")
                if impl and "+" in times:
                    name = kernel_name(impl)
                    cells[name] = times
                    totals[name] = sum(float(v) for v in times.split("+"))
            ratio = (
                f"{totals['wino_4x3'] / totals['wino_2x3']:.2f}"
                if "wino_4x3" in totals and "wino_2x3" in totals
                else "-"
            )
            mflop = 2 * cin * cout * 9 * size * size / 1e6
            row = [cells.get(name, "-") for name in ("direct", "wino_2x3", "wino_4x3")]
            print(f"| {cin} -> {cout} @ {size} | {mflop:.1f} | {' | '.join(row)} | {ratio} |")


if __name__ == "__main__":
    main()
