// `build-pipeline{target=... opt-level=N}` runs what `xrelay.build` runs before emission (one list,
// codegen/c/build_steps.py): tinyres partitioned, optimized, lowered for the target and planned.
// `tests/test_build_pipeline.py` checks the output equals the build's `lib.module`.

// RUN: xrelay-opt %S/../../../examples/tinyres.mlir -p 'build-pipeline{target=accel,c}' | filecheck %s --check-prefix=ACCEL
// RUN: xrelay-opt %S/../../../examples/tinyres.mlir -p 'build-pipeline{target=dnnl,c}' | filecheck %s --check-prefix=DNNL
// RUN: xrelay-opt %S/../../../examples/tinyres.mlir -p 'build-pipeline{target=accel,c opt-level=3},plan-memory' -t c | filecheck %s --check-prefix=C
// RUN: xrelay-opt %S/../../../examples/tinyres.mlir -p 'build-pipeline{optimize=false}' | filecheck %s --check-prefix=HOST
// RUN: xrelay-opt --list-passes | filecheck %s --check-prefix=LIST
// RUN: not xrelay-opt %S/../../../examples/tinyres.mlir -p 'build-pipeline{target=accel}' 2>&1 | filecheck %s --check-prefix=BAD

// ACCEL: builtin.module attributes {xrelay.arena_size = {{[0-9]+}} : i64
// ACCEL: func.func @tvmgen_default_accel_main_0({{.*}}Compiler = "accel"
// ACCEL: accel.conv2d
// ACCEL: accel.conv2d_winograd
// ACCEL: accel.conv2d_winograd {{.*}}has_max_pool = true{{.*}}has_residual = true
// ACCEL: func.func @tvmgen_default_accel_main_{{[0-9]+}}(
// ACCEL: accel.dense
// ACCEL: func.func @main(
// ACCEL-NOT: relay.nn.conv2d
// ACCEL: func.func private @fused_nn_softmax(
// ACCEL-NEXT: relay.nn.softmax

// DNNL: func.func @tvmgen_default_dnnl_main_0({{.*}}Compiler = "dnnl"
// DNNL: dnnl.reorder
// DNNL: dnnl.conv2d
// DNNL: dnnl.max_pool2d
// DNNL: dnnl.dense
// DNNL-NOT: relay.nn.conv2d

// C: // ----- accel.c
// C: /* accel.conv2d_winograd */

// HOST-NOT: Compiler
// HOST: func.func @main({{.*}}xrelay.arena_size
// HOST: relay.nn.conv2d

// LIST: build-pipeline (BuildPipeline): module pass, opt_level 0
// LIST-NEXT: What xrelay.build runs before emitting C
// LIST-NEXT: option target: tuple[str, ...] = c
// LIST-NEXT: option opt-level: int = 3
// LIST-NEXT: option optimize: bool = true

// BAD: {{\A}}error: bad options for pass 'build-pipeline': unsupported target ['accel']: the last target must be 'c' (available: {{.*}})
// BAD-NOT: {{.}}
