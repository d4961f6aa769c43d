/// MLIR's pipeline flags: --pass-pipeline (function passes nest under func.func), one flag per
/// pass (-cse, --dce, -fold-constant='fold-qnn'), repeated -p appending, TVM names everywhere.
/// Each spelling below runs cse then dce: the duplicate negative is merged, the dead add erased.
// RUN: xrelay-opt %s -p cse -p dce | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s -cse --dce | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s -cse -p dce | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s --pass-pipeline='builtin.module(cse, dce)' | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s --pass-pipeline='builtin.module(CSE,DCE)' | filecheck %s --check-prefix=BOTH
/// LLVM-style single-dash long options work too.
// RUN: xrelay-opt %s -pass-pipeline='builtin.module(cse,dce)' | filecheck %s --check-prefix=BOTH
// RUN: xrelay-opt %s --pass-pipeline='builtin.module(func.func(eliminate-common-subexpr),dce)' \
// RUN:   | filecheck %s --check-prefix=BOTH
// BOTH:      func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
// BOTH-NEXT:   %0 = relay.negative %a : tensor<4xf32>
// BOTH-NEXT:   func.return %0 : tensor<4xf32>
// BOTH-NEXT: }

/// --dump-pass-pipeline prints the pipeline on stderr as MLIR does, every option spelled, function
/// passes under func.func, named pipelines expanded; a bare boolean option is true, lists stay lists.
// RUN: xrelay-opt %s -cse -fold-constant='fold-qnn' -p 'AnnotateTarget{targets=accel,dnnl},dce' \
// RUN:   --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=DUMP
// DUMP:      {{\A}}Pass Manager with 3 passes:
// DUMP-NEXT: {{^}}builtin.module(cse,func.func(fold-constant{fold-qnn=true},annotate-target{targets=accel,dnnl include-non-call-ops=true}),dce){{$}}
// DUMP-EMPTY:
// DUMP-NOT:  {{.}}

// RUN: xrelay-opt %s -p 'optimize{opt-level=3}' --dump-pass-pipeline 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=OPT3
// OPT3:      Pass Manager with 3 passes:
// OPT3-NEXT: builtin.module(func.func(simplify-inference{fold-constants=true},dynamic-to-static,eliminate-common-subexpr,simplify-expr,fold-constant{fold-qnn=false},backward-fold-scale-axis{fold-constants=true},forward-fold-scale-axis,fold-constant{fold-qnn=false},simplify-expr,canonicalize-ops,alter-op-layout,fold-constant{fold-qnn=false}),dead-code-elimination{inline-once=false ignore-impurity=false},func.func(fuse-ops{fuse-opt-level=-1}))
/// At opt level 1 the expansion holds only the passes that run at that level.
// RUN: xrelay-opt %s -p 'optimize{opt-level=1}' --dump-pass-pipeline 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=OPT1
// OPT1:      Pass Manager with 3 passes:
// OPT1-NEXT: builtin.module(func.func(simplify-inference{fold-constants=true},simplify-expr,simplify-expr),dead-code-elimination{inline-once=false ignore-impurity=false},func.func(fuse-ops{fuse-opt-level=-1}))

/// The dump reads back (the same dump and output): tests/test_opt_pipeline.py.

/// --opt-level skipping a pass named on the command line is a warning at the module; the run
/// succeeds. --disabled-pass skips without one. expected-warning matches it.
// RUN: xrelay-opt %s -p fold-constant,cse --opt-level 1 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=SKIP
// SKIP: {{\A}}{{.*}}pass_pipeline.mlir:{{[0-9]+}}:1: warning: pass 'fold-constant' is skipped: its opt_level 2 is above --opt-level 1 (raise --opt-level or add --required-pass fold-constant)
// SKIP-NOT: warning
// RUN: xrelay-opt %s -p fold-constant --opt-level 1 --disabled-pass FoldConstant 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=QUIET --allow-empty
// RUN: xrelay-opt %s -p fold-constant --opt-level 2 2>&1 >/dev/null \
// RUN:   | filecheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: {{.}}

/// Errors: a module pass under func.func; mixing --pass-pipeline with -p or a pass flag; a
/// pipeline not anchored on builtin.module; an anchor xrelay has no pass manager for.
// RUN: not xrelay-opt %s --pass-pipeline='builtin.module(func.func(cse))' 2>&1 \
// RUN:   | filecheck %s --check-prefix=NEST
// NEST: {{\A}}error: can't add pass 'cse' restricted to 'builtin.module' (module pass) on a pass manager intended to run on 'func.func' (--pass-pipeline column 26); nest it under 'builtin.module'{{$}}
// RUN: not xrelay-opt %s --pass-pipeline='builtin.module(cse)' -dce 2>&1 | filecheck %s --check-prefix=MIX
// MIX: {{\A}}error: --pass-pipeline can't be used with -p or individual pass options (got -dce){{$}}
// RUN: not xrelay-opt %s --pass-pipeline='cse' 2>&1 | filecheck %s --check-prefix=ANCHOR
// ANCHOR: {{\A}}error: malformed --pass-pipeline 'cse' at column 1: the pipeline must be anchored on 'builtin.module': 'builtin.module(...)', not 'cse'{{$}}
// RUN: not xrelay-opt %s --pass-pipeline='builtin.module(gpu.module(cse))' 2>&1 \
// RUN:   | filecheck %s --check-prefix=GPU
// GPU: {{\A}}error: malformed --pass-pipeline 'builtin.module(gpu.module(cse))' at column 16: cannot nest a pipeline on 'gpu.module' under 'builtin.module'; xrelay nests passes on 'func.func' under 'builtin.module'{{$}}
// RUN: not xrelay-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | filecheck %s --check-prefix=OPEN
// OPEN: {{\A}}error: malformed --pass-pipeline 'builtin.module(cse' at column 19: expected ')', found the end{{$}}
// RUN: not xrelay-opt %s --pass-pipeline='builtin.module(func.func(nope))' 2>&1 \
// RUN:   | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: {{\A}}error: unknown pass 'nope'; available passes:
// RUN: not xrelay-opt %s -fold-constant='no-such=1' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: {{\A}}error: pass 'fold-constant' has no option 'no-such'; its options are: fold-qnn{{$}}

func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = relay.negative %a : tensor<4xf32>
  %1 = relay.negative %a : tensor<4xf32>
  %2 = relay.add %0, %1 : tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
